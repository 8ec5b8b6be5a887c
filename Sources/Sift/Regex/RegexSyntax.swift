/// A MATCHES pattern read as a tree, for deciding how to run it: whether it is regular (so
/// any linear-time engine gives PCRE2's answer), whether backtracking over it is provably
/// cheap, which literal every match must contain, and how to say it in RE2's syntax.
///
/// This is not a validator: PCRE2 compiles every pattern and reports its errors. The parser
/// reads PCRE2's syntax as Sift compiles it (UTF, UCP, newline ANY) and marks everything it
/// does not model as ``Node/opaque(_:)``; such a pattern is never handed to RE2 or called
/// safe, so anything the parser misreads costs speed, not correctness.
indirect enum RegexNode: Equatable {
  case empty
  /// One literal code point; `caseless` under `(?i)` or [c].
  case char(Unicode.Scalar, caseless: Bool)
  /// A set of code points: a class, `.`, or an escape such as `\d`.
  case set(RegexSet, caseless: Bool)
  case concat([RegexNode])
  case alternation([RegexNode])
  /// A quantified node; `max` nil for no upper bound. Lazy and greedy are the same for a
  /// whole-string yes/no; possessive quantifiers are ``opaque(_:)``.
  case repetition(RegexNode, min: Int, max: Int?)
  /// `^` or `\A`: the start of the subject (Sift never sets multiline).
  case start
  /// `$`, `\Z` or `\z`: the end of the subject, or before a final newline.
  case end(strict: Bool)
  /// `\b` or `\B`.
  case wordBoundary(negated: Bool)
  /// Something only a backtracking engine gives PCRE2's meaning to (back references,
  /// lookaround, atomic groups, possessive quantifiers, conditionals, callouts,
  /// recursion, verbs, `\G`, `\K`, `\X`, `\R`), or that the parser does not model.
  case opaque(String)

  /// Whether nothing in the tree is ``opaque(_:)``: the pattern is a regular expression.
  var isRegular: Bool {
    switch self {
    case .opaque: false
    case .concat(let xs), .alternation(let xs): xs.allSatisfy(\.isRegular)
    case .repetition(let x, _, _): x.isRegular
    default: true
    }
  }
}

/// The members of a character class, as written.
struct RegexSet: Equatable {
  enum Item: Equatable {
    case scalar(Unicode.Scalar)
    case range(Unicode.Scalar, Unicode.Scalar)
    /// `\d \w \s \h \v` (and their negations), or a Unicode property: kept by name.
    case named(String, negated: Bool)
  }

  var items: [Item]
  var negated: Bool

  /// `.` without dotall: anything but PCRE2's line terminators under newline ANY.
  static let dot = RegexSet(
    items: [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].map { .scalar(Unicode.Scalar($0)!) }, negated: true)
  /// `.` with dotall, and `\N` in dotall… every code point.
  static let any = RegexSet(items: [], negated: true)
}

/// The parser of ``RegexNode`` trees.
struct RegexParser {
  private let p: [Unicode.Scalar]
  private var i = 0
  private var caseless: Bool
  private var dotAll = false
  /// Flags set by `(?i)`-style options, applied once the option's own group has closed.
  private var pendingFlags: (caseless: Bool, dotAll: Bool)? = nil

  /// The tree of `pattern`, already rewritten to PCRE2's escapes (`RegexLiteral.translatingICUEscapes`).
  static func parse(_ pattern: String, caseInsensitive: Bool) -> RegexNode {
    var parser = RegexParser(p: Array(pattern.unicodeScalars), caseless: caseInsensitive)
    let node = parser.alternation()
    if parser.i < parser.p.count { return .opaque("unbalanced ')'") }
    return node
  }

  private init(p: [Unicode.Scalar], caseless: Bool) {
    self.p = p
    self.caseless = caseless
  }

