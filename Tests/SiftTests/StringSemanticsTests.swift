import Foundation
import SiftTestSupport
import Testing

@testable import Sift

/// The property tests draw from the same SplitMix64 generator as the random cases.
typealias SeededGenerator = SplitMix64

/// Random strings mixing ASCII, accented letters (precomposed and decomposed), ß, Turkish İ/ı,
/// Greek, Cyrillic, emoji, full-width letters and stray combining marks.
enum RandomText {
  static let pieces: [String] = [
    "a", "b", "c", "e", "i", "s", "z", "A", "B", "C", "E", "I", "S", "Z", "0", "7", " ", "-", ".", "_", "@", "[", "`",
    "{", "*", "?", "\\", "ab", "ss", "SS", "cafe", "CAFE", "resume",
    "é", "É", "e\u{301}", "E\u{301}", "è", "ë", "ü", "Ü", "u\u{308}", "ñ", "Å", "a\u{30A}", "ç", "ø", "œ",
    "ß", "ẞ", "İ", "ı", "i\u{307}", "ﬁ", "ſ", "K",
    "Σ", "σ", "ς", "ά", "α\u{301}", "ΐ", "Ω", "ω", "ᾳ",
    "Ж", "ж", "Ё", "ё",
    "한", "日本", "ガ",
    "👍", "👍🏽", "❤️", "🇺🇸", "👨‍👩‍👧",
    "Ａ", "ｂ", "\u{301}", "\u{323}", "\u{200D}", "€", "™",
  ]

  static func string(_ rng: inout SeededGenerator, maxPieces: Int = 8) -> String {
    let count = Int.random(in: 0...maxPieces, using: &rng)
    var s = ""
    for _ in 0..<count { s += pieces.randomElement(using: &rng)! }
    return s
  }

  /// A needle: usually a piece of `subject` (so matches happen), sometimes a fresh string.
  static func needle(for subject: String, _ rng: inout SeededGenerator) -> String {
    let scalars = Array(subject.unicodeScalars)
    if !scalars.isEmpty && Bool.random(using: &rng) {
      let a = Int.random(in: 0..<scalars.count, using: &rng)
      let b = Int.random(in: a...min(scalars.count, a + 6), using: &rng)
      var v = String.UnicodeScalarView()
      v.append(contentsOf: scalars[a..<b])
      var s = String(v)
      if Bool.random(using: &rng) { s = s.uppercased() }
      return s
    }
    return string(&rng, maxPieces: 3)
  }
}

@Suite struct StringSemanticsTests {
  static let none: ComparisonOptions = []
  static let c: ComparisonOptions = [.caseInsensitive]
  static let d: ComparisonOptions = [.diacriticInsensitive]
  static let cd: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
  static let allOptionSets: [ComparisonOptions] = [
    [], c, d, cd, [.normalized], [.localeSensitive], [.caseInsensitive, .normalized],
    [.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive],
  ]

  struct Case: CustomTestStringConvertible, Sendable {
    var a: String
    var b: String
    var options: ComparisonOptions
    var expected: Bool
    init(_ a: String, _ b: String, _ options: ComparisonOptions, _ expected: Bool) {
      self.a = a
      self.b = b
      self.options = options
      self.expected = expected
    }
    var testDescription: String { "\(a.debugDescription) vs \(b.debugDescription) \(options.rawValue)" }
  }

  // MARK: Equality

