import Testing

@testable import SiftSyntax

/// `SyntaxLimits`: every limit at its edge, hostile input that must fail cleanly instead of
/// crashing, and the linear cost of the backtracking at a predicate-level `(`.
@Suite struct LimitsTests {
  static let depthHint =
    "the limit is SyntaxLimits.maxNestingDepth; every bracket, prefix operator and index, "
    + "and each operator of a chain like a + b + c, is one level"

  /// A construct nested `n` deep: `prefix + unit×n + middle + suffix×n + tail`, where each
  /// `unit` adds one nesting level at byte `opening` of the unit.
  enum Nesting: String, CaseIterable, Sendable {
    case predicateParens, expressionParens, mixedParens, braces, brackets, not, bang, minus, tilde
    case functionArguments, selectorArguments, assignment, ternary, subquery, cast, customFunction
    case binaryChain, indexChain, keyPathChain

    var parts: (prefix: String, unit: String, middle: String, suffix: String, tail: String, opening: Int) {
      switch self {
      case .predicateParens: ("", "(", "a == 1", ")", "", 0)
      case .expressionParens: ("a == ", "(", "1", ")", "", 0)
      case .mixedParens: ("", "(", "a", ")", " == 1", 0)
      case .braces: ("a IN ", "{", "x", "}", "", 0)
      case .brackets: ("a == ", "b[", "0", "]", "", 1)
      case .not: ("", "NOT ", "a == 1", "", "", 0)
      case .bang: ("", "!", "a == 1", "", "", 0)
      case .minus: ("a == ", "-", "b", "", "", 0)
      case .tilde: ("a == ", "~", "b", "", "", 0)
      case .functionArguments: ("a == ", "abs(", "1", ")", "", 3)
      case .selectorArguments: ("a == ", "add:to:(1, ", "1", ")", "", 7)
      case .assignment: ("a == ", "$v := ", "1", "", "", 3)
      case .ternary: ("", "TERNARY(", "1", " == 1, 1, 2)", " == 1", 7)
      case .subquery: ("", "SUBQUERY(x, $x, ", "$x == 1", ").@count > 0", "", 8)
      case .cast: ("a == ", "CAST(", "1", ", 'T')", "", 4)
      case .customFunction: ("a == ", "FUNCTION(", "1", ", 'f')", "", 8)
      // Chains nest one tree level per operator or suffix.
      case .binaryChain: ("a == 1", " + 1", "", "", "", 1)
      case .indexChain: ("a", "[0]", "", "", " == 1", 0)
      case .keyPathChain: ("$v", "[0].k", "", "", " == 1", 0)
      }
    }

    func text(_ n: Int) -> String {
      let p = parts
      return p.prefix + String(repeating: p.unit, count: n) + p.middle + String(repeating: p.suffix, count: n)
        + p.tail
    }

    /// The byte offset of the opening token that goes one past `limit`.
    func errorOffset(limit: Int) -> Int {
      let p = parts
      return p.prefix.utf8.count + limit * p.unit.utf8.count + p.opening
    }

    /// Levels per unit (`$v[0].k` wraps twice: an index, then a key path on the index).
    var levelsPerUnit: Int { self == .keyPathChain ? 2 : 1 }
  }

  @Test(arguments: Nesting.allCases, [0, 1, 8])
  func nestingAtTheLimit(_ nesting: Nesting, _ limit: Int) throws {
    let limits = SyntaxLimits(maxNestingDepth: limit)
    let units = limit / nesting.levelsPerUnit
    #expect(parseError(nesting.text(units), limits: limits) == nil, "\(nesting.text(units))")
    let error = try #require(parseError(nesting.text(units + 1), limits: limits)).error
    #expect(error.message == "nesting is deeper than \(limit) levels")
    #expect(error.hint == Self.depthHint)
    if nesting.levelsPerUnit == 1 {
      #expect(error.range.start == nesting.errorOffset(limit: limit), "\(nesting.text(units + 1))")
    }
  }

