import Foundation
import SiftTestSupport
import Testing

@testable import Sift

/// The MATCHES engines against each other: RE2 (through Sift's translation) and the default
/// choice give PCRE2's backtracking answer on every regular pattern of the regex corpus and
/// on generated (pattern, subject) pairs; which engine a pattern takes; the literal every
/// match needs.
@Suite("MATCHES engines")
struct RegexEngineTests {
  /// Patterns from the regex tests, the conformance cases, the differential test's list and
  /// the ReDoS set.
  static let corpus: [String] = {
    var patterns = RegexTests.cases.map(\.pattern)
    patterns += RandomCaseGenerator.regexPatterns.map { $0.replacingOccurrences(of: "\\\\", with: "\\") }
    patterns += [
      "(a+)+$", "(a|aa)+$", "(a|a?)+$", "(\\w+\\s?)+$", "^(([a-z])+.)+[A-Z]([a-z])+$", "(x+x+)+y", "(.*a){20}",
      ".*invoice [0-9]+.*", "[a-z]+@[a-z]+\\.com", "\\d{3}-\\d{4}", "(?i)straße", "[^\\n]*", "\\h+\\v?",
      "\\p{Lu}\\p{Ll}+",
      "[[:alpha:][:digit:]_]+", "[\\d\\s]+", "a{2,4}b{0,}c{3}", "(?s).+", "\\N+", "\\x{e9}|\\x41",
      "[\\x{100}-\\x{17f}]+",
      "a\\z", "\\Aa", "a$", "^a", "(?i:ab)c", "a(?i)b|c", "\\S\\D\\W", "[^\\w]", "[\\W]", "\\Qa.b\\E", "a{,3}",
      "x{2}{3}",
      "(?:)", "a||b", "[]a]", "[^]a]", "[a\\-z]", "\\cA", "\\e\\a\\t", "\\0101",
    ]
    for c in ConformanceData.all {
      guard c.format.contains("MATCHES"), let quote = c.format.range(of: "'") ?? c.format.range(of: "\"") else {
        continue
      }
      let rest = c.format[quote.upperBound...]
      if let end = rest.firstIndex(of: c.format[quote.lowerBound]) { patterns.append(String(rest[..<end])) }
    }
    return Array(Set(patterns)).sorted()
  }()

  static let pieces = [
    "a", "b", "c", "x", "y", "z", "A", "B", "K", "\u{212A}", "é", "É", "e\u{301}", "ß", "ẞ", "1", "٣", "_", " ",
    "\u{A0}", "\t", "\n", "\r", "\u{2028}", "\u{85}", "@", ".", "-", "ab", "aa", "abc", "invoice 12", "Ωmega", "σ",
    "ς", "Σ", "👍",
  ]

  static func subjects(_ seed: UInt64, _ count: Int) -> [String] {
    var rng = SplitMix64(seed: seed)
    return [""] + (0..<count).map { _ in (0..<rng.int(1...6)).map { _ in rng.pick(pieces) }.joined() }
  }

  /// A random pattern over the syntax the translation handles, and some it refuses.
  static func randomPattern(_ rng: inout SplitMix64, depth: Int) -> String {
    let atoms = [
      "a", "b", "x", "K", "é", "ß", "1", " ", "\\.", "\\n", ".", "\\d", "\\w", "\\s", "\\h", "\\v", "\\D", "\\W", "\\S",
      "[a-c]", "[^a]", "[\\d_]", "[[:alpha:]]", "[[:space:]]", "\\p{L}", "\\p{Lu}", "\\p{Nd}", "[^\\s]", "\\x{e9}",
      "[a-zé]", "\\b", "$", "^", "\\z", "\\A", "(?i)", "(?s)", "\\N",
    ]
    var out = ""
    for _ in 0..<rng.int(1...4) {
      var piece: String
      if depth > 0 && rng.chance(30) {
        let inner = randomPattern(&rng, depth: depth - 1)
        let other = randomPattern(&rng, depth: depth - 1)
        piece = rng.chance(40) ? "(\(inner)|\(other))" : rng.pick(["(\(inner))", "(?:\(inner))", "(?i:\(inner))"])
      } else {
        piece = rng.pick(atoms)
      }
      if rng.chance(40) { piece += rng.pick(["*", "+", "?", "{1,3}", "{2}", "*?", "+?"]) }
      out += piece
    }
    return out
  }

  /// The reference: PCRE2's own backtracking answer (with the configured limits; the
  /// subjects are short).
  static func reference(_ pattern: String, _ caseless: Bool) -> RegexPattern? {
    try? RegexPattern(pattern, caseInsensitive: caseless, engine: .backtrackingBounded)
  }

