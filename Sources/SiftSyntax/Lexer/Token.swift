/// One token as the parser reads it: its kind and where it is.
///
/// A trivial value (no strings, no reference counting), so the token array is a single
/// allocation and reading or copying a token is a plain load. Names and string literals
/// stay bytes of the source text (`range`) and become `String`s only when a syntax node or
/// a message needs them (``Parser/name(of:)``, ``Parser/stringValue(of:)``).
struct Lexeme {
  var kind: Kind
  var range: SourceRange

  enum Kind: Equatable {
    /// A key or function name: the text of `range`, after the `#` when `escaped` (`#word`,
    /// a reserved word used as a key). `@count` is a name that includes its `@`.
    case identifier(escaped: Bool)
    case keyword(Keyword)
    case integer(Int)
    /// `9223372036854775808`: too large for `Int`, but after a minus sign it is `Int.min`.
    /// Anywhere else it reads as a `Double`, like every other decimal too large for `Int`.
    case integerMinMagnitude
    case double(Double)
    /// A quoted string. Without a backslash (`escaped` false) its value is the text between
    /// the quotes; otherwise the escapes are decoded when the value is needed.
    case string(escaped: Bool)
    /// `#"any text"` or `#'any text'`: a key spelled as a string, for keys that are not
    /// words (`#"fill-opacity"`). The text after the `#` is a string literal token.
    case quotedKey(escaped: Bool)
    /// `$name` or `$#name`.
    case variable
    /// A format specifier, with its ordinal among the specifiers of the text (which says
    /// which argument it binds). Its conversion character (`@`, `K`, `d`, …) is the last
    /// byte of `range`, so every payload fits in 8 bytes and a lexeme in 32.
    case specifier(ordinal: Int)
    /// `%%` outside a string: a literal percent sign, which has no meaning there.
    case percentLiteral
    case punct(Punct)
    case end
  }
}

/// A token with its payload decoded into Swift values: what ``Lexer/tokenize(_:)`` returns,
/// for tests and tools that look at tokens. The parser reads ``Lexeme``s instead.
struct Token: Equatable {
  var kind: Kind
  var range: SourceRange

  enum Kind: Equatable {
    /// A key or function name. `escaped` is true for `#word` (a reserved word used as a key).
    case identifier(String, escaped: Bool)
    case keyword(Keyword)
    case integer(Int)
    /// `9223372036854775808`: too large for `Int`, but after a minus sign it is `Int.min`.
    /// Anywhere else it reads as a `Double`, like every other decimal too large for `Int`.
    case integerMinMagnitude
    case double(Double)
    case string(String)
    /// `$name`.
    case variable(String)
    case specifier(FormatSpecifier)
    /// `%%` outside a string: a literal percent sign, which has no meaning there.
    case percentLiteral
    case punct(Punct)
    case end
  }
}

/// The reserved words (case-insensitive). `UTI-CONFORMS-TO` and `UTI-EQUALS` are lexed
/// specially because they contain hyphens.
enum Keyword: String, CaseIterable {
  case and = "AND", or = "OR", `in` = "IN", not = "NOT", all = "ALL", any = "ANY", some = "SOME"
  case none = "NONE", like = "LIKE", caseInsensitive = "CASEINSENSITIVE", ci = "CI"
  case matches = "MATCHES", contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH"
  case between = "BETWEEN", null = "NULL", nil_ = "NIL", self_ = "SELF", true_ = "TRUE", yes = "YES"
  case false_ = "FALSE", no = "NO", first = "FIRST", last = "LAST", size = "SIZE", anyKey = "ANYKEY"
  case subquery = "SUBQUERY", cast = "CAST", truePredicate = "TRUEPREDICATE"
  case falsePredicate = "FALSEPREDICATE", fetch = "FETCH"
  case utiConformsTo = "UTI-CONFORMS-TO", utiEquals = "UTI-EQUALS"

