/// SplitMix64 (Steele, Lea and Flood): a tiny, fully specified random number generator, so
/// a seed gives the same cases on every run, platform and toolchain. The one generator of
/// every test target (the benchmarks keep their own, which the Python benchmarks mirror).
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The whole state: a copy of the generator replays its numbers.
  public var state: UInt64

  /// The generator that starts from `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<n` (n > 0).
  public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

  /// A number in `range`.
  public mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

  /// True with probability `percent`/100.
  public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// A uniformly chosen element of a non-empty collection.
  public mutating func pick<C: RandomAccessCollection>(_ c: C) -> C.Element where C.Index == Int {
    c[c.startIndex + below(c.count)]
  }
}
