import Testing

@testable import SiftSyntax

/// AND / OR / NOT and their aliases, constant predicates, grouping, and both
/// `CompoundPrecedence` settings.
@Suite struct ParserCompoundTests {
  @Test(arguments: [
    ("a == 1 AND b == 2", "a == 1 AND b == 2"), ("a == 1 and b == 2", "a == 1 AND b == 2"),
    ("a == 1 && b == 2", "a == 1 AND b == 2"), ("a == 1&&b == 2", "a == 1 AND b == 2"),
    ("a == 1 OR b == 2", "a == 1 OR b == 2"), ("a == 1 or b == 2", "a == 1 OR b == 2"),
    ("a == 1 || b == 2", "a == 1 OR b == 2"), ("a == 1||b == 2", "a == 1 OR b == 2"),
    ("NOT a == 1", "NOT a == 1"), ("not a == 1", "NOT a == 1"), ("!a == 1", "NOT a == 1"),
    ("! (a == 1)", "NOT a == 1"), ("NOT(a == 1)", "NOT a == 1"),
    ("NOT NOT a == 1", "NOT NOT a == 1"), ("!!a == 1", "NOT NOT a == 1"), ("!NOT a == 1", "NOT NOT a == 1"),
    ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"), ("!(a == 1 || b == 2)", "NOT (a == 1 OR b == 2)"),
    ("NOT a == 1 AND b == 2", "NOT a == 1 AND b == 2"),
    ("a == 1 AND b == 2 AND c == 3", "a == 1 AND b == 2 AND c == 3"),
    ("a == 1 OR b == 2 OR c == 3", "a == 1 OR b == 2 OR c == 3"),
    ("a == 1 AND b == 2 && c == 3 and d == 4", "a == 1 AND b == 2 AND c == 3 AND d == 4"),
    // A parenthesised compound stays a separate node, so its parentheses are printed.
    ("(a == 1 AND b == 2) AND c == 3", "(a == 1 AND b == 2) AND c == 3"),
    ("a == 1 AND (b == 2 AND c == 3)", "a == 1 AND (b == 2 AND c == 3)"),
    ("(a == 1 OR b == 2) OR c == 3", "(a == 1 OR b == 2) OR c == 3"),
    ("((a == 1))", "a == 1"), ("(((a == 1) AND ((b == 2))))", "a == 1 AND b == 2"),
    ("TRUEPREDICATE", "TRUEPREDICATE"), ("truepredicate", "TRUEPREDICATE"),
    ("FalsePredicate", "FALSEPREDICATE"),
    ("NOT TRUEPREDICATE", "NOT TRUEPREDICATE"), ("(TRUEPREDICATE)", "TRUEPREDICATE"),
    ("TRUEPREDICATE AND a == 1 OR FALSEPREDICATE", "TRUEPREDICATE AND (a == 1 OR FALSEPREDICATE)"),
  ])
  func compound(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test func flatChainsAreOneNaryNode() throws {
    let p = try parse("a == 1 AND b == 2 AND c == 3 AND d == 4")
    guard case .and(let operands) = p.kind else {
      Issue.record("expected AND, got \(p.treeDump)")
      return
    }
    #expect(operands.count == 4)
  }

  /// (input, canonical text when OR binds tighter (default), when AND binds tighter).
  static let precedenceCases: [(String, String, String)] = [
    ("a == 1 OR b == 2 AND c == 3", "(a == 1 OR b == 2) AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
    ("a == 1 AND b == 2 OR c == 3", "a == 1 AND (b == 2 OR c == 3)", "(a == 1 AND b == 2) OR c == 3"),
    (
      "a == 1 && b == 2 || c == 3 && d == 4", "a == 1 AND (b == 2 OR c == 3) AND d == 4",
      "(a == 1 AND b == 2) OR (c == 3 AND d == 4)"
    ),
    (
      "a == 1 || b == 2 && c == 3 || d == 4", "(a == 1 OR b == 2) AND (c == 3 OR d == 4)",
      "a == 1 OR (b == 2 AND c == 3) OR d == 4"
    ),
    ("NOT a == 1 OR b == 2", "NOT a == 1 OR b == 2", "NOT a == 1 OR b == 2"),
    ("NOT a == 1 AND NOT b == 2", "NOT a == 1 AND NOT b == 2", "NOT a == 1 AND NOT b == 2"),
    ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
    ("a == 1 OR (b == 2 AND c == 3)", "a == 1 OR (b == 2 AND c == 3)", "a == 1 OR (b == 2 AND c == 3)"),
    ("a == 1 OR b == 2 OR c == 3", "a == 1 OR b == 2 OR c == 3", "a == 1 OR b == 2 OR c == 3"),
    (
      "TERNARY(a == 1 OR b == 2 AND c == 3, 1, 2) == 1", "TERNARY((a == 1 OR b == 2) AND c == 3, 1, 2) == 1",
      "TERNARY(a == 1 OR (b == 2 AND c == 3), 1, 2) == 1"
    ),
    (
      "SUBQUERY(x, $y, $y == 1 AND $y == 2 OR $y == 3).@count == 0",
      "SUBQUERY(x, $y, $y == 1 AND ($y == 2 OR $y == 3)).@count == 0",
      "SUBQUERY(x, $y, ($y == 1 AND $y == 2) OR $y == 3).@count == 0"
    ),
  ]

  @Test(arguments: precedenceCases)
  func compoundPrecedence(_ source: String, _ orTighter: String, _ andTighter: String) throws {
    #expect(canonical(source, [], .orBindsTighter) == orTighter)
    #expect(canonical(source, [], .andBindsTighter) == andTighter)
    // Canonical text parenthesises mixed AND/OR, so it means the same under either setting.
    for text in [orTighter, andTighter] {
      #expect(try parse(text, [], .orBindsTighter) == parse(text, [], .andBindsTighter))
    }
  }

  @Test func defaultPrecedenceIsOrBindsTighter() throws {
    #expect(ParseOptions.default.compoundPrecedence == .orBindsTighter)
    let source = "a == 1 OR b == 2 AND c == 3"
    #expect(try PredicateSyntax(parsing: source) == parse(source, [], .orBindsTighter))
  }
}
