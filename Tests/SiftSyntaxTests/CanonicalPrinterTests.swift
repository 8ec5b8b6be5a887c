import Testing

@testable import SiftSyntax

/// Canonical text for constants: string escaping, numbers, and values that only arrive
/// as format arguments (dates, arrays, dictionaries, non-finite doubles).
@Suite struct CanonicalPrinterTests {
  @Test(arguments: [
    (#"a == 'plain'"#, #"a == "plain""#),
    (#"a == 'say "hi"'"#, #"a == "say \"hi\"""#),
    (#"a == "say \"hi\"""#, #"a == "say \"hi\"""#),
    (#"a == 'it\'s'"#, #"a == "it's""#),
    (#"a == 'back\\slash'"#, #"a == "back\\slash""#),
    (#"a == "\n\t\r""#, #"a == "\n\t\r""#),
    ("a == 'line\nbreak'", #"a == "line\nbreak""#),
    (#"a == "\a\b\f\v""#, #"a == "\u0007\u0008\u000c\u000b""#),
    (#"a == "\0\x1f\x7f""#, #"a == "\u0000\u001f\u007f""#),
    (#"a == "é日本👍""#, #"a == "é日本👍""#),
    (#"a == "\u00e9\x41\101\q""#, #"a == "éAAq""#),
    (#"a == '%@ $x AND'"#, #"a == "%@ $x AND""#),
    (#"a == ''"#, #"a == """#),
    (#"a MATCHES '\\d+\\.\\d*'"#, #"a MATCHES "\\d+\\.\\d*""#),
  ])
  func stringEscaping(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  /// Every string printed by the printer reads back as the same string.
  @Test func everyLowScalarRoundTrips() throws {
    var all = ""
    for value in UInt32(0)...0x2FF { all.unicodeScalars.append(Unicode.Scalar(value)!) }
    all += "\u{FFFD}\u{10FFFF}\u{1F600}\"'\\"
    let p = try parse("a == %@", [.string(all)])
    let reparsed = try parse(p.predicateFormat)
    #expect(rhs(reparsed)?.kind == .constant(.string(all)))
  }

  @Test(arguments: [
    (SiftValue.null, "nil"), (.bool(true), "TRUE"), (.bool(false), "FALSE"), (.int(0), "0"),
    (.int(-12), "-12"),
    (.int(Int.max), "9223372036854775807"), (.int(Int.min), "-9223372036854775808"),
    (.double(1.5), "1.5"), (.double(-0.25), "-0.25"), (.double(3.0), "3.0"), (.double(-0.0), "-0.0"),
    (.double(1e100), "1e+100"), (.double(.infinity), #"CAST("inf", "NSNumber")"#),
    (.double(-.infinity), #"CAST("-inf", "NSNumber")"#), (.double(.nan), #"CAST("nan", "NSNumber")"#),
    (.string("x\"y"), #""x\"y""#), (.date(secondsSinceReferenceDate: 0), #"CAST(0.0, "NSDate")"#),
    (.date(secondsSinceReferenceDate: -86400.5), #"CAST(-86400.5, "NSDate")"#),
    (.array([]), "{}"), (.array([1, "a", nil, [true]]), #"{1, "a", nil, {TRUE}}"#),
    (.dictionary([:]), "{}"), (.dictionary(["b": 2, "a": [1]]), #"{"a": {1}, "b": 2}"#),
  ])
  func constantFromArgument(_ value: SiftValue, _ expected: String) throws {
    #expect(try parse("x == %@", [value]).predicateFormat == "x == " + expected)
  }

  @Test func expressionDescriptionIsCanonicalText() throws {
    let p = try parse("(a + 1) * -b[FIRST] == $x := 2")
    #expect(lhs(p)?.description == "(a + 1) * -b[FIRST]")
    #expect(rhs(p)?.description == "$x := 2")
    #expect(p.description == p.predicateFormat)
  }

  @Test func printingHandBuiltTrees() {
    func key(_ k: String...) -> ExpressionSyntax { ExpressionSyntax(.keyPath(base: nil, keys: k)) }
    func int(_ v: Int) -> ExpressionSyntax { ExpressionSyntax(.constant(.int(v))) }
    // Operands are parenthesised by precedence, whatever the tree.
    let sum = ExpressionSyntax(.binary(.add, key("a"), int(1)))
    let product = ExpressionSyntax(
      .binary(.multiply, sum, ExpressionSyntax(.binary(.subtract, int(2), int(3)))))
    #expect(product.description == "(a + 1) * (2 - 3)")
    #expect(
      ExpressionSyntax(.binary(.subtract, int(1), ExpressionSyntax(.binary(.subtract, int(2), int(3)))))
        .description == "1 - (2 - 3)")
    #expect(
      ExpressionSyntax(.binary(.power, ExpressionSyntax(.binary(.power, int(2), int(3))), int(2))).description
        == "2 ** 3 ** 2")
    #expect(ExpressionSyntax(.negate(sum)).description == "-(a + 1)")
    #expect(ExpressionSyntax(.index(int(-1), .first)).description == "(-1)[FIRST]")
    #expect(
      ExpressionSyntax(.keyPath(base: sum, keys: ["b", "like", "self"])).description == "(a + 1).b.#like.self"
    )
    #expect(key("self", "SELF", "select").description == "#self.#SELF.select")
    #expect(ExpressionSyntax(.assignment(variable: "v", value: sum)).description == "$v := a + 1")
    let assign = ExpressionSyntax(.assignment(variable: "v", value: int(1)))
    #expect(ExpressionSyntax(.binary(.add, assign, int(2))).description == "($v := 1) + 2")
    // Nested AND/OR are always parenthesised, and so is a compound under NOT.
    let a = PredicateSyntax(.comparison(ComparisonSyntax(key("a"), .equal, int(1))))
    let b = PredicateSyntax(
      .comparison(
        ComparisonSyntax(
          quantifier: .all, key("b"), .like, options: [.caseInsensitive, .localeSensitive], int(2))))
    #expect(
      PredicateSyntax(.and([PredicateSyntax(.and([a, b])), a])).predicateFormat
        == "(a == 1 AND ALL b LIKE[cl] 2) AND a == 1")
    #expect(
      PredicateSyntax(.or([a, PredicateSyntax(.or([b, a]))])).predicateFormat
        == "a == 1 OR (ALL b LIKE[cl] 2 OR a == 1)")
    #expect(
      PredicateSyntax(.not(PredicateSyntax(.or([a, b])))).predicateFormat
        == "NOT (a == 1 OR ALL b LIKE[cl] 2)")
    #expect(PredicateSyntax(.not(PredicateSyntax(.not(a)))).predicateFormat == "NOT NOT a == 1")
    #expect(PredicateSyntax(.not(PredicateSyntax(.constant(false)))).predicateFormat == "NOT FALSEPREDICATE")
  }

  /// The byte-wise word test for ASCII keys answers as the Unicode one.
  @Test(arguments: [
    "a", "A", "_", "_1", "a1", "1a", "9", "", "a-b", "a b", "a.b", "@count", "#x", "zZ_09", "a\u{0}", "`", "[",
    "{", "@", "Z", "z", "é", "aé",
  ])
  func asciiWordsAreWords(_ key: String) {
    if let ascii = CanonicalPrinter.asciiWord(key) {
      #expect(ascii == CanonicalPrinter.isWord(key.unicodeScalars[...]), "\(key.debugDescription)")
    } else {
      #expect(key.utf8.contains { $0 >= 0x80 })
    }
  }
}
