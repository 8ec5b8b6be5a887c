/// Recognises MATCHES patterns that are a plain substring search in disguise.
enum RegexLiteral {
  /// The literal of a pattern of the form `.*literal.*`, with escapes such as `\.` resolved; nil if
  /// the pattern has another form, the literal is empty, or it holds anything that is not a plain
  /// character: an unescaped metacharacter (`\ ^ $ . | ? * + ( ) [ ] { }`), an escaped letter or
  /// digit (`\d`, `\Q`, `\x41`, back references), an escaped non-ASCII character, or a line
  /// terminator (the search relies on the literal having none).
  static func dotStarLiteral(_ pattern: String) -> String? {
    let scalars = Array(pattern.unicodeScalars)
    // Tokens: (scalar, escaped).
    var tokens: [(Unicode.Scalar, Bool)] = []
    var i = 0
    while i < scalars.count {
      if scalars[i] == "\\" {
        guard i + 1 < scalars.count else { return nil }  // trailing backslash: let PCRE2 report it
        tokens.append((scalars[i + 1], true))
        i += 2
      } else {
        tokens.append((scalars[i], false))
        i += 1
      }
    }
    guard tokens.count >= 5,
      tokens[0] == (".", false), tokens[1] == ("*", false),
      tokens[tokens.count - 2] == (".", false), tokens[tokens.count - 1] == ("*", false)
    else { return nil }
    var literal = String.UnicodeScalarView()
    for (scalar, escaped) in tokens[2..<(tokens.count - 2)] {
      let v = scalar.value
      if [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains(v) { return nil }
      if escaped {
        // PCRE2: a backslash before any ASCII non-alphanumeric character makes it literal.
        guard v < 0x80, !scalar.properties.isAlphabetic, !(0x30...0x39).contains(v) else { return nil }
      } else if "\\^$.|?*+()[]{}".unicodeScalars.contains(scalar) {
        return nil
      }
      literal.append(scalar)
    }
    return String(literal)
  }

  /// Rewrites ICU's `\uhhhh` and `\Uhhhhhhhh` escapes (which PCRE2 rejects) to PCRE2's `\x{…}`,
  /// leaving `\Q…\E` quotes and every other escape alone. Returns the translated pattern and a
  /// function that maps a UTF-8 byte offset in it back to the original pattern.
  static func translatingICUEscapes(_ pattern: String) -> (String, @Sendable (Int) -> Int) {
    let bytes = Array(pattern.utf8)
    guard bytes.contains(UInt8(ascii: "\\")) else { return (pattern, { $0 }) }
    func isHex(_ b: UInt8) -> Bool {
      (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 8)
    // (offset in `out` after a rewrite, cumulative growth so far)
    var shifts: [(Int, Int)] = []
    var growth = 0
    var i = 0
    var quoting = false
    while i < bytes.count {
      let b = bytes[i]
      if b != UInt8(ascii: "\\") || i + 1 >= bytes.count {
        out.append(b)
        i += 1
        continue
      }
      let next = bytes[i + 1]
      if quoting {
        if next == UInt8(ascii: "E") { quoting = false }
        out.append(b)
        out.append(next)
        i += 2
        continue
      }
      if next == UInt8(ascii: "Q") { quoting = true }
      let digits = next == UInt8(ascii: "u") ? 4 : next == UInt8(ascii: "U") ? 8 : 0
      if digits > 0, i + 2 + digits <= bytes.count, bytes[(i + 2)..<(i + 2 + digits)].allSatisfy(isHex) {
        out.append(contentsOf: Array("\\x{".utf8))
        out.append(contentsOf: bytes[(i + 2)..<(i + 2 + digits)])
        out.append(UInt8(ascii: "}"))
        growth += 2  // `\uhhhh` (6) -> `\x{hhhh}` (8); `\U` + 8 digits (10) -> 12
        shifts.append((out.count, growth))
        i += 2 + digits
        continue
      }
      out.append(b)
      out.append(next)
      i += 2
    }
    if shifts.isEmpty { return (pattern, { $0 }) }
    let table = shifts
    return (
      String(decoding: out, as: UTF8.self),
      { offset in
        var delta = 0
        for (at, total) in table where at <= offset { delta = total }
        return offset - delta
      }
    )
  }

  /// The middle `R` of a pattern `.*R.*` whose whole-string match is the same as an unanchored
  /// search for `R` in a subject without line terminators (neither `.*` can then be blocked); nil
  /// when the pattern has another shape or `R` holds something whose meaning could change when the
  /// `.*` around it go: a top-level `|`, backtracking verbs `(*…)`, `\G`, `\K`, whole-pattern
  /// recursion (`(?R)`, `(?0)`, `\g<0>`), callouts, or extended mode (`(?x)`, which changes how the
  /// pattern is read). The leading `.*` must not be lazy or possessive, nor the trailing one.
  static func dotStarMiddle(_ pattern: String) -> String? {
    let p = Array(pattern.unicodeScalars)
    let n = p.count
    guard n >= 4, p[0] == ".", p[1] == "*", !["?", "+", "{"].contains(p[2]) else { return nil }
    var i = 2
    var depth = 0
    var inClass = false
    var quoting = false
    var lastToken = -1
    var previousToken = -1
    while i < n {
      if quoting {
        if p[i] == "\\" && i + 1 < n && p[i + 1] == "E" {
          quoting = false
          i += 2
        } else {
          i += 1
        }
        continue
      }
      if inClass {
        if p[i] == "\\" {
          if i + 1 < n && p[i + 1] == "Q" { return nil }  // quoted text inside a class: not worth parsing
          i += 2
        } else if p[i] == "[" && i + 1 < n && [":", ".", "="].contains(p[i + 1]) {
          // POSIX class like [:alpha:]: skip to its closing ":]".
          var j = i + 2
          while j + 1 < n && !(p[j] == p[i + 1] && p[j + 1] == "]") { j += 1 }
          i = j + 1 < n ? j + 2 : i + 1
        } else if p[i] == "]" {
          inClass = false
          i += 1
        } else {
          i += 1
        }
        continue
      }
      let start = i
      let startDepth = depth
      switch p[i] {
      case "\\":
        guard i + 1 < n else { return nil }
        let e = p[i + 1]
        if e == "Q" { quoting = true }
        if e == "G" || e == "K" || e == "c" { return nil }  // `\\c` takes the next character too
        if e == "g" {
          let rest = String(String.UnicodeScalarView(p[(i + 2)..<min(n, i + 5)]))
          if rest.hasPrefix("<0") || rest.hasPrefix("'0") || rest.hasPrefix("{0") || rest.hasPrefix("0") { return nil }
        }
        i += 2
      case "[":
        inClass = true
        i += 1
        if i < n && p[i] == "^" { i += 1 }
        if i < n && p[i] == "]" { i += 1 }  // a leading ] is literal
      case "(":
        if i + 1 < n && p[i + 1] == "*" { return nil }
        if i + 1 < n && p[i + 1] == "?" {
          var j = i + 2
          if j < n && ["R", "0", "C", "#"].contains(p[j]) { return nil }
          var flags = ""
          while j < n && "imnsxJU^-".unicodeScalars.contains(p[j]) {
            flags.unicodeScalars.append(p[j])
            j += 1
          }
          if flags.contains("x") { return nil }
        }
        depth += 1
        i += 1
      case ")":
        depth -= 1
        if depth < 0 { return nil }
        i += 1
      case "|":
        if depth == 0 { return nil }
        i += 1
      default:
        i += 1
      }
      if startDepth == 0 {
        previousToken = lastToken
        lastToken = start
      }
    }
    guard !quoting, !inClass, depth == 0, lastToken == n - 1, p[n - 1] == "*", previousToken == n - 2, p[n - 2] == "."
    else { return nil }
    return String(String.UnicodeScalarView(p[2..<(n - 2)]))
  }
}
