import Foundation
import Testing

@testable import Sift

@Suite struct RegexTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var subject: String
    var pattern: String
    var caseInsensitive: Bool
    var expected: Bool
    init(_ subject: String, _ pattern: String, c caseInsensitive: Bool = false, _ expected: Bool) {
      self.subject = subject
      self.pattern = pattern
      self.caseInsensitive = caseInsensitive
      self.expected = expected
    }
    var testDescription: String {
      "\(subject.debugDescription) MATCHES\(caseInsensitive ? "[c]" : "") \(pattern.debugDescription)"
    }
  }

  static let cases: [Case] = [
    // Whole-string match.
    Case("Hello World", "Hello", false),
    Case("Hello World", "Hello.*", true),
    Case("Hello World", ".*World", true),
    Case("Hello World", "World", false),
    Case("xHello", "Hello", false),
    Case("Hello", "Hello", true),
    Case("Hello\n", "Hello", false),
    Case("ab", "a|ab", true),  // ENDANCHORED forces the longer alternative
    Case("bob@example.com", "[a-z]+@[a-z]+\\.com", true),
    Case("bob@example.comx", "[a-z]+@[a-z]+\\.com", false),
    // [c].
    Case("HELLO", "hel+o", false),
    Case("HELLO", "hel+o", c: true, true),
    Case("ÉCOLE", "école", c: true, true),
    Case("ΣΊΣΥΦΟΣ", "σίσυφος", c: true, true),
    Case("STRAẞE", "straße", c: true, true),
    Case("STRASSE", "straße", c: true, false),  // PCRE2 folds simply, not ß -> ss
    // Unicode classes (PCRE2_UCP), like ICU.
    Case("é", "\\w", true),
    Case("café", "\\w+", true),
    Case("naïve", "\\b\\w+\\b", true),
    Case("Ωmega", "\\w+", true),
    Case("٣", "\\d", true),  // ARABIC-INDIC DIGIT THREE
    Case("a\u{00A0}b", "a\\sb", true),
    Case("É", "\\p{Lu}", true),
    Case("é", "[[:alpha:]]", true),
    // `.` is one scalar and does not match line terminators.
    Case("👍", ".", true),
    Case("👍🏽", ".", false),
    Case("a\nb", "a.b", false),
    Case("a\rb", "a.b", false),
    Case("a\u{2028}b", "a.b", false),
    Case("a\u{85}b", "a.b", false),
    Case("a\nb", "(?s)a.b", true),
    Case("a\nb", "a\\nb", true),
    // ICU-style escapes.
    Case("é", "\\u00e9", true),
    Case("é", "\\x{e9}", true),
    Case("é", "\\U000000e9", true),
    Case("\\u00e9", "\\\\u00e9", true),  // an escaped backslash, then "u00e9"
    Case("\\u00e9", "\\Q\\u00e9\\E", true),  // quoted: literal
    Case("e\u{301}", "é", false),  // no normalisation
    // Literal-search shapes.
    Case("Invoice 42 paid", ".*invoice.*", false),
    Case("Invoice 42 paid", ".*invoice.*", c: true, true),
    Case("Invoice 42 paid", ".*Invoice.*", true),
    Case("an in.voice", ".*in\\.voice.*", true),
    Case("an inXvoice", ".*in\\.voice.*", false),
    Case("line one\ninvoice", ".*invoice.*", false),
    Case("invoice", ".*invoice.*", true),
    Case("résumé", ".*sum.*", true),
    Case("RÉSUMÉ", ".*sum.*", c: true, true),
    Case("ſum", ".*SUM.*", c: true, true),  // PCRE2 caseless: ſ (U+017F) matches s
    Case("\u{212A}ey", ".*key.*", c: true, true),  // KELVIN SIGN matches k
  ]

  @Test(arguments: cases)
  func matches(_ t: Case) throws {
    let regex = try RegexPattern(t.pattern, caseInsensitive: t.caseInsensitive)
    #expect(try regex.matches(t.subject) == t.expected)
  }

  @Test func literalRewriteApplies() throws {
    #expect(try RegexPattern(".*invoice.*", caseInsensitive: false).isLiteralSearch)
    #expect(try RegexPattern(".*invoice.*", caseInsensitive: true).isLiteralSearch)
    #expect(try RegexPattern(".*in\\.voice\\?.*", caseInsensitive: false).isLiteralSearch)
    #expect(try RegexPattern(".*a b#c.*", caseInsensitive: false).isLiteralSearch)
    #expect(try RegexPattern(".*é.*", caseInsensitive: false).isLiteralSearch)
    #expect(try !RegexPattern(".*é.*", caseInsensitive: true).isLiteralSearch)  // non-ASCII caseless: PCRE2
    #expect(try !RegexPattern(".*invoice [0-9]+.*", caseInsensitive: false).isLiteralSearch)
    #expect(try !RegexPattern(".*\\d.*", caseInsensitive: false).isLiteralSearch)
    #expect(try !RegexPattern(".*a+.*", caseInsensitive: false).isLiteralSearch)
    #expect(try !RegexPattern(".*.*", caseInsensitive: false).isLiteralSearch)
    #expect(try !RegexPattern(".*a\\.*", caseInsensitive: false).isLiteralSearch)  // `\.*` is not `.*`
    #expect(try !RegexPattern(".*a.*?", caseInsensitive: false).isLiteralSearch)
    #expect(try !RegexPattern("invoice", caseInsensitive: false).isLiteralSearch)
    #expect(try !RegexPattern("", caseInsensitive: false).isLiteralSearch)
  }

  /// The `.*literal.*` search gives PCRE2's answer. `(?:…)` defeats the rewrite, so the same
  /// pattern in parentheses is answered by PCRE2 itself.
  @Test func literalRewriteAgreesWithPCRE2() throws {
    let literals = [
      "invoice", "in.voice", "a", "K", "k", "s", "ss", "é", "e\u{301}", "👍", "a b", "#x", "Σ", "aaab", "xyz1234567890",
    ]
    let pieces = [
      "a", "b", "k", "K", "\u{212A}", "s", "S", "ſ", "ß", "é", "É", "e\u{301}", "👍", "invoice", "INVOICE", "In.Voice",
      "in", "voice", ".", " ", "#x", "Σ", "σ", "ς", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}",
      "\u{2029}", "\t", "aaa", "1234567890", "xyz",
    ]
    var rng = SeededGenerator(seed: 555)
    var subjects = [""]
    for _ in 0..<400 {
      subjects.append((0..<Int.random(in: 1...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
    }
    for literal in literals {
      var escaped = ""
      for ch in literal.unicodeScalars {
        if "\\^$.|?*+()[]{}".unicodeScalars.contains(ch) { escaped += "\\" }
        escaped.unicodeScalars.append(ch)
      }
      for caseInsensitive in [false, true] {
        let fast = try RegexPattern(".*\(escaped).*", caseInsensitive: caseInsensitive)
        let slow = try RegexPattern("(?:.*\(escaped).*)", caseInsensitive: caseInsensitive)
        #expect(!slow.isLiteralSearch)
        if !caseInsensitive || literal.utf8.allSatisfy({ $0 < 0x80 }) { #expect(fast.isLiteralSearch) }
        for s in subjects + [literal, "x" + literal + "y", literal.uppercased()] {
          #expect(
            try fast.matches(s) == slow.matches(s), "\(s.debugDescription) ~ \(fast.pattern) c=\(caseInsensitive)")
        }
      }
    }
  }

  @Test func dotStarSearchApplies() throws {
    func strip(_ p: String) -> String? { RegexLiteral.dotStarMiddle(p) }
    #expect(strip(".*invoice [0-9]+.*") == "invoice [0-9]+")
    #expect(strip(".*(a|b)c.*") == "(a|b)c")
    #expect(strip(".*[.*|].*") == "[.*|]")
    #expect(strip(".*[]|]x.*") == "[]|]x")
    #expect(strip(".*[[:alpha:]|]x.*") == "[[:alpha:]|]x")
    #expect(strip(".*\\Q|)\\E.*") == "\\Q|)\\E")
    #expect(strip(".*.*") == "")
    #expect(strip(".*a|b.*") == nil)  // top-level alternation: (.*a)|(b.*)
    #expect(strip(".*a\\.*") == nil)
    #expect(strip(".*a.*?") == nil)
    #expect(strip(".*?a.*") == nil)
    #expect(strip(".*+a.*") == nil)
    #expect(strip(".*a(*COMMIT)b.*") == nil)
    #expect(strip(".*\\Ga.*") == nil)
    #expect(strip(".*(?R)?.*") == nil)
    #expect(strip(".*(?x) a # c\n.*") == nil)
    #expect(strip(".*(a.*)") == nil)
    #expect(strip("a.*b.*") == nil)
    #expect(try RegexPattern(".*invoice [0-9]+.*", caseInsensitive: false).isDotStarSearch)
    #expect(try !RegexPattern(".*invoice.*", caseInsensitive: false).isDotStarSearch)  // literal search instead
  }

  /// The unanchored search for the middle of `.*R.*` gives the anchored pattern's answer; `(?:…)`
  /// around the pattern defeats both rewrites.
  @Test func dotStarSearchAgreesWithPCRE2() throws {
    let middles = [
      "invoice [0-9]+", "(a|b)c", "^a", "a$", "\\bfoo\\b", "(?<=x)y", "a\\nb", "(?s)a.b", "(?m)^b", "[.*]", "\\Q|\\E",
      "(a)\\1", "x?", "", "(?i)abc", "é+", "\\w+@\\w+", "a(?=.*z)", "(?<!a)b", "\\d{2,3}", "[^a]", "\\s", "a*?b",
      "(?:ab)++",
      "\\Aa", "a\\z", "a\\Z", ".", "..", "k", "[[:upper:]]",
    ]
    let pieces = [
      "a", "b", "c", "x", "y", "z", "foo", "abc", "ABC", "12", "345", "é", "e\u{301}", "@", " ", ".", "|", "*", "\n",
      "\r",
      "\u{2028}", "\u{85}", "K", "\u{212A}", "ab", "aab",
    ]
    var rng = SeededGenerator(seed: 909)
    var subjects = [""]
    for _ in 0..<300 {
      subjects.append((0..<Int.random(in: 1...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
    }
    for middle in middles {
      for caseInsensitive in [false, true] {
        let fast = try RegexPattern(".*\(middle).*", caseInsensitive: caseInsensitive)
        let slow = try RegexPattern("(?:.*\(middle).*)", caseInsensitive: caseInsensitive)
        #expect(!slow.isDotStarSearch && !slow.isLiteralSearch)
        // The search runs only where backtracking over it as a search is provably cheap.
        let tree = RegexParser.parse(middle, caseInsensitive: caseInsensitive)
        #expect(
          fast.isDotStarSearch || fast.isLiteralSearch || !RegexAnalysis.isBacktrackingSafe(tree, search: true),
          "\(middle)")
        for s in subjects {
          #expect(
            try fast.matches(s) == slow.matches(s), "\(s.debugDescription) ~ \(fast.pattern) c=\(caseInsensitive)")
        }
      }
    }
  }

  @Test func invalidPatternReportsPCRE2Message() {
    do {
      _ = try RegexPattern("(abc", caseInsensitive: false)
      Issue.record("expected a compile error")
    } catch {
      #expect(error.message == "missing closing parenthesis")
      #expect(error.patternOffset == 4)
    }
    for pattern in ["[a-", "a{2,1}", "*a", "a\\", "(?<n>a)(?<n>b)", "\\C", "\\u12"] {
      #expect(throws: RegexFailure.self, "\(pattern)") { try RegexPattern(pattern, caseInsensitive: false) }
    }
    do {
      _ = try RegexPattern("ab[c", caseInsensitive: true)
      Issue.record("expected a compile error")
    } catch {
      #expect(error.message.contains("missing terminating ]"))
      #expect(error.patternOffset == 4)
      #expect(error.description.contains("byte 4"))
    }
    // Offsets refer to the pattern as written, even after `\\u` escapes were rewritten.
    do {
      _ = try RegexPattern("\\u00e9\\U0001F44D(", caseInsensitive: false)
      Issue.record("expected a compile error")
    } catch {
      #expect(error.message == "missing closing parenthesis")
      #expect(error.patternOffset == 17)
    }
  }

  @Test func emptyPatternNeverMatches() throws {
    let empty = try RegexPattern("", caseInsensitive: false)
    #expect(try !empty.matches(""))
    #expect(try !empty.matches("abc"))
    #expect(try !RegexPattern("", caseInsensitive: true).matches(""))
    #expect(try RegexPattern("a*", caseInsensitive: false).matches(""))  // an empty subject can match
  }

  /// `(a+)+$` against 30,000 'a' and a 'b' backtracks catastrophically in PCRE2. Such
  /// patterns are regular, so they run on a linear-time engine and are decided; a pattern
  /// that needs backtracking (a back reference) meets the scaled match limit instead.
  @Test func catastrophicPatternsAreDecidedOrStopped() throws {
    let subject = String(repeating: "a", count: 30_000) + "b"
    for (pattern, subject) in [("(a+)+$", subject), ("(a|aa)+$", subject), ("(\\w+\\s?)*$", subject + "!")] {
      let regex = try RegexPattern(pattern, caseInsensitive: false)
      #expect(regex.engine == .re2, "\(pattern)")
      #expect(try !regex.matches(subject))
    }
    let backreference = try RegexPattern("(a+)+b\\1c", caseInsensitive: false)
    #expect(backreference.engine == .backtrackingBounded)
    #expect(throws: RegexFailure.self) { try backreference.matches(String(repeating: "a", count: 30_000) + "bc") }
    #expect(try backreference.matches("aabac"))
    #expect(try backreference.matches("aaba") == false)
    #expect(try RegexPattern("(a+)b\\1", caseInsensitive: false).matches("aabaa"))
    // A tiny match limit makes an ordinary backtracking match fail, and the error says which limit.
    let tight = try RegexPattern(
      "(?:a|b)*(?:bb|cc)", caseInsensitive: false, limits: RegexLimits(matchLimit: 10, depthLimit: 10),
      engine: .backtrackingBounded)
    #expect(throws: RegexFailure.self) { try tight.matches(String(repeating: "ab", count: 500)) }
    #expect(try !RegexPattern("(?:a|b)*bb", caseInsensitive: false).matches(String(repeating: "ab", count: 500)))
    // The same thread can still match with the default limits afterwards.
    #expect(try RegexPattern("(a|b)*c", caseInsensitive: false).matches(String(repeating: "ab", count: 500) + "c"))
  }

  /// Deep but legitimate backtracking works (the JIT stack grows as needed).
  @Test func longSubjects() throws {
    let long = String(repeating: "ab", count: 50_000)
    #expect(try RegexPattern("(ab)*", caseInsensitive: false).matches(long))
    #expect(try RegexPattern("(?:a|b)*", caseInsensitive: false).matches(long))
    #expect(try RegexPattern(".*ba.*", caseInsensitive: false).matches(long))
  }

  /// One compiled pattern shared by many concurrent tasks gives the right answers.
  @Test func concurrentMatching() async throws {
    let invoice = try RegexPattern(".*invoice [0-9]+.*", caseInsensitive: true)
    let literal = try RegexPattern(".*urgent.*", caseInsensitive: true)
    let email = try RegexPattern("[\\w.]+@[\\w]+\\.\\w+", caseInsensitive: false)
    let subjects: [(String, Bool, Bool, Bool)] = [
      ("Re: INVOICE 2231 overdue", true, false, false),
      ("urgent: invoice 7", true, true, false),
      ("bob@example.com", false, false, true),
      ("zoë@exämple.org", false, false, true),
      ("Invoice #12", false, false, false),
      ("nothing here", false, false, false),
      ("URGENT\ninvoice 1", false, false, false),
    ]
    let failures = try await withThrowingTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var bad = 0
          for i in 0..<5_000 {
            let (s, a, b, c) = subjects[(i + task) % subjects.count]
            if try invoice.matches(s) != a { bad += 1 }
            if try literal.matches(s) != b { bad += 1 }
            if try email.matches(s) != c { bad += 1 }
          }
          return bad
        }
      }
      var total = 0
      for try await bad in group { total += bad }
      return total
    }
    #expect(failures == 0)
  }

  @Test func failureIsValueType() {
    let a = RegexFailure(message: "x", patternOffset: 1)
    #expect(a == RegexFailure(message: "x", patternOffset: 1))
    #expect(a != RegexFailure(message: "x"))
    #expect(RegexLimits() == RegexLimits(matchLimit: 1_000_000, depthLimit: 10_000))
  }
}
