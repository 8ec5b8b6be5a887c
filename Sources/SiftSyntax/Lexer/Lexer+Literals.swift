extension Lexer {
  /// `123`, `1.5`, `2e-3`, `0x1F`, `0o17`, `0b101`.
  mutating func lexNumber() throws(SyntaxError) -> Token.Kind {
    let start = position
    if byte(at: position) == UInt8(ascii: "0") {
      let radix: Int? =
        switch byte(at: position + 1) | 0x20 {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
      if let radix {
        position += 2
        let digitsStart = position
        var value = 0
        var overflow = false
        while let digit = digitValue(byte(at: position)), digit < radix {
          let (m, o1) = value.multipliedReportingOverflow(by: radix)
          let (a, o2) = m.addingReportingOverflow(digit)
          overflow = overflow || o1 || o2
          value = a
          position += 1
        }
        try endOfNumber(start: start)
        if position == digitsStart {
          throw SyntaxError(
            "expected digits after the number prefix", at: SourceRange(start: start, end: position))
        }
        if overflow {
          throw SyntaxError(
            "integer literal does not fit in 64 bits", at: SourceRange(start: start, end: position))
        }
        return .integer(value)
      }
    }
    var isInteger = true
    skipDigits()
    if byte(at: position) == UInt8(ascii: "."), isDigit(byte(at: position + 1)) {
      isInteger = false
      position += 1
      skipDigits()
    }
    if byte(at: position) | 0x20 == UInt8(ascii: "e") {
      var i = position + 1
      if byte(at: i) == UInt8(ascii: "+") || byte(at: i) == UInt8(ascii: "-") { i += 1 }
      if isDigit(byte(at: i)) {
        isInteger = false
        position = i
        skipDigits()
      }
    }
    try endOfNumber(start: start)
    let text = self.text(start, position)
    if isInteger, let value = Int(text) { return .integer(value) }
    if isInteger, text.drop(while: { $0 == "0" }) == "9223372036854775808" { return .integerMinMagnitude }
    guard let value = Double(text), value.isFinite else {
      throw SyntaxError("number literal is out of range", at: SourceRange(start: start, end: position))
    }
    return .double(value)
  }

  private mutating func skipDigits() {
    while isDigit(byte(at: position)) { position += 1 }
  }

  private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

  private func digitValue(_ b: UInt8) -> Int? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(b - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(b - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// A number glued to letters (`12abc`, `0x1G`) is one mistake, reported as a whole.
  private mutating func endOfNumber(start: Int) throws(SyntaxError) {
    let b = byte(at: position)
    guard
      (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == UInt8(ascii: "_")
        || isDigit(b)
    else { return }
    var end = position
    while end < count, isWordByte(byte(at: end)) { end += 1 }
    throw SyntaxError("invalid number literal", at: SourceRange(start: start, end: end))
  }

  private func isWordByte(_ b: UInt8) -> Bool {
    (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == UInt8(ascii: "_") || isDigit(b)
      || b == UInt8(ascii: ".")
  }

  /// A quoted string. Each quote kind ends only its own kind; escapes are those of
  /// NSPredicate: `\\ \" \' \n \t \r \a \b \f \v`, 1–3 octal digits, `\xHH`, `\uHHHH`
  /// (a UTF-16 unit: a high surrogate followed by a `\u` low surrogate is one scalar, a lone
  /// surrogate is an error); any other `\c` is `c`.
  mutating func lexString() throws(SyntaxError) -> String {
    let start = position
    let quote = byte(at: position)
    position += 1
    var out: [UInt8] = []
    var runStart = position
    while true {
      guard position < count else {
        throw SyntaxError(
          "unterminated string", at: SourceRange(start: start, end: start + 1),
          hint: "the string that starts here has no closing \(quote == UInt8(ascii: "'") ? "'" : "\"")")
      }
      let b = byte(at: position)
      if b == quote {
        out.append(contentsOf: slice(runStart, position))
        position += 1
        return String(decoding: out, as: UTF8.self)
      }
      if b != UInt8(ascii: "\\") {
        position += 1
        continue
      }
      out.append(contentsOf: slice(runStart, position))
      let escapeStart = position
      position += 1
      guard position < count else { continue }
      let e = byte(at: position)
      position += 1
      switch e {
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "a"): out.append(0x07)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "v"): out.append(0x0B)
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        var value = UInt32(e - UInt8(ascii: "0"))
        var digits = 1
        while digits < 3, let d = digitValue(byte(at: position)), d < 8 {
          value = value * 8 + UInt32(d)
          position += 1
          digits += 1
        }
        try appendScalar(value, to: &out, escapeStart: escapeStart)
      case UInt8(ascii: "x"), UInt8(ascii: "u"):
        let width = e == UInt8(ascii: "x") ? 2 : 4
        var value: UInt32 = 0
        for _ in 0..<width {
          guard let d = digitValue(byte(at: position)), position < count else {
            throw SyntaxError(
              "expected \(width) hexadecimal digits after '\\\(Character(Unicode.Scalar(e)))'",
              at: SourceRange(start: escapeStart, end: position))
          }
          value = value * 16 + UInt32(d)
          position += 1
        }
        // `\u` escapes are UTF-16 code units (as in NSString): a high surrogate followed by
        // a `\u` low surrogate is one scalar outside the BMP.
        if width == 4, (0xD800...0xDBFF).contains(value), let low = lowSurrogateEscape(at: position) {
          value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
          position += 6
        }
        try appendScalar(value, to: &out, escapeStart: escapeStart)
      default:
        // Any other escaped character stands for itself (including multi-byte scalars,
        // whose continuation bytes are copied by the next run).
        position -= 1
        runStart = position
        position += 1
        continue
      }
      runStart = position
    }
  }

  /// The value of a `\uDC00`…`\uDFFF` escape at `i`, if there is one.
  private func lowSurrogateEscape(at i: Int) -> UInt32? {
    guard byte(at: i) == UInt8(ascii: "\\"), byte(at: i + 1) == UInt8(ascii: "u") else { return nil }
    var value: UInt32 = 0
    for k in 0..<4 {
      guard i + 2 + k < count, let d = digitValue(byte(at: i + 2 + k)) else { return nil }
      value = value * 16 + UInt32(d)
    }
    return (0xDC00...0xDFFF).contains(value) ? value : nil
  }

  private mutating func appendScalar(_ value: UInt32, to out: inout [UInt8], escapeStart: Int)
    throws(SyntaxError)
  {
    guard let scalar = Unicode.Scalar(value) else {
      throw SyntaxError(
        "escape does not name a Unicode scalar", at: SourceRange(start: escapeStart, end: position),
        hint: "surrogate halves (D800–DFFF) cannot stand alone")
    }
    out.append(contentsOf: String(Character(scalar)).utf8)
  }

  /// `%@ %K %d %i %u %x %o %f %e %g %c %s`, with `h l ll q` length modifiers; `%%`.
  mutating func lexSpecifier() throws(SyntaxError) -> Token.Kind {
    let start = position
    position += 1
    if byte(at: position) == UInt8(ascii: "%") {
      position += 1
      return .percentLiteral
    }
    var modifier = ""
    switch byte(at: position) {
    case UInt8(ascii: "h"), UInt8(ascii: "q"):
      modifier = String(Character(Unicode.Scalar(byte(at: position))))
      position += 1
    case UInt8(ascii: "l"):
      position += 1
      modifier = "l"
      if byte(at: position) == UInt8(ascii: "l") {
        position += 1
        modifier = "ll"
      }
    default: break
    }
    let c = byte(at: position)
    if position < count { position += 1 }
    let conversion = Character(Unicode.Scalar(c))
    switch c {
    case UInt8(ascii: "@") where modifier.isEmpty: return .specifier(.object)
    case UInt8(ascii: "K") where modifier.isEmpty: return .specifier(.keyPath)
    case UInt8(ascii: "s") where modifier.isEmpty: return .specifier(.cString)
    case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "o"),
      UInt8(ascii: "c"):
      return .specifier(.integer(conversion))
    case UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "g"):
      return .specifier(.floatingPoint(conversion))
    default:
      let end = c >= 0x80 ? position - 1 : position
      throw SyntaxError(
        "unknown format specifier", at: SourceRange(start: start, end: max(end, start + 1)),
        hint:
          "specifiers are %@ (value), %K (key path), %d %i %u %x %o %c (integer), %f %e %g (number), %s, %%")
    }
  }
}
