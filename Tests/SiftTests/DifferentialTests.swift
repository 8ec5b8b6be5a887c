import SiftReference
import Testing

@testable import Sift

/// The VM against the reference tree walker on seeded random (predicate, record) pairs:
/// identical results and identical error kinds.
@Suite struct DifferentialTests {
  static let seeds: [UInt64] = [1, 2, 3, 4]
  static let casesPerSeed = 25_000

  @Test(arguments: seeds)
  func vmAgreesWithReference(seed: UInt64) throws {
    var compared = 0
    var mismatches: [String] = []
    for (format, object) in RandomCases.make(seed: seed, count: Self.casesPerSeed) {
      guard let syntax = try? PredicateSyntax(parsing: format) else { continue }
      var reference = ReferenceEvaluator()
      let expected = Result { () throws(EvaluationError) in try reference.evaluate(syntax, object: object) }
      let actual: Result<Bool, EvaluationError>
      do {
        let compiled = try SiftPredicate(format: format)
        actual = Result { () throws(EvaluationError) in try compiled.evaluate(with: object) }
      } catch {
        // The one compile-time failure of text that parses: an invalid constant pattern.
        actual = .failure(EvaluationError(.regex, error.error.message))
      }
      compared += 1
      switch (expected, actual) {
      case (.success(let a), .success(let b)) where a == b: continue
      case (.failure(let a), .failure(let b)) where a.kind == b.kind: continue
      default:
        if mismatches.count < 10 {
          mismatches.append("\(format) on \(object.jsonText): reference \(expected), vm \(actual)")
        }
      }
    }
    #expect(compared > Self.casesPerSeed * 9 / 10)
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
  }
}
