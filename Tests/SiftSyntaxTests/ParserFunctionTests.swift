import Testing

@testable import SiftSyntax

/// Built-in functions (call and selector forms), CAST, TERNARY, FUNCTION and SUBQUERY.
@Suite struct ParserFunctionTests {
  /// Arguments `x1, x2, …` for a function of `arity` arguments.
  static func arguments(_ arity: Int) -> (text: String, nodes: [ExpressionSyntax]) {
    let names = (0..<arity).map { "x\($0 + 1)" }
    return (names.joined(separator: ", "), names.map { ExpressionSyntax(.keyPath(base: nil, keys: [$0])) })
  }

  @Test(arguments: BuiltinFunction.allCases)
  func everyBuiltinFunctionInSelectorForm(_ f: BuiltinFunction) throws {
    let (text, nodes) = Self.arguments(f.arity)
    let source = "\(f.rawValue)(\(text)) == 1"
    let p = try parse(source)
    #expect(lhs(p)?.kind == .function(f, nodes))
    #expect(p.predicateFormat == source)
  }

  @Test(arguments: BuiltinFunction.allCases)
  func everyBuiltinFunctionInCallForm(_ f: BuiltinFunction) throws {
    let (text, nodes) = Self.arguments(f.arity)
    let p = try parse("\(f.callName)(\(text)) == 1")
    #expect(lhs(p)?.kind == .function(f, nodes))
    #expect(p.predicateFormat == "\(f.rawValue)(\(text)) == 1")
  }

  @Test(arguments: [
    ("add(1, 2) == 3", "add:to:(1, 2) == 3"), ("add:to:(1,2) == 3", "add:to:(1, 2) == 3"),
    ("from(5, 3) == 2", "from:subtract:(5, 3) == 2"),
    ("raise:toPower:(2, 3) == 8", "raise:toPower:(2, 3) == 8"),
    ("random() < 1", "random() < 1"), ("random(a) == 1", "random:(a) == 1"),
    ("random:(a) == 1", "random:(a) == 1"),
    ("randomn(10) < 10", "randomn:(10) < 10"), ("now() > d", "now() > d"), ("now ( ) > d", "now() > d"),
    ("count({1, 2}) == 2", "count:({1, 2}) == 2"), ("average(nums) == 1", "average:(nums) == 1"),
    ("stddev(nums) == 0", "stddev:(nums) == 0"), ("uppercase('x') == 'X'", "uppercase:(\"x\") == \"X\""),
    ("bitwiseAnd(1, 3) == 1", "bitwiseAnd:with:(1, 3) == 1"),
    ("onesComplement(1) == -2", "onesComplement:(1) == -2"),
    ("leftshift(1, 2) == 4", "leftshift:by:(1, 2) == 4"), ("noindex(a) == 1", "noindex:(a) == 1"),
    ("sum(sum(a), max(b)) == 1", "error: sum takes 1 argument, not 2"),
    ("sum({sum(a), max:(b)}) == 1", "sum:({sum:(a), max:(b)}) == 1"),
    ("abs(-a) == 1", "abs:(-a) == 1"), ("sqrt(a + b) == 1", "sqrt:(a + b) == 1"),
    ("add:to: (1, 2) == 3", "add:to:(1, 2) == 3"), ("sum(%@) == 6", "sum:({1, 2, 3}) == 6"),
  ])
  func functionCall(_ source: String, _ expected: String) {
    #expect(canonical(source, source.contains("%") ? [[1, 2, 3]] : []) == expected)
  }

  @Test(arguments: [
    ("sum(1, 2) == 1", "sum takes 1 argument, not 2", 0, 9),
    ("sum() == 1", "sum takes 1 argument, not 0", 0, 5),
    ("now(1) == 1", "now takes 0 arguments, not 1", 0, 6),
    ("add(1) == 1", "add takes 2 arguments, not 1", 0, 6),
    ("add:to:(1) == 1", "add:to: takes 2 arguments, not 1", 0, 10),
    ("sum:(1, 2) == 1", "sum: takes 1 argument, not 2", 0, 10),
    ("random(1, 2) == 1", "random takes 0 or 1 arguments, not 2", 0, 12),
    ("avg(x) == 1", "unknown function 'avg'", 0, 3),
    ("SUM(x) == 1", "unknown function 'SUM'", 0, 3),
    // The span covers the whole selector the message names.
    ("add:(1, 2) == 1", "unknown function 'add:'", 0, 4),
    ("foo:bar:(1, 2) == 1", "unknown function 'foo:bar:'", 0, 8),
    ("castObject:toType:(1, 'NSString') == 1", "unknown function 'castObject:toType:'", 0, 18),
    (
      "distanceToLocation:fromLocation:(a, b) == 1",
      "distanceToLocation:fromLocation: is not supported on this platform", 0, 32
    ),
    ("distanceToLocation(a, b) == 1", "distanceToLocation is not supported on this platform", 0, 18),
    ("sum:x == 1", "expected '(' to start the argument list of sum:, found 'x'", 4, 5),
  ])
  func badCall(_ source: String, _ message: String, _ start: Int, _ end: Int) throws {
    let error = try #require(parseError(source)).error
    #expect(error.message == message)
    #expect(error.range == SourceRange(start: start, end: end))
  }

