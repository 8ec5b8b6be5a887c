import Testing

@testable import SiftSyntax

/// Operators and punctuation, whitespace, unexpected characters and token ranges.
@Suite struct LexerOperatorTests {
  @Test(arguments: [
    ("==", Punct.equal), ("=", .assignEqual), ("!=", .notEqual), ("<>", .notEqualAlt),
    ("<", .less), (">", .greater), ("<=", .lessEqual), ("=<", .lessEqualAlt),
    (">=", .greaterEqual), ("=>", .greaterEqualAlt),
    ("&&", .andAnd), ("||", .orOr), ("!", .bang),
    ("+", .plus), ("-", .minus), ("*", .star), ("/", .slash), ("**", .starStar),
    ("<<", .shiftLeft), (">>", .shiftRight), ("&", .ampersand), ("|", .pipe), ("^", .caret), ("~", .tilde),
    (":=", .assign), (":", .colon),
    ("[", .lBracket), ("]", .rBracket), ("{", .lBrace), ("}", .rBrace), ("(", .lParen), (")", .rParen),
    (",", .comma), (".", .dot),
  ])
  func operatorToken(_ source: String, _ punct: Punct) throws {
    let tokens = try lexAll(source)
    #expect(tokens.map(\.kind) == [.punct(punct), .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: source.utf8.count))
  }

  @Test(arguments: Punct.allCases)
  func everyPunctLexesFromItsSpelling(_ punct: Punct) throws {
    #expect(try lexKinds(punct.rawValue) == [.punct(punct)])
    #expect(try lexKinds(" " + punct.rawValue + " ") == [.punct(punct)])
  }

  @Test(arguments: [
    // The longest operator wins, then lexing continues after it.
    ("===", [Punct.equal, .assignEqual]),
    ("!==", [.notEqual, .assignEqual]),
    ("<<=", [.shiftLeft, .assignEqual]),
    (">>=", [.shiftRight, .assignEqual]),
    ("<>=", [.notEqualAlt, .assignEqual]),
    ("***", [.starStar, .star]),
    ("&&&", [.andAnd, .ampersand]),
    ("|||", [.orOr, .pipe]),
    ("!!", [.bang, .bang]),
    ("=<=", [.lessEqualAlt, .assignEqual]),
    ("=>>", [.greaterEqualAlt, .greater]),
    ("::=", [.colon, .assign]),
    ("--", [.minus, .minus]),
    ("~-", [.tilde, .minus]),
    ("= =", [.assignEqual, .assignEqual]),
    ("< =", [.less, .assignEqual]),
    ("* *", [.star, .star]),
    ("((", [.lParen, .lParen]),
  ])
  func maximalMunch(_ source: String, _ puncts: [Punct]) throws {
    #expect(try lexKinds(source) == puncts.map { .punct($0) })
  }

  @Test func comparisonWithoutSpaces() throws {
    let a = Token.Kind.identifier("a", escaped: false)
    let b = Token.Kind.identifier("b", escaped: false)
    #expect(try lexKinds("a<=b") == [a, .punct(.lessEqual), b])
    #expect(try lexKinds("a=<b") == [a, .punct(.lessEqualAlt), b])
    #expect(try lexKinds("a<-1") == [a, .punct(.less), .punct(.minus), .integer(1)])
    #expect(try lexKinds("a!=b") == [a, .punct(.notEqual), b])
    #expect(
      try lexKinds("a[0].b") == [a, .punct(.lBracket), .integer(0), .punct(.rBracket), .punct(.dot), b])
  }

  @Test(
    arguments: [
      (
        "?", "unexpected character '?'",
        "'?' has no meaning outside quotes; use LIKE 'a?c' for a one-character wildcard"
      ),
      (";", "unexpected character ';'", "a format string holds exactly one predicate"),
      ("\\", "unexpected character '\\'", nil),
      ("`", "unexpected character '`'", nil),
      ("\u{1}", "unexpected character byte 0x1", nil),
      ("\u{7F}", "unexpected character byte 0x7f", nil),
    ] as [(String, String, String?)])
  func unexpectedCharacter(_ source: String, _ message: String, _ hint: String?) throws {
    for (prefix, offset) in [("", 0), ("a == ", 5)] {
      let error = try #require(lexError(prefix + source))
      #expect(error.message == message)
      #expect(error.range == SourceRange(start: offset, end: offset + 1))
      #expect(error.hint == hint)
    }
  }

  @Test func whitespaceIsInsignificant() throws {
    let dense = try lexKinds("a==1&&b!=2")
    let spaced = try lexKinds(" \t a \n == \r\n 1 \u{0B} && \u{0C} b != 2 \n")
    #expect(dense == spaced)
    #expect(dense.count == 7)
  }

  @Test func tokenRangesAreByteOffsets() throws {
    let source = "é  ==\t\"日\" AND #like[LAST] != %@"
    let tokens = try lexAll(source)
    let spans = tokens.map { slice(source, $0.range) }
    #expect(spans == ["é", "==", "\"日\"", "AND", "#like", "[", "LAST", "]", "!=", "%@", ""])
    #expect(
      tokens.map(\.range) == [
        SourceRange(start: 0, end: 2), SourceRange(start: 4, end: 6), SourceRange(start: 7, end: 12),
        SourceRange(start: 13, end: 16), SourceRange(start: 17, end: 22), SourceRange(start: 22, end: 23),
        SourceRange(start: 23, end: 27), SourceRange(start: 27, end: 28), SourceRange(start: 29, end: 31),
        SourceRange(start: 32, end: 34), SourceRange(start: 34, end: 34),
      ])
  }

  /// The end token sits right after the last token, not after trailing whitespace, so that
  /// "found end of input" points at the line where the text stops.
  @Test(arguments: [("", 0), ("   ", 0), ("a", 1), ("a  ", 1), ("a == 1\n", 6), ("a == 1 AND\r\n\t", 10)])
  func endTokenRange(_ source: String, _ offset: Int) throws {
    let tokens = try lexAll(source)
    #expect(tokens.last == Token(kind: .end, range: .at(offset)))
  }
}
