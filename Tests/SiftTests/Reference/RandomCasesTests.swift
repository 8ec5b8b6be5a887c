import Sift
import SiftTestSupport
import Testing

@Suite("Reference: random cases")
struct RandomCasesTests {
  @Test func splitMix64MatchesItsPublishedSequence() {
    // The first outputs for seed 0 (reference implementation by Sebastiano Vigna).
    var rng = SplitMix64(seed: 0)
    #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
    #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(rng.next() == 0x06C4_5D18_8009_454F)
  }

  @Test func theSameSeedGivesTheSameCases() {
    let first = RandomCases.make(seed: 42, count: 200)
    let second = RandomCases.make(seed: 42, count: 200)
    #expect(first.count == 200)
    #expect(first.map(\.format) == second.map(\.format))
    #expect(first.map(\.object) == second.map(\.object))
    let other = RandomCases.make(seed: 43, count: 200)
    #expect(first.map(\.format) != other.map(\.format))
  }

  @Test(arguments: [1, 2, 3, 0xDEAD_BEEF] as [UInt64])
  func almostEveryFormatParses(seed: UInt64) {
    let cases = RandomCases.make(seed: seed, count: 500)
    var failures: [String] = []
    for c in cases {
      do {
        _ = try PredicateSyntax(parsing: c.format)
      } catch {
        failures.append("\(c.format)\n    \(error)")
      }
    }
    #expect(
      failures.count * 100 <= cases.count * 5,
      "\(failures.count) of \(cases.count) did not parse; first: \(failures.prefix(5).joined(separator: "\n"))")
  }
}
