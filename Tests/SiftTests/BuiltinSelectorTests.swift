import Testing

@testable import Sift

/// Foundation's methods through `FUNCTION` and custom selectors (Semantics.md, "FUNCTION
/// and custom selectors"), beyond the conformance cases: the forms of `description`,
/// every class name `isKindOfClass:` knows, and a registered function taking precedence.
@Suite struct BuiltinSelectorTests {
  static func value(_ format: String, _ object: SiftValue = .null) throws -> Bool {
    try SiftPredicate(format: format).evaluate(with: object)
  }

  @Test(arguments: [
    (SiftValue.int(7), "7"), (.double(2.5), "2.5"), (.double(3), "3"), (.double(1e20), "1e+20"), (.bool(true), "1"),
    ("text", "text"), (.date(secondsSinceReferenceDate: 0), "2001-01-01 00:00:00 +0000"),
    (.date(secondsSinceReferenceDate: -86_401), "2000-12-30 23:59:59 +0000"),
    (.date(secondsSinceReferenceDate: 757_382_400), "2025-01-01 00:00:00 +0000"),
    (SiftValue.array([1, "a b", "plain"]), "(\n    1,\n    \"a b\",\n    plain\n)"), (SiftValue.array([]), "(\n)"),
    (SiftValue.dictionary(["k": 1, "a": ["x"]]), "{\n    a = (\n        x\n    );\n    k = 1;\n}"),
  ])
  func description(_ input: SiftValue, _ expected: String) throws {
    #expect(try BuiltinSelectors.call("description", [input]) == .string(expected))
  }

  /// NSString's `boolValue` (Semantics.md): true when, after leading whitespace, an
  /// optional sign and leading zeros, the next character is Y, y, T, t or a digit 1–9; what
  /// follows is ignored. The sign and the zeros are skipped before a letter too.
  @Test(arguments: [
    ("Y", true), ("y", true), ("T", true), ("t", true), ("yes", true), ("true", true), ("Tomorrow", true),
    ("1", true), ("9", true), ("007", true), ("0.5", false), ("  42abc", true), ("\t Y", true),
    ("+Y", true), ("-0y", true), ("+00t", true), ("-T", true), ("00y", true), ("-1", true), ("+0009", true),
    ("N", false), ("no", false), ("false", false), ("F", false), ("0", false), ("000", false), ("", false),
    ("   ", false), ("+", false), ("-0", false), ("+-Y", false), ("--1", false), ("0x1", false), ("- Y", false),
    ("a1", false), ("0 1", false), ("\u{FF11}", false),
  ])
  func boolValueOfAString(_ text: String, _ expected: Bool) throws {
    #expect(try BuiltinSelectors.call("boolValue", [.string(text)]) == .bool(expected), "\(text.debugDescription)")
    let format = "FUNCTION(%@, 'boolValue') == \(expected ? "YES" : "NO")"
    #expect(try SiftPredicate(format: format, arguments: [.string(text)]).evaluate(with: .null))
  }

  typealias KindRow = (String, [SiftValue], [SiftValue])
  static let date = SiftValue.date(secondsSinceReferenceDate: 0)
  static let kindRows: [KindRow] = [
    ("NSObject", [.null, .int(1), .string("s"), .array([1]), .dictionary(["k": 1]), date], []),
    ("NSString", [.string("s")], [.int(1), .null, .array([1])]), ("NSMutableString", [.string("s")], [.int(1)]),
    ("NSNumber", [.int(1), .double(2.5), .bool(true)], [.string("1"), .null]), ("NSValue", [.int(1)], [.string("s")]),
    ("NSArray", [.array([1]), .array([])], [.dictionary(["k": 1]), .string("s")]),
    ("NSSet", [.array([1])], [.string("s")]), ("NSOrderedSet", [.array([1])], [.int(1)]),
    ("NSDictionary", [.dictionary(["k": 1])], [.array([1])]), ("NSDate", [date], [.int(0)]),
    ("NSNull", [.null], [.int(0), .string("")]), ("NSDecimalNumber", [], [.int(1)]),
    ("UIView", [], [.int(1), .string("s"), .null]),
  ]

  @Test(arguments: kindRows)
  func isKindOfClass(_ className: String, _ kinds: [SiftValue], _ others: [SiftValue]) throws {
    for v in kinds { #expect(BuiltinSelectors.isKind(v, of: className), "\(v) is a \(className)") }
    for v in others { #expect(!BuiltinSelectors.isKind(v, of: className), "\(v) is not a \(className)") }
  }

  /// A function registered under a built-in's name replaces it, for FUNCTION and for a
  /// custom selector alike; an unregistered selector names itself in the error.
  @Test func registeredFunctionsWin() throws {
    var functions = SiftFunctions()
    functions.register("length") { _ in .int(-1) }
    functions.register("isKindOfClass:") { args in .bool(args[1] == "Anything") }
    let options = CompileOptions(functions: functions)
    #expect(try SiftPredicate(format: "FUNCTION('abc', 'length') == -1", options: options).evaluate(with: .null))
    #expect(try SiftPredicate(format: "SELF isKindOfClass: 'Anything'", options: options).evaluate(with: 1))
    #expect(try Self.value("FUNCTION('abc', 'length') == 3"))
    do {
      _ = try Self.value("SELF notContainedIn: {1}", 1)
      Issue.record("an unregistered selector evaluated")
    } catch let error as EvaluationError {
      #expect(error.kind == .unknownFunction)
      #expect(error.message.contains("notContainedIn:"))
    }
  }

  /// A selector that answers something other than true does not hold.
  @Test func aSelectorHoldsWhenItAnswersTrue() throws {
    var functions = SiftFunctions()
    functions.register("answer:") { args in args[1] }
    let p = try SiftPredicate(format: "SELF answer: $x", options: CompileOptions(functions: functions))
    #expect(try p.evaluate(with: 1, variables: ["x": true]))
    #expect(try !p.evaluate(with: 1, variables: ["x": false]))
    #expect(try !p.evaluate(with: 1, variables: ["x": "yes"]))
    #expect(try !p.evaluate(with: 1, variables: ["x": .null]))
  }
}
