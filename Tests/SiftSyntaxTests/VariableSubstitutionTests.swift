import Testing

@testable import SiftSyntax

/// `PredicateSyntax.substitutingVariables(_:)`: free variables become constants; SUBQUERY
/// iterators and assignment targets are left alone.
@Suite struct VariableSubstitutionTests {
  static let values: [String: SiftValue] = [
    "x": 5, "y": "why", "z": [1, 2], "n": nil, "b": true, "d": .date(secondsSinceReferenceDate: 10), "f": 1.5,
  ]

  @Test(arguments: [
    ("$x == 1", "5 == 1"),
    ("a == $x AND b == $unbound", "a == 5 AND b == $unbound"),
    ("$y BEGINSWITH 'w'", #""why" BEGINSWITH "w""#),
    ("a IN $z", "a IN {1, 2}"), ("a == $n", "a == nil"), ("a == $b", "a == TRUE"),
    ("a < $d", #"a < CAST(10.0, "NSDate")"#), ("a == $f", "a == 1.5"),
    ("a BETWEEN {$x, $f}", "a BETWEEN {5, 1.5}"),
    ("a[$x] == a[FIRST]", "a[5] == a[FIRST]"),
    ("$x.name == 1", "5.name == 1"), ("$z[LAST] == 2", "{1, 2}[LAST] == 2"),
    ("-$x == ~$x", "-5 == ~5"), ("$x + $f * 2 == a", "5 + 1.5 * 2 == a"),
    ("sum($z) == add:to:($x, 1)", "sum:({1, 2}) == add:to:(5, 1)"),
    ("FUNCTION($y, 'f', $x) == 1", #"FUNCTION("why", "f", 5) == 1"#),
    ("CAST($x, 'NSString') == '5'", #"CAST(5, "NSString") == "5""#),
    ("TERNARY($x > 1, $y, $n) == 1", #"TERNARY(5 > 1, "why", nil) == 1"#),
    ("NOT $x == 1 OR !($b == 2 AND $f == 3)", "NOT 5 == 1 OR NOT (TRUE == 2 AND 1.5 == 3)"),
    ("ANY $z == 1", "ANY {1, 2} == 1"), ("TRUEPREDICATE", "TRUEPREDICATE"),
    // The iterator of a SUBQUERY is bound inside it; the collection is outside its scope.
    ("SUBQUERY(items, $x, $x.a == $y).@count > 0", #"SUBQUERY(items, $x, $x.a == "why").@count > 0"#),
    ("SUBQUERY($z, $x, $x == $x).@count == $x", "SUBQUERY({1, 2}, $x, $x == $x).@count == 5"),
    (
      "SUBQUERY(a, $x, SUBQUERY($x.b, $y, $y == $x AND $f == 1).@count > 0 AND $y == 2).@count == 1",
      #"SUBQUERY(a, $x, SUBQUERY($x.b, $y, $y == $x AND 1.5 == 1).@count > 0 AND "why" == 2).@count == 1"#
    ),
    // An assignment target stays a name; its value is substituted.
    ("$x := $f + 1 == 2", "$x := 1.5 + 1 == 2"),
  ])
  func substitution(_ source: String, _ expected: String) throws {
    #expect(try parse(source).substitutingVariables(Self.values).predicateFormat == expected)
  }

  @Test func noValuesChangesNothing() throws {
    let p = try parse("$x == 1 AND SUBQUERY(a, $y, $y == $z).@count > 0")
    #expect(p.substitutingVariables([:]) == p)
    #expect(p.substitutingVariables([:]).treeDump == p.treeDump)
  }

  @Test func substitutedConstantKeepsTheVariableRange() throws {
    let p = try parse("a == $x").substitutingVariables(["x": "value"])
    #expect(rhs(p)?.kind == .constant("value"))
    #expect(rhs(p)?.range == SourceRange(start: 5, end: 7))
    #expect(p.range == SourceRange(start: 0, end: 7))
  }

  @Test func substitutedValuesAreNotReparsed() throws {
    let p = try parse("a == $x").substitutingVariables(["x": "b == 1 OR TRUEPREDICATE"])
    #expect(rhs(p)?.kind == .constant("b == 1 OR TRUEPREDICATE"))
  }
}
