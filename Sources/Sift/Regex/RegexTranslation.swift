/// A regular ``RegexNode`` tree in RE2's syntax, with PCRE2's meaning as Sift compiles it
/// (UTF, UCP, newline ANY): `.` excludes PCRE2's line terminators, `\d` `\w` `\s` `\h`
/// `\v` are PCRE2 10.42's Unicode definitions spelled as properties and code points, and
/// POSIX classes those of UCP mode. Constructs whose meaning the two engines do not share
/// (`\b`, a `$` before the end, Unicode scripts, POSIX classes other than the ones below,
/// a negated escape inside a larger class, counts RE2 refuses) give nil: the pattern then
/// runs on PCRE2. A differential test holds the two engines to the same answers.
enum RegexTranslation {
  /// The RE2 pattern, or nil.
  static func re2(_ node: RegexNode) -> String? {
    var out = ""
    guard emit(node, last: true, &out) else { return nil }
    return out
  }

  /// Emits `node`; `last` when nothing can follow it in a match (where `$` means the end).
  private static func emit(_ node: RegexNode, last: Bool, _ out: inout String) -> Bool {
    switch node {
    case .empty: return true
    case .char(let c, let caseless):
      if caseless && c.properties.isCased { out += "(?i:" + literal(c) + ")" } else { out += literal(c) }
      return true
    case .set(let set, let caseless):
      // Under (?i) RE2 also folds a property such as \p{Lu}, which PCRE2 leaves alone.
      if caseless,
        set.items.contains(where: { item in
          if case .named(let name, _) = item { return caseDependent.contains(name) }
          return false
        })
      {
        return false
      }
      guard let text = setText(set) else { return false }
      if caseless && set.items.contains(where: { if case .named = $0 { return false } else { return true } }) {
        out += "(?i:" + text + ")"
      } else {
        out += text
      }
      return true
    case .concat(let items):
      out += "(?:"
      for (k, item) in items.enumerated() where !emit(item, last: last && k == items.count - 1, &out) {
        return false
      }
      out += ")"
      return true
    case .alternation(let branches):
      out += "(?:"
      for (k, branch) in branches.enumerated() {
        if k > 0 { out += "|" }
        guard emit(branch, last: last, &out) else { return false }
      }
      out += ")"
      return true
    case .repetition(let inner, let min, let max):
      // RE2 refuses counts above 1000.
      guard min <= 1000, (max ?? 0) <= 1000 else { return false }
      out += "(?:"
      guard emit(inner, last: false, &out) else { return false }
      out += ")"
      switch (min, max) {
      case (0, nil): out += "*"
      case (1, nil): out += "+"
      case (0, 1): out += "?"
      case (let a, nil): out += "{\(a),}"
      case (let a, let b?) where a == b: out += "{\(a)}"
      case (let a, let b?): out += "{\(a),\(b)}"
      }
      return true
    case .start:
      out += "^"
      return true
    case .end(let strict):
      // `$` and `\Z` also match before a final newline; only where the match must end
      // anyway is that the same as RE2's end of text.
      guard strict || last else { return false }
      out += "\\z"
      return true
    case .wordBoundary, .opaque: return false
    }
  }

  /// Named sets a caseless match treats differently in the two engines.
  private static let caseDependent: Set<String> = ["Lu", "Ll", "Lt", "[:lower:]", "[:upper:]"]

  private static func literal(_ c: Unicode.Scalar) -> String {
    "\\x{" + String(c.value, radix: 16) + "}"
  }

  /// A class in RE2's syntax, or nil.
  private static func setText(_ set: RegexSet) -> String? {
    if set.items.isEmpty { return set.negated ? "(?s:.)" : nil }
    // A single negated escape (`\D`, `\P{L}`, `[^\d]`'s opposite…) becomes a negated class.
    var negated = set.negated
    var items = set.items
    if items.count == 1, case .named(let name, true) = items[0] {
      negated.toggle()
      items = [.named(name, negated: false)]
    }
    var body = ""
    for item in items {
      switch item {
      case .scalar(let c): body += literal(c)
      case .range(let a, let b): body += literal(a) + "-" + literal(b)
      case .named(let name, let negatedName):
        guard let members = named(name) else { return nil }
        if negatedName {
          // \P{X} inside a class is fine for a single property; a negated union is not.
          guard members.count == 1, members[0].hasPrefix("\\p{") else { return nil }
          body += "\\P" + members[0].dropFirst(2)
        } else {
          body += members.joined()
        }
      }
    }
    return "[" + (negated ? "^" : "") + body + "]"
  }

  /// The members (as RE2 class text) of a named set under PCRE2 10.42's UCP rules.
  private static func named(_ name: String) -> [String]? {
    switch name {
    case "d", "[:digit:]": return ["\\p{Nd}"]
    case "w", "[:word:]": return ["\\p{L}", "\\p{N}", "_"]
    case "[:alpha:]": return ["\\p{L}"]
    case "[:alnum:]": return ["\\p{L}", "\\p{N}"]
    case "[:lower:]": return ["\\p{Ll}"]
    case "[:upper:]": return ["\\p{Lu}"]
    case "s", "[:space:]":
      // \p{Z}, HT LF VT FF CR and the other \h and \v characters.
      return ["\\p{Z}"]
        + [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x180E, 0x2028, 0x2029].map { literal(Unicode.Scalar($0)!) }
    case "h":
      return [
        0x09, 0x20, 0xA0, 0x1680, 0x180E, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
        0x2009, 0x200A, 0x202F, 0x205F, 0x3000,
      ].map { literal(Unicode.Scalar($0)!) }
    case "v": return [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].map { literal(Unicode.Scalar($0)!) }
    default:
      // General categories, which both engines take from Unicode under the same names
      // (not Cn and C: which code points are unassigned depends on each one's Unicode).
      let categories: Set<String> = [
        "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps", "Pe",
        "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "Cc", "Cf", "Co",
      ]
      return categories.contains(name) ? ["\\p{\(name)}"] : nil
    }
  }
}
