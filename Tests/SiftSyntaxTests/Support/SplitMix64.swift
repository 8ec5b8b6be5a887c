/// A tiny deterministic random number generator (SplitMix64), so property tests generate
/// the same trees on every run and every machine.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `0..<n`.
  mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

  /// True with probability `percent`/100.
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// A uniformly chosen element.
  mutating func pick<C: RandomAccessCollection>(_ c: C) -> C.Element where C.Index == Int {
    c[c.startIndex + below(c.count)]
  }
}