  private var atEnd: Bool { i >= p.count }
  private func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < p.count ? p[i + k] : nil }

  private mutating func alternation() -> RegexNode {
    var branches: [RegexNode] = [concatenation()]
    while peek() == "|" {
      i += 1
      branches.append(concatenation())
    }
    return branches.count == 1 ? branches[0] : .alternation(branches)
  }

  private mutating func concatenation() -> RegexNode {
    var items: [RegexNode] = []
    while let c = peek(), c != "|", c != ")" {
      var atom = self.atom()
      if case .opaque = atom { return .opaque(Self.reason(atom)) }
      atom = quantified(atom)
      if case .opaque = atom { return atom }
      items.append(atom)
    }
    if items.isEmpty { return .empty }
    return items.count == 1 ? items[0] : .concat(items)
  }

  private static func reason(_ node: RegexNode) -> String {
    if case .opaque(let r) = node { return r }
    return ""
  }

  private mutating func quantified(_ atom: RegexNode) -> RegexNode {
    var node = atom
    while let c = peek() {
      var bounds: (Int, Int?)
      switch c {
      case "*": bounds = (0, nil)
      case "+": bounds = (1, nil)
      case "?": bounds = (0, 1)
      case "{":
        guard let b = braceQuantifier() else { return node }
        bounds = b
      default: return node
      }
      if c != "{" { i += 1 }
      if peek() == "+" { return .opaque("possessive quantifier") }
      if peek() == "?" { i += 1 }  // lazy: the same whole-string answer
      switch node {
      case .start, .end, .wordBoundary, .empty:
        return .opaque("quantified assertion")
      default: break
      }
      node = .repetition(node, min: bounds.0, max: bounds.1)
    }
    return node
  }

  /// `{n}`, `{n,}`, `{n,m}` (consumed), or nil when the brace is a literal (PCRE2 10.42
  /// reads `{,m}` and other shapes as literal text).
  private mutating func braceQuantifier() -> (Int, Int?)? {
    var j = i + 1
    func number() -> Int? {
      var value = 0
      var digits = 0
      while j < p.count, let d = Int(String(p[j])), ("0"..."9").contains(p[j]) {
        value = min(value * 10 + d, 1_000_000)
        digits += 1
        j += 1
      }
      return digits > 0 ? value : nil
    }
    guard let low = number() else { return nil }
    var high: Int? = low
    if j < p.count, p[j] == "," {
      j += 1
      high = number()
    }
    guard j < p.count, p[j] == "}" else { return nil }
    if let high, high < low { return nil }
    i = j + 1
    return (low, high)
  }

  private mutating func atom() -> RegexNode {
    let c = p[i]
    switch c {
    case "(":
      let node = group()
      if let (newCaseless, newDotAll) = pendingFlags {
        caseless = newCaseless
        dotAll = newDotAll
        pendingFlags = nil
      }
      return node
    case "[": return characterClass()
    case ".":
      i += 1
      return .set(dotAll ? .any : .dot, caseless: false)
    case "^":
      i += 1
      return .start
    case "$":
      i += 1
      return .end(strict: false)
    case "\\": return escape()
    case "*", "+", "?": return .opaque("quantifier without an operand")
    case "{":
      // A brace that does not start a quantifier is a literal.
      i += 1
      return .char(c, caseless: caseless)
    default:
      i += 1
      return .char(c, caseless: caseless)
    }
  }

  private mutating func group() -> RegexNode {
    i += 1  // (
    if peek() == "*" { return .opaque("backtracking verb or start-of-pattern option") }
    let savedCaseless = caseless
    let savedDotAll = dotAll
    defer {
      caseless = savedCaseless
      dotAll = savedDotAll
    }
    if peek() == "?" {
      i += 1
      guard let k = peek() else { return .opaque("unterminated group") }
      switch k {
      case ":", "|": i += 1
      case "#":
        while let x = peek(), x != ")" { i += 1 }
        guard peek() == ")" else { return .opaque("unterminated comment") }
        i += 1
        return .empty
      case "<":
        if peek(1) == "=" || peek(1) == "!" { return .opaque("lookbehind") }
        guard skipName(closing: ">", from: 1) else { return .opaque("group name") }
      case "'":
        guard skipName(closing: "'", from: 1) else { return .opaque("group name") }
      case "P":
        guard peek(1) == "<", skipName(closing: ">", from: 2) else { return .opaque("named reference or recursion") }
      case "=", "!": return .opaque("lookahead")
      case ">": return .opaque("atomic group")
      case "(": return .opaque("conditional")
      case "C": return .opaque("callout")
      case "R", "&", "+", "0"..."9": return .opaque("recursion")
      case "-" where peek(1).map({ ("0"..."9").contains($0) }) == true: return .opaque("recursion")
      default:
        // Inline options: (?flags) or (?flags:...), with `-` and `^`.
        var on = true
        var newCaseless = caseless
        var newDotAll = dotAll
        while let f = peek(), f != ")", f != ":" {
          switch f {
          case "i": newCaseless = on
          case "s": newDotAll = on
          case "n", "J", "U": break  // capture numbering, duplicate names, greediness: same answer
          case "-": on = false
          case "^":
            newCaseless = false
            newDotAll = false
          default: return .opaque("option (?\(f))")  // m, x, xx and anything else
          }
          i += 1
        }
        guard let end = peek() else { return .opaque("unterminated group") }
        i += 1
        if end == ")" {
          // `(?i)` holds to the end of the enclosing group, across its `|`: it is set here
          // and restored by the enclosing group (outside any, it lasts to the end).
          pendingFlags = (newCaseless, newDotAll)
          return .empty
        }
        caseless = newCaseless
        dotAll = newDotAll
      }
    }
    let inner = alternation()
    guard peek() == ")" else { return .opaque("unterminated group") }
    i += 1
    if case .opaque = inner { return inner }
    return inner
  }

  private mutating func skipName(closing: Unicode.Scalar, from offset: Int) -> Bool {
    var j = i + offset
    while j < p.count, p[j] != closing {
      guard p[j].properties.isAlphabetic || ("0"..."9").contains(p[j]) || p[j] == "_" else { return false }
      j += 1
    }
    guard j < p.count else { return false }
    i = j + 1
    return true
  }

  // MARK: Escapes

  private mutating func escape() -> RegexNode {
    guard let e = peek(1) else { return .opaque("trailing backslash") }
    i += 2
    switch e {
    case "d", "D", "w", "W", "s", "S", "h", "H", "v", "V":
      let lower = Unicode.Scalar(e.value | 0x20)!
      return .set(RegexSet(items: [.named(String(lower), negated: false)], negated: e != lower), caseless: false)
    case "p", "P":
      guard let (name, negated) = property(negated: e == "P") else { return .opaque("property") }
      return .set(RegexSet(items: [.named(name, negated: negated)], negated: false), caseless: false)
    case "b": return .wordBoundary(negated: false)
    case "B": return .wordBoundary(negated: true)
    case "A": return .start
    case "z": return .end(strict: true)
    case "Z": return .end(strict: false)
    case "N":
      if peek() == "{" { return .opaque("\\N{…}") }
      return .set(dotAll ? .any : .dot, caseless: false)
    case "Q":
      var chars: [RegexNode] = []
      while i < p.count {
        if p[i] == "\\", peek(1) == "E" {
          i += 2
          break
        }
        chars.append(.char(p[i], caseless: caseless))
        i += 1
      }
      return chars.isEmpty ? .empty : .concat(chars)
    case "E": return .empty
    default:
      if let scalar = literalEscape(e) { return .char(scalar, caseless: caseless) }
      return .opaque("escape \\\(e)")
    }
  }

  /// The code point of a character escape, or nil for anything else. Consumes its operands.
  private mutating func literalEscape(_ e: Unicode.Scalar) -> Unicode.Scalar? {
    switch e {
    case "t": return "\t"
    case "n": return "\n"
    case "r": return "\r"
    case "f": return "\u{0C}"
    case "e": return "\u{1B}"
    case "a": return "\u{07}"
    case "0":
      // \0 followed by up to two more octal digits.
      var value: UInt32 = 0
      var k = 0
      while k < 2, let d = peek(), ("0"..."7").contains(d) {
        value = value * 8 + d.value - 0x30
        i += 1
        k += 1
      }
      return Unicode.Scalar(value)
    case "x":
      if peek() == "{" {
        var j = i + 1
        var value: UInt32 = 0
        var digits = 0
        while j < p.count, let h = p[j].hexValue {
          value = value &* 16 &+ h
          digits += 1
          j += 1
        }
        guard digits > 0, digits <= 8, j < p.count, p[j] == "}" else { return nil }
        i = j + 1
        return Unicode.Scalar(value)
      }
      var value: UInt32 = 0
      var k = 0
      while k < 2, let h = peek()?.hexValue {
        value = value * 16 + h
        i += 1
        k += 1
      }
      return Unicode.Scalar(value)
    case "c":
      // \cX: X uppercased, with bit 6 flipped (\cA is 0x01, \c? is 0x7F).
      guard let x = peek(), x.value < 0x80 else { return nil }
      i += 1
      let upper = (0x61...0x7A).contains(x.value) ? x.value - 0x20 : x.value
      return Unicode.Scalar(upper ^ 0x40)
    default:
      // A backslash before an ASCII non-alphanumeric character, or any non-ASCII one,
      // makes it literal; letters and digits have meanings (back references among them).
      if e.value >= 0x80 || !(e.properties.isAlphabetic || ("0"..."9").contains(e)) { return e }
      return nil
    }
  }

  /// `\p{Name}`, `\p{^Name}` or `\pL` after the `p`: the name and whether it is negated.
  private mutating func property(negated: Bool) -> (String, Bool)? {
    guard let c = peek() else { return nil }
    if c != "{" {
      guard c.properties.isAlphabetic, c.value < 0x80 else { return nil }
      i += 1
      return (String(c), negated)
    }
    var j = i + 1
    var invert = negated
    if j < p.count, p[j] == "^" {
      invert.toggle()
      j += 1
    }
    var name = ""
    while j < p.count, p[j] != "}" {
      name.unicodeScalars.append(p[j])
      j += 1
    }
    guard j < p.count, !name.isEmpty else { return nil }
    i = j + 1
    return (name, invert)
  }

  // MARK: Classes

  private mutating func characterClass() -> RegexNode {
    i += 1  // [
    var set = RegexSet(items: [], negated: false)
    if peek() == "^" {
      set.negated = true
      i += 1
    }
    var first = true
    while true {
      guard let c = peek() else { return .opaque("unterminated class") }
      if c == "]" && !first { break }
      first = false
      guard let low = classMember() else { return .opaque("class member") }
      if peek() == "-", let next = peek(1), next != "]", case .scalar(let from) = low {
        i += 1
        guard let high = classMember(), case .scalar(let to) = high, to.value >= from.value else {
          return .opaque("class range")
        }
        set.items.append(.range(from, to))
      } else {
        set.items.append(low)
      }
    }
    i += 1  // ]
    return .set(set, caseless: caseless)
  }

  private mutating func classMember() -> RegexSet.Item? {
    let c = p[i]
    if c == "[", peek(1) == ":" {
      var j = i + 2
      var name = ""
      while j < p.count, p[j] != ":" {
        name.unicodeScalars.append(p[j])
        j += 1
      }
      guard j + 1 < p.count, p[j + 1] == "]" else { return nil }
      i = j + 2
      return .named("[:\(name):]", negated: false)
    }
    if c == "[", peek(1) == "." || peek(1) == "=" { return nil }
    guard c == "\\" else {
      i += 1
      return .scalar(c)
    }
    guard let e = peek(1) else { return nil }
    i += 2
    switch e {
    case "d", "w", "s", "h", "v": return .named(String(e), negated: false)
    case "D", "W", "S", "H", "V": return .named(String(Unicode.Scalar(e.value | 0x20)!), negated: true)
    case "p", "P":
      guard let (name, negated) = property(negated: e == "P") else { return nil }
      return .named(name, negated: negated)
    case "b": return .scalar("\u{08}")  // backspace inside a class
    case "Q", "E", "N", "R", "X": return nil
    default: return literalEscape(e).map { .scalar($0) }
    }
  }
}

extension Unicode.Scalar {
  /// The value of a hexadecimal digit.
  var hexValue: UInt32? {
    switch value {
    case 0x30...0x39: value - 0x30
    case 0x41...0x46: value - 0x37
    case 0x61...0x66: value - 0x57
    default: nil
    }
  }
}
