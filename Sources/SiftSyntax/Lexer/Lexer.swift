/// Turns UTF-8 bytes into tokens. A byte cursor; no regular expressions, no `Scanner`.
///
/// The whole input is tokenized up front: the parser backtracks at one place (a `(` that
/// may open either a predicate or an expression) and an array of tokens makes that cheap.
struct Lexer {
  private let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  static func tokenize(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> [Token] {
    var lexer = Lexer(bytes)
    var tokens: [Token] = []
    tokens.reserveCapacity(bytes.count / 3 + 2)
    while true {
      let token = try lexer.next()
      tokens.append(token)
      if token.kind == .end { return tokens }
    }
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

  mutating func next() throws(SyntaxError) -> Token {
    skipWhitespace()
    let start = position
    guard !atEnd else { return Token(kind: .end, range: .at(position)) }
    let c = bytes[position]
    let kind: Token.Kind
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      kind = try lexNumber()
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      kind = .string(try lexString())
    case UInt8(ascii: "$"):
      position += 1
      if peek() == UInt8(ascii: "#") { position += 1 }
      let name = identifierRun()
      guard !name.isEmpty else {
        throw SyntaxError(
          "expected a variable name after '$'", at: SourceRange(start: start, end: position),
          hint: "variables are written $name")
      }
      kind = .variable(name)
    case UInt8(ascii: "#"):
      position += 1
      let name = identifierRun()
      guard !name.isEmpty else {
        throw SyntaxError(
          "expected a key after '#'", at: SourceRange(start: start, end: position),
          hint: "'#' makes a reserved word usable as a key, as in #like")
      }
      kind = .identifier(name, escaped: true)
    case UInt8(ascii: "@"):
      position += 1
      let name = identifierRun()
      guard !name.isEmpty else {
        throw SyntaxError(
          "expected a name after '@'", at: SourceRange(start: start, end: position),
          hint: "collection operators are written @count, @sum, @avg, …")
      }
      kind = .identifier("@" + name, escaped: false)
    case UInt8(ascii: "%"):
      kind = try lexSpecifier()
    default:
      if isIdentifierStart(c) {
        kind = lexWord()
      } else if let punct = lexPunct() {
        kind = .punct(punct)
      } else {
        throw unexpectedCharacter(at: start)
      }
    }
    return Token(kind: kind, range: SourceRange(start: start, end: position))
  }

  private mutating func skipWhitespace() {
    while !atEnd {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: position += 1
      default: return
      }
    }
  }

  private func isIdentifierStart(_ c: UInt8) -> Bool {
    (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") || c == UInt8(ascii: "_") || c >= 0x80
  }

  private func isIdentifierContinue(_ c: UInt8) -> Bool {
    isIdentifierStart(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
  }

  /// Letters, digits, `_` and any non-ASCII scalar (keys may be written in any script).
  private mutating func identifierRun() -> String {
    let start = position
    guard !atEnd, isIdentifierStart(bytes[position]) else { return "" }
    while !atEnd, isIdentifierContinue(bytes[position]) { position += 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
  }

  private mutating func lexWord() -> Token.Kind {
    let start = position
    while !atEnd, isIdentifierContinue(bytes[position]) { position += 1 }
    let word = UnsafeBufferPointer(rebasing: bytes[start..<position])
    if word.count == 3, (word[0] | 0x20) == UInt8(ascii: "u"), (word[1] | 0x20) == UInt8(ascii: "t"),
      (word[2] | 0x20) == UInt8(ascii: "i"), peek() == UInt8(ascii: "-")
    {
      for keyword in [Keyword.utiConformsTo, .utiEquals] where matchesRest(keyword.rawValue.utf8.dropFirst(3)) {
        position += keyword.rawValue.utf8.count - 3
        return .keyword(keyword)
      }
    }
    if let keyword = Keyword.lookup(word) { return .keyword(keyword) }
    return .identifier(String(decoding: word, as: UTF8.self), escaped: false)
  }

  /// Whether the bytes at the cursor spell `rest` (ASCII, any case) and end the word there.
  private func matchesRest(_ rest: Substring.UTF8View) -> Bool {
    var i = 0
    for expected in rest {
      let b = peek(i)
      guard b == expected || (b >= 0x61 && b <= 0x7A && b - 0x20 == expected) else { return false }
      i += 1
    }
    return !isIdentifierContinue(peek(i))
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
    let shown = c >= 0x20 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16))"
    let hint: String? =
      switch c {
      case UInt8(ascii: "?"): "'?' has no meaning outside quotes; use LIKE 'a?c' for a one-character wildcard"
      case UInt8(ascii: ";"): "a format string holds exactly one predicate"
      default: nil
      }
    return SyntaxError("unexpected character \(shown)", at: SourceRange(start: offset, end: offset + 1), hint: hint)
  }
}
