/// Prints syntax trees as canonical format text, following Apple's `predicateFormat`
/// conventions: `==` for `=`, double-quoted strings, `nil`, `ANY`/`ALL`, `NOT ANY` for
/// `NONE`, options after the operator, functions as `sum:(…)`, dates as
/// `CAST(seconds, "NSDate")`.
///
/// Sift departs from Apple in two places, both so that `parse(print(t)) == t` holds:
/// booleans print as `TRUE`/`FALSE` (Apple prints `1`/`0`), and mixed `AND`/`OR` is always
/// parenthesised, as is any operand whose precedence requires it.
enum CanonicalPrinter {
  static func print(_ p: PredicateSyntax) -> String {
    var out = ""
    write(p, to: &out)
    return out
  }

  static func print(_ e: ExpressionSyntax) -> String {
    var out = ""
    write(e, level: .expression, to: &out)
    return out
  }

  static func write(_ p: PredicateSyntax, to out: inout some CanonicalOutput) {
    switch p.kind {
    case .constant(let value):
      out += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
    case .comparison(let c):
      if let q = c.quantifier {
        out += q.rawValue
        out += " "
      }
      write(c.lhs, level: .expression, to: &out)
      out += " "
      out += c.op.rawValue
      if !c.options.isEmpty {
        out += "["
        out += c.options.letters
        out += "]"
      }
      out += " "
      write(c.rhs, level: .expression, to: &out)
    case .not(let inner):
      out += "NOT "
      writeOperand(inner, to: &out)
    case .and(let operands):
      writeJoined(operands, " AND ", to: &out)
    case .or(let operands):
      writeJoined(operands, " OR ", to: &out)
    case .customSelector(let lhs, let selector, let rhs):
      write(lhs, level: .expression, to: &out)
      out += " " + selector + " "
      write(rhs, level: .expression, to: &out)
    }
  }

  private static func writeJoined(
    _ operands: [PredicateSyntax], _ separator: String, to out: inout some CanonicalOutput
  ) {
    for (i, operand) in operands.enumerated() {
      if i > 0 { out += separator }
      writeOperand(operand, to: &out)
    }
  }

  /// Compound operands of a compound or NOT are parenthesised: nested AND/OR is always
  /// explicit, whatever the precedence setting.
  private static func writeOperand(_ p: PredicateSyntax, to out: inout some CanonicalOutput) {
    switch p.kind {
    case .and, .or:
      out += "("
      write(p, to: &out)
      out += ")"
    default:
      write(p, to: &out)
    }
  }

  /// Binding strength of an expression's outermost construct, lowest first.
  enum Level: Int, Comparable {
    case expression = 0  // assignment
    case binaryBase = 1  // binary levels are binaryBase + BinaryOperator.precedence
    case unary = 20
    case postfix = 21

    static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
  }

  static func level(of e: ExpressionSyntax) -> Int {
    switch e.kind {
    case .assignment: return Level.expression.rawValue
    case .binary(let op, _, _): return Level.binaryBase.rawValue + op.precedence
    case .negate, .bitwiseNot: return Level.unary.rawValue
    case .constant(.int(let v)) where v < 0: return Level.unary.rawValue
    case .constant(.double(let v)) where v < 0 || (v == 0 && v.sign == .minus): return Level.unary.rawValue
    default: return Level.postfix.rawValue
    }
  }

  static func write(_ e: ExpressionSyntax, level required: Level, to out: inout some CanonicalOutput) {
    write(e, minimum: required.rawValue, to: &out)
  }

  /// Writes `e`, in parentheses when it binds more loosely than `minimum`.
  static func write(_ e: ExpressionSyntax, minimum: Int, to out: inout some CanonicalOutput) {
    if level(of: e) < minimum {
      out += "("
      writeBare(e, to: &out)
      out += ")"
    } else {
      writeBare(e, to: &out)
    }
  }

  private static func writeBare(_ e: ExpressionSyntax, to out: inout some CanonicalOutput) {
    switch e.kind {
    case .constant(let value):
      writeConstant(value, to: &out)
    case .evaluatedObject:
      out += "SELF"
    case .variable(let name):
      out += "$" + name
    case .keyPath(let base, let keys):
      if let base {
        write(base, level: .postfix, to: &out)
        for key in keys {
          out += "."
          out += afterDot(key)
        }
      } else {
        out += firstKey(keys[0])
        for key in keys.dropFirst() {
          out += "."
          out += afterDot(key)
        }
      }
    case .aggregate(let elements):
      out += "{"
      writeList(elements, to: &out)
      out += "}"
    case .index(let base, let index):
      write(base, level: .postfix, to: &out)
      out += "["
      switch index {
      case .first: out += "FIRST"
      case .last: out += "LAST"
      case .size: out += "SIZE"
      case .expression(let i): write(i, level: .expression, to: &out)
      }
      out += "]"
    case .negate(let x):
      out += "-"
      write(x, level: .unary, to: &out)
    case .bitwiseNot(let x):
      out += "~"
      write(x, level: .unary, to: &out)
    case .binary(let op, let a, let b):
      let mine = Level.binaryBase.rawValue + op.precedence
      write(a, minimum: mine, to: &out)
      out += " " + op.rawValue + " "
      write(b, minimum: mine + 1, to: &out)
    case .function(let f, let args):
      out += f.rawValue + "("
      writeList(args, to: &out)
      out += ")"
    case .customFunction(let receiver, let name, let args):
      out += "FUNCTION("
      write(receiver, level: .expression, to: &out)
      out += ", "
      writeString(name, to: &out)
      for arg in args {
        out += ", "
        write(arg, level: .expression, to: &out)
      }
      out += ")"
    case .subquery(let collection, let variable, let predicate):
      out += "SUBQUERY("
      write(collection, level: .expression, to: &out)
      out += ", $" + variable + ", "
      write(predicate, to: &out)
      out += ")"
    case .cast(let x, let type):
      out += "CAST("
      write(x, level: .expression, to: &out)
      out += ", "
      writeString(type, to: &out)
      out += ")"
    case .ternary(let p, let a, let b):
      out += "TERNARY("
      write(p, to: &out)
      out += ", "
      write(a, level: .expression, to: &out)
      out += ", "
      write(b, level: .expression, to: &out)
      out += ")"
    case .assignment(let variable, let value):
      out += "$" + variable + " := "
      write(value, level: .expression, to: &out)
    }
  }