  static let equalCases: [Case] = [
    Case("", "", none, true),
    Case("", "", c, true),
    Case("abc", "abc", none, true),
    Case("abc", "abd", none, false),
    Case("abc", "ABC", none, false),
    Case("Hello World", "HELLO WORLD", c, true),
    Case("Hello World", "HELLO WORLD", d, false),
    Case("a longer ascii string, 33 bytes!", "A LONGER ASCII STRING, 33 BYTES!", c, true),
    Case("a longer ascii string, 33 bytes!", "A LONGER ASCII STRING, 33 BYTES?", c, false),
    Case("[", "{", c, false),  // not letters: no case pair
    Case("@", "`", c, false),
    Case("é", "e\u{301}", none, false),  // literal: no normalisation
    Case("é", "e\u{301}", d, true),
    Case("é", "e\u{301}", c, true),  // [c] compares canonically decomposed folds
    Case("é", "e", d, true),
    Case("e\u{301}", "e", d, true),
    Case("é", "e", c, false),
    Case("É", "é", c, true),
    Case("É", "e", cd, true),
    Case("Résumé", "resume", cd, true),
    Case("Résumé", "Resume", d, true),
    Case("Résumé", "resume", d, false),
    Case("Straße", "STRASSE", c, true),
    Case("Straße", "strasse", none, false),
    Case("STRAẞE", "straße", c, true),
    Case("ΣΊΣΥΦΟΣ", "σίσυφος", c, true),
    Case("ΣΊΣΥΦΟΣ", "σισυφος", cd, true),
    Case("ΣΊΣΥΦΟΣ", "σισυφος", c, false),
    Case("ПРИВЕТ", "привет", c, true),
    Case("Ёж", "еж", cd, true),
    Case("Ёж", "еж", c, false),
    Case("İstanbul", "istanbul", cd, true),
    Case("İstanbul", "istanbul", c, false),  // İ folds to i + U+0307
    Case("İstanbul", "i\u{307}stanbul", c, true),
    Case("ISTANBUL", "istanbul", c, true),
    Case("ı", "i", c, false),
    Case("ı", "I", cd, false),
    Case("ﬁle", "FILE", c, true),
    Case("K", "k", c, true),  // Kelvin sign
    Case("ＡＢＣ", "abc", c, true),  // full width
    Case("ＡＢＣ", "ABC", d, true),
    Case("ＡＢＣ", "ABC", none, false),
    Case("👍", "👍", c, true),
    Case("👍🏽", "👍", c, false),
    Case("👍🏽", "👍🏽", cd, true),
    Case("\u{301}", "", d, true),  // a lone mark folds away under [d]
    Case("abc", "abc", [.normalized], true),
    Case("abc", "ABC", [.normalized], false),
    Case("ABC", "abc", [.localeSensitive, .caseInsensitive], true),
  ]

  @Test(arguments: equalCases)
  func equal(_ t: Case) {
    #expect(StringSemantics.equal(t.a, t.b, t.options) == t.expected)
    #expect(StringSemantics.equal(t.b, t.a, t.options) == t.expected)
    #expect(StringNeedle(t.b, options: t.options).isEqual(to: t.a) == t.expected)
    #expect(StringNeedle(t.a, options: t.options).isEqual(to: t.b) == t.expected)
  }

  // MARK: Ordering

  struct OrderCase: Sendable, CustomTestStringConvertible {
    var a: String
    var b: String
    var options: ComparisonOptions
    var expected: Int
    var testDescription: String { "\(a.debugDescription) vs \(b.debugDescription) \(options.rawValue)" }
  }

  static let compareCases: [OrderCase] = [
    OrderCase(a: "abc", b: "abd", options: none, expected: -1),
    OrderCase(a: "abc", b: "abc", options: none, expected: 0),
    OrderCase(a: "B", b: "a", options: none, expected: -1),  // by scalar value
    OrderCase(a: "10", b: "9", options: none, expected: -1),
    OrderCase(a: "ab", b: "abc", options: none, expected: -1),
    OrderCase(a: "", b: "a", options: none, expected: -1),
    OrderCase(a: "", b: "", options: none, expected: 0),
    OrderCase(a: "B", b: "a", options: c, expected: 1),
    OrderCase(a: "ABC", b: "abc", options: c, expected: 0),
    OrderCase(a: "abcdefghijk", b: "ABCDEFGHIJL", options: c, expected: -1),
    OrderCase(a: "[", b: "a", options: c, expected: -1),  // '[' (0x5B) < 'a' (0x61)
    OrderCase(a: "_", b: "A", options: c, expected: -1),  // '_' (0x5F) < 'a', though > 'A'
    OrderCase(a: "_", b: "A", options: none, expected: 1),
    OrderCase(a: "é", b: "f", options: none, expected: 1),  // U+00E9 > 'f'
    OrderCase(a: "é", b: "f", options: d, expected: -1),  // e < f
    OrderCase(a: "É", b: "e", options: cd, expected: 0),
    OrderCase(a: "Straße", b: "STRASSE", options: c, expected: 0),
    OrderCase(a: "z", b: "é", options: none, expected: -1),
    OrderCase(a: "z", b: "é", options: cd, expected: 1),
    OrderCase(a: "a", b: "👍", options: none, expected: -1),
    OrderCase(a: "\u{FFFF}", b: "👍", options: none, expected: -1),  // scalar order, not UTF-16
    OrderCase(a: "ÅB", b: "åa", options: c, expected: 1),
  ]

  @Test(arguments: compareCases)
  func compare(_ t: OrderCase) {
    #expect(StringSemantics.compare(t.a, t.b, t.options) == t.expected)
    #expect(StringSemantics.compare(t.b, t.a, t.options) == -t.expected)
  }

  // MARK: BEGINSWITH / ENDSWITH / CONTAINS