  static func compare(_ patterns: [String], _ subjects: [String]) -> (re2: Int, safe: Int, mismatches: [String]) {
    var counts = (re2: 0, safe: 0)
    var mismatches: [String] = []
    for pattern in patterns {
      for caseless in [false, true] {
        guard let reference = reference(pattern, caseless) else { continue }
        let tree = RegexParser.parse(RegexLiteral.translatingICUEscapes(pattern).0, caseInsensitive: caseless)
        guard tree.isRegular else { continue }
        let engines: [RegexPattern] = [
          try? RegexPattern(pattern, caseInsensitive: caseless, engine: .re2),
          try? RegexPattern(pattern, caseInsensitive: caseless),
        ].compactMap { $0 }
        for engine in engines {
          if engine.engine == .re2 { counts.re2 += 1 }
          if engine.engine == .backtrackingSafe { counts.safe += 1 }
          for s in subjects {
            // Where PCRE2's backtracking gives up (its limit), a linear engine decides: no
            // answer to compare.
            guard let expected = try? reference.matches(s) else { continue }
            let actual = try? engine.matches(s)
            if expected != actual, mismatches.count < 20 {
              mismatches.append(
                "\(pattern.debugDescription)\(caseless ? "[c]" : "") on \(s.debugDescription): "
                  + "PCRE2 \(String(describing: expected)), \(engine.engine) \(String(describing: actual))")
            }
          }
        }
      }
    }
    return (counts.re2, counts.safe, mismatches)
  }

  @Test func enginesAgreeOnTheCorpus() {
    let result = Self.compare(Self.corpus, Self.subjects(1, 200))
    #expect(result.re2 > 60 && result.safe > 20, "\(result.re2) RE2, \(result.safe) safe for backtracking")
    #expect(result.mismatches.isEmpty, "\(result.mismatches.joined(separator: "\n"))")
  }

  @Test(arguments: [UInt64(3), 4, 5])
  func enginesAgreeOnGeneratedPairs(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let patterns = (0..<400).map { _ in Self.randomPattern(&rng, depth: 2) }
    let result = Self.compare(patterns, Self.subjects(seed &+ 100, 60))
    #expect(result.re2 > 100, "\(result.re2) patterns through RE2")
    #expect(result.mismatches.isEmpty, "\(result.mismatches.joined(separator: "\n"))")
  }

  @Test(arguments: [
    ("invoice [0-9]+", RegexPattern.Engine.backtrackingSafe), ("[a-z]+@example\\.com", .backtrackingSafe),
    ("(a+)+$", .re2), ("(.*a){20}", .re2), ("(a|aa)+$", .re2), ("\\bfoo\\b.*", .backtrackingSafe),
    ("\\b(a+)+\\b", .backtrackingBounded), ("(a)\\1", .backtrackingBounded),
    ("a(?=b)", .backtrackingBounded), ("(?>a+)b", .backtrackingBounded), ("a++b", .backtrackingBounded),
    ("(?x) a b", .backtrackingBounded), ("a.*b.*c", .re2), ("\\d+\\d+", .re2), ("[0-9]{3}", .backtrackingSafe),
  ])
  func engineChoice(_ pattern: String, _ engine: RegexPattern.Engine) throws {
    #expect(try RegexPattern(pattern, caseInsensitive: false).engine == engine, "\(pattern)")
  }

  @Test(arguments: [
    (".*invoice [0-9]+.*", "invoice "), ("a+bcd", "abcd"), ("(x|y)abc(d|e)", "abc"), ("[0-9]+", ""), ("(?i)abc", ""),
    ("(?i)a12b", "12"), ("ab?c", "a"), ("\\Qa.b\\E", "a.b"), ("é+ü", "éü"),
  ])
  func requiredLiterals(_ pattern: String, _ literal: String) throws {
    #expect(try RegexPattern(pattern, caseInsensitive: false).requiredLiteral == literal, "\(pattern)")
  }

  /// The line-terminator scan `.` depends on, against a byte-by-byte reference, on random
  /// byte strings built from terminators (LF, VT, FF, CR, NEL, LS, PS), their prefixes and
  /// near misses, accented letters and ASCII, at every offset of a word.
  @Test(arguments: [UInt64(1), 2, 3])
  func lineTerminatorsAreFoundAsByteByByte(seed: UInt64) {
    func reference(_ b: [UInt8]) -> Bool {
      for i in b.indices {
        if (0x0A...0x0D).contains(b[i]) { return true }
        if b[i] == 0xC2, i + 1 < b.count, b[i + 1] == 0x85 { return true }
        if b[i] == 0xE2, i + 2 < b.count, b[i + 1] == 0x80, b[i + 2] == 0xA8 || b[i + 2] == 0xA9 { return true }
      }
      return false
    }
    let pieces: [[UInt8]] = [
      [0x0A], [0x0B], [0x0C], [0x0D], [0x09], [0x0E], [0xC2, 0x85], [0xC2], [0xC2, 0x84], [0xE2, 0x80, 0xA8],
      [0xE2, 0x80, 0xA9], [0xE2, 0x80], [0xE2], [0xE2, 0x80, 0xAA], [0xC3, 0xA9], Array("invoice ".utf8), [0x61],
      [0x85], [0xA8], [0xFE], [0xFF],
    ]
    var rng = SplitMix64(seed: seed)
    var mismatches: [[UInt8]] = []
    for _ in 0..<20_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int(rng.next() % 12) { bytes += pieces[Int(rng.next() % UInt64(pieces.count))] }
      let found = bytes.withUnsafeBufferPointer { ByteOps.hasLineTerminator($0) }
      if found != reference(bytes), mismatches.count < 5 { mismatches.append(bytes) }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }
}