  private static func writeList(_ elements: [ExpressionSyntax], to out: inout some CanonicalOutput) {
    for (i, element) in elements.enumerated() {
      if i > 0 { out += ", " }
      write(element, level: .expression, to: &out)
    }
  }

  /// A key as it reads back: a word as itself (`#word` for a reserved one), `@word` as
  /// itself, anything else quoted (`#"fill-opacity"`, `#"a\nb"`), so that printed text
  /// parses to the same key and never holds a raw line break.
  static func firstKey(_ key: String) -> String {
    if asciiWord(key) ?? isWord(key.unicodeScalars[...]) { return Keyword.needsEscape(key) ? "#" + key : key }
    return isCollectionKey(key) ? key : quotedKey(key)
  }

  /// Whether an ASCII key is one word, read from its bytes (the canonical-length check
  /// asks for every key of a large predicate); nil for other keys, which ``isWord(_:)``
  /// reads by Unicode's identifier classes.
  static func asciiWord(_ key: String) -> Bool? {
    var word = true
    var first = true
    for b in key.utf8 {
      guard b < 0x80 else { return nil }
      let letter = ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")) || b == UInt8(ascii: "_")
      if !letter && (first || b < UInt8(ascii: "0") || b > UInt8(ascii: "9")) { word = false }
      first = false
    }
    return first ? false : word
  }

  /// `@word`, printed as itself.
  static func isCollectionKey(_ key: String) -> Bool {
    key.unicodeScalars.first == "@" && isWord(key.unicodeScalars.dropFirst())
  }

  /// A key as `#"text"`.
  static func quotedKey(_ key: String) -> String {
    var out = "#"
    writeString(key, to: &out)
    return out
  }

  /// A key in a tree dump: a word or `@word` as itself, anything else quoted.
  static func dumpKey(_ key: String) -> String {
    isWord(key.unicodeScalars[...]) || isCollectionKey(key) ? key : quotedKey(key)
  }

  static func afterDot(_ key: String) -> String {
    key == "self" ? key : firstKey(key)
  }

  /// Whether `scalars` lex as exactly one word (`Word` in Predicate.ebnf).
  static func isWord(_ scalars: Substring.UnicodeScalarView) -> Bool {
    guard let first = scalars.first else { return false }
    func ascii(_ c: Unicode.Scalar, first: Bool) -> Bool {
      (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" || (!first && c >= "0" && c <= "9")
    }
    guard first.isASCII ? ascii(first, first: true) : first.properties.isXIDStart else { return false }
    return scalars.dropFirst().allSatisfy { $0.isASCII ? ascii($0, first: false) : $0.properties.isXIDContinue }
  }

  static func writeConstant(_ value: SiftValue, to out: inout some CanonicalOutput) {
    switch value {
    case .null: out += "nil"
    case .bool(let b): out += b ? "TRUE" : "FALSE"
    case .int(let i): out += String(i)
    case .double(let d): writeDouble(d, to: &out)
    case .string(let s): writeString(s, to: &out)
    case .date(let seconds):
      out += "CAST("
      writeDouble(seconds, to: &out)
      out += ", \"NSDate\")"
    case .array(let elements):
      out += "{"
      for (i, element) in elements.enumerated() {
        if i > 0 { out += ", " }
        writeConstant(element, to: &out)
      }
      out += "}"
    case .dictionary(let entries):
      // There is no dictionary literal in the language; this form is for reading only.
      out += "{"
      for (i, key) in entries.keys.sorted().enumerated() {
        if i > 0 { out += ", " }
        writeString(key, to: &out)
        out += ": "
        writeConstant(entries[key]!, to: &out)
      }
      out += "}"
    }
  }

  static func writeDouble(_ d: Double, to out: inout some CanonicalOutput) {
    if d.isFinite {
      // Swift's description is the shortest text that reads back to the same value.
      out += d.description
    } else {
      out += "CAST("
      writeString(d.isNaN ? "nan" : (d < 0 ? "-inf" : "inf"), to: &out)
      out += ", \"NSNumber\")"
    }
  }

  static func writeString(_ s: String, to out: inout some CanonicalOutput) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.appendScalar(scalar)
        }
      }
    }
    out += "\""
  }
}

extension PredicateSyntax: CustomStringConvertible {
  /// The canonical format text (Apple's `predicateFormat`).
  public var predicateFormat: String { CanonicalPrinter.print(self) }
  /// The canonical format text.
  public var description: String { predicateFormat }
}

extension ExpressionSyntax: CustomStringConvertible {
  /// The canonical format text of the expression.
  public var description: String { CanonicalPrinter.print(self) }
}
