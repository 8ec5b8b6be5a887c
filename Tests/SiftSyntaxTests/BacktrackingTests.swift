import Testing

@testable import SiftSyntax

/// A `(` at the start of a predicate may open a parenthesised predicate or a parenthesised
/// expression; the parser tries both, memoised by position. These tests count the tokens the
/// parser consumes (re-reads included) and check that the count grows linearly with the
/// input: no timing, so they are stable on any machine.
@Suite struct BacktrackingTests {
  static func nest(_ n: Int, _ open: String, _ middle: String, _ close: String) -> String {
    String(repeating: open, count: n) + middle + String(repeating: close, count: n)
  }

  /// Families of inputs that exercise both readings of `(`; `n` is a nesting depth or a
  /// repetition count (at most 24, so 4n stays inside the default depth limit).
  static let families: [(String, @Sendable (Int) -> String)] = [
    ("deep expression in predicate parens", { n in nest(n, "(", "a", ")") + " == 1" }),
    ("arithmetic nest", { n in nest(n, "(", "(1) + 2", ") * 3") + " == 9" }),
    ("predicate nest", { n in nest(n, "(", "a == 1", ")") }),
    ("alternating predicate and expression", { n in nest(n, "((a == 1) AND (", "(b) == 2", "))") }),
    ("expression then predicate", { n in nest(n, "((b) == 1 AND (", "a == 2", "))") }),
    ("TERNARY in parentheses", { n in nest(n, "(TERNARY(", "(a == 1)", ", 1, 2) == 1)") }),
    ("SUBQUERY in parentheses", { n in nest(n, "(SUBQUERY(x, $x, (", "($x) == 1", ")).@count == 1)") }),
    (
      "repeated ((((((a)))))) == 1",
      { n in String(repeating: "((((((a)))))) == 1 AND ", count: n) + "TRUEPREDICATE" }
    ),
    (
      "repeated (((( (1) + 2) * 3 == 9 AND (b == 1))))",
      { n in String(repeating: "(((( (1) + 2) * 3 == 9 AND (b == 1)))) OR ", count: n) + "FALSEPREDICATE" }
    ),
  ]

  static func work(_ text: String) throws -> Int {
    try PredicateSyntax.parseCountingWork(text).tokensConsumed
  }

  static func tokenCount(_ text: String) throws -> Int {
    try lexAll(text).count
  }

  @Test(arguments: families.indices)
  func workGrowsLinearly(_ family: Int) throws {
    let (name, make) = Self.families[family]
    for n in [3, 6] {
      let small = try Self.work(make(n))
      let large = try Self.work(make(4 * n))
      #expect(large <= 4 * small + 8, "\(name): n=\(n) work \(small), 4n work \(large)")
      #expect(large >= 2 * small, "\(name): n=\(n) work \(small), 4n work \(large)")
    }
  }

  /// Each token is read at most about twice: once by the reading that fails, once by the
  /// one that succeeds (whose parenthesised sub-expressions come from the memo).
  @Test(arguments: families.indices)
  func workIsBoundedByTokenCount(_ family: Int) throws {
    let (name, make) = Self.families[family]
    for n in [1, 5, 24] {
      let text = make(n)
      let work = try Self.work(text)
      let tokens = try Self.tokenCount(text)
      #expect(work <= 2 * tokens + 4, "\(name): n=\(n) work \(work) for \(tokens) tokens")
    }
  }

  @Test func examplesFromTheBrief() throws {
    #expect(try parse("((((((a)))))) == 1").predicateFormat == "a == 1")
    #expect(
      try parse("(((( (1) + 2) * 3 == 9 AND (b == 1))))").predicateFormat == "(1 + 2) * 3 == 9 AND b == 1")
    #expect(
      try parse("((((((a)))))) == 1").treeDump == """
        comparison == @0..<18
          keyPath a @0..<13
          constant number 1 @17..<18
        """)
  }

  @Test func bothReadingsFailReportTheFurtherError() throws {
    // As a predicate, `(a + 1)` fails at `)`; as an expression, at `AND` (further in).
    let error = try #require(parseError("(a + 1) AND b == 1")).error
    #expect(error.message == "expected a comparison operator, found keyword AND")
    #expect(error.range == SourceRange(start: 8, end: 11))
    // As an expression, `(a == 1` fails at `==`; as a predicate, at the end (further in).
    let other = try #require(parseError("(a == 1")).error
    #expect(other.message == "expected ')' to close the parenthesised predicate, found end of input")
  }

  @Test func memoisedExpressionsKeepTheirRanges() throws {
    // The comparison reading reuses the expressions parsed by the failed group readings.
    let p = try parse("((a + (b))) * 2 == 1")
    #expect(
      p.treeDump == """
        comparison == @0..<20
          binary * @0..<15
            binary + @0..<11
              keyPath a @2..<3
              keyPath b @6..<9
            constant number 2 @14..<15
          constant number 1 @19..<20
        """)
  }

  @Test func reparsedArgumentsBindOnce() throws {
    let p = try parse("(((%@) + %K) * %d == %@)", [1, "k", 3, 4])
    #expect(p.predicateFormat == "(1 + k) * 3 == 4")
  }
}
