import Foundation
import SiftTestSupport
import Testing

@testable import Sift

/// The batch tier (`SiftPredicate.filter(_:)`, `indices(matching:)`, `Sequence.filter`)
/// against `matches` on each element: random predicates over random typed values, value
/// trees and records, every collection size around the batch's edges, step budgets that
/// only the sum of a row's tests exceeds, and rows that raise.
@Suite("Batch tier")
struct BatchTierTests {
  typealias Doc = TypedDifferentialTests.Doc

  /// The offsets `matches` accepts, one element at a time.
  static func oneByOne<E: SiftInput>(_ p: SiftPredicate, _ elements: [E]) -> [Int] {
    elements.indices.filter { p.matches(elements[$0]) }
  }

  @Test(arguments: [UInt64(21), 22, 23])
  func typedValuesMatchAsOneByOne(seed: UInt64) {
    var generator = RandomCaseGenerator(rng: SplitMix64(seed: seed))
    var values = SplitMix64(seed: seed &* 17)
    let docs = (0..<300).map { _ in TypedDifferentialTests.doc(&values) }
    var batched = 0
    var mismatches: [String] = []
    for _ in 0..<3_000 {
      generator.bound = []
      let format = generator.predicate(depth: 2)
      guard let p = try? SiftPredicate(format: format, for: Doc.self) else { continue }
      // The rest run one element at a time, the very code they are compared with.
      guard p.program.runsInBatches else { continue }
      batched += 1
      let expected = Self.oneByOne(p, docs)
      let actual = p.indices(matching: docs)
      if actual != expected, mismatches.count < 5 {
        mismatches.append("\(format): one by one \(expected.prefix(10)), batch \(actual.prefix(10))")
      }
      #expect(p.filter(docs).count == expected.count)
    }
    #expect(batched > 100, "only \(batched) predicates ran in the batch tier")
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
  }

  @Test(arguments: [UInt64(31), 32])
  func valueTreesMatchAsOneByOne(seed: UInt64) {
    var generator = RandomCaseGenerator(rng: SplitMix64(seed: seed))
    let trees = (0..<300).map { _ in generator.record() }
    var batched = 0
    var mismatches: [String] = []
    for _ in 0..<3_000 {
      generator.bound = []
      let format = generator.predicate(depth: 2)
      guard let p = try? SiftPredicate(format: format) else { continue }
      // The rest run one element at a time, the very code they are compared with.
      guard p.program.runsInBatches else { continue }
      batched += 1
      let expected = Self.oneByOne(p, trees)
      let actual = p.indices(matching: trees)
      if actual != expected, mismatches.count < 5 {
        mismatches.append("\(format): one by one \(expected.prefix(10)), batch \(actual.prefix(10))")
      }
      // `Sequence.filter` takes the same tier.
      #expect(trees.filter(p).count == expected.count)
    }
    #expect(batched > 100, "only \(batched) predicates ran in the batch tier")
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
  }

  static let schema = SiftSchema(fields: ["a", "name", "tags"])
  static let otherSchema = SiftSchema(fields: ["name", "a", "tags"])

  @Test
  func recordsOfAnotherSchemaNeverMatch() throws {
    var rng = SplitMix64(seed: 5)
    let words = ["alpha", "beta", "gamma", "café", "x"]
    let records = (0..<2_000).map { k in
      SiftRecord(
        schema: k % 7 == 3 ? Self.otherSchema : Self.schema,
        values: [
          .int(rng.int(0...9)), .string(rng.pick(words)),
          .array((0..<rng.below(3)).map { _ in .string(rng.pick(words)) }),
        ])
    }
    for format in ["a >= 3 AND name BEGINSWITH 'a'", "ANY tags == 'x' OR a == 1", "NOT (a > 4) AND name != 'beta'"] {
      let p = try SiftPredicate(format: format, options: CompileOptions(schema: Self.schema))
      #expect(p.program.runsInBatches)
      let expected = Self.oneByOne(p, records)
      #expect(p.indices(matching: records) == expected, "\(format)")
      #expect(p.filter(records) == expected.map { records[$0] })
      #expect(expected.allSatisfy { records[$0].schema == Self.schema })
    }
  }

  /// Sizes around the one-at-a-time cut-off and the batch of 1,024 rows.
  @Test(arguments: [0, 1, 8, 15, 16, 17, 1_023, 1_024, 1_025, 2_500])
  func everySizeMatchesAsOneByOne(count: Int) throws {
    var values = SplitMix64(seed: UInt64(count) &+ 3)
    let docs = (0..<count).map { _ in TypedDifferentialTests.doc(&values) }
    let p = try SiftPredicate(
      format: "a >= 2 AND (code BEGINSWITH 'a' OR ANY tags == 'abc') AND NOT (a == 4)", for: Doc.self)
    #expect(p.program.runsInBatches)
    #expect(p.indices(matching: docs) == Self.oneByOne(p, docs))
    #expect(p.indices(matching: docs[...].dropFirst(min(count, 3))) == Array(Self.oneByOne(p, docs).drop { $0 < 3 }))
  }

  /// Each row has its own step budget, shared by all its tests: rows whose two tests fit
  /// alone but not together never match, as one by one.
  @Test
  func aRowsTestsShareItsStepBudget() throws {
    let long = String(repeating: "a", count: 4_000)
    let rows: [SiftValue] = (0..<100).map { k in
      .dictionary(["x": .string(k % 2 == 0 ? long : "ab"), "y": .string(k % 3 == 0 ? long : "ab")])
    }
    var options = CompileOptions()
    options.limits.maxSteps = 90
    // A CONTAINS over 4,000 bytes costs about 62 steps: one fits, two do not.
    let p = try SiftPredicate(format: "x CONTAINS 'a' AND y CONTAINS 'b'", options: options)
    let alone = Self.oneByOne(p, rows)
    #expect(p.indices(matching: rows) == alone)
    #expect(alone.count > 0 && alone.count < 100)
    #expect(!alone.contains(0), "row 0 has two long strings: over the budget")
  }

  /// A row that raises (a string compared with a number, a key path into a string) is
  /// left out; the rows after it in the batch are still decided.
  @Test
  func rowsThatRaiseAreLeftOut() throws {
    let rows: [SiftValue] = (0..<64).map { k in
      .dictionary(["n": k % 4 == 0 ? .string("text") : .int(k), "s": .string("v\(k)")])
    }
    let p = try SiftPredicate(format: "n > 10 AND s BEGINSWITH 'v'")
    let raising = rows.filter { row in (try? p.evaluate(with: row)) == nil }
    #expect(!raising.isEmpty)
    #expect(p.indices(matching: rows) == Self.oneByOne(p, rows))
  }

  /// A predicate that is not a test chain (arithmetic, SUBQUERY, variables) still filters,
  /// one element at a time.
  @Test
  func predicatesOutsideTheTierStillFilter() throws {
    let rows: [SiftValue] = (0..<50).map { .dictionary(["a": .int($0), "b": .array([.int($0), .int(2)])]) }
    for format in ["a * 2 > 30", "SUBQUERY(b, $x, $x > 20).@count > 0", "a > $min"] {
      let p = try SiftPredicate(format: format)
      #expect(p.indices(matching: rows) == Self.oneByOne(p, rows), "\(format)")
    }
  }
}
