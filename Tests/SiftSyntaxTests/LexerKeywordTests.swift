import Testing

@testable import SiftSyntax

/// Keywords, reserved words, identifiers, `#word` and `@ident`.
@Suite struct LexerKeywordTests {
  /// The reserved words of the language reference (§1.2), including the newer `FETCH` and
  /// the two UTI operators.
  static let reservedWords: Set<String> = [
    "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
    "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
    "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "FETCH",
    "UTI-CONFORMS-TO", "UTI-EQUALS",
  ]

  @Test func keywordListIsTheReservedWordList() {
    #expect(Set(Keyword.allCases.map(\.rawValue)) == Self.reservedWords)
  }

  /// Every spelling of a keyword: upper, lower, capitalised and alternating case.
  static func spellings(_ word: String) -> [String] {
    let lower = word.lowercased()
    let alternating = String(
      word.enumerated().map { i, c in i % 2 == 0 ? Character(c.lowercased()) : Character(c.uppercased()) })
    return [word, lower, lower.prefix(1).uppercased() + lower.dropFirst(), alternating]
  }

  @Test(arguments: Keyword.allCases)
  func keywordsAreCaseInsensitive(_ keyword: Keyword) throws {
    for spelling in Self.spellings(keyword.rawValue) {
      let tokens = try lexAll(spelling)
      #expect(tokens.map(\.kind) == [.keyword(keyword), .end], "\(spelling)")
      #expect(tokens[0].range == SourceRange(start: 0, end: spelling.utf8.count))
    }
  }

  @Test(arguments: Keyword.allCases)
  func hashMakesAnyReservedWordAKey(_ keyword: Keyword) throws {
    // `#UTI-EQUALS` is `#UTI` `-` `EQUALS`: a key cannot contain a hyphen.
    let word = keyword.rawValue.split(separator: "-")[0]
    let kinds = try lexKinds("#" + word.lowercased())
    #expect(kinds == [.identifier(word.lowercased(), escaped: true)])
  }

  @Test(arguments: [
    ("#foo", "foo"), ("#_x1", "_x1"), ("#LIKE", "LIKE"), ("#self", "self"), ("#function", "function"),
    ("#é", "é"),
  ])
  func hashWord(_ source: String, _ name: String) throws {
    let tokens = try lexAll(source)
    #expect(tokens.map(\.kind) == [.identifier(name, escaped: true), .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: source.utf8.count))
  }

  @Test(arguments: [
    ("@count", "@count"), ("@sum", "@sum"), ("@avg", "@avg"),
    ("@distinctUnionOfObjects", "@distinctUnionOfObjects"),
    ("@like", "@like"), ("@_x", "@_x"), ("@SELF", "@SELF"),
  ])
  func atIdentifier(_ source: String, _ name: String) throws {
    let tokens = try lexAll(source)
    #expect(tokens.map(\.kind) == [.identifier(name, escaped: false), .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: source.utf8.count))
  }

  @Test(arguments: [
    "a", "_", "_a1", "abc_DEF_123", "éclair", "日本語", "x\u{301}",
    // Keywords are whole words: a keyword prefix or suffix makes an ordinary identifier.
    "ANDROID", "orange", "inside", "notes", "Allow", "anything", "someone", "nonempty", "likely",
    "selfish", "trueish", "yesterday", "falsey", "nothing", "firstName", "lastName", "sizes", "cast_",
    "subquery2", "nil_", "null0", "truepredicates", "fetched", "cid", "in_", "utility", "uti",
  ])
  func identifier(_ name: String) throws {
    let tokens = try lexAll(name)
    #expect(tokens.map(\.kind) == [.identifier(name, escaped: false), .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: name.utf8.count))
  }

  /// Non-ASCII characters outside Unicode's identifier classes (XID_Start/XID_Continue) are
  /// not silently read as keys; typographic quotes, special spaces and math symbols get a
  /// hint; invisible characters are named by code point.
  @Test(
    arguments: [
      ("“Bob”", "“", "'“'", "strings are written with straight quotes, ' or \""),
      ("‘x’", "‘", "'‘'", "strings are written with straight quotes, ' or \""),
      ("«x»", "«", "'«'", "strings are written with straight quotes, ' or \""),
      ("\u{A0}", "\u{A0}", "U+00A0", "this is a special space character; use an ordinary space"),
      ("\u{200B}", "\u{200B}", "U+200B", "this is a special space character; use an ordinary space"),
      ("\u{3000}", "\u{3000}", "U+3000", "this is a special space character; use an ordinary space"),
      ("\u{FEFF}", "\u{FEFF}", "U+FEFF", "this is a special space character; use an ordinary space"),
      ("\u{2028}", "\u{2028}", "U+2028", nil), ("\u{85}", "\u{85}", "U+0085", nil),
      ("≠", "≠", "'≠'", "write != (or <>) for 'not equal'"),
      ("≤", "≤", "'≤'", "write <= (or =<) for 'less than or equal'"),
      ("≥", "≥", "'≥'", "write >= (or =>) for 'greater than or equal'"),
      ("−", "−", "'−'", "write - for minus"),
      ("×", "×", "'×'", "write * for multiplication"), ("∧", "∧", "'∧'", "write AND (or &&)"),
      ("👍", "👍", "'👍'", nil), ("€", "€", "'€'", nil),
    ] as [(String, String, String, String?)])
  func nonIdentifierCharacter(_ source: String, _ character: String, _ shown: String, _ hint: String?) throws {
    for prefix in ["", "a == ", "key"] {
      let error = try #require(lexError(prefix + source), "\(prefix + source)")
      #expect(error.message == "unexpected character \(shown)")
      let offset = prefix.utf8.count
      #expect(error.range == SourceRange(start: offset, end: offset + character.utf8.count))
      #expect(error.hint == hint)
    }
  }

