import Foundation
import Testing

@testable import Sift

@Suite struct LikeTests {
  static let none: ComparisonOptions = []
  static let c: ComparisonOptions = [.caseInsensitive]
  static let d: ComparisonOptions = [.diacriticInsensitive]
  static let cd: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]

  struct Case: CustomTestStringConvertible, Sendable {
    var subject: String
    var pattern: String
    var options: ComparisonOptions
    var expected: Bool
    init(_ subject: String, _ pattern: String, _ expected: Bool) {
      self.init(subject, pattern, [], expected)
    }
    init(_ subject: String, _ pattern: String, _ options: ComparisonOptions, _ expected: Bool) {
      self.subject = subject
      self.pattern = pattern
      self.options = options
      self.expected = expected
    }
    var testDescription: String { "\(subject.debugDescription) LIKE[\(options.rawValue)] \(pattern.debugDescription)" }
  }

  static let cases: [Case] = [
    // The documented edge cases: `?` is exactly one, metacharacters are literal, empty subjects.
    Case("ac", "a?c", false),
    Case("abc", "a?c", true),
    Case("a", "a?", false),
    Case("abc", "a.c", false),
    Case("a.c", "a.c", true),
    Case("a+b", "a+b", true),
    Case("aab", "a+b", false),
    Case("", "*", true),
    Case("", "?", false),
    Case("", "", true),
    Case("a", "", false),
    Case("👍", "?", true),
    Case("👍🏽", "?", false),  // two scalars
    Case("👍🏽", "??", true),
    Case("é", "?", true),
    Case("e\u{301}", "?", false),  // without options a unit is a scalar
    Case("e\u{301}", "??", true),
    // Every regex metacharacter is literal.
    Case("(a)", "(a)", true),
    Case("a", "(a)", false),
    Case("[ab]", "[ab]", true),
    Case("a", "[ab]", false),
    Case("^a$", "^a$", true),
    Case("a", "^a$", false),
    Case("a|b", "a|b", true),
    Case("a", "a|b", false),
    Case("a{2}", "a{2}", true),
    Case("aa", "a{2}", false),
    Case("a\\d", "a\\d", true),  // backslash before an ordinary character is itself literal
    Case("a5", "a\\d", false),
    // Escapes.
    Case("a*b", "a\\*b", true),
    Case("axb", "a\\*b", false),
    Case("a?b", "a\\?b", true),
    Case("axb", "a\\?b", false),
    Case("a\\b", "a\\\\b", true),
    Case("a\\\\b", "a\\\\b", false),
    Case("a\\", "a\\", true),  // trailing backslash: literal
    Case("*", "\\*", true),
    Case("x", "\\*", false),
    Case("a\\xyz", "a\\\\*", true),
    // Stars.
    Case("abc", "*", true),
    Case("abc", "a*", true),
    Case("abc", "*c", true),
    Case("abc", "*b*", true),
    Case("abc", "*d*", false),
    Case("abc", "a**c", true),
    Case("abc", "*?", true),
    Case("abc", "???", true),
    Case("abc", "????", false),
    Case("abc", "?*?*?", true),
    Case("ab", "?*?*?", false),
    Case("mississippi", "*sip*", true),
    Case("mississippi", "m*iss*ppi", true),
    Case("mississippi", "m*iss*ppx", false),
    Case("mississippi", "*ss*ss*", true),
    Case("mississippi", "*ss*ss*ss*", false),
    Case("aaaaaaaaab", "*a*a*b", true),
    Case("abcabcabd", "*abd", true),
    Case("abcabcabd", "*abc", false),
    // Options.
    Case("HELLO", "h*o", c, true),
    Case("HELLO", "h*o", false),
    Case("hello", "H?LLO", c, true),
    Case("[x]", "{X}", c, false),
    Case("Straße", "STRASSE", c, true),
    Case("Straße", "stra?e", c, false),  // ß folds to two units, "ss"
    Case("Straße", "stra??e", c, true),
    Case("Résumé", "Resume", d, true),
    Case("Résumé", "resume", d, false),
    Case("Résumé", "r*e", cd, true),
    Case("Résumé", "r?sum?", c, true),  // with [c]/[d] a unit is a character: é in one
    Case("Re\u{301}sume\u{301}", "r?sum?", c, true),
    Case("Re\u{301}sume\u{301}", "RÉSUMÉ", c, true),
    Case("Résumé", "resume", c, false),
    Case("ÉCOLE", "eco*", cd, true),
    Case("ÉCOLE", "eco*", c, false),
    Case("ÉCOLE", "éco*", c, true),
    Case("e\u{301}", "?", c, true),
    Case("e\u{301}", "?", d, true),
    Case("Ελληνικά", "ελλην*", c, true),
    Case("Ελληνικά", "*ΙΚΑ", cd, true),
    Case("Ελληνικά", "*ΙΚΑ", c, false),
    Case("ПРИВЕТ", "при?ет", c, true),
    Case("👍🏽", "?", c, true),  // the modifier continues the character
    Case("ＦＵＬＬ", "full", c, true),
    Case("İstanbul", "istanbul", cd, true),
    Case("İstanbul", "istanbul", c, false),
    Case("İstanbul", "?stanbul", c, true),
    Case("abc", "ABC", [.normalized, .localeSensitive], false),
  ]

  @Test(arguments: cases)
  func like(_ t: Case) {
    #expect(LikePattern(t.pattern, options: t.options).matches(t.subject) == t.expected)
  }

  /// Many stars against a long non-matching subject: the greedy-star matcher is O(n·m), no blow-up.
  @Test func noExponentialBlowUp() {
    let subject = String(repeating: "a", count: 20_000)
    let pattern = LikePattern("*a*a*a*a*a*a*a*a*a*a*b", options: [])
    let clock = ContinuousClock()
    let elapsed = clock.measure { #expect(!pattern.matches(subject)) }
    #expect(elapsed < .seconds(2))
    let folded = LikePattern("*A*A*A*A*B", options: Self.cd)
    #expect(!folded.matches(String(repeating: "á", count: 5_000)))
    #expect(LikePattern("*a*a*a*a*a*a*a*a*a*a", options: []).matches(subject))
  }

  // MARK: Properties

  enum Token: Equatable { case literal(Unicode.Scalar), any, star }

  /// The obviously correct reference: recursion over scalars (no options).
  static func reference(_ s: ArraySlice<Unicode.Scalar>, _ p: ArraySlice<Token>) -> Bool {
    guard let first = p.first else { return s.isEmpty }
    switch first {
    case .star:
      var rest = s
      while true {
        if reference(rest, p.dropFirst()) { return true }
        if rest.isEmpty { return false }
        rest = rest.dropFirst()
      }
    case .any:
      return !s.isEmpty && reference(s.dropFirst(), p.dropFirst())
    case .literal(let c):
      return s.first == c && reference(s.dropFirst(), p.dropFirst())
    }
  }

  static func tokens(_ pattern: String) -> [Token] {
    let scalars = Array(pattern.unicodeScalars)
    var out: [Token] = []
    var i = 0
    while i < scalars.count {
      if scalars[i] == "\\", i + 1 < scalars.count, ["*", "?", "\\"].contains(scalars[i + 1]) {
        out.append(.literal(scalars[i + 1]))
        i += 2
        continue
      }
      out.append(scalars[i] == "*" ? .star : scalars[i] == "?" ? .any : .literal(scalars[i]))
      i += 1
    }
    return out
  }

  static let subjectPieces = ["a", "b", "A", "é", "e\u{301}", "\u{301}", "👍", "🏽", "*", "?", "\\", ".", "+", "ß"]
  static let patternPieces = [
    "a", "b", "A", "é", "e", "\u{301}", "👍", "*", "*", "?", "?", "\\*", "\\?", "\\\\", "\\", ".", "+",
  ]

  static func random(_ pieces: [String], _ maxCount: Int, _ rng: inout SeededGenerator) -> String {
    (0..<Int.random(in: 0...maxCount, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
  }

  /// Without options, LikePattern agrees with the recursive reference on random inputs.
  @Test func agreesWithReference() {
    var rng = SeededGenerator(seed: 2024)
    for _ in 0..<6000 {
      let subject = Self.random(Self.subjectPieces, 8, &rng)
      let pattern = Self.random(Self.patternPieces, 7, &rng)
      let expected = Self.reference(ArraySlice(Array(subject.unicodeScalars)), ArraySlice(Self.tokens(pattern)))
      #expect(
        LikePattern(pattern, options: []).matches(subject) == expected,
        "\(subject.debugDescription) LIKE \(pattern.debugDescription)")
    }
  }

  /// With [c] on ASCII text, LikePattern agrees with the reference on lowercased text.
  @Test func caseInsensitiveASCIIAgreesWithReference() {
    var rng = SeededGenerator(seed: 77)
    let pieces = ["a", "b", "A", "B", "z", "Z", "[", "{", "@", "`", "*", "?", "\\*"]
    for _ in 0..<4000 {
      let subject = Self.random(pieces.filter { $0 != "\\*" }, 20, &rng)
      let pattern = Self.random(pieces, 7, &rng)
      let expected = Self.reference(
        ArraySlice(Array(subject.lowercased().unicodeScalars)), ArraySlice(Self.tokens(pattern.lowercased())))
      #expect(LikePattern(pattern, options: Self.c).matches(subject) == expected, "\(subject) LIKE[c] \(pattern)")
    }
  }

  static func escaped(_ s: String) -> String {
    var out = ""
    for ch in s.unicodeScalars {
      if ch == "*" || ch == "?" || ch == "\\" { out += "\\" }
      out.unicodeScalars.append(ch)
    }
    return out
  }

  /// With any options, a wildcard-free pattern is `==`, `lit*` is BEGINSWITH, `*lit` is ENDSWITH and
  /// `*lit*` is CONTAINS (for literals whose fold is not empty and does not start with a mark).
  @Test func literalPatternsAgreeWithStringSemantics() {
    var rng = SeededGenerator(seed: 31337)
    for _ in 0..<2500 {
      let subject = RandomText.string(&rng)
      let literal = RandomText.needle(for: subject, &rng)
      for options in [Self.none, Self.c, Self.d, Self.cd] {
        let context = "\(subject.debugDescription) / \(literal.debugDescription) [\(options.rawValue)]"
        let e = Self.escaped(literal)
        #expect(
          LikePattern(e, options: options).matches(subject) == StringSemantics.equal(subject, literal, options),
          "== \(context)")
        let folded = StringSemantics.fold(literal, options)
        guard let first = folded.unicodeScalars.first, !UnicodeFolding.continuesCharacter(first.value) else { continue }
        #expect(
          LikePattern(e + "*", options: options).matches(subject)
            == StringSemantics.hasPrefix(subject, literal, options), "prefix \(context)")
        #expect(
          LikePattern("*" + e, options: options).matches(subject)
            == StringSemantics.hasSuffix(subject, literal, options), "suffix \(context)")
        #expect(
          LikePattern("*" + e + "*", options: options).matches(subject)
            == StringSemantics.contains(subject, literal, options), "contains \(context)")
      }
    }
  }

  @Test func hashableAndSendable() {
    let a = LikePattern("a*", options: Self.c)
    let b = LikePattern("a*", options: Self.c)
    #expect(a == b)
    #expect(Set([a, b, LikePattern("a*", options: [])]).count == 2)
    let shared: any Sendable = a
    _ = shared
  }
}
