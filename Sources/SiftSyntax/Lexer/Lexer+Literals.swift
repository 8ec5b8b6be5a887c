extension Lexer {
  /// `123`, `1.5`, `2e-3`, `0x1F`, `0o17`, `0b101`.
  mutating func lexNumber() throws(SyntaxError) -> Lexeme.Kind {
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
        // The literal's value, as the digits write it (no two's complement reading):
        // unsigned, up to 64 bits.
        var value: UInt64 = 0
        var overflow = false
        while let digit = digitValue(byte(at: position)), digit < radix {
          let (m, o1) = value.multipliedReportingOverflow(by: UInt64(radix))
          let (a, o2) = m.addingReportingOverflow(UInt64(digit))
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
        // As a decimal literal of the same value: an int when it fits, 2^63 the magnitude
        // of Int.min (an int under unary minus), larger values the nearest double, as an
        // unsigned NSNumber above Int.max is.
        if let int = Int(exactly: value) { return .integer(int) }
        if value == 1 << 63 { return .integerMinMagnitude }
        return .double(Double(value))
      }
    }
    // A decimal integer's value is accumulated while its digits are skipped; text is made
    // (for `Double`) only for the other numbers.
    var isInteger = true
    var value = 0
    var overflow = false
    while let digit = decimalDigit(byte(at: position)) {
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (a, o2) = m.addingReportingOverflow(digit)
      overflow = overflow || o1 || o2
      value = a
      position += 1
    }
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
    if isInteger, !overflow { return .integer(value) }
    if !isInteger, let value = exactDouble(start, position) { return .double(value) }
    let text = self.text(start, position)
    if isInteger, text.drop(while: { $0 == "0" }) == "9223372036854775808" { return .integerMinMagnitude }
    guard let value = Double(text), value.isFinite else {
      throw SyntaxError("number literal is out of range", at: SourceRange(start: start, end: position))
    }
    return .double(value)
  }

  /// The value of the decimal literal at `start..<end` (digits, then optionally `.digits`
  /// and an exponent) if one floating-point operation computes it exactly rounded: an
  /// integer mantissa below 2^53 times or divided by a power of ten up to 10^22, both exact
  /// doubles (Clinger's fast path). That single rounding gives the correctly rounded value,
  /// the same as `Double(String)`, without making a string. Nil for other literals.
  private func exactDouble(_ start: Int, _ end: Int) -> Double? {
    var mantissa: UInt64 = 0
    var exponent = 0
    var i = start
    var fraction = false
    while i < end {
      let b = bytes[i]
      if b == UInt8(ascii: ".") {
        fraction = true
      } else if isDigit(b) {
        let (m, o1) = mantissa.multipliedReportingOverflow(by: 10)
        let (a, o2) = m.addingReportingOverflow(UInt64(b &- UInt8(ascii: "0")))
        guard !o1, !o2 else { return nil }
        mantissa = a
        if fraction { exponent -= 1 }
      } else {
        break  // the exponent marker
      }
      i += 1
    }
    guard mantissa < 1 << 53 else { return nil }
    if i < end {
      i += 1  // `e` or `E`
      let negative = bytes[i] == UInt8(ascii: "-")
      if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
      var written = 0
      while i < end {
        written = written * 10 + Int(bytes[i] &- UInt8(ascii: "0"))
        guard written <= 1000 else { return nil }
        i += 1
      }
      exponent += negative ? -written : written
    }
    guard exponent >= -22, exponent <= 22 else { return nil }
    var power = 1.0
    for _ in 0..<abs(exponent) { power *= 10 }
    return exponent < 0 ? Double(mantissa) / power : Double(mantissa) * power
  }

  private mutating func skipDigits() {
    while isDigit(byte(at: position)) { position += 1 }
  }

  private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

  private func decimalDigit(_ b: UInt8) -> Int? { isDigit(b) ? Int(b &- UInt8(ascii: "0")) : nil }

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
  ///
  /// Moves the cursor past the string and returns whether it contains a backslash; unless
  /// `out` is nil, also appends the string's value (UTF-8) to it. The lexer only scans
  /// (checking the escapes, so that a bad one is reported where lexing stops); the parser
  /// decodes a string with escapes again when it builds the constant.
  mutating func scanString(decodingInto out: inout [UInt8]?) throws(SyntaxError) -> Bool {
    let start = position
    let quote = byte(at: position)
    position += 1
    var runStart = position
    var escaped = false
    while true {
      guard position < count else {
        throw SyntaxError(
          "unterminated string", at: SourceRange(start: start, end: start + 1),
          hint: "the string that starts here has no closing \(quote == UInt8(ascii: "'") ? "'" : "\"")")
      }
      // The run up to the next quote or backslash, with a local cursor.
      var i = position
      while i < count, bytes[i] != quote, bytes[i] != UInt8(ascii: "\\") { i += 1 }
      position = i
      guard i < count else { continue }
      if bytes[i] == quote {
        out?.append(contentsOf: slice(runStart, position))
        position += 1
        return escaped
      }
      escaped = true
      out?.append(contentsOf: slice(runStart, position))
      let escapeStart = position
      position += 1
      guard position < count else { continue }
      let e = byte(at: position)
      position += 1
      var decoded: UInt32
      switch e {
      case UInt8(ascii: "n"): decoded = 0x0A
      case UInt8(ascii: "t"): decoded = 0x09
      case UInt8(ascii: "r"): decoded = 0x0D
      case UInt8(ascii: "a"): decoded = 0x07
      case UInt8(ascii: "b"): decoded = 0x08
      case UInt8(ascii: "f"): decoded = 0x0C
      case UInt8(ascii: "v"): decoded = 0x0B
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        decoded = UInt32(e - UInt8(ascii: "0"))
        var digits = 1
        while digits < 3, let d = digitValue(byte(at: position)), d < 8 {
          decoded = decoded * 8 + UInt32(d)
          position += 1
          digits += 1
        }
      case UInt8(ascii: "x"), UInt8(ascii: "u"):
        let width = e == UInt8(ascii: "x") ? 2 : 4
        decoded = 0
        for _ in 0..<width {
          guard let d = digitValue(byte(at: position)), position < count else {
            throw SyntaxError(
              "expected \(width) hexadecimal digits after '\\\(Character(Unicode.Scalar(e)))'",
              at: SourceRange(start: escapeStart, end: position))
          }
          decoded = decoded * 16 + UInt32(d)
          position += 1
        }
        // `\u` escapes are UTF-16 code units (as in NSString): a high surrogate followed by
        // a `\u` low surrogate is one scalar outside the BMP.
        if width == 4, (0xD800...0xDBFF).contains(decoded), let low = lowSurrogateEscape(at: position) {
          decoded = 0x10000 + ((decoded - 0xD800) << 10) + (low - 0xDC00)
          position += 6
        }
      default:
        // Any other escaped character stands for itself (including multi-byte scalars,
        // whose continuation bytes are copied by the next run).
        position -= 1
        runStart = position
        position += 1
        continue
      }
      guard let scalar = Unicode.Scalar(decoded) else {
        throw SyntaxError(
          "escape does not name a Unicode scalar", at: SourceRange(start: escapeStart, end: position),
          hint: "surrogate halves (D800–DFFF) cannot stand alone")
      }
      if out != nil { UTF8.encode(scalar) { out?.append($0) } }
      runStart = position
    }
  }

  /// The value of the string literal token at `range` (which the lexer has accepted).
  static func stringValue(_ source: UnsafeBufferPointer<UInt8>, range: SourceRange, escaped: Bool) -> String {
    guard escaped else {
      return String(decoding: UnsafeBufferPointer(rebasing: source[range.start + 1..<range.end - 1]), as: UTF8.self)
    }
    var lexer = Lexer(source)
    lexer.position = range.start
    var out: [UInt8]? = []
    out?.reserveCapacity(range.count)
    do {
      _ = try lexer.scanString(decodingInto: &out)
    } catch {
      preconditionFailure("a string token that does not decode: \(error.message)")
    }
    return String(decoding: out ?? [], as: UTF8.self)
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

  /// `%@ %K %d %i %u %x %o %f %e %g %c %s`, with `h l ll q` length modifiers; `%%`.
  mutating func lexSpecifier() throws(SyntaxError) -> Lexeme.Kind {
    let start = position
    position += 1
    if byte(at: position) == UInt8(ascii: "%") {
      position += 1
      return .percentLiteral
    }
    var hasModifier = false
    switch byte(at: position) {
    case UInt8(ascii: "h"), UInt8(ascii: "q"):
      hasModifier = true
      position += 1
    case UInt8(ascii: "l"):
      position += 1
      hasModifier = true
      if byte(at: position) == UInt8(ascii: "l") { position += 1 }
    default: break
    }
    let c = byte(at: position)
    if position < count { position += 1 }
    let valid =
      switch c {
      // Length modifiers apply only to the numeric conversions.
      case UInt8(ascii: "@"), UInt8(ascii: "K"), UInt8(ascii: "s"): !hasModifier
      case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "o"),
        UInt8(ascii: "c"), UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "g"):
        true
      default: false
      }
    guard valid else {
      let end = c >= 0x80 ? position - 1 : position
      throw SyntaxError(
        "unknown format specifier", at: SourceRange(start: start, end: max(end, start + 1)),
        hint:
          "specifiers are %@ (value), %K (key path), %d %i %u %x %o %c (integer), %f %e %g (number), %s, %%")
    }
    specifierCount += 1
    return .specifier(ordinal: specifierCount - 1)
  }
}

