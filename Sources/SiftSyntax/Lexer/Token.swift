/// One token of predicate text: its kind (with any literal payload) and where it is.
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

  /// Looks up a keyword from identifier bytes, ignoring ASCII case. Allocation-free:
  /// candidates are grouped by length and compared byte by byte.
  static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Keyword? {
    guard bytes.count < byLength.count else { return nil }
    outer: for (spelling, keyword) in byLength[bytes.count] {
      for i in 0..<spelling.count {
        let b = bytes[i]
        let upper = b >= 0x61 && b <= 0x7A ? b &- 0x20 : b
        if upper != spelling[i] { continue outer }
      }
      return keyword
    }
    return nil
  }

  private static let byLength: [[([UInt8], Keyword)]] = {
    var table = [[([UInt8], Keyword)]](repeating: [], count: 16)
    for keyword in allCases where keyword != .utiConformsTo && keyword != .utiEquals {
      let spelling = Array(keyword.rawValue.utf8)
      table[spelling.count].append((spelling, keyword))
    }
    return table
  }()

  /// Words that must be written with `#` to be used as a key: the reserved words plus
  /// names the parser gives a meaning when followed by `(`.
  static func needsEscape(_ name: String) -> Bool {
    let upper = name.uppercased()
    return Keyword(rawValue: upper) != nil || extraEscaped.contains(upper)
  }

  private static let extraEscaped: Set<String> = [
    "FUNCTION", "TERNARY", "APPLY", "INTERSECTION", "MINUS", "UNION", "TOKENMATCHES",
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
}
