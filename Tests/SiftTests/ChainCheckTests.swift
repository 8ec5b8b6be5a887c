import SiftTestSupport
import Testing

@testable import Sift

/// A set checks the candidates of one test-chain shape test by test
/// (``PredicateIndex/checkChain(_:_:pool:objectPool:reader:lanes:steps:matched:)``): many
/// predicates of each shape, with constants from small domains so that a record makes
/// dozens of them candidates at once, must answer as each predicate alone, on values and
/// on JSON (`sift route`'s reader), with errors and budgets that run out between tests.
@Suite struct ChainCheckTests {
  /// A shape and how to draw its arguments.
  struct Shape: CustomStringConvertible, Sendable {
    let format: String
    let arguments: @Sendable (inout SplitMix64) -> [SiftValue]
    var maxSteps = EvaluationLimits().maxSteps
    var description: String { format }
  }

  static func word(_ r: inout SplitMix64) -> SiftValue { .string(["a", "b", "c", "ab", "é"][r.below(5)]) }
  static func words(_ r: inout SplitMix64) -> SiftValue { .array((0..<(1 + r.below(3))).map { _ in word(&r) }) }
  static func number(_ r: inout SplitMix64) -> SiftValue { .int(r.below(6)) }

  static let shapes: [Shape] = [
    Shape(format: "k IN %@ AND n >= %@") { r in [words(&r), number(&r)] },
    Shape(format: "k == %@ AND (n < %@ OR s BEGINSWITH %@)") { r in [word(&r), number(&r), word(&r)] },
    Shape(format: "k == %@ AND NOT (s ENDSWITH[c] %@) AND ANY tags == %@") { r in [word(&r), word(&r), word(&r)] },
    Shape(format: "k IN %@ AND n BETWEEN %@") { r in [words(&r), .array([number(&r), number(&r)])] },
    Shape(format: "k == %@ AND s MATCHES '[abé]+' AND n != %@") { r in [word(&r), number(&r)] },
    Shape(format: "k == %@ AND n == %@ AND s LIKE[c] '*b?'") { r in [word(&r), number(&r)] },
    // A budget of 64 steps: a folded test charges one per 8 bytes, so long strings run it
    // out in the first test or the second.
    Shape(
      format: "k == %@ AND (s CONTAINS[c] %@ OR s ENDSWITH[cd] %@)",
      arguments: { r in [word(&r), word(&r), word(&r)] },
      maxSteps: 64),
    // Long ids against a budget of 2,000 steps (constants that share a shape's code weigh
    // at most a sixteenth of it): a plain `IN` charges one step per 64 bytes, so an id of
    // 150,000 bytes runs the budget out (an error, no match, where NOT would make the
    // false `IN` a match), and one of 150 does not.
    Shape(format: "n == %@ AND NOT (k IN %@)", arguments: { r in [number(&r), longWords(&r)] }, maxSteps: 2_000),
  ]

  static let longID = String(repeating: "y", count: 150)
  static let hugeID = String(repeating: "y", count: 150_000)
  static func longWords(_ r: inout SplitMix64) -> SiftValue {
    .array((0..<(1 + r.below(3))).map { _ in r.below(2) == 0 ? word(&r) : .string(longID) })
  }

  static func record(_ r: inout SplitMix64) -> SiftValue {
    var fields: [String: SiftValue] = [:]
    if r.below(10) > 0 {
      fields["k"] = r.below(12) == 0 ? .int(1) : r.below(6) == 0 ? .string(r.below(2) == 0 ? longID : hugeID) : word(&r)
    }
    if r.below(10) > 0 { fields["n"] = r.below(12) == 0 ? .string("3") : number(&r) }
    if r.below(8) > 0 {
      let pieces = (0..<r.below(6)).map { _ in
        ["a", "b", "c", "é", String(repeating: "x", count: 150), "AB"][r.below(6)]
      }
      fields["s"] = r.below(15) == 0 ? .null : .string(pieces.joined())
    }
    if r.below(6) > 0 { fields["tags"] = r.below(10) == 0 ? .string("a") : words(&r) }
    return .dictionary(fields)
  }

  @Test(arguments: shapes)
  func everyCandidateAnswersAsItsPredicate(_ shape: Shape) throws {
    var random = SplitMix64(seed: UInt64(shape.format.utf8.count) &* 0x9E37)
    var options = CompileOptions()
    options.limits.maxSteps = shape.maxSteps
    let arguments = (0..<120).map { _ in shape.arguments(&random) }
    let predicates = try arguments.map { try SiftPredicate(format: shape.format, arguments: $0, options: options) }
    let set = SiftPredicateSet<Int>()
    for id in predicates.indices {
      // Half from their text, half compiled: both share the shape's code.
      if id % 2 == 0 {
        set.insert(predicates[id], id: id)
      } else {
        try set.insert(format: shape.format, arguments: arguments[id], options: options, id: id)
      }
    }
    #expect(set.statistics.sharedShapes == 1)
    let matcher = SetJSONMatcher(set)
    var matched = 0
    for _ in 0..<400 {
      let record = Self.record(&random)
      let expected = predicates.indices.filter { predicates[$0].matches(record) }
      #expect(set.matches(record) == expected, "\(record.jsonText)")
      var text = Array(record.jsonText.utf8)
      let count = text.count
      text += [UInt8](repeating: 0x20, count: 64)
      let viaJSON = text.withUnsafeBufferPointer {
        matcher.matches(UnsafeBufferPointer(rebasing: $0[0..<count]), readable: $0.count)
      }
      guard case .matched(let ids) = viaJSON else {
        Issue.record("not read: \(record.jsonText)")
        continue
      }
      #expect(ids == expected, "\(record.jsonText)")
      matched += expected.count
    }
    // Matches happen, and not everywhere: the cases decide something.
    #expect(matched > 50)
    #expect(matched < 400 * predicates.count / 2)
  }
}
