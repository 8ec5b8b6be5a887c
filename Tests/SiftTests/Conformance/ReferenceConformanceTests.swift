import Foundation
import Sift
import SiftReference
import Testing

/// Every conformance case through the parser and the reference evaluator.
@Suite("Conformance: reference evaluator")
struct ReferenceConformanceTests {
  /// What the parser and the reference evaluator make of a case.
  static func run(_ c: ConformanceCase) -> ConformanceCase.Expectation {
    let predicate: PredicateSyntax
    do {
      predicate = try PredicateSyntax(parsing: c.format, arguments: c.arguments)
    } catch {
      return .parseError
    }
    var evaluator = ReferenceEvaluator(variables: c.variables)
    do {
      return .result(try evaluator.evaluate(predicate, object: c.object))
    } catch {
      return .error(error.kind)
    }
  }

  @Test(arguments: ConformanceData.all)
  func conformance(_ c: ConformanceCase) {
    if let problem = c.loadError {
      Issue.record("\(problem)")
      return
    }
    let got = Self.run(c)
    #expect(got == c.expectation, "\(c.location): \(c.format)")
  }

  @Test func theSuiteIsWellFormed() {
    let cases = ConformanceData.all
    #expect(cases.count >= 300, "only \(cases.count) cases")
    var seen: [String: String] = [:]
    for c in cases {
      if let first = seen[c.id] { Issue.record("duplicate id \(c.id) at \(first) and \(c.location)") }
      seen[c.id] = c.location
    }
  }
}
