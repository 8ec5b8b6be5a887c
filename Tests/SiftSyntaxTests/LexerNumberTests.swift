import Testing

@testable import SiftSyntax

/// Number literals: decimal, fraction, exponent, `0x`/`0o`/`0b`, overflow, and bad numbers.
@Suite struct LexerNumberTests {
  @Test(arguments: [
    ("0", 0), ("7", 7), ("42", 42), ("007", 7), ("1000000", 1_000_000),
    ("9223372036854775807", Int.max),
    ("0x1F", 31), ("0X1f", 31), ("0xff", 255), ("0x0", 0), ("0x7FFFFFFFFFFFFFFF", Int.max),
    ("0o17", 15), ("0O17", 15), ("0o0", 0), ("0o777", 511),
    ("0b101", 5), ("0B101", 5), ("0b0", 0), ("0b11111111", 255),
  ])
  func integer(_ source: String, _ value: Int) throws {
    let tokens = try lexAll(source)
    #expect(tokens.map(\.kind) == [.integer(value), .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: source.utf8.count))
  }

  @Test(arguments: [
    ("1.5", 1.5), ("2.71828", 2.71828), ("0.0", 0.0), ("10.25", 10.25), ("1.0", 1.0),
    ("9.2e-5", 9.2e-5), ("1e5", 1e5), ("1E5", 1e5), ("1e+20", 1e20), ("1E-3", 1e-3), ("2.5e3", 2500.0),
    ("1e0", 1.0), ("5e-324", 5e-324), ("1.7976931348623157e308", 1.7976931348623157e308),
    // A decimal integer too large for Int becomes a double instead of failing.
    ("99999999999999999999", 1e20),
    ("123456789012345678901234567890", 1.2345678901234568e29),
  ])
  func double(_ source: String, _ value: Double) throws {
    let tokens = try lexAll(source)
    #expect(tokens.map(\.kind) == [.double(value), .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: source.utf8.count))
  }

  /// 2^63 does not fit in Int but is Int.min's magnitude: a token of its own, so that
  /// `-9223372036854775808` can be Int.min.
  @Test(arguments: ["9223372036854775808", "09223372036854775808"])
  func intMinMagnitude(_ source: String) throws {
    #expect(try lexKinds(source) == [.integerMinMagnitude])
    #expect(try lexKinds("9223372036854775809") == [.double(9_223_372_036_854_775_809)])
  }

  @Test(arguments: [
    // No negative literals: the minus is its own token.
    ("-1", [Token.Kind.punct(.minus), .integer(1)]),
    ("- 2.5", [.punct(.minus), .double(2.5)]),
    // A dot must be followed by a digit to start a fraction; otherwise it is a key path dot.
    ("1.", [.integer(1), .punct(.dot)]),
    ("1.e5", [.integer(1), .punct(.dot), .identifier("e5", escaped: false)]),
    ("1.x", [.integer(1), .punct(.dot), .identifier("x", escaped: false)]),
    (".5", [.punct(.dot), .integer(5)]),
    ("1.5.2", [.double(1.5), .punct(.dot), .integer(2)]),
    // An exponent needs digits; `1e` alone is not a number (see the error tests).
    ("2*3", [.integer(2), .punct(.star), .integer(3)]),
    ("0x1F+1", [.integer(31), .punct(.plus), .integer(1)]),
    ("1e5)", [.double(1e5), .punct(.rParen)]),
  ])
  func numberBoundaries(_ source: String, _ kinds: [Token.Kind]) throws {
    #expect(try lexKinds(source) == kinds)
  }

  @Test(arguments: [
    ("0x", "expected digits after the number prefix", 0, 2),
    ("0b", "expected digits after the number prefix", 0, 2),
    ("0o", "expected digits after the number prefix", 0, 2),
    ("0x == 1", "expected digits after the number prefix", 0, 2),
    ("12abc", "invalid number literal", 0, 5),
    ("12abc == 1", "invalid number literal", 0, 5),
    ("1_000", "invalid number literal", 0, 5),
    ("0x1G", "invalid number literal", 0, 4),
    ("0b102", "invalid number literal", 0, 5),
    ("0o8", "invalid number literal", 0, 3),
    ("00x1", "invalid number literal", 0, 4),
    ("1e", "invalid number literal", 0, 2),
    ("1e+", "invalid number literal", 0, 2),
    ("1.5abc", "invalid number literal", 0, 6),
    ("x == 3rd", "invalid number literal", 5, 8),
    ("0x10000000000000000", "integer literal does not fit in 64 bits", 0, 19),
    ("0b" + String(repeating: "1", count: 64), "integer literal does not fit in 64 bits", 0, 66),
    ("1e400", "number literal is out of range", 0, 5),
    ("1" + String(repeating: "0", count: 400), "number literal is out of range", 0, 401),
  ])
  func badNumber(_ source: String, _ message: String, _ start: Int, _ end: Int) throws {
    let error = try #require(lexError(source))
    #expect(error.message == message)
    #expect(error.range == SourceRange(start: start, end: end))
  }
}
