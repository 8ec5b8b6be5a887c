import Testing

@testable import SiftSyntax

/// Arithmetic, bitwise and unary operators, constant folding, and parenthesisation by
/// precedence in canonical text.
@Suite struct ParserExpressionTests {
  @Test(arguments: [
    // Predicates that begin with a parenthesised expression.
    ("(2 + 3) * 4 == 20", "(2 + 3) * 4 == 20"),
    ("($a + 1) ** 3 == 8.0", "($a + 1) ** 3 == 8.0"),
    ("(self) ** 2 * 2 = 72", "SELF ** 2 * 2 == 72"),
    ("((2 + 3)) * 4 == 20", "(2 + 3) * 4 == 20"),
    ("(((( (1) + 2) * 3 == 9 AND (b == 1))))", "(1 + 2) * 3 == 9 AND b == 1"),
    ("((((((a)))))) == 1", "a == 1"),
    ("(a) == (b)", "a == b"),
    ("(a).b == 1", "a.b == 1"),
    ("(a + 1).b == 1", "(a + 1).b == 1"),
    ("NOT (a + 1) * 2 == 4", "NOT (a + 1) * 2 == 4"),
    ("(a == 1) AND (b + 1) == 2", "a == 1 AND b + 1 == 2"),
    ("ANY (a + 1) * 2 == 4", "ANY (a + 1) * 2 == 4"),
  ])
  func parenthesisedStart(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test(arguments: [
    // Redundant parentheses go; needed ones stay. All binary levels are left-associative.
    ("a == 2 + 3 * 4", "a == 2 + 3 * 4"), ("a == (2 + 3) * 4", "a == (2 + 3) * 4"),
    ("a == 2 * (3 + 4)", "a == 2 * (3 + 4)"), ("a == (2 * 3) + 4", "a == 2 * 3 + 4"),
    ("a == 2 - (3 - 4)", "a == 2 - (3 - 4)"), ("a == (2 - 3) - 4", "a == 2 - 3 - 4"),
    ("a == 2 - 3 + 4", "a == 2 - 3 + 4"), ("a == 2 - (3 + 4)", "a == 2 - (3 + 4)"),
    ("a == b / c / d", "a == b / c / d"), ("a == b / (c / d)", "a == b / (c / d)"),
    ("a == b * c / d", "a == b * c / d"), ("a == b * (c / d)", "a == b * (c / d)"),
    ("a == 2 ** 3 ** 2", "a == 2 ** 3 ** 2"), ("a == (2 ** 3) ** 2", "a == 2 ** 3 ** 2"),
    ("a == 2 ** (3 ** 2)", "a == 2 ** (3 ** 2)"), ("a == 2 * 3 ** 2", "a == 2 * 3 ** 2"),
    ("a == (2 * 3) ** 2", "a == (2 * 3) ** 2"),
    ("a == 1 << 2 + 3", "a == 1 << 2 + 3"), ("a == (1 << 2) + 3", "a == (1 << 2) + 3"),
    ("a == 1 << 2 >> 3", "a == 1 << 2 >> 3"), ("a == 1 << (2 >> 3)", "a == 1 << (2 >> 3)"),
    ("a == b & c | d", "a == b & c | d"), ("a == b & (c | d)", "a == b & (c | d)"),
    ("a == b ^ c & d", "a == b ^ c & d"), ("a == (b ^ c) & d", "a == (b ^ c) & d"),
    ("a == b | c ^ d", "a == b | c ^ d"), ("a == (b | c) ^ d", "a == (b | c) ^ d"),
    ("a == b & c << 1", "a == b & c << 1"), ("a == (b & c) << 1", "a == (b & c) << 1"),
    ("a == 1+2*3-4/5**6", "a == 1 + 2 * 3 - 4 / 5 ** 6"),
    ("1 << 3 == 8", "1 << 3 == 8"), ("6 & 3 == 2", "6 & 3 == 2"), ("2 ^ 1 == 3", "2 ^ 1 == 3"),
    ("'prefix' * 'suffix' == a", "\"prefix\" * \"suffix\" == a"),
  ])
  func binaryPrecedence(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  /// The printer's precedence (`BinaryOperator.precedence`) is the parser's table.
  @Test func precedenceMatchesTheParserTable() {
    for (level, operators) in SiftSyntax.binaryPrecedence.enumerated() {
      for (spelling, op) in operators {
        #expect(op.precedence == level, "\(op)")
        if let punct = Punct(rawValue: spelling) { #expect(BinaryOperator.spelled(punct) == op) }
        #expect(spelling == op.rawValue)
      }
    }
    #expect(Set(SiftSyntax.binaryPrecedence.joined().map(\.1)) == Set(BinaryOperator.allCases))
  }

  @Test(arguments: [
    ("-a == 1", "-a == 1"), ("- a == 1", "-a == 1"), ("-(a) == 1", "-a == 1"),
    ("-(a + b) == 1", "-(a + b) == 1"), ("--a == 1", "--a == 1"), ("- -a == 1", "--a == 1"),
    ("-a.b == 1", "-a.b == 1"), ("-a[0] == 1", "-a[0] == 1"), ("(-a)[0] == 1", "(-a)[0] == 1"),
    ("(-a).b == 1", "(-a).b == 1"), ("-sum(a) == 1", "-sum:(a) == 1"),
    ("~a == 1", "~a == 1"), ("~~a == 1", "~~a == 1"), ("~-1 == 1", "~-1 == 1"), ("-~1 == 1", "-~1 == 1"),
    ("~(a | b) == 1", "~(a | b) == 1"), ("~a | b == 1", "~a | b == 1"),
    ("-a ** 2 == 1", "-a ** 2 == 1"), ("-(a ** 2) == 1", "-(a ** 2) == 1"),
    ("a - -b == 1", "a - -b == 1"), ("a * -b == 1", "a * -b == 1"), ("-TRUE == 1", "-TRUE == 1"),
    ("-'x' == 1", "-\"x\" == 1"), ("-nil == 1", "-nil == 1"), ("-$x == 1", "-$x == 1"),
    ("-SELF == 1", "-SELF == 1"), ("-{1} == 1", "-{1} == 1"),
  ])
  func unary(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test(arguments: [
    // A minus directly before a number literal (through parentheses, too) folds into it.
    ("a == -5", "a == -5"), ("a == - 5", "a == -5"), ("a == -(5)", "a == -5"), ("a == -((5))", "a == -5"),
    ("a == - -5", "a == 5"), ("a == -(-5)", "a == 5"), ("a == ---5", "a == -5"),
    ("a == -2.5", "a == -2.5"), ("a == -0", "a == 0"), ("a == -0.0", "a == -0.0"),
    ("a == -1e+20", "a == -1e+20"),
    ("a == -0x10", "a == -16"), ("a == -9223372036854775807", "a == -9223372036854775807"),
    // Int.min: its magnitude does not fit in Int, but after a minus it is read as Int.min.
    ("a == -9223372036854775808", "a == -9223372036854775808"),
    ("a == - 9223372036854775808", "a == -9223372036854775808"),
    ("a == --9223372036854775808", "a == --9223372036854775808"),
    // Alone (or in parentheses, or before a postfix) it is a double, like every decimal above Int.max.
    ("a == 9223372036854775808", "a == 9.223372036854776e+18"),
    ("a == -(9223372036854775808)", "a == -9.223372036854776e+18"),
    ("a == -9223372036854775808.b", "a == -9.223372036854776e+18.b"),
    ("a == -9223372036854775809", "a == -9.223372036854776e+18"),
    ("a == 2 - -3", "a == 2 - -3"), ("a == 2 - - 3", "a == 2 - -3"), ("a == 2--3", "a == 2 - -3"),
    ("a == -2 ** 2", "a == -2 ** 2"), ("a == (-2) ** 2", "a == -2 ** 2"),
    ("a == -(2 ** 2)", "a == -(2 ** 2)"),
    ("a == (-5)[0]", "a == (-5)[0]"), ("a == -5[0]", "a == -5[0]"), ("a == (-1).b", "a == (-1).b"),
    ("a == ~-5", "a == ~-5"), ("a == -~5", "a == -~5"),
    ("- 2 + 3 == 1", "-2 + 3 == 1"), ("-score == -7.5", "-score == -7.5"),
  ])
  func negativeConstantFolding(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test func foldedConstantsAreConstants() throws {
    #expect(try rhs(parse("a == -5"))?.kind == .constant(.int(-5)))
    #expect(try rhs(parse("a == -(2.5)"))?.kind == .constant(.double(-2.5)))
    #expect(try rhs(parse("a == - -5"))?.kind == .constant(.int(5)))
    #expect(try rhs(parse("a == -a"))?.kind == .negate(.init(.keyPath(base: nil, keys: ["a"]))))
    #expect(try rhs(parse("a == -TRUE"))?.kind == .negate(.init(.constant(.bool(true)))))
  }

  @Test(arguments: [
    ("a == 1.0", "a == 1.0"), ("a == 0.1", "a == 0.1"), ("a == 1e+20", "a == 1e+20"),
    ("a == 1e20", "a == 1e+20"),
    ("a == 1E-7", "a == 1e-07"), ("a == 1.5e3", "a == 1500.0"), ("a == 99999999999999999999", "a == 1e+20"),
    ("a == 123456789.125", "a == 123456789.125"), ("a == 1e16", "a == 1e+16"), ("a == 5e-324", "a == 5e-324"),
    ("a == 0x1F", "a == 31"), ("a == 0o17", "a == 15"), ("a == 0b101", "a == 5"), ("a == 007", "a == 7"),
    ("a == 9223372036854775807", "a == 9223372036854775807"),
  ])
  func numbers(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test(arguments: [
    ("a IN {}", "a IN {}"), ("a IN {1}", "a IN {1}"), ("a IN { 1 ,2,3 }", "a IN {1, 2, 3}"),
    ("a IN {1, 'x', nil, TRUE, {2, 3}}", "a IN {1, \"x\", nil, TRUE, {2, 3}}"),
    ("a IN {b, c + 1, -d, $e, %@}", "a IN {b, c + 1, -d, $e, 7}"),
    ("{1, 2} CONTAINS a", "{1, 2} CONTAINS a"), ("a BETWEEN {$lo, $hi}", "a BETWEEN {$lo, $hi}"),
    ("{{}} == a", "{{}} == a"),
  ])
  func aggregate(_ source: String, _ expected: String) {
    #expect(canonical(source, source.contains("%") ? [7] : []) == expected)
  }

  @Test(arguments: [
    ("$a := 1 == 1", "$a := 1 == 1"), ("$a := $b := 1 == 1", "$a := $b := 1 == 1"),
    ("a == ($b := 1) + 1", "a == ($b := 1) + 1"), ("a == $b := 1 + 1", "a == $b := 1 + 1"),
    ("a == ($b := 1 + 1)", "a == $b := 1 + 1"), ("a[$i := 0] == 1", "a[$i := 0] == 1"),
    ("{$a := 1} == a", "{$a := 1} == a"), ("($a := b).c == 1", "($a := b).c == 1"),
    ("-($a := 1) == 1", "-($a := 1) == 1"), ("$a:=1 == 1", "$a := 1 == 1"),
    ("$#like := 1 == 1", "$like := 1 == 1"),
  ])
  func assignment(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }
}
