#if canImport(Glibc)
  import Glibc
#endif

/// A constant set of strings for `x IN {…}` / `x IN %@`, prepared at compile time.
///
/// Up to `linearLimit` strings are scanned linearly (length check then bytes: cheaper than
/// hashing for a handful of ids): as plain UTF-8 byte arrays without options, as
/// ``StringNeedle``s with `[c]`/`[d]`. Larger sets hash the UTF-8
/// bytes into an open-addressing table; with `[c]`/`[d]` the subject is folded first.
/// Equality is NSPredicate's literal equality, so bytes (not `String ==`, which is
/// canonical equivalence) are compared.
final class StringSet: @unchecked Sendable {
  static let linearLimit = 8

  let options: ComparisonOptions
  /// Small sets without folding options: members of up to 16 bytes as two words each
  /// (compared without a call to memcmp), in memory the set owns, so the lookup walks
  /// it without touching a reference count (immutable after init, hence Sendable)...
  private let shortKeys: UnsafeBufferPointer<ShortLiteral>
  /// ...and longer members as bytes.
  let literals: [[UInt8]]
  /// Small sets with `[c]`/`[d]`.
  let needles: [StringNeedle]
  let entries: [[UInt8]]
  let slots: [Int32]
  let mask: Int
  /// Whether membership is a plain byte comparison (no folding options, no hash table):
  /// decided once so the lookup tests one flag.
  private let isLiteral: Bool
  /// For a literal set: the small-string words of every member of up to 15 bytes
  /// (``SmallStringBits``), so a small subject is decided by comparing words; nil when some
  /// short member has no small form (then bytes are compared). The batch tier's sweeps
  /// read it too (``Machine/smallMembers(_:_:)``).
  let smallMembers: UnsafeBufferPointer<SmallStringBits.Bits>?

  /// A set of the string constants in `elements` (every element must be a string).
  convenience init(_ elements: [SiftValue], options: ComparisonOptions) {
    self.init(elements.map { $0.stringValue! }, options: options)
  }

  init(_ strings: [String], options: ComparisonOptions) {
    self.options = options
    let folding = !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty
    if strings.count <= Self.linearLimit {
      let shortCount = folding ? 0 : strings.count { $0.utf8.count <= 16 }
      if shortCount > 0 {
        let keys = UnsafeMutablePointer<ShortLiteral>.allocate(capacity: shortCount)
        var k = 0
        for s in strings where s.utf8.count <= 16 {
          (keys + k).initialize(to: withUTF8Bytes(s) { ShortLiteral($0)! })
          k += 1
        }
        shortKeys = UnsafeBufferPointer(start: keys, count: shortCount)
      } else {
        shortKeys = UnsafeBufferPointer(start: nil, count: 0)
      }
      literals =
        folding || shortCount == strings.count ? [] : strings.filter { $0.utf8.count > 16 }.map { Array($0.utf8) }
      needles = folding ? strings.map { StringNeedle($0, options: options) } : []
      entries = []
      slots = []
      mask = 0
      isLiteral = !folding
      let short = strings.filter { $0.utf8.count <= 15 }
      let small = short.compactMap(SmallStringBits.smallBits(of:))
      smallMembers = !folding && small.count == short.count ? UnsafeBufferPointer(frozenCopyOf: small) { $0 } : nil
      return
    }
    shortKeys = UnsafeBufferPointer(start: nil, count: 0)
    literals = []
    needles = []
    var unique: [[UInt8]] = []
    var seen = Set<[UInt8]>()
    for s in strings {
      let bytes = Array((folding ? StringSemantics.fold(s, options) : s).utf8)
      if seen.insert(bytes).inserted { unique.append(bytes) }
    }
    var size = 16
    while size < unique.count * 2 { size *= 2 }
    var table = [Int32](repeating: -1, count: size)
    for (i, bytes) in unique.enumerated() {
      var slot = Int(truncatingIfNeeded: bytes.withUnsafeBufferPointer(Self.hash)) & (size - 1)
      while table[slot] >= 0 { slot = (slot + 1) & (size - 1) }
      table[slot] = Int32(i)
    }
    entries = unique
    slots = table
    mask = size - 1
    isLiteral = false
    smallMembers = nil
  }