  @Test func identifiersUseUnicodeIdentifierClasses() throws {
    // Letters of any script and combining marks (after the first character) are key text.
    #expect(
      try lexKinds("Ωμέγα == naïve") == [
        .identifier("Ωμέγα", escaped: false), .punct(.equal), .identifier("naïve", escaped: false),
      ])
    #expect(try lexKinds("x\u{301}y") == [.identifier("x\u{301}y", escaped: false)])
    #expect(try lexKinds("a١") == [.identifier("a١", escaped: false)])  // Arabic-Indic digit one
    // A combining mark cannot start a key; a digit of another script cannot either.
    #expect(lexError("\u{301}x")?.message == "unexpected character '\u{301}'")
    #expect(lexError("١a")?.message == "unexpected character '١'")
  }

  @Test(arguments: [
    ("a UTI-CONFORMS-TO b", Keyword.utiConformsTo, SourceRange(start: 2, end: 17)),
    ("a uti-conforms-to b", .utiConformsTo, SourceRange(start: 2, end: 17)),
    ("a Uti-Conforms-To b", .utiConformsTo, SourceRange(start: 2, end: 17)),
    ("a UTI-EQUALS b", .utiEquals, SourceRange(start: 2, end: 12)),
    ("a uti-equals b", .utiEquals, SourceRange(start: 2, end: 12)),
  ])
  func utiOperators(_ source: String, _ keyword: Keyword, _ range: SourceRange) throws {
    let tokens = try lexAll(source)
    #expect(
      tokens.map(\.kind) == [
        .identifier("a", escaped: false), .keyword(keyword), .identifier("b", escaped: false), .end,
      ])
    #expect(tokens[1].range == range)
  }

  @Test(arguments: [
    // Not the whole UTI word: ordinary identifiers and minus signs.
    ("UTI-CONFORMS-TOO", ["UTI", "-", "CONFORMS", "-", "TOO"]),
    ("UTI-EQUALSX", ["UTI", "-", "EQUALSX"]),
    ("uti-equal", ["uti", "-", "equal"]),
    ("uti-x", ["uti", "-", "x"]),
    ("utix-equals", ["utix", "-", "equals"]),
  ])
  func utiLookalikes(_ source: String, _ parts: [String]) throws {
    let expected: [Token.Kind] = parts.map { $0 == "-" ? .punct(.minus) : .identifier($0, escaped: false) }
    #expect(try lexKinds(source) == expected)
  }

  @Test(arguments: [
    ("#", "expected a key after '#'", SourceRange(start: 0, end: 1)),
    ("# like", "expected a key after '#'", SourceRange(start: 0, end: 1)),
    ("#1", "expected a key after '#'", SourceRange(start: 0, end: 1)),
    ("@", "expected a name after '@'", SourceRange(start: 0, end: 1)),
    ("@ count", "expected a name after '@'", SourceRange(start: 0, end: 1)),
    ("@@count", "expected a name after '@'", SourceRange(start: 0, end: 1)),
  ])
  func markerWithoutName(_ source: String, _ message: String, _ range: SourceRange) throws {
    let error = try #require(lexError(source))
    #expect(error.message == message)
    #expect(error.range == range)
    #expect(error.hint != nil)
  }

  /// Which keys the printer escapes with `#`: the reserved words and the names the parser
  /// gives a meaning before `(`, in any case, as Unicode upper-casing reads them (`ﬁrst` is
  /// FIRST); the in-place lookup for ASCII names answers the same.
  @Test func needsEscapeIsUpperCasedMembership() {
    let extra = ["FUNCTION", "TERNARY", "APPLY", "INTERSECTION", "INTERSECT", "MINUS", "UNION", "TOKENMATCHES"]
    var names = ["a", "x", "name", "ands", "an", "i", "functions", "unions", "_in", "in_", "IN2", "é", "ﬁrst", "ıN"]
    for word in Keyword.allCases.map(\.rawValue) + extra {
      names += [word, word.lowercased(), word.prefix(1) + word.dropFirst().lowercased(), String(word.dropLast())]
    }
    for name in names {
      let upper = name.uppercased()
      #expect(Keyword.needsEscape(name) == (Keyword(rawValue: upper) != nil || extra.contains(upper)), "\(name)")
    }
    #expect(Keyword.needsEscape("ﬁrst"))
    #expect(Keyword.needsEscape("like") && Keyword.needsEscape("Function") && !Keyword.needsEscape("a"))
  }
}
