import Foundation
import Testing

@testable import Sift

/// The evaluation limits at their edges: PCRE2's match and depth limits.
@Suite struct LimitsEdgeTests {
  /// The error evaluating `format` against `input` throws, or nil when it evaluates.
  static func evaluationError(
    _ format: String, _ input: SiftValue, arguments: [SiftValue] = [], limits: EvaluationLimits = EvaluationLimits()
  ) throws -> EvaluationError? {
    let p = try SiftPredicate(format: format, arguments: arguments, options: CompileOptions(limits: limits))
    do {
      _ = try p.evaluate(with: input)
      return nil
    } catch {
      return error
    }
  }

  static func evaluate(_ format: String, _ input: SiftValue, limits: EvaluationLimits = EvaluationLimits()) throws
    -> Bool
  {
    try SiftPredicate(format: format, options: CompileOptions(limits: limits)).evaluate(with: input)
  }

  // MARK: - Regex limits

  @Test func regexLimitDefaults() {
    let limits = EvaluationLimits()
    #expect(limits.regexMatchLimit == 1_000_000)
    #expect(limits.regexDepthLimit == 10_000)
    #expect(limits.regex == RegexLimits())
    // PCRE2 takes 32-bit limits: values outside are clamped.
    #expect(
      EvaluationLimits(regexMatchLimit: -1, regexDepthLimit: Int.max).regex
        == RegexLimits(matchLimit: 0, depthLimit: UInt32.max))
  }

  /// A match that backtracks moderately: `(?:a|b)*bb` fails on "abab…" only after trying
  /// every split.
  static let backtrackingSubject: SiftValue = ["s": .string(String(repeating: "ab", count: 200)), "p": "(?:a|b)*bb"]

  /// The same match with a constant pattern (compiled with the predicate) and with a pattern
  /// read at evaluation time: both get the configured limit.
  @Test(arguments: ["s MATCHES '(?:a|b)*bb'", "s MATCHES p"])
  func regexMatchLimitAtTheEdge(_ format: String) throws {
    func error(_ limit: Int) throws -> EvaluationError? {
      try Self.evaluationError(format, Self.backtrackingSubject, limits: EvaluationLimits(regexMatchLimit: limit))
    }
    // The smallest limit that lets the match finish, by bisection through the public API.
    var (low, high) = (1, 1_000_000)
    #expect(try error(high) == nil)
    while low < high {
      let mid = (low + high) / 2
      if try error(mid) == nil { high = mid } else { low = mid + 1 }
    }
    let edge = low
    #expect(edge > 100, "a moderately backtracking match needs more than a handful of steps")
    #expect(try error(edge) == nil)
    #expect(
      try Self.evaluate(format, Self.backtrackingSubject, limits: EvaluationLimits(regexMatchLimit: edge)) == false)
    let failure = try #require(try error(edge - 1))
    #expect(failure.kind == .regex)
    #expect(failure.message == "MATCHES: regular expression match limit (\(edge - 1)) exceeded")
    #expect(failure.range == SourceRange(start: 0, end: format.utf8.count))
  }

  /// The depth limit binds PCRE2's interpreter (the JIT ignores it and is bounded by its
  /// stack); the edge is found the same way on a pattern compiled without the JIT.
  @Test func regexDepthLimitAtTheEdge() throws {
    let subject = String(repeating: "ab", count: 200)
    func failure(_ depth: UInt32) throws -> RegexFailure? {
      let regex = try RegexPattern(
        "(a|b)*bb", caseInsensitive: false, limits: RegexLimits(matchLimit: 10_000_000, depthLimit: depth), jit: false)
      #expect(!regex.usesJIT)
      do throws(RegexFailure) {
        let matched = try regex.matches(subject)
        #expect(!matched)
        return nil
      } catch {
        return error
      }
    }
    var (low, high): (UInt32, UInt32) = (1, 10_000)
    #expect(try failure(high) == nil)
    while low < high {
      let mid = (low + high) / 2
      if try failure(mid) == nil { high = mid } else { low = mid + 1 }
    }
    #expect(low > 10)
    #expect(try failure(low) == nil)
    #expect(try failure(low - 1)?.message == "regular expression depth limit (\(low - 1)) exceeded")
  }

  /// `regexDepthLimit` reaches every pattern of a predicate, constant or not, and the JIT
  /// (used where available) answers regardless of it.
  @Test func regexDepthLimitIsWiredThrough() throws {
    let limits = EvaluationLimits(regexMatchLimit: 12_345, regexDepthLimit: 7)
    let p = try SiftPredicate(
      format: "s MATCHES '(a|b)*bb' OR SUBQUERY(xs, $x, $x MATCHES 'x+').@count > 0 OR s MATCHES p",
      options: CompileOptions(limits: limits))
    #expect(p.program.regexes.map(\.limits) == [limits.regex])
    #expect(p.program.regexLimits == limits.regex)
    #expect(p.program.subprograms.map(\.program.regexes[0].limits) == [limits.regex])
    #expect(p.program.subprograms.map(\.program.regexLimits) == [limits.regex])
    if p.program.regexes[0].usesJIT {
      let input: SiftValue = ["s": .string(String(repeating: "ab", count: 200) + "bb"), "xs": [], "p": "x"]
      #expect(try p.evaluate(with: input) == true)
    }
  }

  /// `(a+)+$` against a long subject that does not match backtracks exponentially; the
  /// default match limit ends it with a `regex` error well within a second.
  @Test(arguments: ["s MATCHES '(a+)+$'", "s MATCHES p", "s MATCHES '(\\\\w+\\\\s?)*$'"])
  func catastrophicPatternEndsWithAnError(_ format: String) throws {
    let input: SiftValue = ["s": .string(String(repeating: "a", count: 30_000) + "b!"), "p": "(a+)+$"]
    let clock = ContinuousClock()
    var failure: EvaluationError?
    let elapsed = try clock.measure { failure = try Self.evaluationError(format, input) }
    #expect(failure?.kind == .regex)
    #expect(failure?.message.hasPrefix("MATCHES: regular expression ") == true, "\(String(describing: failure))")
    #expect(failure?.message.hasSuffix("limit (1000000) exceeded") == true, "\(String(describing: failure))")
    #expect(elapsed < .seconds(1), "\(format) took \(elapsed)")
  }

  @Test func defaultRegexLimitsLetOrdinaryPatternsFinish() throws {
    let input: SiftValue = [
      "s": .string(String(repeating: "ab", count: 500)), "email": "zoë@exämple.org",
      "long": .string(String(repeating: "ab", count: 50_000) + "c"),
    ]
    #expect(try Self.evaluate("s MATCHES '(?:a|b)*bb'", input) == false)
    #expect(try Self.evaluate("s MATCHES '(ab)*'", input) == true)
    #expect(try Self.evaluate("email MATCHES '[\\\\w.]+@[\\\\w]+\\\\.\\\\w+'", input) == true)
    #expect(try Self.evaluate("long MATCHES '(?:a|b)*c'", input) == true)
  }

  @Test func regexLimitsAreCodable() throws {
    let decoder = JSONDecoder()
    // Data written before the regex limits existed decodes with their defaults.
    let old = try decoder.decode(EvaluationLimits.self, from: Data(#"{"maxSteps": 5}"#.utf8))
    #expect(old == EvaluationLimits(maxSteps: 5))
    #expect(try decoder.decode(EvaluationLimits.self, from: Data("{}".utf8)) == EvaluationLimits())
    let custom = EvaluationLimits(maxSteps: 9, regexMatchLimit: 77, regexDepthLimit: 66)
    #expect(try decoder.decode(EvaluationLimits.self, from: JSONEncoder().encode(custom)) == custom)
  }

  @Test func predicateCodingKeepsRegexLimits() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Default limits write nothing, as before.
    let plain = try SiftPredicate(format: "s MATCHES 'a+'")
    let plainJSON = String(decoding: try encoder.encode(plain), as: UTF8.self)
    #expect(!plainJSON.contains("Limit") && !plainJSON.contains("maxSteps"))
    // Other limits survive a round trip and reach the compiled pattern.
    let limits = EvaluationLimits(maxSteps: 10, regexMatchLimit: 77, regexDepthLimit: 66)
    let custom = try SiftPredicate(format: "s MATCHES 'a+'", options: CompileOptions(limits: limits))
    let data = try encoder.encode(custom)
    let json = String(decoding: data, as: UTF8.self)
    #expect(json.contains(#""regexMatchLimit":77"#) && json.contains(#""regexDepthLimit":66"#))
    let decoded = try JSONDecoder().decode(SiftPredicate.self, from: data)
    #expect(decoded.options.limits == limits)
    #expect(decoded.program.regexes[0].limits == RegexLimits(matchLimit: 77, depthLimit: 66))
    // Data that has only maxSteps (what older versions wrote) keeps the regex defaults.
    let older = try JSONDecoder().decode(SiftPredicate.self, from: Data(#"{"format": "a == 1", "maxSteps": 3}"#.utf8))
    #expect(older.options.limits == EvaluationLimits(maxSteps: 3))
  }
}
