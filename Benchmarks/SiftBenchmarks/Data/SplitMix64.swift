/// SplitMix64 (Steele, Lea and Flood): a tiny, fast, well-mixed generator whose whole
/// state is one word, so a fixed seed gives the same data on every machine and build.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (multiply-high: no division, bias below 2⁻⁴⁰ for small bounds).
  mutating func below(_ bound: Int) -> Int {
    Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// True with probability `percent` / 100.
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// A uniformly chosen element.
  mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

  /// A number in `0..<1` with 53 random bits.
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
