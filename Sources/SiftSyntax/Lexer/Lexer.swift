/// Turns UTF-8 bytes into tokens. A byte cursor; no regular expressions, no `Scanner`.
///
/// The whole input is tokenized up front: the parser backtracks at one place (a `(` that
/// may open either a predicate or an expression) and an array of tokens makes that cheap.
/// The tokens are ``Lexeme``s, trivial values that point into the text, so lexing
/// allocates nothing but the array.
struct Lexer {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  /// Format specifiers seen so far: the ordinal of the next one.
  var specifierCount = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The tokens of `bytes`, ending with an `.end` token, and the number of format specifiers.
  static func lex(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> (
    tokens: [Lexeme], specifierCount: Int
  ) {
    var lexer = Lexer(bytes)
    var tokens: [Lexeme] = []
    // Tokens average about four bytes with their spaces: one allocation for typical text,
    // and (for W2-sized predicates) one small enough for malloc's per-thread cache.
    tokens.reserveCapacity(bytes.count / 4 + 2)
    while true {
      let token = try lexer.next()
      tokens.append(token)
      if case .end = token.kind { return (tokens, lexer.specifierCount) }
    }
  }

  /// The tokens of `bytes` with their payloads decoded (names, string values, specifiers),
  /// ending with an `.end` token: the lexer's output in a form tests can compare.
  static func tokenize(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> [Token] {
    try lex(bytes).tokens.map { Token($0, source: bytes) }
  }

  private func peek(_ offset: Int = 0) -> UInt8 { byte(at: position + offset) }

  /// The byte at `i`, or 0 past the end (0 never starts or continues a token).
  func byte(at i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

  var count: Int { bytes.count }

  func text(_ from: Int, _ to: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
  }

  func slice(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[from..<to])
  }

  private var atEnd: Bool { position >= bytes.count }

  /// The token at the cursor (after any whitespace), and the cursor moved past it.
  /// Inlined into the loop of ``lex(_:)``, its only caller.
  @inline(__always)
  mutating func next() throws(SyntaxError) -> Lexeme {
    let endOfPrevious = position
    skipWhitespace()
    let start = position
    // The end token sits right after the last real token, not after trailing whitespace, so
    // "found end of input" points at the line where the text stopped (`a == 1 AND\n`).
    guard !atEnd else { return Lexeme(kind: .end, range: .at(endOfPrevious)) }
    let c = bytes[position]
    let kind: Lexeme.Kind
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      kind = try lexNumber()
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      var notDecoded: [UInt8]? = nil
      kind = .string(escaped: try scanString(decodingInto: &notDecoded))
    case UInt8(ascii: "$"):
      position += 1
      if peek() == UInt8(ascii: "#") { position += 1 }
      guard identifierRun() else {
        throw SyntaxError(
          "expected a variable name after '$'", at: SourceRange(start: start, end: position),
          hint: "variables are written $name")
      }
      kind = .variable
    case UInt8(ascii: "#"):
      position += 1
      if peek() == UInt8(ascii: "\"") || peek() == UInt8(ascii: "'") {
        var notDecoded: [UInt8]? = nil
        kind = .quotedKey(escaped: try scanString(decodingInto: &notDecoded))
        // Every escape decodes to a character, so only `#""` and `#''` name the empty
        // key, which a key path never has (a `%K` argument is refused the same way).
        if position - start == 3 {
          throw SyntaxError(
            "a quoted key cannot be empty", at: SourceRange(start: start, end: position),
            hint: "a key path is one or more keys joined by '.'")
        }
        break
      }
      guard identifierRun() else {
        throw SyntaxError(
          "expected a key after '#'", at: SourceRange(start: start, end: position),
          hint: "'#' makes a reserved word usable as a key, as in #like, and any text a key, as in #\"fill-opacity\"")
      }
      kind = .identifier(escaped: true)
    case UInt8(ascii: "@"):
      position += 1
      guard identifierRun() else {
        throw SyntaxError(
          "expected a name after '@'", at: SourceRange(start: start, end: position),
          hint: "collection operators are written @count, @sum, @avg, …")
      }
      kind = .identifier(escaped: false)
    case UInt8(ascii: "%"):
      kind = try lexSpecifier()
    default:
      let length = identifierLength(at: position, first: true)
      if length > 0 {
        kind = lexWord(firstLength: length)
      } else if let punct = lexPunct() {
        kind = .punct(punct)
      } else {
        throw unexpectedCharacter(at: start)
      }
    }
    return Lexeme(kind: kind, range: SourceRange(start: start, end: position))
  }

  private mutating func skipWhitespace() {
    // A local cursor stays in a register; `position` is written once.
    var i = position
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: i += 1
      default:
        position = i
        return
      }
    }
    position = i
  }

  /// The byte length of the identifier character at `i` (0 if there is none): ASCII
  /// letters, `_` and (after the first) digits, and any scalar with the Unicode XID_Start /
  /// XID_Continue property, so keys may be written in any script but punctuation such as
  /// curly quotes or a no-break space is not silently read as part of a key.
  @inline(__always)
  func identifierLength(at i: Int, first: Bool) -> Int {
    let c = byte(at: i)
    if c < 0x80 { return Self.isIdentifierByte(c, first: first) ? 1 : 0 }
    return nonASCIIIdentifierLength(at: i, first: first)
  }

  /// Whether the byte `c` is an ASCII letter, `_` or (unless `first`) digit.
  @inline(__always)
  static func isIdentifierByte(_ c: UInt8, first: Bool) -> Bool {
    // One bit per ASCII byte, in two 64-bit masks: a shift and a test instead of three
    // range comparisons, for every byte of every key.
    let digits: UInt64 = 0x03FF_0000_0000_0000  // bytes 0x30–0x39
    let lettersAndUnderscore: UInt64 = 0x07FF_FFFE_87FF_FFFE  // 0x41–0x5A, 0x5F, 0x61–0x7A
    let mask = c < 64 ? (first ? 0 : digits) : lettersAndUnderscore
    return c < 128 && (mask >> (c & 63)) & 1 != 0
  }

  @inline(never)
  func nonASCIIIdentifierLength(at i: Int, first: Bool) -> Int {
    guard let (scalar, length) = scalar(at: i) else { return 0 }
    return (first ? scalar.properties.isXIDStart : scalar.properties.isXIDContinue) ? length : 0
  }

  /// The scalar whose UTF-8 encoding starts at `i`, and its length in bytes.
  func scalar(at i: Int) -> (Unicode.Scalar, Int)? {
    let lead = byte(at: i)
    let length =
      switch lead {
      case 0x00..<0x80: 1
      case 0xC0..<0xE0: 2
      case 0xE0..<0xF0: 3
      case 0xF0..<0xF8: 4
      default: 0
      }
    guard length > 0, i + length <= count else { return nil }
    var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
    for k in 1..<length {
      let b = byte(at: i + k)
      guard b & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(b & 0x3F)
    }
    return Unicode.Scalar(value).map { ($0, length) }
  }

  /// Skips an identifier (see ``identifierLength(at:first:)``); false if there is none here.
  private mutating func identifierRun() -> Bool {
    let length = atEnd ? 0 : identifierLength(at: position, first: true)
    guard length > 0 else { return false }
    skipIdentifier(firstLength: length)
    return true
  }

  /// Skips the rest of an identifier whose first character, `firstLength` bytes long, is at
  /// the cursor.
  @inline(__always)
  private mutating func skipIdentifier(firstLength: Int) {
    // A local cursor stays in a register; `position` is written once.
    var i = position + firstLength
    while i < bytes.count {
      let c = bytes[i]
      if Self.isIdentifierByte(c, first: false) {
        i += 1
      } else {
        // Not an ASCII identifier byte: the end, or a non-ASCII scalar that may continue it.
        let n = c < 0x80 ? 0 : nonASCIIIdentifierLength(at: i, first: false)
        if n == 0 { break }
        i += n
      }
    }
    position = i
  }

  @inline(__always)
  private mutating func lexWord(firstLength: Int) -> Lexeme.Kind {
    let start = position
    skipIdentifier(firstLength: firstLength)
    let word = UnsafeBufferPointer(rebasing: bytes[start..<position])
    if word.count == 3, (word[0] | 0x20) == UInt8(ascii: "u"), (word[1] | 0x20) == UInt8(ascii: "t"),
      (word[2] | 0x20) == UInt8(ascii: "i"), peek() == UInt8(ascii: "-"), let keyword = lexUTIOperator()
    {
      return .keyword(keyword)
    }
    if let keyword = Keyword.lookup(word) { return .keyword(keyword) }
    return .identifier(escaped: false)
  }

  /// After `UTI` and at a `-`: the rest of `UTI-CONFORMS-TO` or `UTI-EQUALS`, if it is there.
  @inline(never)
  private mutating func lexUTIOperator() -> Keyword? {
    for keyword in [Keyword.utiConformsTo, .utiEquals] where matchesRest(keyword.rawValue.utf8.dropFirst(3)) {
      position += keyword.rawValue.utf8.count - 3
      return keyword
    }
    return nil
  }

  /// Whether the bytes at the cursor spell `rest` (ASCII, any case) and end the word there.
  private func matchesRest(_ rest: Substring.UTF8View) -> Bool {
    var i = 0
    for expected in rest {
      let b = peek(i)
      guard b == expected || (b >= 0x61 && b <= 0x7A && b - 0x20 == expected) else { return false }
      i += 1
    }
    return identifierLength(at: position + i, first: false) == 0
  }

  private mutating func lexPunct() -> Punct? {
    let c = peek()
    let d = peek(1)
    func take(_ n: Int, _ p: Punct) -> Punct {
      position += n
      return p
    }
    switch c {
    case UInt8(ascii: "="):
      if d == UInt8(ascii: "=") { return take(2, .equal) }
      if d == UInt8(ascii: "<") { return take(2, .lessEqualAlt) }
      if d == UInt8(ascii: ">") { return take(2, .greaterEqualAlt) }
      return take(1, .assignEqual)
    case UInt8(ascii: "!"):
      return d == UInt8(ascii: "=") ? take(2, .notEqual) : take(1, .bang)
    case UInt8(ascii: "<"):
      if d == UInt8(ascii: "=") { return take(2, .lessEqual) }
      if d == UInt8(ascii: ">") { return take(2, .notEqualAlt) }
      if d == UInt8(ascii: "<") { return take(2, .shiftLeft) }
      return take(1, .less)
    case UInt8(ascii: ">"):
      if d == UInt8(ascii: "=") { return take(2, .greaterEqual) }
      if d == UInt8(ascii: ">") { return take(2, .shiftRight) }
      return take(1, .greater)
    case UInt8(ascii: "&"):
      return d == UInt8(ascii: "&") ? take(2, .andAnd) : take(1, .ampersand)
    case UInt8(ascii: "|"):
      return d == UInt8(ascii: "|") ? take(2, .orOr) : take(1, .pipe)
    case UInt8(ascii: "*"):
      return d == UInt8(ascii: "*") ? take(2, .starStar) : take(1, .star)
    case UInt8(ascii: ":"):
      return d == UInt8(ascii: "=") ? take(2, .assign) : take(1, .colon)
    case UInt8(ascii: "+"): return take(1, .plus)
    case UInt8(ascii: "-"): return take(1, .minus)
    case UInt8(ascii: "/"): return take(1, .slash)
    case UInt8(ascii: "^"): return take(1, .caret)
    case UInt8(ascii: "~"): return take(1, .tilde)
    case UInt8(ascii: "["): return take(1, .lBracket)
    case UInt8(ascii: "]"): return take(1, .rBracket)
    case UInt8(ascii: "{"): return take(1, .lBrace)
    case UInt8(ascii: "}"): return take(1, .rBrace)
    case UInt8(ascii: "("): return take(1, .lParen)
    case UInt8(ascii: ")"): return take(1, .rParen)
    case UInt8(ascii: ","): return take(1, .comma)
    case UInt8(ascii: "."): return take(1, .dot)
    default: return nil
    }
  }

  private func unexpectedCharacter(at offset: Int) -> SyntaxError {
    let c = bytes[offset]
    if c >= 0x80, let (scalar, length) = scalar(at: offset) {
      // Invisible characters (spaces, format characters) are named by code point.
      let shown =
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .format, .control, .lineSeparator, .paragraphSeparator: Self.codePoint(scalar)
        default: "'\(scalar)'"
        }
      return SyntaxError(
        "unexpected character \(shown)", at: SourceRange(start: offset, end: offset + length),
        hint: Self.hint(for: scalar))
    }
    let shown = c >= 0x20 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16))"
    let hint: String? =
      switch c {
      case UInt8(ascii: "?"): "'?' has no meaning outside quotes; use LIKE 'a?c' for a one-character wildcard"
      case UInt8(ascii: ";"): "a format string holds exactly one predicate"
      default: nil
      }
    return SyntaxError(
      "unexpected character \(shown)", at: SourceRange(start: offset, end: offset + 1), hint: hint)
  }

  /// `U+201C`.
  static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// What to write instead of a non-ASCII character that has no meaning outside quotes.
  static func hint(for scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x2018, 0x2019, 0x201A, 0x201B, 0x201C, 0x201D, 0x201E, 0x201F, 0x00AB, 0x00BB, 0x2039, 0x203A,
      0x300C,
      0x300D, 0xFF02, 0xFF07:
      "strings are written with straight quotes, ' or \""
    case 0x00A0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000, 0xFEFF:
      "this is a special space character; use an ordinary space"
    case 0x2260: "write != (or <>) for 'not equal'"
    case 0x2264: "write <= (or =<) for 'less than or equal'"
    case 0x2265: "write >= (or =>) for 'greater than or equal'"
    case 0x2212, 0x2013, 0x2014: "write - for minus"
    case 0x00D7: "write * for multiplication"
    case 0x00F7: "write / for division"
    case 0x2227: "write AND (or &&)"
    case 0x2228: "write OR (or ||)"
    case 0x00AC: "write NOT (or !)"
    default: nil
    }
  }
}