  /// Nested just inside the default limit, every construct parses in a debug build on the
  /// test's own thread (the deepest stack is TERNARY: about 2 MB in a debug build).
  @Test(arguments: Nesting.allCases)
  func nestingAtTheDefaultLimit(_ nesting: Nesting) throws {
    let limit = SyntaxLimits().maxNestingDepth
    #expect(limit == 100)
    let units = limit / nesting.levelsPerUnit
    let p = try parse(nesting.text(units))
    #expect(try parse(p.predicateFormat) == p)
    let error = try #require(parseError(nesting.text(units + 1))).error
    #expect(error.message == "nesting is deeper than 100 levels")
  }

  @Test func levelsOfDifferentConstructsAddUp() throws {
    // ( abs( { ( -x ) } ) ) : five levels, plus one for the index.
    let text = "(abs({(-x[0])})) == 1"
    #expect(parseError(text, limits: SyntaxLimits(maxNestingDepth: 6)) == nil)
    let error = try #require(parseError(text, limits: SyntaxLimits(maxNestingDepth: 5))).error
    #expect(error.range == SourceRange(start: 9, end: 10))
    #expect(slice(text, error.range) == "[")
  }

  @Test func sequentialNestingDoesNotAccumulate() throws {
    let limits = SyntaxLimits(maxNestingDepth: 2)
    let text = String(repeating: "((a == 1)) AND ", count: 50) + "abs(abs(x)) == {{1}}.@count"
    #expect(parseError(text, limits: limits) == nil)
    #expect(
      parseError("abs((1)) + abs((2)) + {(3)}.@count == a[(4)]", limits: SyntaxLimits(maxNestingDepth: 4))
        == nil)
  }

  @Test func postfixChainsAccumulate() throws {
    // a [ (0) ] .b [ (1) ] .c [ (2) ]: each index and each key on an index wraps the chain.
    let text = "a[(0)].b[(1)].c[(2)] == 1"
    #expect(parseError(text, limits: SyntaxLimits(maxNestingDepth: 6)) == nil)
    let error = try #require(parseError(text, limits: SyntaxLimits(maxNestingDepth: 5))).error
    #expect(error.range == SourceRange(start: 16, end: 17))
    // Keys after a key path extend it and add nothing: a.b.c[0].d.e is two levels deep.
    #expect(parseError("a.b.c[0].d.e == 1", limits: SyntaxLimits(maxNestingDepth: 2)) == nil)
  }

  @Test func flatListsAreNotNesting() throws {
    let limits = SyntaxLimits(maxNestingDepth: 1)
    let many = (0..<500).map(String.init).joined(separator: ", ")
    #expect(parseError("a IN {\(many)}", limits: limits) == nil)
    #expect(parseError(String(repeating: "a == 1 AND ", count: 500) + "b == 2", limits: limits) == nil)
    #expect(parseError(String(repeating: "a == 1 OR ", count: 500) + "b == 2", limits: limits) == nil)
    #expect(parseError("a" + String(repeating: ".b", count: 500) + " == 1", limits: limits) == nil)
  }

  /// A long chain of operators is a deep tree; it stops at the limit instead of overflowing
  /// the stack of whatever walks the tree later.
  @Test func longOperatorChainsStopAtTheLimit() throws {
    let chain = "a == " + String(repeating: "1 + ", count: 100_000) + "1"
    let error = try #require(parseError(chain)).error
    #expect(error.message == "nesting is deeper than 100 levels")
    #expect(error.range == SourceRange(start: 407, end: 408))
    let indexes = "a" + String(repeating: "[0]", count: 100_000) + " == 1"
    #expect(try #require(parseError(indexes)).error.range == SourceRange(start: 301, end: 302))
  }

  @Test(arguments: [0, 1, 5])
  func aggregateElementsAtTheLimit(_ limit: Int) throws {
    let limits = SyntaxLimits(maxAggregateElements: limit)
    func aggregate(_ n: Int) -> String { "a IN {" + (0..<n).map { "x\($0)" }.joined(separator: ", ") + "}" }
    #expect(parseError(aggregate(limit), limits: limits) == nil)
    let text = aggregate(limit + 1)
    let error = try #require(parseError(text, limits: limits)).error
    #expect(error.message == "aggregate has more than \(limit) elements")
    #expect(slice(text, error.range) == "x\(limit)")
    #expect(error.hint == "the limit is SyntaxLimits.maxAggregateElements; pass large lists as a %@ argument")
  }

  @Test func aggregateLimitIsPerAggregate() throws {
    let limits = SyntaxLimits(maxAggregateElements: 3)
    #expect(parseError("a IN {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}", limits: limits) == nil)
    #expect(
      parseError("{1, 2, 3} == {4, 5, 6} AND sum(1, 2, 3, 4) == 1", limits: limits)?.error.message
        == "sum takes 1 argument, not 4")
    // Arguments are values, not aggregates in the text.
    #expect(parseError("a IN %@", [.array((0..<10).map { .int($0) })], limits: limits) == nil)
  }

  @Test func aggregateElementsAtTheDefaultLimit() throws {
    #expect(SyntaxLimits().maxAggregateElements == 10_000)
    func aggregate(_ n: Int) -> String { "a IN {" + String(repeating: "1,", count: n - 1) + "1}" }
    #expect(parseError(aggregate(10_000)) == nil)
    let error = try #require(parseError(aggregate(10_001))).error
    #expect(error.message == "aggregate has more than 10000 elements")
    #expect(error.range == SourceRange(start: 20_006, end: 20_007))
  }

  @Test(arguments: [0, 1, 10, 64])
  func inputLengthAtTheLimit(_ limit: Int) throws {
    let limits = SyntaxLimits(maxInputLength: limit)
    // Whitespace-padded predicates of exactly `limit` and `limit + 1` bytes.
    func text(_ n: Int) -> String {
      n < 6 ? String(repeating: " ", count: n) : "a == 1" + String(repeating: " ", count: n - 6)
    }
    if limit >= 6 { #expect(parseError(text(limit), limits: limits) == nil) }
    let error = try #require(parseError(text(limit + 1), limits: limits)).error
    #expect(error.message == "predicate is \(limit + 1) bytes long; the limit is \(limit)")
    #expect(error.range == SourceRange(start: limit, end: limit + 1))
    #expect(error.hint == "the limit is SyntaxLimits.maxInputLength")
  }

  @Test func inputLengthCountsUTF8Bytes() throws {
    let text = "a == 'é'"  // 8 characters, 9 bytes
    #expect(parseError(text, limits: SyntaxLimits(maxInputLength: 9)) == nil)
    let error = try #require(parseError(text, limits: SyntaxLimits(maxInputLength: 8))).error
    #expect(error.message == "predicate is 9 bytes long; the limit is 8")
    #expect(error.range == SourceRange(start: 8, end: 9))
  }

  @Test func inputLengthAtTheDefaultLimit() throws {
    let limit = SyntaxLimits().maxInputLength
    #expect(limit == 1 << 20)
    func text(_ n: Int) -> String { "a == '" + String(repeating: "x", count: n - 7) + "'" }
    #expect(parseError(text(limit)) == nil)
    let error = try #require(parseError(text(limit + 1)))
    #expect(error.error.message == "predicate is 1048577 bytes long; the limit is 1048576")
    // The rendered diagnostic shows a window of the megabyte-long line, not all of it.
    #expect(error.description.utf8.count < 600)
    #expect(error.description.hasPrefix("1:1048577: error: predicate is 1048577 bytes long"))
  }

  // MARK: - Canonical text

  static func canonicalHint(_ what: String) -> String {
    "SyntaxLimits.maxInputLength also bounds the text a \(what) prints as, so that it parses back: "
      + "a bound string or %K key counts as its printed text, and a control character prints as 6 bytes"
  }

  /// `a == %@` with a string of NULs (each prints as `\u0000`) and `x`s: canonical text of
  /// exactly 1 MiB parses and reads back to the same tree; one byte more is refused, with
  /// the canonical length, pointing at the whole predicate.
  @Test func canonicalTextOfAStringArgumentAtTheDefaultLimit() throws {
    let limit = SyntaxLimits().maxInputLength
    // `a == "` + 6 × 174,761 + 3 + `"` = 1,048,576 bytes.
    func argument(_ xs: Int) -> SiftValue {
      .string(String(repeating: "\u{0}", count: 174_761) + String(repeating: "x", count: xs))
    }
    let atLimit = try parse("a == %@", [argument(3)])
    let text = atLimit.predicateFormat
    #expect(text.utf8.count == limit)
    #expect(try parse(text) == atLimit)
    let error = try #require(parseError("a == %@", [argument(4)])).error
    #expect(error.message == "the canonical text of this predicate would be 1048577 bytes long; the limit is 1048576")
    #expect(error.range == SourceRange(start: 0, end: 7))
    #expect(error.hint == Self.canonicalHint("predicate"))
  }

  /// The same for a `%K` key (`#"…" == 1`), and issue 22's key of 1,040,000 NULs.
  @Test func canonicalTextOfAKeyArgumentAtTheDefaultLimit() throws {
    // `#"` + 6 × 174,761 + 2 + `" == 1` = 1,048,576 bytes.
    func key(_ xs: Int) -> SiftValue {
      .string(String(repeating: "\u{0}", count: 174_761) + String(repeating: "x", count: xs))
    }
    let atLimit = try parse("%K == 1", [key(2)])
    let text = atLimit.predicateFormat
    #expect(text.utf8.count == 1 << 20)
    #expect(try parse(text) == atLimit)
    #expect(
      parseError("%K == 1", [key(3)])?.error.message.hasSuffix("1048577 bytes long; the limit is 1048576") == true)
    let issue = try #require(parseError("%K == 1", [.string(String(repeating: "\u{0}", count: 1_040_000))])).error
    #expect(issue.message == "the canonical text of this predicate would be 6240008 bytes long; the limit is 1048576")
  }

  /// Text that grows when printed: raw control characters in a string literal, under a
  /// limit of 64. Exactly 64 canonical bytes parse; 65 are refused, though the text itself
  /// is 20 bytes.
  @Test(arguments: [0, 1])
  func canonicalTextOfTheTextItselfAtTheLimit(_ over: Int) throws {
    let limits = SyntaxLimits(maxInputLength: 64)
    // `a == "` + 6 × 9 + 3 + over + `"`: 64 + over canonical bytes; the text is 19 + over.
    let text = "a == '" + String(repeating: "\u{1}", count: 9) + String(repeating: "x", count: 3 + over) + "'"
    #expect(text.utf8.count == 19 + over)
    if over == 0 {
      let p = try parse(text, limits: limits)
      #expect(p.predicateFormat.utf8.count == 64)
      #expect(try parse(p.predicateFormat, limits: limits) == p)
    } else {
      let error = try #require(parseError(text, limits: limits)).error
      #expect(error.message == "the canonical text of this predicate would be 65 bytes long; the limit is 64")
      #expect(error.range == SourceRange(start: 0, end: 20))
    }
  }

  /// An expression parsed on its own is held to the same limit.
  @Test func canonicalTextOfAnExpression() throws {
    let options = ParseOptions(limits: SyntaxLimits(maxInputLength: 16))
    // `"` + 6 × 2 + 2 + `"` = 16 bytes.
    let fits = try ExpressionSyntax(parsing: "%@", arguments: ["\u{1}\u{1}xx"], options: options)
    #expect(fits.description.utf8.count == 16)
    #expect(try ExpressionSyntax(parsing: fits.description, options: options) == fits)
    let error = #expect(throws: PredicateSyntaxError.self) {
      try ExpressionSyntax(parsing: "%@", arguments: ["\u{1}\u{1}xxx"], options: options)
    }
    #expect(error?.error.message == "the canonical text of this expression would be 17 bytes long; the limit is 16")
    #expect(error?.error.hint == Self.canonicalHint("expression"))
  }

  /// A collection argument is not held to the limit (large lists are what `%@` is for): it
  /// counts as `{}`. Here 200,000 ids print as 2.4 MB, and strings of control characters
  /// inside an array as 6 bytes each.
  @Test func collectionArgumentsAreNotCounted() throws {
    let ids = SiftValue.array((0..<200_000).map { .string("id-\($0)") })
    let p = try parse("account IN %@", [ids])
    #expect(p.predicateFormat.utf8.count > 2_000_000)
    let controls = SiftValue.array([.string(String(repeating: "\u{1}", count: 20))])
    let limits = SyntaxLimits(maxInputLength: 32)
    #expect(parseError("a IN %@ AND b == 1", [controls], limits: limits) == nil)
    // The rest of the predicate still counts: `a IN {} AND b == "\u0001\u0001x"` is 32 bytes.
    #expect(parseError("a IN %@ AND b == %@", [controls, "\u{1}\u{1}x"], limits: limits) == nil)
    #expect(
      parseError("a IN %@ AND b == %@", [controls, "\u{1}\u{1}xx"], limits: limits)?.error.message
        == "the canonical text of this predicate would be 33 bytes long; the limit is 32")
  }

  /// The check measures only when a bound passes the limit: 8 × the text plus each
  /// argument's bound. The source's own tokens grow at most sixfold when printed (a control
  /// character in a string), so the margin holds; these are the constructs that grow most.
  @Test(arguments: [
    "a == '\u{1}\u{1}\u{1}\u{1}\u{1}\u{1}\u{1}\u{1}'", "a == '\u{7F}\u{0}'", "#'\u{1}\u{1}' == 1",
    "a == '\\0\\0\\0'", "a == 1e15", "a IN {9e15,9e15,9e15}", "a=NO", "a IN {NO,NO,NO,NO}", "!!!!!!a=b",
    "NONE a=b", "a=b||a=b&&a=b||a=b&&a=b", "a=($v:=1)", "SUBQUERY(x,$x,$x=1).@count>0", "FUNCTION(a,'b')=1",
    "CAST(1,'NSDate')=a", "a=[cd]b", "a<>b", "a=<b", "a=YES", "{1,2,3}=a", "a[0]=1", "-a=--b", "a+b*c=1",
    "TERNARY(a=1,1,2)=1", "a=\"\\t\\n\\r\"",
  ])
  func canonicalTextGrowsAtMostSixfold(_ text: String) throws {
    let printed = try parse(text).predicateFormat
    #expect(printed.utf8.count <= 6 * text.utf8.count, "\(text) -> \(printed)")
    #expect(CanonicalLengthCheck.textGrowthBound >= 6)
    #expect(try parse(printed) == parse(text))
  }

  /// Each argument's bound holds wherever it is bound (the bound expression printed).
  @Test(arguments: [
    ("%K", SiftValue.string("\u{1}")), ("%K", .string("-.-.-.-")), ("%K", .string("\u{1}.\u{1}")), ("%K", "self"),
    ("%K", "like.a"), ("%@", .string("\u{0}\u{0}")), ("%s", .string("\u{7F}")), ("%@", .string("")),
    ("%@", .double(-2.2250738585072014e-308)), ("%@", .date(secondsSinceReferenceDate: -1.7976931348623157e308)),
    ("%d", .int(.min)), ("%@", .double(.nan)), ("%@", .double(-.infinity)), ("%@", .bool(false)), ("%@", .null),
  ])
  func argumentBoundsHold(_ specifier: String, _ argument: SiftValue) throws {
    let bound = try #require(lhs(try parse(specifier + " == 1", [argument])))
    #expect(bound.description.utf8.count <= CanonicalLengthCheck.argumentBound(argument), "\(bound)")
  }

  /// Bytes are checked as UTF-8 first, then against the length limit: each failure names
  /// its own cause and points at its byte.
  @Test func invalidUTF8AndTheLengthLimit() throws {
    let options = ParseOptions(limits: SyntaxLimits(maxInputLength: 9))
    func failure(_ bytes: [UInt8]) -> SyntaxError? {
      #expect(throws: PredicateSyntaxError.self) { try PredicateSyntax(parsingUTF8: bytes, options: options) }?.error
    }
    #expect(try PredicateSyntax(parsingUTF8: Array("a == 'é'".utf8), options: options).predicateFormat == #"a == "é""#)
    let tooLong = try #require(failure(Array("a == 'éé'".utf8)))
    #expect(tooLong.message == "predicate is 11 bytes long; the limit is 9")
    // An invalid byte past the length limit is still reported as invalid UTF-8.
    let invalid = try #require(failure(Array("a == 'éé".utf8) + [0xFF]))
    #expect(invalid.message == "input is not valid UTF-8")
    #expect(invalid.range == SourceRange(start: 10, end: 11))
    let truncated = try #require(failure([0x61, 0x20, 0x3D, 0x3D, 0x20, 0xC3]))
    #expect(truncated.message == "input is not valid UTF-8")
    #expect(truncated.range == SourceRange(start: 5, end: 6))
  }

  /// A megabyte of `(` fails at the depth limit, not with a stack overflow.
  @Test func megabyteOfParentheses() throws {
    let text = String(repeating: "(", count: 1 << 20)
    let error = try #require(parseError(text))
    #expect(error.error.message == "nesting is deeper than 100 levels")
    #expect(error.error.range == SourceRange(start: 100, end: 101))
    #expect(error.description.utf8.count < 600)
  }

  /// Long runs of any opening token fail at the depth limit too (64 KiB each, to keep the
  /// debug test run short; the work before the limit does not depend on the length).
  @Test(arguments: [
    ("a == ", "{"), ("a == ", "-"), ("a == ", "~"), ("", "!"), ("", "NOT "), ("a == ", "abs("),
    ("a == ", "a["),
    ("a == ", "$v := "), ("", "TERNARY("), ("", "SUBQUERY(x, $x, "), ("a == ", "1 + "), ("a == $v", "[0]"),
    ("a == $v", "[0].k"),
  ])
  func longRunsOfOpeners(_ prefix: String, _ unit: String) throws {
    let text = prefix + String(repeating: unit, count: (1 << 16) / unit.utf8.count)
    let error = try #require(parseError(text)).error
    #expect(error.message == "nesting is deeper than 100 levels")
  }

  #if canImport(Glibc)
    /// With a smaller depth limit, a small stack is enough: the limit, not the input
    /// length, bounds the recursion.
    @Test func megabyteOfParenthesesOnASmallStack() {
      let message = onThread(stackSize: 512 << 10) { () -> String in
        let text = String(repeating: "(", count: 1 << 20)
        return parseError(text, limits: SyntaxLimits(maxNestingDepth: 20))?.error.message ?? "parsed"
      }
      #expect(message == "nesting is deeper than 20 levels")
    }

    /// The default limit needs about 2 MB of stack in a debug build (TERNARY, the
    /// deepest construct; far less in release). A 4 MB thread has room to spare.
    @Test func deepestDefaultNestingOnASecondaryThread() {
      let results = onThread(stackSize: 4 << 20) { () -> [String] in
        Nesting.allCases.flatMap { nesting -> [String] in
          let units = 100 / nesting.levelsPerUnit
          return [
            parseError(nesting.text(units))?.error.message ?? "ok",
            parseError(nesting.text(units + 1))?.error.message ?? "ok",
            parseError(String(repeating: nesting.parts.unit, count: 1 << 10))?.error.message ?? "ok",
          ]
        }
      }
      for (i, nesting) in Nesting.allCases.enumerated() {
        #expect(results[3 * i] == "ok", "\(nesting)")
        #expect(results[3 * i + 1] == "nesting is deeper than 100 levels", "\(nesting)")
        #expect(results[3 * i + 2] != "ok", "\(nesting)")
      }
    }
  #endif
}
