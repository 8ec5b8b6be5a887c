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
    ("1e0", 1.0), ("5e-324", .leastNonzeroMagnitude), ("1.7976931348623157e308", 1.7976931348623157e308),
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
    // The nearest double: 2^63.
    #expect(try lexKinds("9223372036854775809") == [.double(Double(9_223_372_036_854_775_809 as UInt64))])
  }

  /// A hex, octal or binary literal of 64 bits is its value, as a decimal literal of the
  /// same value would be: 2^63 is Int.min's magnitude, anything larger the nearest double
  /// (`0xFFFFFFFFFFFFFFFF` is 18446744073709551615, not -1). Only more than 64 bits is an
  /// error (the error table).
  @Test(arguments: [
    ("0x8000000000000000", Token.Kind.integerMinMagnitude),
    ("0b1" + String(repeating: "0", count: 63), .integerMinMagnitude),
    ("0o1000000000000000000000", .integerMinMagnitude),
    ("0x8000000000000001", .double(Double(0x8000_0000_0000_0001 as UInt64))),
    ("0xFFFFFFFFFFFFFFFF", .double(Double(UInt64.max))), ("0xffffffffffffffff", .double(Double(UInt64.max))),
    ("0b" + String(repeating: "1", count: 64), .double(Double(UInt64.max))),
    ("0o1777777777777777777777", .double(Double(UInt64.max))),
  ])
  func sixtyFourBitLiterals(_ source: String, _ kind: Token.Kind) throws {
    let tokens = try lexAll(source)
    #expect(tokens.map(\.kind) == [kind, .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: source.utf8.count))
  }

  /// The values in a tree, and the canonical text they print as, which parses back.
  @Test(arguments: [
    ("x == 0x8000000000000000", SiftValue.double(9_223_372_036_854_775_808), "x == 9.223372036854776e+18"),
    ("x == -0x8000000000000000", .int(.min), "x == -9223372036854775808"),
    ("x == 0xFFFFFFFFFFFFFFFF", .double(18_446_744_073_709_551_616), "x == 1.8446744073709552e+19"),
    ("x == 0x7FFFFFFFFFFFFFFF", .int(.max), "x == 9223372036854775807"),
  ])
  func sixtyFourBitLiteralsInATree(_ text: String, _ value: SiftValue, _ canonical: String) throws {
    let p = try parse(text)
    #expect(rhs(p)?.kind == .constant(value))
    #expect(p.predicateFormat == canonical)
    #expect(try parse(canonical) == p)
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
    ("0b" + String(repeating: "1", count: 65), "integer literal does not fit in 64 bits", 0, 67),
    ("0o2000000000000000000000", "integer literal does not fit in 64 bits", 0, 24),
    ("0x1FFFFFFFFFFFFFFFF", "integer literal does not fit in 64 bits", 0, 19),
    ("1e400", "number literal is out of range", 0, 5),
    ("1" + String(repeating: "0", count: 400), "number literal is out of range", 0, 401),
  ])
  func badNumber(_ source: String, _ message: String, _ start: Int, _ end: Int) throws {
    let error = try #require(lexError(source))
    #expect(error.message == message)
    #expect(error.range == SourceRange(start: start, end: end))
  }
}