  @Test(arguments: [
    ("CAST('3', 'NSNumber') == 3", "CAST(\"3\", \"NSNumber\") == 3"),
    ("cast(a, \"NSString\") == 'x'", "CAST(a, \"NSString\") == \"x\""),
    ("CAST(a + 1, 'NSDate') > d", "CAST(a + 1, \"NSDate\") > d"),
    ("CAST(a, %@) == 1", "CAST(a, \"NSDate\") == 1"),
    ("CAST(CAST(a, 'NSString'), 'NSNumber') == 1", "CAST(CAST(a, \"NSString\"), \"NSNumber\") == 1"),
  ])
  func cast(_ source: String, _ expected: String) {
    #expect(canonical(source, source.contains("%") ? ["NSDate"] : []) == expected)
  }

  @Test(arguments: [
    ("TERNARY(a == 1, 'x', 'y') == 'x'", "TERNARY(a == 1, \"x\", \"y\") == \"x\""),
    ("ternary(a == 1, 1, 2) == 1", "TERNARY(a == 1, 1, 2) == 1"),
    ("Ternary(TRUEPREDICATE, 1, 2) == 1", "TERNARY(TRUEPREDICATE, 1, 2) == 1"),
    ("TERNARY(a == 1 AND b == 2, 1, 2) == 1", "TERNARY(a == 1 AND b == 2, 1, 2) == 1"),
    ("TERNARY(NOT (a == 1 OR b == 2), 1, 2) == 1", "TERNARY(NOT (a == 1 OR b == 2), 1, 2) == 1"),
    ("TERNARY((a + 1) * 2 == 4, 1, 2) == 1", "TERNARY((a + 1) * 2 == 4, 1, 2) == 1"),
    (
      "TERNARY(a == 1, TERNARY(b == 2, 1, 2), $c := 3) == 1",
      "TERNARY(a == 1, TERNARY(b == 2, 1, 2), $c := 3) == 1"
    ),
  ])
  func ternary(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test(arguments: [
    ("FUNCTION(SELF, 'f') == 1", "FUNCTION(SELF, \"f\") == 1"),
    ("function(a, \"f\", 1, 2) == 1", "FUNCTION(a, \"f\", 1, 2) == 1"),
    ("FUNCTION(a, %@, 1) == 1", "FUNCTION(a, \"name\", 1) == 1"),
    ("FUNCTION(a.b, 'uppercaseString') == 'X'", "FUNCTION(a.b, \"uppercaseString\") == \"X\""),
    ("FUNCTION(FUNCTION(a, 'f'), 'g', {1}) == 1", "FUNCTION(FUNCTION(a, \"f\"), \"g\", {1}) == 1"),
  ])
  func customFunction(_ source: String, _ expected: String) {
    #expect(canonical(source, source.contains("%") ? ["name"] : []) == expected)
  }

  @Test(arguments: [
    (
      "SUBQUERY(x, $y, $y.a == 1 AND $y.b == 2).@count == 0",
      "SUBQUERY(x, $y, $y.a == 1 AND $y.b == 2).@count == 0"
    ),
    ("subquery(x, $y, $y == 1).@count == 0", "SUBQUERY(x, $y, $y == 1).@count == 0"),
    ("SUBQUERY(x, $#like, $like == 1).@count == 0", "SUBQUERY(x, $like, $like == 1).@count == 0"),
    (
      "SUBQUERY(a.b, $x, SUBQUERY($x.c, $y, $y > $x.d).@count > 0).@count == 1",
      "SUBQUERY(a.b, $x, SUBQUERY($x.c, $y, $y > $x.d).@count > 0).@count == 1"
    ),
    (
      "SUBQUERY(items, $i, NOT ($i.a == 1 OR $i.b == 2)) == {}",
      "SUBQUERY(items, $i, NOT ($i.a == 1 OR $i.b == 2)) == {}"
    ),
  ])
  func subquery(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }
}
