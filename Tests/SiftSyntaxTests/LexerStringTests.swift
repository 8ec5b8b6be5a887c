import Testing

@testable import SiftSyntax

/// String literals: both quote kinds and every escape.
@Suite struct LexerStringTests {
  @Test(arguments: [
    (#"'abc'"#, "abc"), (#""abc""#, "abc"), (#"''"#, ""), (#""""#, ""),
    // Each quote kind ends only its own kind.
    (#""a'b""#, "a'b"), (#"'a"b'"#, "a\"b"),
    // Quotes suppress format specifiers, variables and keywords.
    (#"'%@'"#, "%@"), (#""%K""#, "%K"), (#"'$x'"#, "$x"), (#"'AND'"#, "AND"), (#"'?'"#, "?"),
    // Raw non-ASCII text and raw line breaks are kept as they are.
    (#""日本語""#, "日本語"), (#"'café'"#, "café"), ("'a\nb'", "a\nb"), ("'a\tb'", "a\tb"),
  ])
  func plainString(_ source: String, _ value: String) throws {
    let tokens = try lexAll(source)
    #expect(tokens.map(\.kind) == [.string(value), .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: source.utf8.count))
  }

  @Test(arguments: [
    (#"\\"#, "\\"), (#"\""#, "\""), (#"\'"#, "'"),
    (#"\n"#, "\n"), (#"\t"#, "\t"), (#"\r"#, "\r"),
    (#"\a"#, "\u{07}"), (#"\b"#, "\u{08}"), (#"\f"#, "\u{0C}"), (#"\v"#, "\u{0B}"),
    // Octal: one to three digits.
    (#"\0"#, "\u{0}"), (#"\7"#, "\u{07}"), (#"\12"#, "\n"), (#"\101"#, "A"), (#"\177"#, "\u{7F}"),
    (#"\377"#, "\u{FF}"),
    // At most three octal digits are read; the fourth digit is text.
    (#"\1011"#, "A1"),
    // 8 and 9 are not octal digits: an unknown escape, which stands for the character.
    (#"\8"#, "8"), (#"\18"#, "\u{01}8"),
    // \x takes two hex digits, \u four.
    (#"\x41"#, "A"), (#"\x4a"#, "J"), (#"\x4A"#, "J"), (#"\x00"#, "\u{0}"), (#"\x411"#, "A1"),
    (#"\u00e9"#, "é"), (#"\u00E9"#, "é"), (#"\u0041BC"#, "ABC"), (#"\u65e5"#, "日"), (#"\uFFFD"#, "\u{FFFD}"),
    // Any other escaped character stands for itself.
    (#"\q"#, "q"), (#"\%"#, "%"), (#"\$"#, "$"), (#"\*"#, "*"), (#"\."#, "."), (#"\ "#, " "),
    (#"\é"#, "é"), (#"\日"#, "日"),
  ])
  func escape(_ escape: String, _ value: String) throws {
    for quote in ["'", "\""] {
      let source = quote + "<" + escape + ">" + quote
      let tokens = try lexAll(source)
      #expect(tokens.map(\.kind) == [.string("<" + value + ">"), .end], "\(source)")
      #expect(tokens[0].range == SourceRange(start: 0, end: source.utf8.count))
    }
  }

  /// `\u` escapes are UTF-16 code units: a high and a low surrogate make one scalar.
  @Test(arguments: [
    (#"'\uD83D\uDE00'"#, "😀"), (#"'\ud83d\ude00'"#, "😀"), (#"'a\uD834\uDD1Eb'"#, "a𝄞b"),
    (#""\uDBFF\uDFFF""#, "\u{10FFFF}"), (#""\uD800\uDC00""#, "\u{10000}"),
  ])
  func surrogatePair(_ source: String, _ value: String) throws {
    #expect(try lexKinds(source) == [.string(value)])
  }

  @Test(arguments: [
    (#"'\uD83D'"#, 1, 7), (#"'\uD83D\u0041'"#, 1, 7), (#"'\uD83D\uD83D'"#, 1, 7), (#"'\uDE00\uD83D'"#, 1, 7),
    (#"'\uD83D\uDE0'"#, 1, 7), (#"'\uD83Dx'"#, 1, 7), (#"'\xD8'"#, -1, -1),
  ])
  func loneSurrogate(_ source: String, _ start: Int, _ end: Int) throws {
    if start < 0 {
      #expect(try lexKinds(source) == [.string("\u{D8}")])  // \x escapes are not UTF-16 units
      return
    }
    let error = try #require(lexError(source))
    #expect(error.message == "escape does not name a Unicode scalar")
    #expect(error.range == SourceRange(start: start, end: end))
  }

  @Test func manyEscapesInOneString() throws {
    let source = #"'it\'s \"q\" \\ \x41\u00e9\101\q\n'"#
    #expect(try lexKinds(source) == [.string("it's \"q\" \\ AéAq\n")])
  }

  @Test func adjacentStringsAreTwoTokens() throws {
    let tokens = try lexAll(#"'a'"b""#)
    #expect(tokens.map(\.kind) == [.string("a"), .string("b"), .end])
    #expect(
      tokens.map(\.range) == [
        SourceRange(start: 0, end: 3), SourceRange(start: 3, end: 6), SourceRange(start: 6, end: 6),
      ])
  }

  @Test(arguments: [
    (#"'abc"#, "unterminated string", 0, 1, "the string that starts here has no closing '"),
    (#""abc"#, "unterminated string", 0, 1, "the string that starts here has no closing \""),
    (#"x == "abc'"#, "unterminated string", 5, 6, "the string that starts here has no closing \""),
    (#"'abc\'"#, "unterminated string", 0, 1, "the string that starts here has no closing '"),
    (#"'abc\"#, "unterminated string", 0, 1, "the string that starts here has no closing '"),
    (
      #"'\ud800'"#, "escape does not name a Unicode scalar", 1, 7,
      "surrogate halves (D800–DFFF) cannot stand alone"
    ),
    (
      #"'\uDFFF'"#, "escape does not name a Unicode scalar", 1, 7,
      "surrogate halves (D800–DFFF) cannot stand alone"
    ),
    (
      #"'ab\udc00cd'"#, "escape does not name a Unicode scalar", 3, 9,
      "surrogate halves (D800–DFFF) cannot stand alone"
    ),
  ])
  func badString(_ source: String, _ message: String, _ start: Int, _ end: Int, _ hint: String) throws {
    let error = try #require(lexError(source))
    #expect(error.message == message)
    #expect(error.range == SourceRange(start: start, end: end))
    #expect(error.hint == hint)
  }

  @Test(arguments: [
    (#"'\x4'"#, "expected 2 hexadecimal digits after '\\x'", 1, 4),
    (#"'\xZZ'"#, "expected 2 hexadecimal digits after '\\x'", 1, 3),
    (#"'\x"#, "expected 2 hexadecimal digits after '\\x'", 1, 3),
    (#"'\u12'"#, "expected 4 hexadecimal digits after '\\u'", 1, 5),
    (#"'\u12G4'"#, "expected 4 hexadecimal digits after '\\u'", 1, 5),
    (#"'\u'"#, "expected 4 hexadecimal digits after '\\u'", 1, 3),
  ])
  func badHexEscape(_ source: String, _ message: String, _ start: Int, _ end: Int) throws {
    let error = try #require(lexError(source))
    #expect(error.message == message)
    #expect(error.range == SourceRange(start: start, end: end))
  }
}
