import Testing

@testable import SiftSyntax

/// Key paths (incl. through index, function and SUBQUERY results), collection operators,
/// index forms, and `#`-escaping of reserved words.
@Suite struct ParserKeyPathTests {
  @Test(arguments: [
    ("a == 1", "a == 1"), ("a.b.c == 1", "a.b.c == 1"), ("a . b == 1", "a.b == 1"),
    ("self.a == 1", "a == 1"), ("SELF.a.b == 1", "a.b == 1"), ("SELF == 1", "SELF == 1"),
    ("_x.y1 == 1", "_x.y1 == 1"), ("café.naïve == 1", "café.naïve == 1"),
    // Collection operators.
    ("a.@count == 1", "a.@count == 1"), ("@count == 1", "@count == 1"), ("a.@avg.b == 1", "a.@avg.b == 1"),
    ("nums.@sum.self == 10", "nums.@sum.self == 10"), ("nums.@sum.SELF == 10", "nums.@sum.self == 10"),
    ("nums.@max.#self == 10", "nums.@max.self == 10"),
    ("a.@distinctUnionOfObjects.name CONTAINS 'x'", "a.@distinctUnionOfObjects.name CONTAINS \"x\""),
    // Key paths continue after an index, a call, SUBQUERY and the other special forms.
    ("a[0].b == 1", "a[0].b == 1"), ("a[FIRST].b.c == 1", "a[FIRST].b.c == 1"),
    ("recipients[0].name == 'x'", "recipients[0].name == \"x\""),
    ("sum(a).b == 1", "sum:(a).b == 1"), ("add:to:(1, 2).description == 1", "add:to:(1, 2).description == 1"),
    ("SUBQUERY(x, $y, $y == 1).@count == 2", "SUBQUERY(x, $y, $y == 1).@count == 2"),
    ("SUBQUERY(x, $y, $y.a == 1).@count.b == 2", "SUBQUERY(x, $y, $y.a == 1).@count.b == 2"),
    ("TERNARY(a == 1, b, c).d == 1", "TERNARY(a == 1, b, c).d == 1"),
    ("CAST(a, 'NSString').length == 1", "CAST(a, \"NSString\").length == 1"),
    ("FUNCTION(a, 'f').b == 1", "FUNCTION(a, \"f\").b == 1"),
    ("{1, 2}.@count == 2", "{1, 2}.@count == 2"), ("'abc'.length == 3", "\"abc\".length == 3"),
    ("$v.a.b == 1", "$v.a.b == 1"), ("(a + 1).b == 1", "(a + 1).b == 1"), ("1.a == 1", "1.a == 1"),
    ("a[0].b[1].c == 1", "a[0].b[1].c == 1"),
  ])
  func keyPath(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test func keyPathNodes() throws {
    #expect(try lhs(parse("self.a.b == 1"))?.kind == .keyPath(base: nil, keys: ["a", "b"]))
    #expect(
      try lhs(parse("nums.@sum.self == 1"))?.kind == .keyPath(base: nil, keys: ["nums", "@sum", "self"]))
    let indexed = try #require(try lhs(parse("a[0].b.c == 1")))
    guard case .keyPath(let base, let keys) = indexed.kind else {
      Issue.record("expected a key path")
      return
    }
    #expect(keys == ["b", "c"])
    #expect(
      base?.kind == .index(.init(.keyPath(base: nil, keys: ["a"])), .expression(.init(.constant(.int(0))))))
  }

  @Test(arguments: [
    ("a[FIRST] == 1", "a[FIRST] == 1"), ("a[first] == 1", "a[FIRST] == 1"), ("a[LAST] == 1", "a[LAST] == 1"),
    ("a[Last] == 1", "a[LAST] == 1"), ("a[SIZE] == 1", "a[SIZE] == 1"), ("a[size] == 1", "a[SIZE] == 1"),
    ("a[0] == 1", "a[0] == 1"), ("a[-1] == 1", "a[-1] == 1"), ("a[1 + 2] == 1", "a[1 + 2] == 1"),
    ("a['key'] == 1", "a[\"key\"] == 1"), ("a[b.c] == 1", "a[b.c] == 1"),
    ("a[#first] == 1", "a[#first] == 1"),
    ("a[$i] == 1", "a[$i] == 1"), ("a[0][1] == 1", "a[0][1] == 1"), ("a[ 0 ] [ 1 ] == 1", "a[0][1] == 1"),
    ("SELF[0] == 1", "SELF[0] == 1"), ("self[FIRST] == 1", "SELF[FIRST] == 1"),
    ("{1, 2}[1] == 2", "{1, 2}[1] == 2"),
    ("a[b[c[0]]] == 1", "a[b[c[0]]] == 1"), ("a[%@] == 1", "a[\"k\"] == 1"),
    ("sum(a)[0] == 1", "sum:(a)[0] == 1"),
    ("$a[LAST] == 1", "$a[LAST] == 1"), ("tags[SIZE] == 3", "tags[SIZE] == 3"),
  ])
  func index(_ source: String, _ expected: String) {
    #expect(canonical(source, source.contains("%") ? ["k"] : []) == expected)
  }

  @Test(arguments: [
    ("#like == 1", "#like == 1"), ("#LIKE == 1", "#LIKE == 1"), ("#self == 1", "#self == 1"),
    ("#foo == 1", "foo == 1"), ("a.#like == 1", "a.#like == 1"), ("#first.#last == 1", "#first.#last == 1"),
    ("#size[0] == 1", "#size[0] == 1"), ("#function == 1", "#function == 1"),
    ("#ternary == 1", "#ternary == 1"),
    ("#apply == 1", "#apply == 1"), ("#intersection == 1", "#intersection == 1"),
    ("#minus == 1", "#minus == 1"),
    ("#union == 1", "#union == 1"), ("#tokenmatches == 1", "#tokenmatches == 1"),
    ("#fetch == 1", "#fetch == 1"),
    ("#Self.a == 1", "#Self.a == 1"), ("a.#SELF == 1", "a.#SELF == 1"),
    // Words that are special only before '(' stay plain keys elsewhere when not reserved.
    ("sum == 1", "sum == 1"), ("now.a == 1", "now.a == 1"), ("count[0] == 1", "count[0] == 1"),
    ("#sum(a) == 1", "error: expected a comparison operator, found '('"),
  ])
  func reservedWordKeys(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test(arguments: Keyword.allCases.filter { $0 != .utiConformsTo && $0 != .utiEquals })
  func everyReservedWordIsAKeyAfterHash(_ keyword: Keyword) throws {
    let key = keyword.rawValue.lowercased()
    let p = try parse("#\(key) == 1")
    #expect(lhs(p)?.kind == .keyPath(base: nil, keys: [key]))
    #expect(p.predicateFormat == "#\(key) == 1")
    let nested = try parse("a.#\(key) == 1")
    #expect(nested.predicateFormat == (key == "self" ? "a.self == 1" : "a.#\(key) == 1"))
  }

  /// Reserved words that cannot start an expression are rejected as keys, at the word.
  @Test(arguments: [
    "and", "or", "in", "like", "caseinsensitive", "ci", "matches", "contains", "beginswith", "endswith",
    "between",
    "first", "last", "size", "anykey", "fetch",
  ])
  func bareReservedWordIsNotAKey(_ key: String) throws {
    let error = try #require(parseError("\(key) == 1"))
    #expect(error.error.range == SourceRange(start: 0, end: key.utf8.count))
    let nested = try #require(parseError("a.\(key) == 1"))
    #expect(nested.error.range == SourceRange(start: 2, end: 2 + key.utf8.count))
  }
}
