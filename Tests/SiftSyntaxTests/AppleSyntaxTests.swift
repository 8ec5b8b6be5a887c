import SiftTestSupport
import Testing

@testable import SiftSyntax

/// The syntax public apps write that Sift once refused or printed wrongly: a `%K` after a
/// dot, custom-selector comparisons, set expressions, surplus arguments, and keys that are
/// not identifiers. Each form parses, prints canonically, and the printed text parses back
/// to the same tree.
@Suite struct AppleSyntaxTests {
  @Test(arguments: [
    // 1. A format argument after a dot.
    ("%K.%K == %@", ["a", "b", 1] as [SiftValue], "a.b == 1"),
    ("ANY %K.user.%K == %@", ["posts", "name", "x"], "ANY posts.user.name == \"x\""),
    ("firstName.%K = 4", ["length"], "firstName.length == 4"),
    ("%K == $FETCH_SOURCE.%K", ["id", "owner"], "id == $FETCH_SOURCE.owner"),
    ("%K.%K BEGINSWITH[c] 'a'", ["a", "b"], "a.b BEGINSWITH[c] \"a\""),
    ("a.%K == 1", ["b.c"], "a.b.c == 1"),
    ("sum(x).%K == 1", ["description"], "sum:(x).description == 1"),
    ("a[0].%K == 1", ["fill-opacity"], "a[0].#\"fill-opacity\" == 1"),
    // 2. Custom selectors.
    ("self isKindOfClass: %@", ["NSString"], "SELF isKindOfClass: \"NSString\""),
    ("(SELF isKindOfClass: %@)", ["NSNumber"], "SELF isKindOfClass: \"NSNumber\""),
    ("number notContainedIn: %@", ["x"], "number notContainedIn: \"x\""),
    ("number notContainedIn: {1, 2}", [], "number notContainedIn: {1, 2}"),
    ("NOT (a isEqual: b) OR c == 1", [], "NOT a isEqual: b OR c == 1"),
    ("a + 1 isEqual: 2", [], "a + 1 isEqual: 2"),
    // 3. Set expressions.
    ("A IN B UNION C", [], "A IN B UNION C"),
    ("A IN B intersect C", [], "A IN B INTERSECT C"),
    ("A IN B Minus C", [], "A IN B MINUS C"),
    ("x IN (a UNION b) MINUS c", [], "x IN a UNION b MINUS c"),
    ("x IN a UNION (b MINUS c)", [], "x IN a UNION (b MINUS c)"),
    ("x IN a + 1 UNION b", [], "x IN a + 1 UNION b"),
    ("x IN a + (b UNION c)", [], "x IN a + (b UNION c)"),
    ("union == minus", [], "#union == #minus"),
    ("a.union == 1", [], "a.#union == 1"),
    // 4. Surplus arguments are ignored.
    ("%K like '%@'", ["name", "extra"], "name LIKE \"%@\""),
    ("name == '%@'", ["x"], "name == \"%@\""),
    // 5. Keys that are not identifiers.
    ("%K == 1", ["fill-opacity"], "#\"fill-opacity\" == 1"),
    ("%K == 1", ["ISO 3166-1:2006"], "#\"ISO 3166-1:2006\" == 1"),
    ("%K == 1", ["$single"], "#\"$single\" == 1"),
    ("%K == 1", ["x == 1 OR TRUEPREDICATE"], "#\"x == 1 OR TRUEPREDICATE\" == 1"),
    ("%K == 1", ["line\nbreak"], "#\"line\\nbreak\" == 1"),
    ("%K == 1", ["like"], "#like == 1"),
    ("%K == 1", ["@count"], "@count == 1"),
    ("%K == 1", ["@"], "#\"@\" == 1"),
    ("%K == 1", ["9lives"], "#\"9lives\" == 1"),
    ("%K == 1", ["café"], "café == 1"),
    ("#'it\\'s' == 1", [], "#\"it's\" == 1"),
  ])
  func parsesAndRoundTrips(_ source: String, _ arguments: [SiftValue], _ expected: String) throws {
    let tree = try PredicateSyntax(parsing: source, arguments: arguments)
    #expect(tree.predicateFormat == expected)
    #expect(try PredicateSyntax(parsing: tree.predicateFormat) == tree)
  }

  /// What each new form means as a tree.
  @Test func trees() throws {
    let selector = try PredicateSyntax(parsing: "SELF isKindOfClass: 'NSString'")
    #expect(
      selector.kind
        == .customSelector(
          lhs: ExpressionSyntax(.evaluatedObject), selector: "isKindOfClass:",
          rhs: ExpressionSyntax(.constant("NSString"))))
    let union = try PredicateSyntax(parsing: "x IN a UNION b")
    guard case .comparison(let c) = union.kind, case .binary(.union, _, _) = c.rhs.kind else {
      Issue.record("\(union.treeDump)")
      return
    }
    let path = try PredicateSyntax(parsing: "%K.%K == 1", arguments: ["a.b", "c"])
    guard case .comparison(let p) = path.kind else { return }
    #expect(p.lhs.kind == .keyPath(base: nil, keys: ["a", "b", "c"]))
  }

  /// Keys of any text, bound through `%K` (first or after a dot) or built as a tree, print
  /// in a form that parses back to the same tree, on one line.
  @Test func everyKeyRoundTrips() throws {
    let pieces = [
      "a", "Z", "_", "0", "9", "-", " ", ":", "$", "#", "@", "\"", "'", "\\", "\n", "\r", "\t", "\u{0}", "\u{7F}",
      "é", "😀", "\u{2028}", "(", ")", "==", "AND", "like", "SELF", "self", "union", "%@", "%K", "{", "[",
    ]
    var rng = SplitMix64(seed: 0x51F7)
    for _ in 0..<3_000 {
      var key = ""
      for _ in 0..<(1 + rng.below(4)) { key += pieces[rng.below(pieces.count)] }
      let trees: [PredicateSyntax] = [
        try PredicateSyntax(parsing: "x.%K == 1", arguments: [.string(key.replacingOccurrences(of: ".", with: ""))]),
        PredicateSyntax(
          .comparison(
            ComparisonSyntax(
              ExpressionSyntax(.keyPath(base: nil, keys: [key, key + "."])), .equal, ExpressionSyntax(.constant(1))))),
      ]
      for tree in trees {
        let text = tree.predicateFormat
        #expect(!text.contains("\n") && !text.contains("\r"), "\(text)")
        let reparsed = try PredicateSyntax(parsing: text)
        #expect(reparsed == tree, "\(key.debugDescription) printed as \(text)")
      }
    }
  }

  /// Surplus arguments: ignored, and counted for a caller that warns.
  @Test func surplusArgumentsAreCounted() throws {
    #expect(PredicateSyntax.unusedArgumentCount(in: "a == %@", arguments: 3) == 2)
    #expect(PredicateSyntax.unusedArgumentCount(in: "a == '%@'", arguments: 1) == 1)
    #expect(PredicateSyntax.unusedArgumentCount(in: "a == %@ AND %K == 1", arguments: 2) == 0)
    #expect(PredicateSyntax.unusedArgumentCount(in: "a == %@", arguments: 0) == 0)
  }
}
