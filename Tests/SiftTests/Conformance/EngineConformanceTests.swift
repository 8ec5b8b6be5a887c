import Sift
import Testing

/// Every conformance case through the compiler and the VM.
@Suite("Conformance: compiler and VM")
struct EngineConformanceTests {
  /// What the engine makes of a case. A compile error on text that parses (an invalid
  /// constant MATCHES pattern) is the `regex` error Semantics.md says it is.
  static func run(_ c: ConformanceCase) -> ConformanceCase.Expectation {
    guard (try? PredicateSyntax(parsing: c.format, arguments: c.arguments)) != nil else { return .parseError }
    let predicate: SiftPredicate
    do {
      predicate = try SiftPredicate(format: c.format, arguments: c.arguments)
    } catch {
      return error.error.message.contains("MATCHES") ? .error(.regex) : .parseError
    }
    do {
      return .result(try predicate.evaluate(with: c.object, variables: c.variables))
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
    #expect(Self.run(c) == c.expectation, "\(c.location): \(c.format)")
  }
}