  static let prefixCases: [Case] = [
    Case("abc", "ab", none, true),
    Case("ab", "abc", none, false),
    Case("abc", "", none, false),  // empty needle: false, as NSString
    Case("", "", none, false),
    Case("abc", "", c, false),
    Case("Hello", "HE", c, true),
    Case("Hello", "HE", none, false),
    Case("ÉCOLE", "eco", cd, true),
    Case("ÉCOLE", "eco", c, false),  // [c] does not strip accents
    Case("ÉCOLE", "éco", c, true),
    Case("e\u{301}cole", "ÉCO", c, true),
    Case("Café", "Cafe", d, true),
    Case("Café", "cafe", cd, true),
    Case("Café", "Cafe", c, false),  // the match would end inside "é"
    Case("Cafe\u{301}", "Cafe", c, false),
    Case("Cafe\u{301}", "Cafe", none, true),  // literal: scalar prefix
    Case("Cafe\u{301}", "Cafe", d, true),
    Case("Straße", "STRAS", c, true),
    Case("ß", "ss", c, true),
    Case("ΐx", "ι\u{308}\u{301}", c, true),
    Case("İstanbul", "is", cd, true),
    Case("İstanbul", "is", c, false),
    Case("Ｈｅｌｌｏ", "hel", c, true),
    Case("👍🏽 ok", "👍", none, true),
    Case("👍🏽 ok", "👍", c, false),  // skin tone modifier continues the character
    Case("한국", "하", c, false),  // decomposed syllable: the final consonant continues it
    Case("abc\u{301}", "ab", c, true),
    Case("resume", "résumé", cd, true),
  ]

  @Test(arguments: prefixCases)
  func hasPrefix(_ t: Case) {
    #expect(StringSemantics.hasPrefix(t.a, t.b, t.options) == t.expected)
    #expect(StringNeedle(t.b, options: t.options).isPrefix(of: t.a) == t.expected)
  }

  static let suffixCases: [Case] = [
    Case("abc", "bc", none, true),
    Case("bc", "abc", none, false),
    Case("abc", "", none, false),
    Case("abc", "", cd, false),
    Case("report.PDF", ".pdf", c, true),
    Case("report.PDF", ".pdf", none, false),
    Case("report.PDF", ".pdf", d, false),
    Case("Résumé", "SUMÉ", c, true),
    Case("Résumé", "sume", cd, true),
    Case("Résumé", "sume", c, false),
    Case("Résumé", "sume", none, false),
    Case("résume\u{301}", "sumé", none, false),
    Case("résume\u{301}", "sumé", c, true),
    Case("GROSS", "ß", c, true),
    Case("naïve", "ive", d, true),
    Case("Σ", "σ", c, true),
    Case("hello 👍", "👍", cd, true),
    Case("über-Straße", "STRASSE", cd, true),
  ]

  @Test(arguments: suffixCases)
  func hasSuffix(_ t: Case) {
    #expect(StringSemantics.hasSuffix(t.a, t.b, t.options) == t.expected)
    #expect(StringNeedle(t.b, options: t.options).isSuffix(of: t.a) == t.expected)
  }

  static let containsCases: [Case] = [
    Case("hello", "ell", none, true),
    Case("hello", "ELL", none, false),
    Case("hello", "ELL", c, true),
    Case("hello", "", none, false),
    Case("", "", none, false),
    Case("", "a", c, false),
    Case("hello", "hello!", none, false),
    Case("The quick brown fox jumps over the lazy dog", "LAZY DOG", c, true),
    Case("The quick brown fox jumps over the lazy dog", "lazy cat", c, false),
    Case("The quick brown fox jumps over the lazy dog", "The", none, true),
    Case("The quick brown fox jumps over the lazy dog", "dog", none, true),
    Case("aaaaaaaaaaaaaaaaab", "aaab", none, true),
    Case("Mon résumé, version 2", "résumé", cd, true),
    Case("Mon résumé, version 2", "RESUME", cd, true),
    Case("Mon resume, version 2", "résumé", cd, true),
    Case("Mon resume, version 2", "résumé", c, false),
    Case("Mon résumé, version 2", "resume", c, false),
    Case("Mon résumé, version 2", "RÉSUMÉ", c, true),
    Case("Mon re\u{301}sume\u{301}", "RÉSUMÉ", c, true),
    Case("Mon re\u{301}sume\u{301}", "résumé", none, false),
    Case("e\u{301}", "e", none, true),  // literal: a scalar subsequence
    Case("e\u{301}", "e", c, false),
    Case("e\u{301}", "e", d, true),
    Case("Große Straße", "SS", c, true),
    Case("Große Straße", "strasse", cd, true),
    Case("ISTANBUL", "İ", c, false),
    Case("İSTANBUL", "i", c, false),  // İ folds to i + U+0307: the match would end before the mark
    Case("İSTANBUL", "i\u{307}s", c, true),
    Case("Ελληνικά", "ΛΛΗΝ", c, true),
    Case("Ελληνικά", "ΙΚΑ", cd, true),
    Case("Ελληνικά", "ΙΚΑ", c, false),
    Case("Москва", "СКВ", c, true),
    Case("I ❤️ NY", "❤️", none, true),
    Case("I 👍🏽 it", "👍🏽", c, true),
    Case("I 👍🏽 it", "👍", none, true),
    Case("I 👍🏽 it", "👍", c, false),
    Case("ＦＵＬＬ width", "full", c, true),
    Case("日本語テキスト", "テキ", cd, true),
    Case("abc", "\u{301}", d, false),  // needle folds to nothing
  ]

