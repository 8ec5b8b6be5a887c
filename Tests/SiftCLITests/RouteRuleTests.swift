import Foundation
import Sift
import Testing

/// `sift route`'s rules: ids go back exactly as written, and rules that reach a function
/// or variable nothing can answer are reported.
@Suite("sift route rules")
struct RouteRuleTests {
  /// Ids equal as values but spelled differently are different ids, and each is written
  /// back byte for byte: numbers beyond a double's precision, exponents, trailing zeros,
  /// escapes, composed and decomposed accents, whitespace inside an object.
  @Test func idsAreWrittenBackAndComparedAsWritten() throws {
    let ids = [
      "12345678901234567891", "12345678901234567892", "1E2", "100", "2.50", #""\u00e9""#, #""e\u0301""#, #""é""#,
      #"{"k": [1,  2]}"#, "-0", "0", "null", "[ ]",
    ]
    let rules = try RouteCommandTests.rulesFile(ids.map { #"{"id": \#($0), "predicate": "a == 1"}"# })
    let result = try SiftProcess.run(["route", "--rules", rules.path], input: .text(#"{"a": 1}"# + "\n"))
    #expect(result.exited(0), "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(result.stdout == #"{"line": 1, "ids": ["# + ids.joined(separator: ", ") + "]}\n")
    let each = try SiftProcess.run(["route", "--each", "--rules", rules.path], input: .text(#"{"a": 1}"# + "\n"))
    #expect(each.exited(0))
    #expect(each.stdout == ids.map { #"{"id": \#($0), "line": {"a": 1}}"# + "\n" }.joined())
  }

  /// The same bytes twice are a duplicate, named as written.
  @Test(arguments: ["12345678901234567891", "1E2", #""\u00e9""#, #""e\u0301""#])
  func theSameBytesTwiceAreADuplicate(_ id: String) throws {
    let rules = try RouteCommandTests.rulesFile([
      #"{"id": \#(id), "predicate": "a == 1"}"#, #"{"id": 7, "predicate": "a == 2"}"#,
      #"{"predicate": "a == 3", "id": \#(id)}"#,
    ])
    let result = try SiftProcess.run(["route", "--rules", rules.path], input: .text(#"{"a": 1}"# + "\n"))
    #expect(result.exited(2))
    #expect(
      result.stderr == "sift route: \(rules.path):3: the id \(id) is already the id of the rule on line 1\n"
        + "sift route: 1 bad rule in \(rules.path); no input was read\n")
  }

  /// Objects of many shapes, to look for one that a rule matches.
  static let objects: [SiftValue] = [
    [:], ["a": 1], ["a": 2], ["a": "A"], ["a": .null], ["xs": []], ["xs": [1, 2]], ["a": 1, "xs": []],
    ["a": 1, "xs": [1]], ["s": "abc"], ["a": ["b": 1]],
  ]

  /// Rules no evaluation can make true: every path to true reaches an unknown function
  /// or an unbound variable. Each is reported with its line, and nothing is routed.
  static let neverMatch = [
    #"FUNCTION(a, "nope") == 1"#, "$x == 1", "a == 1 AND $x == 2", "$x == 1 OR FUNCTION(a, 'nope') == 2",
    "NOT (FUNCTION(a, 'nope') == 1)", "SELF fooBar: 2", "FUNCTION(a, 'description', 1) == 'x'",
    "TERNARY($x == 1, 1, 2) == 1", "{1, $x} CONTAINS 1", "ANY $x == 1", "SUBQUERY($x, $y, $y == 1).@count == 0",
    "FUNCTION($x, 'length') == 1", "-$x == 1", "$x.k == 1", "a[$x] == 1", "NOT NOT $x == 1",
  ]

  /// Rules that reach such a part only on some paths: they can still match, so they load,
  /// each with a warning.
  static let mayMatch = [
    "a == 1 OR $x == 2", "NOT (a == 1 AND $x == 2)", "TERNARY(a == 1, $x, 2) == 2",
    "SUBQUERY(xs, $y, $z == 1).@count == 0", "a == 1 OR FUNCTION(a, 'nope') == 1",
  ]

  /// The right side of ANY or ALL is not counted on to be evaluated (ALL over an empty
  /// collection needs no element compared), so these only get the warning, although the
  /// engine today evaluates that side first and they never match: the check refuses a
  /// rule only when the language itself says it cannot match, not one evaluation order.
  static let mayMatchByTheLanguage = ["ALL xs == $x", "ANY xs == FUNCTION(a, 'nope')"]

  /// Rules that reach no such part: they load without a word.
  static let clean = [
    "SUBQUERY(xs, $y, $y == 1).@count > 0", "FUNCTION(a, 'uppercaseString') == 'A'",
    "SELF isKindOfClass: 'NSDictionary'", "($v := a) == 1 AND $v == 1", "FUNCTION(s, 'hasPrefix:', 'a') == YES",
  ]

  static func matchesSome(_ format: String) throws -> Bool {
    let predicate = try SiftPredicate(format: format)
    return objects.contains { predicate.matches($0) }
  }

  @Test(arguments: neverMatch)
  func aRuleThatCanNeverMatchIsRejected(_ format: String) throws {
    // The check's claim, against evaluation: no object makes the rule true.
    #expect(try !Self.matchesSome(format))
    let rule: SiftValue = ["id": 1, "predicate": .string(format)]
    let rules = try RouteCommandTests.rulesFile([#"{"id": 0, "predicate": "a == 1"}"#, rule.jsonText])
    let result = try SiftProcess.run(["route", "--rules", rules.path], input: .text(#"{"a": 1}"# + "\n"))
    #expect(result.exited(2))
    #expect(result.stdout == "")
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(lines)")
    #expect(
      lines.first?.hasPrefix(
        "sift route: \(rules.path):2: the predicate can never match: every evaluation that could make it true fails at "
      ) == true, "\(lines)")
    #expect(lines.first?.hasSuffix("; sift route registers no functions and binds no variables") == true)
    #expect(lines.last == "sift route: 1 bad rule in \(rules.path); no input was read")
  }

  @Test func theReportNamesWhatFailsAndWhere() throws {
    let rules = try RouteCommandTests.rulesFile([
      #"{"id": 1, "predicate": "FUNCTION(a, \"nope\") == 1"}"#, #"{"id": 2, "predicate": "b == 2 AND $x == 1"}"#,
      #"{"id": 3, "predicate": "b == 2 OR $x == 1"}"#,
    ])
    let result = try SiftProcess.run(["route", "--rules", rules.path], input: .text(#"{"a": 1}"# + "\n"))
    #expect(result.exited(2))
    #expect(
      result.stderr == """
        sift route: \(rules.path):1: the predicate can never match: every evaluation that could make it true fails \
        at FUNCTION 'nope', which is not a built-in (at byte 0); sift route registers no functions and binds no variables
        sift route: \(rules.path):2: the predicate can never match: every evaluation that could make it true fails \
        at $x, which nothing binds (at byte 11); sift route registers no functions and binds no variables
        sift route: \(rules.path):3: warning: $x, which nothing binds (at byte 10), always fails when evaluated \
        (sift route registers no functions and binds no variables); the rule may still match where evaluation does \
        not reach it
        sift route: 2 bad rules in \(rules.path); no input was read

        """)
  }

  @Test(arguments: mayMatch + mayMatchByTheLanguage)
  func aRuleThatMayStillMatchLoadsWithAWarning(_ format: String) throws {
    let matches = try Self.matchesSome(format)
    #expect(matches || Self.mayMatchByTheLanguage.contains(format))
    let rule: SiftValue = ["id": 1, "predicate": .string(format)]
    let rules = try RouteCommandTests.rulesFile([rule.jsonText])
    let input = Self.objects.map(\.jsonText).joined(separator: "\n") + "\n"
    let result = try SiftProcess.run(["route", "--rules", rules.path], input: .text(input))
    #expect(result.exited(0))
    #expect(result.stderr.hasPrefix("sift route: \(rules.path):1: warning: "))
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stdout.contains(#""ids": [1]"#) == matches)
  }

  @Test(arguments: clean)
  func aRuleWithNothingUnansweredLoadsQuietly(_ format: String) throws {
    let rule: SiftValue = ["id": 1, "predicate": .string(format)]
    let rules = try RouteCommandTests.rulesFile([rule.jsonText])
    let result = try SiftProcess.run(["route", "--rules", rules.path], input: .text("{}\n"))
    #expect(result.exited(0))
    #expect(result.stderr == "")
  }
}