  deinit {
    shortKeys.deallocate()
    smallMembers?.deallocate()
  }

  var count: Int { shortKeys.count + literals.count + needles.count + entries.count }

  /// Whether membership folds case or diacritics (the cost model charges more for it).
  var folds: Bool { !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty }

  /// FNV-1a over the bytes; the table is built and probed in one process, so a fixed
  /// seed is fine and keeps lookups allocation-free.
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
    return h
  }

  @inline(__always)
  func contains(_ s: String) -> Bool {
    if let smallMembers {
      let b = SmallStringBits.bits(s)
      if SmallStringBits.isSmall(b) {
        // A small subject has at most 15 bytes: only the short members can equal it, and
        // they all have their words here.
        for m in smallMembers where m.0 == b.0 && m.1 == b.1 { return true }
        return false
      }
    }
    if isLiteral {
      if let found = s.utf8.withContiguousStorageIfAvailable({ containsLiteral($0) }) { return found }
      return containsBridged(s)
    }
    return containsFolded(s)
  }

  /// Membership of a string given as its UTF-8 bytes (borrowed from a parser, say), without
  /// building a `String`; nil for a set that folds case or diacritics (folding needs the
  /// string).
  @inline(__always)
  func contains(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    if isLiteral { return containsLiteral(bytes) }
    if folds { return nil }
    return lookup(bytes)
  }

  /// A string without contiguous UTF-8 (bridged): one copy, then the byte compare.
  private func containsBridged(_ s: String) -> Bool {
    var copy = s
    return copy.withUTF8 { containsLiteral($0) }
  }

  private func containsFolded(_ s: String) -> Bool {
    if !needles.isEmpty || entries.isEmpty {
      for needle in needles where needle.isEqual(to: s) { return true }
      return false
    }
    // Folded bytes without building a String: no allocation per lookup.
    return StringSemantics.withFoldedUTF8(s, options) { lookup($0) }
  }

  @inline(__always)
  private func containsLiteral(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if let key = ShortLiteral(bytes) {
      var p = shortKeys.baseAddress
      let end = p.map { $0 + shortKeys.count }
      while p != end, let q = p {
        if q.pointee == key { return true }
        p = q + 1
      }
      return false
    }
    return containsLong(bytes)
  }

  private func containsLong(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for literal in literals where literal.count == bytes.count {
      if literal.withUnsafeBufferPointer({ l in
        l.isEmpty || memcmp(l.baseAddress!, bytes.baseAddress!, l.count) == 0
      }) {
        return true
      }
    }
    return false
  }

  private func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
    while true {
      let i = slots[slot]
      if i < 0 { return false }
      let entry = entries[Int(i)]
      if entry.count == bytes.count, entry.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) { return true }
      slot = (slot + 1) & mask
    }
  }
}

/// Up to 16 bytes as two little-endian words and a length: equality is three integer
/// compares.
struct ShortLiteral: Sendable, Equatable {
  let count: Int
  let low: UInt64
  let high: UInt64

  /// nil when `bytes` is longer than 16 bytes.
  @inline(__always)
  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    let n = bytes.count
    guard n <= 16 else { return nil }
    count = n
    guard let p = bytes.baseAddress else {
      low = 0
      high = 0
      return
    }
    low = SWAR.loadPartial(p, min(n, 8))
    high = n > 8 ? SWAR.loadPartial(p + 8, n &- 8) : 0
  }
}

extension UnsafeBufferPointer {
  /// `transform` of each element of `array`, in freshly allocated memory that the caller
  /// owns and must deallocate (in the owning class's deinit). Empty arrays allocate
  /// nothing (deallocating a buffer without a base address is a no-op).
  init<T>(frozenCopyOf array: [T], _ transform: (T) -> Element) {
    guard !array.isEmpty else {
      self.init(start: nil, count: 0)
      return
    }
    let memory = UnsafeMutablePointer<Element>.allocate(capacity: array.count)
    for (i, x) in array.enumerated() { (memory + i).initialize(to: transform(x)) }
    self.init(start: memory, count: array.count)
  }
}
