import Testing

@testable import SiftSyntax

/// How diagnostics are placed and drawn: lines, CRLF, tabs, non-ASCII columns, invalid
/// UTF-8, errors at the end of the input, spans that cross lines, very long lines.
@Suite struct DiagnosticRenderingTests {
  @Test func errorOnALaterLine() {
    #expect(
      diagnostic("name == \"x\"\n  AND age > 3\n  AND city == ?") == """
        3:15: error: unexpected character '?'
          AND city == ?
                      ^
        hint: '?' has no meaning outside quotes; use LIKE 'a?c' for a one-character wildcard
        """)
  }

  @Test func crlfLineEndsAreNotEchoed() {
    let source = "name == \"x\"\r\n  AND age > 3\r\n  AND city == ?\r\n"
    #expect(
      diagnostic(source) == """
        3:15: error: unexpected character '?'
          AND city == ?
                      ^
        hint: '?' has no meaning outside quotes; use LIKE 'a?c' for a one-character wildcard
        """)
    #expect(!diagnostic(source).contains("\r"))
  }

  @Test func endOfInputOnACrlfLine() {
    #expect(
      diagnostic("a == 1 AND\r\n  b ==\r\n") == """
        2:7: error: expected an expression after '==', found end of input
          b ==
              ^
        """)
  }

  @Test func tabsAreKeptInTheGutter() {
    #expect(
      diagnostic("\ta == 1 AND\n\t\tb === 2") == """
        2:7: error: expected an expression after '==', found '='
        \t\tb === 2
        \t\t    ^
        hint: '===' is not an operator; comparisons are == != < <= > >=
        """)
    #expect(
      diagnostic("a ==\t\t?") == """
        1:7: error: unexpected character '?'
        a ==\t\t?
            \t\t^
        hint: '?' has no meaning outside quotes; use LIKE 'a?c' for a one-character wildcard
        """)
  }

  /// The column counts Unicode scalars, not bytes or grapheme clusters; the caret is placed
  /// by terminal width (wide East Asian characters and emoji take two columns, combining
  /// marks none).
  @Test(arguments: [
    ("é == ?", 6, 5), ("日本 == ?", 7, 8), ("'👍' == ?", 8, 8), ("e\u{301} == ?", 7, 5), ("'ÄÖÜ' == ?", 10, 9),
    ("'🇫🇷' == ?", 9, 8), ("'ｗｉｄｅ' == ?", 11, 14), ("'\u{200D}' == ?", 8, 6),
  ])
  func columnCountsScalars(_ source: String, _ column: Int, _ gutter: Int) throws {
    let error = try #require(parseError(source))
    #expect(error.error.location(in: source) == SourceLocation(line: 1, column: column))
    let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[0] == "1:\(column): error: unexpected character '?'")
    #expect(lines[1] == source)
    #expect(lines[2] == String(repeating: " ", count: gutter) + "^")
  }

  @Test func wideCharactersWidenTheSpan() {
    #expect(
      diagnostic("日本 == '日本' ==") == """
        1:12: error: unexpected '==' after the end of the predicate
        日本 == '日本' ==
                       ^~
        hint: join predicates with AND or OR
        """)
    #expect(
      diagnostic("a == sum('日本', 2)") == """
        1:6: error: sum takes 1 argument, not 2
        a == sum('日本', 2)
             ^~~~~~~~~~~~~~
        """)
  }

  @Test func nonASCIISpanCountsScalars() {
    #expect(
      diagnostic("é == 'x' AND 日本 LIKE[q] 'y'") == """
        1:22: error: unknown option 'q' for LIKE
        é == 'x' AND 日本 LIKE[q] 'y'
                               ^
        hint: options are c (case), d (diacritics), n (normalized), l (locale), as in [cd]
        """)
    #expect(
      diagnostic("日本語 == 1 AND nil.日本語 == 2 AND 日本語語") == """
        1:35: error: expected a comparison operator after the expression
        日本語 == 1 AND nil.日本語 == 2 AND 日本語語
                                                    ^
        hint: a format string is a predicate, not a value: compare it, as in 日本語語 == …
        """)
    #expect(
      diagnostic("#ÄÖÜ(1) == 1 AND sum(1, 'ÄÖÜ') == 2") == """
        1:5: error: expected a comparison operator, found '('
        #ÄÖÜ(1) == 1 AND sum(1, 'ÄÖÜ') == 2
            ^
        hint: operators are == != < <= > >= BETWEEN IN CONTAINS BEGINSWITH ENDSWITH LIKE MATCHES
        """)
    #expect(
      diagnostic("x == sum(1, 'ÄÖÜ')") == """
        1:6: error: sum takes 1 argument, not 2
        x == sum(1, 'ÄÖÜ')
             ^~~~~~~~~~~~~
        """)
  }

  @Test func invalidUTF8PointsAtTheFirstBadByte() throws {
    var bytes = Array("name == 'caf".utf8)
    bytes.append(0xE9)  // Latin-1 'é', not UTF-8
    bytes += Array("' AND x == \u{FF}".utf8)
    var thrown: PredicateSyntaxError?
    do {
      _ = try PredicateSyntax(parsingUTF8: bytes)
    } catch {
      thrown = error
    }
    let error = try #require(thrown)
    #expect(error.error.message == "input is not valid UTF-8")
    #expect(error.error.range == SourceRange(start: 12, end: 13))
    #expect(
      error.description == """
        1:13: error: input is not valid UTF-8
        name == 'caf\u{FFFD}' AND x == ÿ
                    ^
        hint: the byte at offset 12 does not start or continue a UTF-8 sequence
        """)
  }

  @Test(arguments: [
    ([0x61, 0x20, 0x3D, 0x3D, 0x20, 0x80] as [UInt8], 5),  // lone continuation byte
    ([0x61, 0x20, 0x3D, 0x3D, 0x20, 0xE6, 0x97] as [UInt8], 5),  // truncated sequence at the end
    ([0xC0, 0xAF, 0x20, 0x3D, 0x3D, 0x20, 0x31] as [UInt8], 0),  // overlong encoding
    ([0x61, 0x0A, 0x62, 0xED, 0xA0, 0x80] as [UInt8], 3),  // encoded surrogate, second line
  ])
  func invalidUTF8Offsets(_ bytes: [UInt8], _ offset: Int) throws {
    var thrown: PredicateSyntaxError?
    do {
      _ = try PredicateSyntax(parsingUTF8: bytes)
    } catch {
      thrown = error
    }
    let error = try #require(thrown)
    #expect(error.error.message == "input is not valid UTF-8")
    #expect(error.error.range.start == offset)
  }

  @Test func validUTF8BytesParse() throws {
    let p = try PredicateSyntax(parsingUTF8: Array("名前 == '日本' AND %K == %@".utf8), arguments: ["k", 1])
    #expect(p.predicateFormat == #"名前 == "日本" AND k == 1"#)
    var thrown: PredicateSyntaxError?
    do {
      _ = try PredicateSyntax(parsingUTF8: Array("名前 == ?".utf8))
    } catch {
      thrown = error
    }
    let error = try #require(thrown)
    #expect(error.error.message == "unexpected character '?'")
    #expect(error.error.location(in: error.source) == SourceLocation(line: 1, column: 7))
  }

  @Test func errorsAtTheEndPointAfterTheLastToken() {
    // Trailing spaces and line breaks do not move the caret onto an empty line.
    #expect(
      diagnostic("a == 1 AND\n\n") == """
        1:11: error: expected a predicate after 'AND', found end of input
        a == 1 AND
                  ^
        """)
    #expect(
      diagnostic("a == 1 AND   ") == """
        1:11: error: expected a predicate after 'AND', found end of input
        a == 1 AND\u{20}\u{20}\u{20}
                  ^
        """)
    #expect(
      diagnostic("(a == 1\n AND\n (b == 2\n") == """
        3:9: error: expected ')' to close the parenthesised predicate, found end of input
         (b == 2
                ^
        hint: to match the '(' at 3:2
        """)
    #expect(
      diagnostic("  \n ") == """
        1:1: error: expected a predicate, found end of input
        \u{20}\u{20}
        ^
        hint: the format string is empty; TRUEPREDICATE is the predicate that is always true
        """)
  }

  @Test func aSpanIsCutAtTheEndOfItsLine() {
    #expect(
      diagnostic("a == sum(1,\n 2)") == """
        1:6: error: sum takes 1 argument, not 2
        a == sum(1,
             ^~~~~~
        """)
    #expect(
      diagnostic("a == \"line1\nline2") == """
        1:6: error: unterminated string
        a == "line1
             ^
        hint: the string that starts here has no closing "
        """)
  }

  @Test func openingBracketNamedByLineAndColumn() {
    #expect(
      diagnostic("a IN {\n  1,\n  2\n") == """
        3:4: error: expected '}' to close the aggregate, found end of input
          2
           ^
        hint: to match the '{' at 1:6
        """)
  }

  @Test func veryLongLinesAreShownAsAWindow() {
    let before = String(repeating: "a == 1 AND ", count: 30)
    let after = String(repeating: " AND c == 1", count: 30)
    let lines = diagnostic(before + "b == ?" + after).split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(lines[0] == "1:336: error: unexpected character '?'")
    // 120 scalars of source around the caret, with an ellipsis on each cut side.
    let shown = String(lines[1].dropFirst().dropLast())
    #expect(lines[1].hasPrefix("…") && lines[1].hasSuffix("…"))
    #expect(shown.count == 120)
    #expect((before + "b == ?" + after).contains(shown))
    #expect(lines[2] == String(repeating: " ", count: 41) + "^")
    #expect(lines[1].unicodeScalars.dropFirst(41).first == "?")
  }

  @Test func longLineWindowAtTheStartAndEnd() {
    let tail = String(repeating: " AND c == 1", count: 20)
    let start = diagnostic("? == 1" + tail).split(separator: "\n").map(String.init)
    #expect(start[1] == String(("? == 1" + tail).prefix(120)) + "…")
    #expect(start[2] == "^")
    let head = String(repeating: "c == 1 AND ", count: 20)
    let end = diagnostic(head + "b ==").split(separator: "\n").map(String.init)
    #expect(end[0] == "1:225: error: expected an expression after '==', found end of input")
    #expect(end[1] == "…" + String((head + "b ==").suffix(120)))
    #expect(end[2] == String(repeating: " ", count: 121) + "^")
    // Lines up to the width are shown whole.
    let exact = "a == " + String(repeating: "x", count: 113) + " ?"
    #expect(exact.count == 120)
    #expect(diagnostic(exact).split(separator: "\n")[1] == exact)
  }

  @Test func syntaxErrorRenderAndLocation() {
    let error = SyntaxError("something is wrong", at: SourceRange(start: 4, end: 7), hint: "try again")
    let source = "ab\ncd efg h"
    #expect(error.location(in: source) == SourceLocation(line: 2, column: 2))
    #expect(
      error.render(source: source) == """
        2:2: error: something is wrong
        cd efg h
         ^~~
        hint: try again
        """)
    #expect(PredicateSyntaxError(error, source: source).description == error.render(source: source))
    // An empty range still draws one caret; a range past the end is clamped.
    #expect(SyntaxError("x", at: .at(2)).render(source: "abc") == "1:3: error: x\nabc\n  ^")
    #expect(
      SyntaxError("x", at: SourceRange(start: 10, end: 20)).render(source: "abc")
        == "1:4: error: x\nabc\n   ^")
    #expect(SourceLocation(line: 3, column: 14).description == "3:14")
  }
}