extension Token {
  /// The token of a lexeme of `source`, its payload decoded.
  init(_ lexeme: Lexeme, source: UnsafeBufferPointer<UInt8>) {
    let range = lexeme.range
    func text(_ from: Int) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: source[from..<range.end]), as: UTF8.self)
    }
    let kind: Kind =
      switch lexeme.kind {
      case .identifier(let escaped): .identifier(text(range.start + (escaped ? 1 : 0)), escaped: escaped)
      case .keyword(let k): .keyword(k)
      case .integer(let v): .integer(v)
      case .integerMinMagnitude: .integerMinMagnitude
      case .double(let v): .double(v)
      case .string(let escaped): .string(Lexer.stringValue(source, range: range, escaped: escaped))
      case .quotedKey(let escaped):
        .identifier(
          Lexer.stringValue(source, range: SourceRange(start: range.start + 1, end: range.end), escaped: escaped),
          escaped: true)
      case .variable: .variable(text(Lexer.variableNameStart(source, range: range)))
      case .specifier: .specifier(FormatSpecifier(conversion: source[range.end - 1]))
      case .percentLiteral: .percentLiteral
      case .punct(let p): .punct(p)
      case .end: .end
      }
    self.init(kind: kind, range: range)
  }
}

extension Lexer {
  /// Where the name of the variable token at `range` starts: after `$` or `$#`.
  static func variableNameStart(_ source: UnsafeBufferPointer<UInt8>, range: SourceRange) -> Int {
    source[range.start + 1] == UInt8(ascii: "#") ? range.start + 2 : range.start + 1
  }
}