  /// Looks up a keyword from identifier bytes, ignoring ASCII case.
  ///
  /// Every word of the input goes through here, so it neither allocates nor reads a table:
  /// the first letter picks a few candidates, a length check rejects most of them, and the
  /// rest are compared byte by byte with literal spellings. A new keyword must be added to
  /// the switch as well as to the enum (`LexerKeywordTests` lexes every case).
  static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Keyword? {
    let n = bytes.count
    guard n >= 2, n <= 15 else { return nil }
    @inline(__always) func matches(_ spelling: StaticString) -> Bool {
      guard spelling.utf8CodeUnitCount == n else { return false }
      let expected = spelling.utf8Start
      // `& 0xDF` upper-cases an ASCII letter and maps no other byte onto a letter. The
      // first byte is skipped: the switch below has already matched it.
      for i in 1..<n where bytes[i] & 0xDF != expected[i] { return false }
      return true
    }
    switch bytes[0] & 0xDF {
    case UInt8(ascii: "A"):
      if matches("AND") { return .and }
      if matches("ALL") { return .all }
      if matches("ANY") { return .any }
      if matches("ANYKEY") { return .anyKey }
    case UInt8(ascii: "B"):
      if matches("BETWEEN") { return .between }
      if matches("BEGINSWITH") { return .beginsWith }
    case UInt8(ascii: "C"):
      if matches("CI") { return .ci }
      if matches("CAST") { return .cast }
      if matches("CONTAINS") { return .contains }
      if matches("CASEINSENSITIVE") { return .caseInsensitive }
    case UInt8(ascii: "E"):
      if matches("ENDSWITH") { return .endsWith }
    case UInt8(ascii: "F"):
      if matches("FALSE") { return .false_ }
      if matches("FIRST") { return .first }
      if matches("FETCH") { return .fetch }
      if matches("FALSEPREDICATE") { return .falsePredicate }
    case UInt8(ascii: "I"):
      if matches("IN") { return .in }
    case UInt8(ascii: "L"):
      if matches("LIKE") { return .like }
      if matches("LAST") { return .last }
    case UInt8(ascii: "M"):
      if matches("MATCHES") { return .matches }
    case UInt8(ascii: "N"):
      if matches("NO") { return .no }
      if matches("NOT") { return .not }
      if matches("NIL") { return .nil_ }
      if matches("NONE") { return Keyword.none }  // not `.none`: that is Optional.none
      if matches("NULL") { return .null }
    case UInt8(ascii: "O"):
      if matches("OR") { return .or }
    case UInt8(ascii: "S"):
      if matches("SOME") { return .some }
      if matches("SELF") { return .self_ }
      if matches("SIZE") { return .size }
      if matches("SUBQUERY") { return .subquery }
    case UInt8(ascii: "T"):
      if matches("TRUE") { return .true_ }
      if matches("TRUEPREDICATE") { return .truePredicate }
    case UInt8(ascii: "Y"):
      if matches("YES") { return .yes }
    default:
      break
    }
    return nil
  }

  /// Words that must be written with `#` to be used as a key: the reserved words plus
  /// names the parser gives a meaning when followed by `(`.
  static func needsEscape(_ name: String) -> Bool {
    var name = name
    // An ASCII name (nearly every key) is looked up in place, as the lexer does: the
    // printer asks for every key it prints, and so does the parser's canonical-length
    // check for every key of a large predicate. ASCII upper-casing is Unicode's there.
    let ascii = name.withUTF8 { bytes -> Bool? in
      // (A hyphen: UTI-EQUALS and UTI-CONFORMS-TO are not in the lexer's lookup.)
      guard !bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "-") }) else { return nil }
      if lookup(bytes) != nil { return true }
      // FUNCTION TERNARY APPLY INTERSECT(ION) MINUS UNION TOKENMATCHES, by length and first letter.
      guard bytes.count >= 5, bytes.count <= 12, "FTAIMU".utf8.contains(bytes[0] & 0xDF) else { return false }
      return extraEscaped.contains(String(decoding: bytes, as: UTF8.self).uppercased())
    }
    if let ascii { return ascii }
    // Other names as Unicode upper-cases them (`ﬁrst` becomes FIRST).
    let upper = name.uppercased()
    return Keyword(rawValue: upper) != nil || extraEscaped.contains(upper)
  }

  private static let extraEscaped: Set<String> = [
    "FUNCTION", "TERNARY", "APPLY", "INTERSECTION", "INTERSECT", "MINUS", "UNION", "TOKENMATCHES",
  ]
}

/// Operators and punctuation, each with its spelling in canonical text.
enum Punct: String, CaseIterable {
  case equal = "==", assignEqual = "=", notEqual = "!=", notEqualAlt = "<>"
  case less = "<", greater = ">", lessEqual = "<=", lessEqualAlt = "=<"
  case greaterEqual = ">=", greaterEqualAlt = "=>"
  case andAnd = "&&", orOr = "||", bang = "!"
  case plus = "+", minus = "-", star = "*", slash = "/", starStar = "**"
  case shiftLeft = "<<", shiftRight = ">>", ampersand = "&", pipe = "|", caret = "^", tilde = "~"
  case assign = ":=", colon = ":"
  case lBracket = "[", rBracket = "]", lBrace = "{", rBrace = "}", lParen = "(", rParen = ")"
  case comma = ",", dot = "."
}

/// A `%` conversion in the format string.
enum FormatSpecifier: Hashable {
  /// `%@`: any value, bound as a constant.
  case object
  /// `%K`: a key path given as a string.
  case keyPath
  /// `%d %i %u %x %o %c` with an optional length modifier: an integer.
  case integer(Character)
  /// `%f %e %g`: a floating-point number.
  case floatingPoint(Character)
  /// `%s`: a string.
  case cString

  /// The specifier of a conversion character the lexer accepted.
  init(conversion c: UInt8) {
    switch c {
    case UInt8(ascii: "@"): self = .object
    case UInt8(ascii: "K"): self = .keyPath
    case UInt8(ascii: "s"): self = .cString
    case UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "g"): self = .floatingPoint(Character(Unicode.Scalar(c)))
    default: self = .integer(Character(Unicode.Scalar(c)))
    }
  }
}
