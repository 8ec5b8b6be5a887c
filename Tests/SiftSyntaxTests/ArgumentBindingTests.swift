import Testing

@testable import SiftSyntax

/// Format arguments: `%@` with every value kind, `%K`, the numeric specifiers, `%s`,
/// argument counts, and quoted specifiers.
@Suite struct ArgumentBindingTests {
  @Test(arguments: [
    (SiftValue.string("Adam"), #"name == "Adam""#),
    (.string("a == 1 OR TRUEPREDICATE"), #"name == "a == 1 OR TRUEPREDICATE""#),
    (.string("%@"), #"name == "%@""#),
    (.int(42), "name == 42"), (.int(-7), "name == -7"),
    (.double(2.5), "name == 2.5"), (.double(-0.5), "name == -0.5"), (.double(3), "name == 3.0"),
    (.bool(true), "name == TRUE"), (.bool(false), "name == FALSE"),
    (.array([1, "two", [3.5], nil]), #"name == {1, "two", {3.5}, nil}"#),
    (.dictionary(["k": "v", "a": 1]), #"name == {"a": 1, "k": "v"}"#),
    (.date(secondsSinceReferenceDate: 86400), #"name == CAST(86400.0, "NSDate")"#),
    (.null, "name == nil"),
  ])
  func objectSpecifierBindsAConstant(_ value: SiftValue, _ expected: String) throws {
    let p = try parse("name == %@", [value])
    let bound = try #require(rhs(p))
    #expect(bound.kind == .constant(value))
    #expect(bound.range == SourceRange(start: 8, end: 10))
    #expect(p.predicateFormat == expected)
  }

  @Test(arguments: [
    ("name", ExpressionSyntax.Kind.keyPath(base: nil, keys: ["name"]), "name == 1"),
    ("a.b.c", .keyPath(base: nil, keys: ["a", "b", "c"]), "a.b.c == 1"),
    ("tags.@count", .keyPath(base: nil, keys: ["tags", "@count"]), "tags.@count == 1"),
    ("nums.@sum.self", .keyPath(base: nil, keys: ["nums", "@sum", "self"]), "nums.@sum.self == 1"),
    ("self", .evaluatedObject, "SELF == 1"), ("SELF", .evaluatedObject, "SELF == 1"),
    // A key path argument may name a reserved word; the printer escapes it.
    ("like", .keyPath(base: nil, keys: ["like"]), "#like == 1"),
    ("a.first", .keyPath(base: nil, keys: ["a", "first"]), "a.#first == 1"),
    ("function", .keyPath(base: nil, keys: ["function"]), "#function == 1"),
  ])
  func keyPathSpecifier(_ path: String, _ kind: ExpressionSyntax.Kind, _ expected: String) throws {
    let p = try parse("%K == 1", [.string(path)])
    #expect(lhs(p)?.kind == kind)
    #expect(lhs(p)?.range == SourceRange(start: 0, end: 2))
    #expect(p.predicateFormat == expected)
  }

  @Test func keyPathSpecifierIsNotAString() throws {
    // `%K` and `%@` with the same argument: a key path versus a string constant.
    let p = try parse("%K == %@", ["name", "name"])
    #expect(p.predicateFormat == #"name == "name""#)
    let q = try parse("%K.b[%K] == 1", ["a", "c"])
    #expect(q.predicateFormat == "a.b[c] == 1")
  }

  @Test(arguments: [
    ("", #"argument 1 is not a key path: """#), ("a..b", #"argument 1 is not a key path: "a..b""#),
    (".a", #"argument 1 is not a key path: ".a""#), ("a.", #"argument 1 is not a key path: "a.""#),
    (".", #"argument 1 is not a key path: ".""#),
  ])
  func invalidKeyPath(_ path: String, _ message: String) throws {
    let error = try #require(parseError("x == 1 AND %K == 1", [.string(path)])).error
    #expect(error.message == message)
    #expect(error.range == SourceRange(start: 11, end: 13))
    #expect(error.hint == "a key path is one or more keys joined by '.'")
  }

  /// The empty key is refused in both spellings, `%K` with `""` and `#""` (or `#''`), with
  /// the same hint: a key path never holds an empty key, whichever way it is written.
  @Test(arguments: [
    ("%K == 1", [SiftValue.string("")], #"argument 1 is not a key path: """#, SourceRange(start: 0, end: 2)),
    ("a.%K == 1", [.string("")], #"argument 1 is not a key path: """#, SourceRange(start: 2, end: 4)),
    (#"#"" == 1"#, [], "a quoted key cannot be empty", SourceRange(start: 0, end: 3)),
    ("#'' == 1", [], "a quoted key cannot be empty", SourceRange(start: 0, end: 3)),
    (#"a.#"" == 1"#, [], "a quoted key cannot be empty", SourceRange(start: 2, end: 5)),
    (#"a.#"".b == 1"#, [], "a quoted key cannot be empty", SourceRange(start: 2, end: 5)),
    ("%K == 1", [.string("a..b")], #"argument 1 is not a key path: "a..b""#, SourceRange(start: 0, end: 2)),
  ])
  func emptyKeysAreRefusedInBothSpellings(
    _ text: String, _ arguments: [SiftValue], _ message: String, _ range: SourceRange
  ) throws {
    let error = try #require(parseError(text, arguments)).error
    #expect(error.message == message)
    #expect(error.range == range)
    #expect(error.hint == "a key path is one or more keys joined by '.'")
  }

  /// Any other key reads the same through `%K` and as `#"…"`, and prints as text that
  /// parses back to the same tree.
  @Test(arguments: ["x", "fill-opacity", " ", "\u{0}", "a\nb", "\"", "\\", "é", "like", "@count", "#"])
  func keySpellingsAgree(_ key: String) throws {
    let viaArgument = try parse("%K == 1", [.string(key)])
    var quoted = "#"
    CanonicalPrinter.writeString(key, to: &quoted)
    let viaText = try parse(quoted + " == 1")
    #expect(viaArgument == viaText, "\(key.debugDescription)")
    #expect(lhs(viaText)?.kind == .keyPath(base: nil, keys: [key]))
    #expect(try parse(viaArgument.predicateFormat) == viaArgument, "\(viaArgument.predicateFormat)")
  }

  @Test(arguments: [
    (SiftValue.int(1), "%K expects a key path string, but argument 1 is the number 1"),
    (.null, "%K expects a key path string, but argument 1 is null"),
    (.array(["a"]), "%K expects a key path string, but argument 1 is an array"),
  ])
  func keyPathSpecifierNeedsAString(_ value: SiftValue, _ message: String) throws {
    let error = try #require(parseError("%K == 1", [value])).error
    #expect(error.message == message)
    #expect(error.range == SourceRange(start: 0, end: 2))
  }

  /// (specifier, argument, bound constant or nil when the kinds do not match).
  static let numericCases: [(String, SiftValue, SiftValue?)] = [
    ("%d", 5, 5), ("%i", -5, -5), ("%u", 5, 5), ("%x", 255, 255), ("%o", 8, 8), ("%c", 65, 65),
    ("%ld", 5, 5), ("%lld", 5, 5), ("%lu", 5, 5), ("%hd", 5, 5), ("%qd", 5, 5), ("%llx", 5, 5),
    ("%d", true, 1), ("%d", false, 0), ("%d", 3.0, 3), ("%d", -2.0, -2),
    ("%d", 3.5, nil), ("%d", "5", nil), ("%d", nil, nil), ("%d", [1], nil), ("%i", .double(.nan), nil),
    ("%f", 2.5, 2.5), ("%e", 2.5, 2.5), ("%g", 2.5, 2.5), ("%lf", 2.5, 2.5), ("%f", 2, 2.0), ("%g", -3, -3.0),
    ("%f", "2.5", nil), ("%f", true, nil), ("%f", nil, nil), ("%e", .date(secondsSinceReferenceDate: 0), nil),
    ("%s", "text", "text"), ("%s", 5, nil), ("%s", nil, nil),
  ]

  @Test(arguments: numericCases)
  func numericSpecifier(_ specifier: String, _ argument: SiftValue, _ bound: SiftValue?) throws {
    let source = "x == " + specifier
    if let bound {
      let p = try parse(source, [argument])
      #expect(rhs(p)?.kind == .constant(bound))
      #expect(rhs(p)?.range == SourceRange(start: 5, end: source.utf8.count))
    } else {
      let error = try #require(parseError(source, [argument])).error
      #expect(error.message.hasPrefix("\(specifier) expects "))
      #expect(error.range == SourceRange(start: 5, end: source.utf8.count))
    }
  }

  @Test(arguments: [
    ("x == %d", SiftValue.double(3.5), "%d expects an integer, but argument 1 is the number 3.5"),
    ("x == %ld", "5", #"%ld expects an integer, but argument 1 is the string "5""#),
    ("x == %f", true, "%f expects a number, but argument 1 is the boolean TRUE"),
    ("x == %s", 5, "%s expects a string, but argument 1 is the number 5"),
    ("x == %g", .dictionary([:]), "%g expects a number, but argument 1 is a dictionary"),
    ("x == %i", .date(secondsSinceReferenceDate: 0), "%i expects an integer, but argument 1 is a date"),
    (
      "x == %d", .string(String(repeating: "a", count: 40)),
      #"%d expects an integer, but argument 1 is the string "aaaaaaaaaaaaaaaaaaaa…""#
    ),
  ])
  func mismatchMessage(_ source: String, _ argument: SiftValue, _ message: String) throws {
    #expect(try #require(parseError(source, [argument])).error.message == message)
  }

  @Test func argumentsBindInTextOrder() throws {
    let p = try parse(
      "TERNARY(a == %@, %@, %K) == %d AND SUBQUERY(%K, $x, $x == %@).@count == %f",
      [1, "two", "k", 4, "items", 6, 7])
    #expect(
      p.predicateFormat == #"TERNARY(a == 1, "two", k) == 4 AND SUBQUERY(items, $x, $x == 6).@count == 7.0"#)
  }

  @Test func backtrackingDoesNotRebindArguments() throws {
    // The leading '(' is read twice (as a predicate, then as an expression); the ordinals
    // of the specifiers do not change.
    let p = try parse("((%@ + 1) * 2 == %@ AND (b == %@))", [1, 2, 3])
    #expect(p.predicateFormat == "(1 + 1) * 2 == 2 AND b == 3")
    let q = try parse("(%@) == %@ OR ((%@ == %@))", [1, 2, 3, 4])
    #expect(q.predicateFormat == "1 == 2 OR 3 == 4")
  }

  @Test(arguments: [
    (
      "a == %@", [SiftValue](),
      "no argument for this format specifier: it is number 1, but 0 arguments were given", 5, 7
    ),
    (
      "a == %@ AND b == %@", [1],
      "no argument for this format specifier: it is number 2, but 1 argument was given", 17, 19
    ),
    (
      "%K == %@ AND %K == %d", ["a", 1],
      "no argument for this format specifier: it is number 3, but 2 arguments were given", 13, 15
    ),
  ])
  func argumentCount(_ source: String, _ arguments: [SiftValue], _ message: String, _ start: Int, _ end: Int)
    throws
  {
    let error = try #require(parseError(source, arguments)).error
    #expect(error.message == message)
    #expect(error.range == SourceRange(start: start, end: end))
    #expect(error.hint != nil)
  }

  /// Arguments beyond the specifiers are ignored, as Apple ignores them (its guide passes
  /// two to `%K like '%@'`), and counted for a caller that wants to warn.
  @Test(arguments: [
    ("a == %@", [1, 2] as [SiftValue], "a == 1", 1), ("a == 1", [1], "a == 1", 1),
    ("a == %@ AND b == %@   ", [1, 2, 3], "a == 1 AND b == 2", 1), ("'%@' == \"%K\"", [1], "\"%@\" == \"%K\"", 1),
    ("%K like '%@'", ["name", "x"], "name LIKE \"%@\"", 1), ("a == %@", [1], "a == 1", 0),
    ("a == 1", [], "a == 1", 0), ("a == %d AND b == %@", [1, 2, 3, 4, 5, 6, 7, 8], "a == 1 AND b == 2", 6),
  ])
  func surplusArgumentsAreIgnoredAndCounted(
    _ source: String, _ arguments: [SiftValue], _ canonical: String, _ unused: Int
  ) throws {
    let (predicate, unusedArguments) = try PredicateSyntax.parseReportingUnusedArguments(source, arguments: arguments)
    #expect(predicate.predicateFormat == canonical)
    #expect(unusedArguments == unused)
    #expect(try PredicateSyntax(parsing: source, arguments: arguments) == predicate)
  }

  @Test func quotedSpecifiersStayLiteral() throws {
    let p = try parse("'%@' == %@", ["%@"])
    #expect(lhs(p)?.kind == .constant(.string("%@")))
    #expect(rhs(p)?.kind == .constant(.string("%@")))
    #expect(p.predicateFormat == #""%@" == "%@""#)
    #expect(try parse(#""%K" LIKE "%@""#).predicateFormat == #""%K" LIKE "%@""#)
    #expect(try parse("'$x %d %%' == a").predicateFormat == #""$x %d %%" == a"#)
  }

  @Test func argumentsAsNames() throws {
    #expect(try parse("CAST(a, %@) == 1", ["NSNumber"]).predicateFormat == #"CAST(a, "NSNumber") == 1"#)
    #expect(try parse("FUNCTION(a, %@, %@) == 1", ["f", 2]).predicateFormat == #"FUNCTION(a, "f", 2) == 1"#)
    let error = try #require(parseError("CAST(a, %@) == 1", [5])).error
    #expect(error.message == "expected a class name such as 'NSNumber', but argument 1 is the number 5")
    #expect(error.range == SourceRange(start: 8, end: 10))
    let missing = try #require(parseError("CAST(a, %@) == 1")).error
    #expect(missing.message.hasPrefix("no argument for this format specifier"))
  }

  @Test func percentLiteralOutsideAString() throws {
    let error = try #require(parseError("a == %%")).error
    #expect(error.message == "'%%' is a literal percent sign, which has no meaning outside a string")
    #expect(error.range == SourceRange(start: 5, end: 7))
  }
}
