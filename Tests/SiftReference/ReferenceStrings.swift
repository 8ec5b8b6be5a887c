import Foundation
import Sift

/// String rules of the reference evaluator. Everything works on Unicode scalars: Swift's
/// `String ==` is canonical equivalence, which Semantics.md rules out for literal compares.
package enum RefStrings {
  /// The form a string is compared in under `options`.
  ///
  /// - `[c]` and `[d]` both fold width and compare canonically equivalent text as equal,
  ///   as a non-literal NSString compare does: `[c]` works on the composed (NFC) form, so a
  ///   precomposed `é` stays one character (`'café' CONTAINS[c] 'cafe'` is false).
  /// - `[c]`: full case folding (Foundation's `folding`, root locale).
  /// - `[d]`: every nonspacing or enclosing mark (Mn, Me) removed after decomposition, a
  ///   mark with no base character too; spacing marks (Mc, such as Indic vowel signs) are
  ///   letters' parts and stay.
  /// - `[n]`, `[l]`: no effect.
  package static func fold(_ s: String, _ options: ComparisonOptions) -> [Unicode.Scalar] {
    guard !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty else {
      return Array(s.unicodeScalars)
    }
    var s = s.folding(options: [.widthInsensitive], locale: nil)
    if options.contains(.caseInsensitive) {
      s = s.folding(options: [.caseInsensitive], locale: nil)
    }
    if options.contains(.diacriticInsensitive) {
      return s.decomposedStringWithCanonicalMapping.unicodeScalars.filter { !isCombiningMark($0) }
    }
    return Array(s.precomposedStringWithCanonicalMapping.unicodeScalars)
  }

  package static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark: true
    default: false
    }
  }

  /// Scalar-by-scalar equality of the folded forms.
  package static func equal(_ a: String, _ b: String, _ options: ComparisonOptions) -> Bool {
    fold(a, options) == fold(b, options)
  }

  /// Lexicographic order of the folded forms by scalar value: -1, 0 or 1.
  /// Decision: with `[c]` or `[d]` ordering compares decomposed forms, so an accented
  /// letter sorts with its base letter (`'é' <[c] 'f'`).
  package static func order(_ a: String, _ b: String, _ options: ComparisonOptions) -> Int {
    func key(_ s: String) -> [Unicode.Scalar] {
      let folded = fold(s, options)
      guard !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty else { return folded }
      var text = ""
      text.unicodeScalars.append(contentsOf: folded)
      return Array(text.decomposedStringWithCanonicalMapping.unicodeScalars)
    }
    let x = key(a)
    let y = key(b)
    for (p, q) in zip(x, y) where p != q { return p.value < q.value ? -1 : 1 }
    return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
  }

  // MARK: - BEGINSWITH ENDSWITH CONTAINS

  /// The units a search compares: Unicode scalars without options; with `[c]`/`[d]` whole
  /// characters (extended grapheme clusters) of the folded text, so a match never ends
  /// inside a character (`'Cafe\u0301' BEGINSWITH[c] 'cafe'` is false).
  package static func units(_ s: String, _ options: ComparisonOptions) -> [[Unicode.Scalar]] {
    let folded = fold(s, options)
    guard !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty else {
      return folded.map { [$0] }
    }
    var text = ""
    text.unicodeScalars.append(contentsOf: folded)
    return text.map { Array($0.unicodeScalars) }
  }

  /// Decision: the "empty needle never matches" rule looks at the folded needle.
  package static func hasPrefix(_ text: String, _ needle: String, _ options: ComparisonOptions) -> Bool {
    let t = units(text, options)
    let n = units(needle, options)
    return !n.isEmpty && t.count >= n.count && Array(t[0..<n.count]) == n
  }

  package static func hasSuffix(_ text: String, _ needle: String, _ options: ComparisonOptions) -> Bool {
    let t = units(text, options)
    let n = units(needle, options)
    return !n.isEmpty && t.count >= n.count && Array(t[(t.count - n.count)...]) == n
  }

  /// Substring search on units (so `"e\u{301}" CONTAINS "e"` is true without options).
  package static func contains(_ text: String, _ needle: String, _ options: ComparisonOptions) -> Bool {
    let t = units(text, options)
    let n = units(needle, options)
    guard !n.isEmpty, t.count >= n.count else { return false }
    for start in 0...(t.count - n.count) where Array(t[start..<(start + n.count)]) == n { return true }
    return false
  }

  // MARK: - LIKE

  package enum LikeToken: Equatable {
    case literal([Unicode.Scalar])
    case any  // `?`
    case run  // `*`
  }

  /// Splits a LIKE pattern into tokens, one scalar per literal. `\*`, `\?` and `\\` are
  /// literal characters. Decision: a backslash before any other character (or at the end)
  /// is itself literal, and the character after it is read normally.
  package static func likeTokens(_ pattern: String) -> [LikeToken] {
    let scalars = Array(pattern.unicodeScalars)
    var tokens: [LikeToken] = []
    var i = 0
    while i < scalars.count {
      let s = scalars[i]
      if s == "\\", i + 1 < scalars.count, ["*", "?", "\\"].contains(scalars[i + 1]) {
        tokens.append(.literal([scalars[i + 1]]))
        i += 2
        continue
      }
      tokens.append(s == "*" ? .run : s == "?" ? .any : .literal([s]))
      i += 1
    }
    return tokens
  }

  /// Decision: with `[c]`/`[d]` each run of literal pattern characters is folded (the
  /// wildcards are syntax, so a character that folds to `*` or `?` stays literal), the text
  /// is folded whole, and both are compared in whole characters: `?` is one character of
  /// the folded text (`'straße' LIKE[c] 'stra??e'` is true, `'İ' LIKE[c] 'i?'` false).
  /// Without options the units are scalars.
  package static func like(_ text: String, _ pattern: String, _ options: ComparisonOptions) -> Bool {
    var tokens: [LikeToken] = []
    var literals = ""
    func flush() {
      for unit in units(literals, options) { tokens.append(.literal(unit)) }
      literals = ""
    }
    for token in likeTokens(pattern) {
      if case .literal(let s) = token {
        literals.unicodeScalars.append(contentsOf: s)
      } else {
        flush()
        tokens.append(token)
      }
    }
    flush()
    return likeMatch(units(text, options), tokens)
  }

  /// Whole-string wildcard match by the obvious recursion, memoised on (token, unit).
  package static func likeMatch(_ text: [[Unicode.Scalar]], _ tokens: [LikeToken]) -> Bool {
    var memo: [Int: Bool] = [:]
    func match(_ p: Int, _ t: Int) -> Bool {
      let key = p * (text.count + 1) + t
      if let known = memo[key] { return known }
      let result: Bool
      if p == tokens.count {
        result = t == text.count
      } else {
        switch tokens[p] {
        case .run: result = match(p + 1, t) || (t < text.count && match(p, t + 1))
        case .any: result = t < text.count && match(p + 1, t + 1)
        case .literal(let s): result = t < text.count && text[t] == s && match(p + 1, t + 1)
        }
      }
      memo[key] = result
      return result
    }
    return match(0, 0)
  }

  // MARK: - MATCHES

  /// Compiles `pattern` for a whole-string match. `[c]` is case-insensitive; `[d]`, `[n]`,
  /// `[l]` are ignored. The pattern is first compiled on its own so that text which is only
  /// valid inside the anchoring wrapper (`a)(b`) is still reported as invalid.
  package static func regex(_ pattern: String, _ options: ComparisonOptions, range: SourceRange) throws(EvaluationError)
    -> NSRegularExpression
  {
    let flags: NSRegularExpression.Options = options.contains(.caseInsensitive) ? [.caseInsensitive] : []
    do {
      _ = try NSRegularExpression(pattern: pattern, options: flags)
      return try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: flags)
    } catch {
      throw EvaluationError(.regex, "invalid regular expression '\(pattern)'", at: range)
    }
  }

  package static func matches(_ text: String, _ pattern: String, _ options: ComparisonOptions, range: SourceRange)
    throws(EvaluationError) -> Bool
  {
    if pattern.isEmpty { return false }
    let expression = try regex(pattern, options, range: range)
    let whole = NSRange(location: 0, length: (text as NSString).length)
    return expression.firstMatch(in: text, options: [], range: whole) != nil
  }
}