  @Test(arguments: containsCases)
  func contains(_ t: Case) {
    #expect(StringSemantics.contains(t.a, t.b, t.options) == t.expected)
    #expect(StringNeedle(t.b, options: t.options).isContained(in: t.a) == t.expected)
  }

  // MARK: Folding

  @Test func foldExamples() {
    #expect(StringSemantics.fold("Straße", Self.c) == "strasse")
    #expect(StringSemantics.fold("Résumé", Self.d) == "Resume")
    #expect(StringSemantics.fold("Résumé", Self.cd) == "resume")
    #expect(StringSemantics.fold("Résumé", Self.none) == "Résumé")
    #expect(StringSemantics.fold("Résumé", [.normalized, .localeSensitive]) == "Résumé")
    #expect(
      Array(StringSemantics.fold("Résumé", Self.c).unicodeScalars) == Array("re\u{301}sume\u{301}".unicodeScalars))
    #expect(Array(StringSemantics.fold("İ", Self.c).unicodeScalars) == ["i", "\u{307}"])
    #expect(StringSemantics.fold("İ", Self.cd) == "i")
    #expect(StringSemantics.fold("ＡＢＣ", Self.d) == "ABC")
    #expect(StringSemantics.fold("HELLO", Self.c) == "hello")
    #expect(StringSemantics.fold("HELLO", Self.d) == "HELLO")
    #expect(StringSemantics.fold("", Self.cd) == "")
    #expect(StringSemantics.fold("ΣΊΣΥΦΟΣ", Self.cd) == "σισυφοσ")
    #expect(StringSemantics.fold("👍🏽", Self.cd) == "👍🏽")
  }

  /// The definition, written out plainly: per scalar, Foundation's case and width folding,
  /// canonical decomposition and removal of nonspacing/enclosing marks; then canonical order.
  static func referenceFold(_ s: String, _ mode: FoldMode) -> String {
    if mode == .none { return s }
    func strip(_ s: String) -> String {
      String(
        String.UnicodeScalarView(
          s.unicodeScalars.filter {
            ![.nonspacingMark, .enclosingMark].contains($0.properties.generalCategory)
          }))
    }
    func caseFold(_ s: String) -> String {
      s.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil).decomposedStringWithCanonicalMapping
    }
    func widthFold(_ s: String) -> String {
      s.folding(options: [.widthInsensitive], locale: nil).decomposedStringWithCanonicalMapping
    }
    var out = ""
    for scalar in s.unicodeScalars {
      let one = String(scalar)
      switch mode {
      case .none: out += one
      case .caseInsensitive: out += caseFold(one)
      case .diacriticInsensitive: out += strip(widthFold(one))
      case .caseAndDiacriticInsensitive: out += strip(caseFold(strip(widthFold(one))))
      }
    }
    return out.decomposedStringWithCanonicalMapping
  }

  static let foldModes: [FoldMode] = [.caseInsensitive, .diacriticInsensitive, .caseAndDiacriticInsensitive]

  @Test func withFoldedUTF8MatchesFold() {
    var rng = SeededGenerator(seed: 12)
    for _ in 0..<500 {
      let s = RandomText.string(&rng)
      for options in Self.allOptionSets {
        let bytes = StringSemantics.withFoldedUTF8(s, options) { Array($0) }
        #expect(bytes == Array(StringSemantics.fold(s, options).utf8), "\(s.debugDescription) [\(options.rawValue)]")
      }
    }
  }

  /// The lazily built per-scalar table gives the definition's answer.
  @Test func tableFoldMatchesDefinition() {
    var rng = SeededGenerator(seed: 0x5EED_F01D)
    var samples = (0..<2000).map { _ in RandomText.string(&rng, maxPieces: 10) }
    // Every scalar of several blocks, alone and in runs.
    for block in [
      0x80, 0x100, 0x180, 0x200, 0x300, 0x370, 0x400, 0x500, 0x1E00, 0x1F00, 0x2100, 0x3000, 0xAC00, 0xFB00, 0xFF00,
      0x1F300,
    ] {
      var run = String.UnicodeScalarView()
      for v in block..<(block + 0x100) {
        guard let s = Unicode.Scalar(v) else { continue }
        samples.append(String(s))
        run.append(s)
        if v % 5 == 0 { run.append("x") }
      }
      samples.append(String(run))
    }
    for mode in Self.foldModes {
      for s in samples {
        #expect(
          Array(UnicodeFolding.fold(s, mode).utf8) == Array(Self.referenceFold(s, mode).utf8),
          "\(s.debugDescription) \(mode)")
      }
    }
  }

  /// Pages of the fold table are built on first use; threads racing to build the same page agree.
  @Test func concurrentFoldingBuildsPagesSafely() async {
    // Blocks no other test touches: Deseret (has case), Cyrillic Extended-B, Osage, Adlam.
    let samples = ["𐐀𐐁𐐂 DESERET 𐐨", "Ꙁꙁ Ꙃ ꙃ", "𐒰𐓘𐒱", "𞤀𞤢𞤁"]
    let expected = samples.map { s in Self.foldModes.map { Array(Self.referenceFold(s, $0).utf8) } }
    let bad = await withTaskGroup(of: Int.self) { group in
      for t in 0..<8 {
        group.addTask {
          var bad = 0
          for i in 0..<200 {
            let k = (i + t) % samples.count
            for (m, mode) in Self.foldModes.enumerated()
            where Array(UnicodeFolding.fold(samples[k], mode).utf8) != expected[k][m] {
              bad += 1
            }
            if !StringNeedle("𐐨", options: [.caseInsensitive]).isContained(in: samples[0]) { bad += 1 }
          }
          return bad
        }
      }
      var total = 0
      for await b in group { total += b }
      return total
    }
    #expect(bad == 0)
  }

  /// Marks that need canonical reordering (only [c] keeps marks) are put in order.
  @Test func foldReordersMarks() {
    for s in ["a\u{301}\u{323}", "a\u{323}\u{301}", "ｶﾞ", "ﾊﾟﾝ", "\u{301}\u{316}x", "é\u{323}", "ᾳ\u{301}", "Å\u{31B}"] {
      for mode in Self.foldModes {
        #expect(
          Array(UnicodeFolding.fold(s, mode).utf8) == Array(Self.referenceFold(s, mode).utf8),
          "\(s.debugDescription) \(mode)")
      }
    }
    #expect(StringSemantics.equal("a\u{301}\u{323}", "A\u{323}\u{301}", Self.c))
    #expect(StringSemantics.equal("ạ́", "a\u{301}\u{323}", Self.c))
  }

  /// On ordinary words (letters with or without precomposed accents, no stray marks), the fold is
  /// Foundation's own `folding(options:)` followed by canonical decomposition.
  @Test func foldAgreesWithFoundationOnOrdinaryText() {
    let words = [
      "Résumé", "CAFÉ", "Straße", "STRASSE", "İstanbul", "ılık", "Ærøskøbing", "Ångström", "naïve", "Zoë",
      "Ελληνικά", "ΣΊΣΥΦΟΣ", "Άλφα", "Москва", "ЁЛКА", "Ｆｕｌｌｗｉｄｔｈ", "ﬁnal", "Kelvin", "Çà et là", "Œuvre",
      "Việt Nam", "Tiếng Việt", "Ǆemal", "ǅ", "plain ascii", "MiXeD 123 !?",
    ]
    for w in words {
      for mode in Self.foldModes {
        var options: String.CompareOptions = [.widthInsensitive]
        if mode.lowersASCII { options.insert(.caseInsensitive) }
        if mode.rawValue & 2 != 0 { options.insert(.diacriticInsensitive) }
        let foundation = w.folding(options: options, locale: nil).decomposedStringWithCanonicalMapping
        #expect(Array(UnicodeFolding.fold(w, mode).utf8) == Array(foundation.utf8), "\(w) \(mode)")
      }
    }
  }

  // MARK: Properties

  /// An ASCII match followed by a combining mark, at every offset in and around a word of
  /// the in-place search: under [c] the mark makes the last character "é" (no match), under
  /// [cd] it folds away (a match), under [d] alone the case differs. The needle agrees with
  /// StringSemantics each time.
  @Test func matchFollowedByAMarkAtEveryOffset() {
    for options: ComparisonOptions in [
      [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive],
    ] {
      let needle = StringNeedle("resume", options: options, test: .contains)
      for pad in 0..<24 {
        for tail in ["", "x", " and more text after it"] {
          let subject = String(repeating: "a", count: pad) + "RESUME\u{301}" + tail
          #expect(
            needle.matches(subject) == StringSemantics.contains(subject, "resume", options),
            "\(options) pad \(pad) tail \(tail)")
          #expect(needle.matches(subject) == (options == [.caseInsensitive, .diacriticInsensitive]))
        }
      }
    }
  }

  /// StringNeedle's four methods agree with StringSemantics, for every option set.
  @Test func needleAgreesWithSemantics() {
    var rng = SeededGenerator(seed: 42)
    for _ in 0..<3000 {
      let subject = RandomText.string(&rng)
      let text = RandomText.needle(for: subject, &rng)
      for options in Self.allOptionSets {
        let needle = StringNeedle(text, options: options)
        let context = "\(subject.debugDescription) / \(text.debugDescription) [\(options.rawValue)]"
        #expect(needle.isEqual(to: subject) == StringSemantics.equal(subject, text, options), "== \(context)")
        #expect(needle.isPrefix(of: subject) == StringSemantics.hasPrefix(subject, text, options), "prefix \(context)")
        #expect(needle.isSuffix(of: subject) == StringSemantics.hasSuffix(subject, text, options), "suffix \(context)")
        #expect(
          needle.isContained(in: subject) == StringSemantics.contains(subject, text, options), "contains \(context)")
      }
    }
  }

  /// [n] and [l] never change a result.
  @Test func normalizedAndLocaleAreIgnored() {
    var rng = SeededGenerator(seed: 7)
    for _ in 0..<500 {
      let a = RandomText.string(&rng)
      let b = RandomText.needle(for: a, &rng)
      for base in [Self.none, Self.c, Self.d, Self.cd] {
        for extra: ComparisonOptions in [[.normalized], [.localeSensitive], [.normalized, .localeSensitive]] {
          let o = base.union(extra)
          #expect(StringSemantics.equal(a, b, o) == StringSemantics.equal(a, b, base))
          #expect(StringSemantics.compare(a, b, o) == StringSemantics.compare(a, b, base))
          #expect(StringSemantics.contains(a, b, o) == StringSemantics.contains(a, b, base))
          #expect(StringSemantics.hasPrefix(a, b, o) == StringSemantics.hasPrefix(a, b, base))
          #expect(StringSemantics.hasSuffix(a, b, o) == StringSemantics.hasSuffix(a, b, base))
        }
      }
    }
  }

  /// The definitions, checked against a direct reference: fold both sides with Foundation, then
  /// compare; prefix, suffix and substring matches must start and end on character boundaries
  /// (folded mode only), characters being Swift's (extended grapheme clusters).
  @Test func semanticsMatchReference() {
    func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }
    func boundary(_ s: [UInt32], _ i: Int) -> Bool {
      var text = ""
      text.unicodeScalars.append(contentsOf: s.compactMap(Unicode.Scalar.init))
      var offset = 0
      for character in text {
        if offset == i { return true }
        offset += character.unicodeScalars.count
      }
      return offset == i
    }
    var rng = SeededGenerator(seed: 99)
    for _ in 0..<1500 {
      let a = RandomText.string(&rng)
      let b = RandomText.needle(for: a, &rng)
      for mode in [FoldMode.none, .caseInsensitive, .diacriticInsensitive, .caseAndDiacriticInsensitive] {
        let options: ComparisonOptions = ComparisonOptions(rawValue: mode.rawValue)
        let fa = scalars(Self.referenceFold(a, mode))
        let fb = scalars(Self.referenceFold(b, mode))
        let folds = mode != .none
        let expectEqual = fa == fb
        let expectCompare = fa.lexicographicallyPrecedes(fb) ? -1 : (fa == fb ? 0 : 1)
        let expectPrefix = !b.isEmpty && !fb.isEmpty && fa.starts(with: fb) && (!folds || boundary(fa, fb.count))
        let expectSuffix =
          !b.isEmpty && !fb.isEmpty && fa.count >= fb.count && Array(fa.suffix(fb.count)) == fb
          && (!folds || boundary(fa, fa.count - fb.count))
        var expectContains = false
        if !b.isEmpty && !fb.isEmpty && fa.count >= fb.count {
          for i in 0...(fa.count - fb.count) where Array(fa[i..<(i + fb.count)]) == fb {
            if !folds || (boundary(fa, i) && boundary(fa, i + fb.count)) {
              expectContains = true
              break
            }
          }
        }
        let context = "\(a.debugDescription) / \(b.debugDescription) mode \(mode)"
        #expect(StringSemantics.equal(a, b, options) == expectEqual, "== \(context)")
        #expect(StringSemantics.compare(a, b, options) == expectCompare, "compare \(context)")
        #expect(StringSemantics.hasPrefix(a, b, options) == expectPrefix, "prefix \(context)")
        #expect(StringSemantics.hasSuffix(a, b, options) == expectSuffix, "suffix \(context)")
        #expect(StringSemantics.contains(a, b, options) == expectContains, "contains \(context)")
      }
    }
  }

  /// Long ASCII strings exercise every SWAR tail length.
  @Test func asciiLengthsAndPositions() {
    let base = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ"
    for n in 0...base.utf8.count {
      let s = String(base.prefix(n))
      let upper = s.uppercased()
      #expect(StringSemantics.equal(s, upper, Self.c))
      #expect(StringSemantics.equal(s, s, Self.none))
      #expect(StringNeedle(upper, options: Self.c).isEqual(to: s))
      for m in 1...max(1, n) where m <= n {
        for start in 0...(n - m) {
          let chars = Array(s)
          let sub = String(chars[start..<(start + m)])
          #expect(StringSemantics.contains(s, sub.uppercased(), Self.c), "\(s) \(sub)")
          #expect(StringNeedle(sub.uppercased(), options: Self.c).isContained(in: s), "\(s) \(sub)")
          #expect(StringNeedle(sub, options: Self.none).isContained(in: s), "\(s) \(sub)")
          #expect(!StringNeedle(sub + "!", options: Self.c).isContained(in: s))
        }
        #expect(StringNeedle(String(s.prefix(m)).uppercased(), options: Self.c).isPrefix(of: s))
        #expect(StringNeedle(String(s.suffix(m)).uppercased(), options: Self.c).isSuffix(of: s))
      }
      if n > 0 {
        var changed = Array(s.utf8)
        changed[n - 1] = UInt8(ascii: "!")
        let other = String(decoding: changed, as: UTF8.self)
        #expect(!StringSemantics.equal(s, other, Self.c))
        #expect(StringSemantics.compare(other, s, Self.none) == -1)
      }
    }
  }
}

