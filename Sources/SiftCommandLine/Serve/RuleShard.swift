/// `--shard I/N`: which rules a worker keeps. A rule belongs to shard
/// `fnv1a64(id) % N`, where `fnv1a64` is the 64-bit FNV-1a hash of the id's bytes (the
/// bucket key exactly as stored: offset basis 0xcbf29ce484222325, prime 0x100000001b3,
/// each byte XORed in, then the product wrapped to 64 bits). It depends on nothing but
/// those bytes, so every worker, on any machine and in any version, agrees where a rule
/// lives, and a program in another language can compute it in four lines.
struct RuleShard: Equatable {
  /// This worker's shard, from 0.
  var index: Int
  /// The number of shards.
  var count: Int

  /// Every rule (no `--shard`).
  static let all = RuleShard(index: 0, count: 1)

  /// Reads `I/N` with 0 <= I < N.
  init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) })
    else { return nil }
    self.init(index: i, count: n)
  }

  init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// The 64-bit FNV-1a hash of `bytes`.
  static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// Whether the rule with id `key` is this worker's.
  func keeps(_ key: some Sequence<UInt8>) -> Bool {
    count == 1 || Int(Self.fnv1a64(key) % UInt64(count)) == index
  }

  /// `I/N`, as given.
  var description: String { "\(index)/\(count)" }
}
