import Testing

@testable import SiftSyntax

/// Format specifiers (`%@`, `%K`, printf conversions with length modifiers, `%%`) and `$var`.
@Suite struct LexerSpecifierTests {
  @Test(arguments: [
    ("%@", FormatSpecifier.object), ("%K", .keyPath), ("%s", .cString),
    ("%d", .integer("d")), ("%i", .integer("i")), ("%u", .integer("u")), ("%x", .integer("x")),
    ("%o", .integer("o")), ("%c", .integer("c")),
    ("%f", .floatingPoint("f")), ("%e", .floatingPoint("e")), ("%g", .floatingPoint("g")),
  ])
  func specifier(_ source: String, _ specifier: FormatSpecifier) throws {
    let tokens = try lexAll(source)
    #expect(tokens.map(\.kind) == [.specifier(specifier), .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: 2))
  }

  /// Every length modifier with every numeric conversion.
  @Test(arguments: ["h", "l", "ll", "q"], ["d", "i", "u", "x", "o", "c", "f", "e", "g"])
  func lengthModifier(_ modifier: String, _ conversion: String) throws {
    let source = "%" + modifier + conversion
    let tokens = try lexAll(source)
    let c = Character(conversion)
    let expected: FormatSpecifier = "feg".contains(c) ? .floatingPoint(c) : .integer(c)
    #expect(tokens.map(\.kind) == [.specifier(expected), .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: source.utf8.count))
  }

  @Test func percentPercent() throws {
    let tokens = try lexAll("%%")
    #expect(tokens.map(\.kind) == [.percentLiteral, .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: 2))
  }

  @Test func specifiersNeedNoSpaces() throws {
    #expect(
      try lexKinds("%K==%@") == [.specifier(.keyPath), .punct(.equal), .specifier(.object)])
    #expect(
      try lexKinds("%d%%%f") == [.specifier(.integer("d")), .percentLiteral, .specifier(.floatingPoint("f"))])
  }

  @Test(arguments: [
    ("%k", 0, 2), ("%k == 3", 0, 2), ("a == %k", 5, 7), ("%", 0, 1), ("a == %", 5, 6), ("%z", 0, 2),
    ("%D", 0, 2),
    ("%S", 0, 2), ("%Lf", 0, 2), ("% d", 0, 2),
    // Modifiers apply only to the numeric conversions.
    ("%l@", 0, 3), ("%lK", 0, 3), ("%ls", 0, 3), ("%hh", 0, 3), ("%lll", 0, 4), ("%l", 0, 2), ("%q@", 0, 3),
    // A non-ASCII byte after '%' is not swallowed into the span.
    ("%é", 0, 1),
  ])
  func unknownSpecifier(_ source: String, _ start: Int, _ end: Int) throws {
    let error = try #require(lexError(source))
    #expect(error.message == "unknown format specifier")
    #expect(error.range == SourceRange(start: start, end: end))
    #expect(
      error.hint
        == "specifiers are %@ (value), %K (key path), %d %i %u %x %o %c (integer), %f %e %g (number), %s, %%")
  }

  @Test(arguments: [
    ("$x", "x"), ("$name", "name"), ("$_a1", "_a1"), ("$é", "é"), ("$X", "X"),
    // A reserved word after '$' is just a name; '$#' is also accepted.
    ("$like", "like"), ("$SELF", "SELF"), ("$#like", "like"), ("$#x", "x"),
  ])
  func variable(_ source: String, _ name: String) throws {
    let tokens = try lexAll(source)
    #expect(tokens.map(\.kind) == [.variable(name), .end])
    #expect(tokens[0].range == SourceRange(start: 0, end: source.utf8.count))
  }

  @Test func variableFollowedByAssignment() throws {
    #expect(try lexKinds("$a:=$b") == [.variable("a"), .punct(.assign), .variable("b")])
    #expect(try lexKinds("$a.b") == [.variable("a"), .punct(.dot), .identifier("b", escaped: false)])
  }

  @Test(arguments: [("$", 0, 1), ("$ x", 0, 1), ("$1", 0, 1), ("$#", 0, 2), ("a == $", 5, 6), ("$$x", 0, 1)])
  func variableWithoutName(_ source: String, _ start: Int, _ end: Int) throws {
    let error = try #require(lexError(source))
    #expect(error.message == "expected a variable name after '$'")
    #expect(error.range == SourceRange(start: start, end: end))
    #expect(error.hint == "variables are written $name")
  }
}