/// Release-mode timings of the string, LIKE and MATCHES fast paths. Skipped unless
/// SIFT_STRING_TIMINGS is set; run with
/// `SIFT_STRING_TIMINGS=1 swift test -c release -Xswiftc -enable-testing --scratch-path .build-strings --filter StringOperatorTimings`.
@Suite struct StringOperatorTimings {
  @inline(never) static func opaque<T>(_ x: T) -> T { x }

  /// Best of 5 runs of `n` calls over four subjects held in locals; ns per call.
  static func time(_ n: Int, _ subjects: [String], _ f: (String) -> Bool) -> (Double, Int) {
    let s0 = subjects[0], s1 = subjects[1], s2 = subjects[2], s3 = subjects[3]
    let clock = ContinuousClock()
    var best = Double.infinity
    var hits = 0
    for rep in 0..<6 {
      var k = 0
      let start = clock.now
      var i = 0
      while i < n {
        if f(s0) { k &+= 1 }
        if f(s1) { k &+= 1 }
        if f(s2) { k &+= 1 }
        if f(s3) { k &+= 1 }
        i &+= 4
      }
      let d = clock.now - start
      if rep > 0 {  // the first run is a warm-up
        let ns = Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
        best = min(best, ns / Double(n))
      }
      hits = k
    }
    return (best, hits)
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["SIFT_STRING_TIMINGS"] != nil))
  func printTimings() throws {
    let n = 1_000_000
    let pdfSubjects = [
      "Invoice-2024-0001234.PDF", "Invoice-2024-0001235.pdf", "Invoice-2024-0001236.doc", "Invoice-2024-0001237.Pdf",
    ].map(Self.opaque)
    let asciiTitles = [
      "Senior Swift Engineer Resume - Final v2", "Senior Swift Engineer Letter - Final v2",
      "Senior Swift Engineer RESUME - Final v3", "Senior Swift Engineer Notes  - Final v2",
    ].map(Self.opaque)
    let accentedTitles = [
      "Curriculum vitæ: Résumé de Zoë Müller", "Curriculum vitæ: Lettre de Zoë Müller",
      "Curriculum vitæ: RÉSUMÉ de Zoë Müller", "Curriculum vitæ: Notes. de Zoë Müller",
    ].map(Self.opaque)
    let invoiceSubjects = [
      "Re: your invoice 20231 is ready for you!", "Re: your invoice #2023 is ready for you!",
      "Re: your invoice 88 is ready for you now", "Re: your parcel 20231 is ready for you!!",
    ].map(Self.opaque)
    let likeSubjects = [
      "Quarterly-Report-Q3-2024-final.PDF", "Quarterly-Report-Q3-2023-final.PDF", "Quarterly-report-Q3-2024-final.pdf",
      "Quarterly-Report-Q3-2024-final.DOC",
    ].map(Self.opaque)
    let pdf = Self.opaque(StringNeedle(".pdf", options: [.caseInsensitive]))
    let resume = Self.opaque(StringNeedle("résumé", options: [.caseInsensitive, .diacriticInsensitive]))
    let invoice = Self.opaque(try RegexPattern(".*invoice [0-9]+.*", caseInsensitive: false))
    let literal = Self.opaque(try RegexPattern(".*invoice.*", caseInsensitive: true))
    let like = Self.opaque(LikePattern("*report*2024*.pdf", options: [.caseInsensitive]))
    let rows: [(String, (Double, Int))] = [
      ("StringNeedle.isSuffix [c] \".pdf\", 24-byte ASCII", Self.time(n, pdfSubjects) { pdf.isSuffix(of: $0) }),
      (
        "StringNeedle.isContained [cd] \"résumé\", 39-byte ASCII title",
        Self.time(n, asciiTitles) { resume.isContained(in: $0) }
      ),
      (
        "StringNeedle.isContained [cd] \"résumé\", 37-char non-ASCII title",
        Self.time(n, accentedTitles) { resume.isContained(in: $0) }
      ),
      (
        "StringSemantics.contains [cd] \"résumé\", non-ASCII title",
        Self.time(n, accentedTitles) {
          StringSemantics.contains($0, "résumé", [.caseInsensitive, .diacriticInsensitive])
        }
      ),
      (
        "Foundation range(of:options:[c,d]) (reference)",
        Self.time(n / 10, accentedTitles) {
          $0.range(of: "résumé", options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
      ),
      (
        "RegexPattern.matches \".*invoice [0-9]+.*\", 40 bytes",
        Self.time(n, invoiceSubjects) { (try? invoice.matches($0)) == true }
      ),
      (
        "RegexPattern.matches \".*invoice.*\" [c] (literal search)",
        Self.time(n, invoiceSubjects) { (try? literal.matches($0)) == true }
      ),
      ("LikePattern.matches [c] \"*report*2024*.pdf\", 34 bytes", Self.time(n, likeSubjects) { like.matches($0) }),
    ]
    for (name, (ns, hits)) in rows {
      print(String(format: "%9.2f ns/op  %@  (hits %d)", ns, name, hits))
    }
  }
}

/// Characters are extended grapheme clusters under [c]/[d]: CR LF is one, a mark after a
/// control stands alone, a flag is two regional indicators. Each case runs with the subject
/// as `SELF` (the runtime path) and as a constant (the folder's path).
@Test(
  arguments: [
    ("\r\n", "LIKE[c]", "?", true), ("a\r\n", "LIKE[c]", "a?", true), ("\n\u{301}", "LIKE[c]", "?", false),
    ("a\r\nb", "CONTAINS[c]", "\nb", false), ("a\r\nb", "CONTAINS[c]", "a\r", false),
    ("a\r\nb", "BEGINSWITH[c]", "a\r", false), ("a\r\nb", "ENDSWITH[c]", "\nb", false),
    ("a\r\nb", "CONTAINS[c]", "\r\nb", true), ("e\u{301}x", "CONTAINS[c]", "\u{301}x", false),
    ("🇫🇷🇩🇪", "LIKE[c]", "??", true), ("🇫🇷🇩🇪", "CONTAINS[c]", "🇷🇩", false), ("🇫🇷🇩🇪", "ENDSWITH[cd]", "🇩🇪", true),
    // The search's candidates were not exact: 'd' ^ 'e' is 0x01, flagged above a zero byte.
    ("eDDDllé", "CONTAINS[c]", "ELL", false), ("eDDDellé", "CONTAINS[c]", "ELL", true),
    ("xxeddddllllll", "CONTAINS", "ell", false), ("eddddllé", "CONTAINS[cd]", "ELL", false),
  ])
func graphemeClustersAreCharacters(_ subject: String, _ op: String, _ needle: String, _ expected: Bool) throws {
  let runtime = try SiftPredicate(format: "SELF \(op) %@", arguments: [.string(needle)])
  #expect(try runtime.evaluate(with: subject) == expected)
  let constant = try SiftPredicate(format: "%@ \(op) %@", arguments: [.string(subject), .string(needle)])
  #expect(try constant.evaluate(with: SiftValue.null) == expected)
}
