import Foundation
import Testing

@testable import Sift

/// The evaluation limits at their edges (Documentation/Limits.md): PCRE2's match and depth
/// limits, the step budget for collection work, deep key paths and values, huge and tiny
/// numbers, and invalid UTF-8 in byte input.
@Suite struct LimitsEdgeTests {
  /// The error evaluating `format` against `input` throws, or nil when it evaluates.
  static func evaluationError(
    _ format: String, _ input: SiftValue, arguments: [SiftValue] = [], limits: EvaluationLimits = EvaluationLimits()
  ) throws -> EvaluationError? {
    let p = try SiftPredicate(format: format, arguments: arguments, options: CompileOptions(limits: limits))
    do {
      _ = try p.evaluate(with: input)
      return nil
    } catch {
      return error
    }
  }

  static func evaluate(_ format: String, _ input: SiftValue, limits: EvaluationLimits = EvaluationLimits()) throws
    -> Bool
  {
    try SiftPredicate(format: format, options: CompileOptions(limits: limits)).evaluate(with: input)
  }

  // MARK: - Regex limits

  @Test func regexLimitDefaults() {
    let limits = EvaluationLimits()
    #expect(limits.regexMatchLimit == 1_000_000)
    #expect(limits.regexDepthLimit == 10_000)
    #expect(limits.regex == RegexLimits())
    // PCRE2 takes 32-bit limits: values outside are clamped.
    #expect(
      EvaluationLimits(regexMatchLimit: -1, regexDepthLimit: Int.max).regex
        == RegexLimits(matchLimit: 0, depthLimit: UInt32.max))
  }

  /// A match that backtracks moderately: `(?:a|b)*(b)\1` (`(?:a|b)*bb` with a back
  /// reference, so it runs on PCRE2's backtracking, where the limit applies) fails on
  /// "abab…" only after trying every split.
  static let backtrackingSubject: SiftValue = [
    "s": .string(String(repeating: "ab", count: 200)), "p": "(?:a|b)*(b)\\1",
  ]

  /// The same match with a constant pattern (compiled with the predicate) and with a pattern
  /// read at evaluation time: both get the configured limit (below the scaled one for a
  /// subject this short).
  @Test(arguments: ["s MATCHES '(?:a|b)*(b)\\\\1'", "s MATCHES p"])
  func regexMatchLimitAtTheEdge(_ format: String) throws {
    func error(_ limit: Int) throws -> EvaluationError? {
      try Self.evaluationError(format, Self.backtrackingSubject, limits: EvaluationLimits(regexMatchLimit: limit))
    }
    // The smallest limit that lets the match finish, by bisection through the public API.
    var (low, high) = (1, 1_000_000)
    #expect(try error(high) == nil)
    while low < high {
      let mid = (low + high) / 2
      if try error(mid) == nil { high = mid } else { low = mid + 1 }
    }
    let edge = low
    #expect(edge > 100, "a moderately backtracking match needs more than a handful of steps")
    #expect(try error(edge) == nil)
    #expect(
      try Self.evaluate(format, Self.backtrackingSubject, limits: EvaluationLimits(regexMatchLimit: edge)) == false)
    let failure = try #require(try error(edge - 1))
    #expect(failure.kind == .regex)
    #expect(failure.message == "MATCHES: regular expression match limit (\(edge - 1)) exceeded")
    #expect(failure.range == SourceRange(start: 0, end: format.utf8.count))
  }

  /// A backtracking match pays for its tiers of match limit as it climbs them: the
  /// budget that lets it finish is the subject's bytes, every tier whose limit is too small
  /// (each 8 times the one before), and the steps the match needs at the last tier's price
  /// (a tier the budget cannot pay in full gets the limit it can pay); one step less stops it.
  @Test(arguments: ["s MATCHES '(?:a|b)*(b)\\\\1'", "s MATCHES p"])
  func backtrackingPaysForEachTier(_ format: String) throws {
    let subject = String(repeating: "ab", count: 2_000)
    let input: SiftValue = ["s": .string(subject), "p": "(?:a|b)*(b)\\1"]
    let steps = try #require(try Self.matchSteps("(?:a|b)*(b)\\1", subject))
    #expect(steps > Int(RegexPattern.firstTierLimit(subject.utf8.count)), "the match needs more than the first tier")
    // A pattern read at evaluation time is compiled then: its bytes / 8.
    let compile = format.hasSuffix(" p") ? "(?:a|b)*(b)\\1".utf8.count / 8 : 0
    let charge = compile + subject.utf8.count / 64 + Self.backtrackingCharge(steps, subject.utf8.count)
    #expect(try Self.evaluate(format, input, limits: EvaluationLimits(maxSteps: charge)) == false)
    let over = try #require(try Self.evaluationError(format, input, limits: EvaluationLimits(maxSteps: charge - 1)))
    #expect(over.kind == .limitExceeded)
  }

  /// The match steps PCRE2 needs to decide `pattern` on `subject`: the smallest match limit
  /// under which it finishes (nil: more than a million).
  static func matchSteps(_ pattern: String, _ subject: String) throws -> Int? {
    func finishes(_ limit: Int) throws -> Bool {
      let regex = try RegexPattern(pattern, caseInsensitive: false, limits: RegexLimits(matchLimit: UInt32(limit)))
      var budget = Int.max
      do throws(RegexFailure) {
        _ = try regex.matches(subject, stepsLeft: &budget)
        return true
      } catch {
        return false
      }
    }
    guard try finishes(1_000_000) else { return nil }
    var (low, high) = (1, 1_000_000)
    while low < high {
      let mid = (low + high) / 2
      if try finishes(mid) { high = mid } else { low = mid + 1 }
    }
    return low
  }

  /// What a backtracking match that needs `steps` match steps on `n` bytes is charged at
  /// the smallest budget that lets it finish: every tier whose limit is too small, then the
  /// steps at the last tier's price.
  static func backtrackingCharge(_ steps: Int, _ n: Int) -> Int {
    let perStep = RegexPattern.stepsPerMatchStep(n)
    var tier = Int(RegexPattern.firstTierLimit(n))
    var charge = 0
    while tier < steps {
      charge += tier * perStep
      tier *= 8
    }
    return charge + steps * perStep
  }

  /// The depth limit binds PCRE2's interpreter (the JIT ignores it and is bounded by its
  /// stack); the edge is found the same way on a pattern compiled without the JIT.
  @Test func regexDepthLimitAtTheEdge() throws {
    let subject = String(repeating: "ab", count: 200)
    func failure(_ depth: UInt32) throws -> RegexFailure? {
      let regex = try RegexPattern(
        "(a|b)*(b)\\2", caseInsensitive: false, limits: RegexLimits(matchLimit: 10_000_000, depthLimit: depth),
        jit: false)
      #expect(!regex.usesJIT)
      do throws(RegexFailure) {
        let matched = try regex.matches(subject)
        #expect(!matched)
        return nil
      } catch {
        return error
      }
    }
    var (low, high): (UInt32, UInt32) = (1, 10_000)
    #expect(try failure(high) == nil)
    while low < high {
      let mid = (low + high) / 2
      if try failure(mid) == nil { high = mid } else { low = mid + 1 }
    }
    #expect(low > 10)
    #expect(try failure(low) == nil)
    #expect(try failure(low - 1)?.message == "regular expression depth limit (\(low - 1)) exceeded")
  }

  /// `regexDepthLimit` reaches every pattern of a predicate, constant or not, and the JIT
  /// (used where available) answers regardless of it.
  @Test func regexDepthLimitIsWiredThrough() throws {
    let limits = EvaluationLimits(regexMatchLimit: 12_345, regexDepthLimit: 7)
    let p = try SiftPredicate(
      format: "s MATCHES '(a|b)*bb' OR SUBQUERY(xs, $x, $x MATCHES 'x+').@count > 0 OR s MATCHES p",
      options: CompileOptions(limits: limits))
    #expect(p.program.regexes.map(\.limits) == [limits.regex])
    #expect(p.program.code.regexLimits == limits.regex)
    #expect(p.program.code.subprograms.map(\.program.regexes[0].limits) == [limits.regex])
    #expect(p.program.code.subprograms.map(\.program.code.regexLimits) == [limits.regex])
    if p.program.regexes[0].usesJIT {
      let input: SiftValue = ["s": .string(String(repeating: "ab", count: 200) + "bb"), "xs": [], "p": "x"]
      #expect(try p.evaluate(with: input) == true)
    }
  }

  /// `(a+)+$` against a long subject that does not match backtracks exponentially in PCRE2;
  /// it is regular, so it runs on RE2 and is decided. A pattern that needs backtracking (a
  /// back reference) climbs its tiers until the step budget cannot pay for the next one.
  @Test(arguments: ["s MATCHES '(a+)+$'", "s MATCHES p", "s MATCHES '(\\w+\\s?)*$'"])
  func catastrophicRegularPatternIsDecided(_ format: String) throws {
    let input: SiftValue = ["s": .string(String(repeating: "a", count: 30_000) + "b!"), "p": "(a+)+$"]
    #expect(try Self.evaluate(format, input) == false)
    let p = try SiftPredicate(format: format)
    #expect(p.program.regexes.allSatisfy { $0.engine == .re2 })
  }

  @Test func catastrophicBackreferenceStopsAtTheStepBudget() throws {
    let subject = String(repeating: "a", count: 30_000) + "bc"
    let format = "s MATCHES '(a+)+b\\\\1c'"
    let failure = try Self.evaluationError(format, ["s": .string(subject)])
    #expect(failure?.kind == .limitExceeded, "\(String(describing: failure))")
    // With the budget out of the way, the configured match limit ends it.
    let limits = EvaluationLimits(maxSteps: Int.max, regexMatchLimit: 20_000)
    let limited = try Self.evaluationError(format, ["s": .string(subject)], limits: limits)
    #expect(limited?.kind == .regex)
    #expect(limited?.message == "MATCHES: regular expression match limit (20000) exceeded")
  }

  @Test func defaultRegexLimitsLetOrdinaryPatternsFinish() throws {
    let input: SiftValue = [
      "s": .string(String(repeating: "ab", count: 500)), "email": "zoë@exämple.org",
      "long": .string(String(repeating: "ab", count: 50_000) + "c"),
    ]
    #expect(try Self.evaluate("s MATCHES '(?:a|b)*bb'", input) == false)
    #expect(try Self.evaluate("s MATCHES '(ab)*'", input) == true)
    #expect(try Self.evaluate("email MATCHES '[\\\\w.]+@[\\\\w]+\\\\.\\\\w+'", input) == true)
    #expect(try Self.evaluate("long MATCHES '(?:a|b)*c'", input) == true)
  }

  @Test func regexLimitsAreCodable() throws {
    let decoder = JSONDecoder()
    // Data written before the regex limits existed decodes with their defaults.
    let old = try decoder.decode(EvaluationLimits.self, from: Data(#"{"maxSteps": 5}"#.utf8))
    #expect(old == EvaluationLimits(maxSteps: 5))
    #expect(try decoder.decode(EvaluationLimits.self, from: Data("{}".utf8)) == EvaluationLimits())
    let custom = EvaluationLimits(maxSteps: 9, regexMatchLimit: 77, regexDepthLimit: 66)
    #expect(try decoder.decode(EvaluationLimits.self, from: JSONEncoder().encode(custom)) == custom)
  }

  @Test func predicateCodingKeepsRegexLimits() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Default limits write nothing, as before.
    let plain = try SiftPredicate(format: "s MATCHES 'a+'")
    let plainJSON = String(decoding: try encoder.encode(plain), as: UTF8.self)
    #expect(!plainJSON.contains("Limit") && !plainJSON.contains("maxSteps"))
    // Other limits survive a round trip and reach the compiled pattern.
    let limits = EvaluationLimits(maxSteps: 10, regexMatchLimit: 77, regexDepthLimit: 66)
    let custom = try SiftPredicate(format: "s MATCHES 'a+'", options: CompileOptions(limits: limits))
    let data = try encoder.encode(custom)
    let json = String(decoding: data, as: UTF8.self)
    #expect(json.contains(#""regexMatchLimit":77"#) && json.contains(#""regexDepthLimit":66"#))
    let decoded = try JSONDecoder().decode(SiftPredicate.self, from: data)
    #expect(decoded.options.limits == limits)
    #expect(decoded.program.regexes[0].limits == RegexLimits(matchLimit: 77, depthLimit: 66))
    // Data that has only maxSteps (what older versions wrote) keeps the regex defaults.
    let older = try JSONDecoder().decode(SiftPredicate.self, from: Data(#"{"format": "a == 1", "maxSteps": 3}"#.utf8))
    #expect(older.options.limits == EvaluationLimits(maxSteps: 3))
  }

  // MARK: - Step budget

  @Test func stepBudgetDefault() {
    #expect(EvaluationLimits().maxSteps == 1_000_000)
  }

  /// One step per element: a budget of exactly the elements walked is enough, one less is not.
  @Test(arguments: [0, 1, 100, 1_000_000])
  func quantifierAtTheBudget(_ budget: Int) throws {
    let limits = EvaluationLimits(maxSteps: budget)
    let fits: SiftValue = ["xs": .array(Array(repeating: 0, count: budget))]
    let over: SiftValue = ["xs": .array(Array(repeating: 0, count: budget + 1))]
    #expect(try Self.evaluate("ANY xs > 0", fits, limits: limits) == false)
    let error = try #require(try Self.evaluationError("ANY xs > 0", over, limits: limits))
    #expect(error.kind == .limitExceeded)
    #expect(error.message == "evaluation exceeded its step budget (EvaluationLimits.maxSteps)")
    #expect(error.range == SourceRange(start: 0, end: 10))
  }

  /// A negative budget fails at the first walk (it used to trap on overflow at Int.min), and
  /// Int.max is effectively unlimited.
  @Test func extremeBudgets() throws {
    let input: SiftValue = ["xs": [1, 2, 3]]
    for budget in [-1, Int.min] {
      let error = try Self.evaluationError("ANY xs > 2", input, limits: EvaluationLimits(maxSteps: budget))
      #expect(error?.kind == .limitExceeded, "\(budget)")
    }
    #expect(try Self.evaluate("ANY xs > 2", input, limits: EvaluationLimits(maxSteps: Int.max)))
    // Operators that walk nothing never touch the budget.
    #expect(try Self.evaluate("xs.@count == 3", input, limits: EvaluationLimits(maxSteps: Int.min)))
  }

  @Test(arguments: [0, 1, 100])
  func subqueryAtTheBudget(_ budget: Int) throws {
    let limits = EvaluationLimits(maxSteps: budget)
    let format = "SUBQUERY(xs, $x, $x >= 0).@count == \(budget)"
    #expect(try Self.evaluate(format, ["xs": .array((0..<budget).map { .int($0) })], limits: limits))
    let error = try Self.evaluationError(format, ["xs": .array((0...budget).map { .int($0) })], limits: limits)
    #expect(error?.kind == .limitExceeded)
  }

  static let n = 1_000
  static let m = 10
  static let collections: SiftValue = [
    "xs": .array((0..<n).map { .int($0) }),
    "ys": .array((0..<m).map { .int($0) }),
    "recs": .array((0..<n).map { ["name": .string("r\($0)"), "n": .int($0)] }),
    "big": .array((0..<n).map { .int($0) }),
  ]

  static let walks: [(String, Int)] = [
    ("SUBQUERY(xs, $x, $x > 0).@count > 0", n),
    ("ANY xs > 5000", n),
    ("ALL xs >= 0", n),
    ("NONE xs > 5000", n),
    ("5000 IN xs", n),
    ("xs CONTAINS 5000", n),
    ("xs.@count == 1000", 0),
    ("xs[SIZE] == 1000", 0),
    ("xs[LAST] == 999", 0),
    ("xs.@sum.self > 0", n),
    ("xs.@avg.self > 0", n),
    ("xs.@min.self == 0", n),
    ("xs.@max.self == 999", n),
    ("recs.@sum.n > 0", n),
    ("ANY recs.name == 'r5'", 2 * n),
    ("count(recs.name) == 1000", n),
    // Each value also grouped (Cost.grouping steps).
    ("count(xs.@distinctUnionOfObjects.self) == 1000", n + Cost.grouping * n),
    ("count(xs) == 1000", 0),
    ("sum(xs) > 0", n),
    ("min(xs) == 0", n),
    ("max(xs) == 999", n),
    ("average(xs) > 0", n),
    // A sort too: n × log₂ n / 8 comparisons' worth (1,000 × 10 / 8).
    ("median(xs) > 0", n + 1_250),
    ("stddev(xs) > 0", n),
    ("mode(xs).@count == 1000", n + Cost.grouping * n),
    ("xs == big", n),
    ("xs != big", n),
    ("xs == ys", 0),
    ("xs == {1, 2, 3}", 0),
    // A SUBQUERY element costs 1 + its subpredicate's instructions / 4 (4 here: 2 steps).
    ("SUBQUERY(xs, $x, $x IN ys).@count > 0", 2 * n + n * m),
    ("ANY xs IN ys", n + m),  // xs[0] is in ys: ANY stops there
    ("NONE xs IN {-1, -2}", n + 2 * n),
    ("SUBQUERY(xs, $x, ANY ys == $x).@count > 0", 2 * n + n * m),
    ("SUBQUERY(ys, $y, SUBQUERY(xs, $x, $x == $y).@count == 1).@count == 10", 2 * m + 2 * m * n),
  ]

  /// Every collection walk with the steps it takes (n = 1,000 elements in xs, recs and big,
  /// m = 10 in ys): at exactly that budget it evaluates, one step less it fails. Zero means
  /// the operator does not walk the collection.
  @Test(arguments: walks)
  func collectionWalksAtTheBudget(_ format: String, _ steps: Int) throws {
    #expect(try Self.evaluationError(format, Self.collections, limits: EvaluationLimits(maxSteps: steps)) == nil)
    if steps > 0 {
      let error = try Self.evaluationError(format, Self.collections, limits: EvaluationLimits(maxSteps: steps - 1))
      #expect(error?.kind == .limitExceeded, "\(format)")
    }
  }

  /// A constant array argument is walked by IN like any other collection.
  @Test func membershipInAnArgumentIsCounted() throws {
    let list = SiftValue.array((0..<500).map { .int($0) })
    let format = "ANY xs IN %@"
    let input: SiftValue = ["xs": [1_000, 2_000]]
    let fits = EvaluationLimits(maxSteps: 2 + 2 * 500)
    #expect(try Self.evaluationError(format, input, arguments: [list], limits: fits) == nil)
    let over = EvaluationLimits(maxSteps: 2 + 2 * 500 - 1)
    #expect(try Self.evaluationError(format, input, arguments: [list], limits: over)?.kind == .limitExceeded)
  }

  /// A SELF that is an array: a plain key maps over it, and that is counted too.
  @Test func keysOnAnArraySelfAreCounted() throws {
    let input = SiftValue.array((0..<100).map { ["name": .string("r\($0)")] })
    let format = "SUBQUERY(SELF, $x, ANY name == 'r1').@count == 100"
    #expect(try Self.evaluate(format, input, limits: EvaluationLimits(maxSteps: 100 + 100 * 200)))
    let error = try Self.evaluationError(format, input, limits: EvaluationLimits(maxSteps: 100 + 100 * 200 - 1))
    #expect(error?.kind == .limitExceeded)
  }

  /// Nested SUBQUERY over 2,000 × 2,000 elements (4,002,000 steps) stops at the default
  /// budget after about a quarter of the work, whichever form the inner walk takes.
  @Test(arguments: [
    "SUBQUERY(xs, $x, SUBQUERY(ys, $y, $y == $x).@count > 0).@count > 0",
    "SUBQUERY(xs, $x, $x IN ys).@count > 0",
    "SUBQUERY(xs, $x, ys.@max.self > $x).@count > 0",
    "SUBQUERY(xs, $x, ANY ys.self == $x).@count > 0",
  ])
  func nestedWalksOverLargeCollectionsFailAtTheDefault(_ format: String) throws {
    let values = SiftValue.array((0..<2_000).map { .int($0) })
    let error = try Self.evaluationError(format, ["xs": values, "ys": values])
    #expect(error?.kind == .limitExceeded)
  }

  /// `@distinctUnionOfObjects` and `mode:` group through a hash table: 200,000 distinct
  /// values take linear time (a pairwise search took 2·10¹⁰ comparisons).
  @Test func distinctAndModeAreLinear() throws {
    let input: SiftValue = ["xs": .array((0..<200_000).map { .int($0) })]
    #expect(try Self.evaluate("count(xs.@distinctUnionOfObjects.self) == 200000", input))
    #expect(try Self.evaluate("mode(xs).@count == 200000", input))
  }

  /// The hashed grouping keeps the `==` rules: 1, 1.0 and TRUE are one value, NaN is never
  /// equal to anything, and collections compare element by element.
  @Test func distinctKeepsTheEqualityRules() throws {
    let values: [SiftValue] = [
      1, 1.0, true, 2, "a", "a", "A", "e\u{301}", "é", .double(.nan), .double(.nan), [1], [1.0], [1, 2],
      ["k": 1], ["k": 1.0], ["k": 2], ["j": 1], .date(secondsSinceReferenceDate: 0),
      .date(secondsSinceReferenceDate: -0.0),
      .null, 0, -0.0, false, 9_007_199_254_740_993, 9_007_199_254_740_992.0,
    ]
    var steps = Int.max
    let distinct = try Semantics.distinct(values, steps: &steps)
    let expected: [SiftValue] = [
      1, 2, "a", "A", "e\u{301}", "é", .double(.nan), .double(.nan), [1], [1, 2], ["k": 1], ["k": 2], ["j": 1],
      .date(secondsSinceReferenceDate: 0), .null, 0, 9_007_199_254_740_993, 9_007_199_254_740_992.0,
    ]
    #expect(distinct.count == expected.count)
    for (a, b) in zip(distinct, expected) {
      if case .double(let x) = b, x.isNaN {
        guard case .double(let y) = a else {
          Issue.record("expected NaN, got \(a)")
          continue
        }
        #expect(y.isNaN)
      } else {
        #expect(a.isIdentical(to: b), "\(a) vs \(b)")
      }
    }
    #expect(try Functions.mode([1, 2.0, 2, true, 3], steps: &steps) == [1, 2.0])
  }

  // MARK: - Deep key paths and values

  static func nestedDictionary(_ depth: Int, leaf: SiftValue = 1) -> SiftValue {
    var v = leaf
    for _ in 0..<depth { v = ["a": v] }
    return v
  }

  static func nestedArray(_ depth: Int, leaf: SiftValue) -> SiftValue {
    var v = leaf
    for _ in 0..<depth { v = [v] }
    return v
  }

  /// A 10,000-key path, written out or bound through `%K`, walks a 10,000-deep value
  /// without recursion; one key too many is the ordinary error for a key on a number.
  @Test func tenThousandKeyPath() throws {
    let path = Array(repeating: "a", count: 10_000).joined(separator: ".")
    let value = Self.nestedDictionary(10_000)
    #expect(try SiftPredicate(format: path + " == 1").evaluate(with: value))
    #expect(try SiftPredicate(format: "%K == 1", arguments: [.string(path)]).evaluate(with: value))
    let error = try #require(try Self.evaluationError(path + ".a == 1", value))
    #expect(error.kind == .typeMismatch)
    #expect(error.message == "no key 'a' on a number")
    #expect(try SiftPredicate(format: path + " == nil").evaluate(with: Self.nestedDictionary(9_999, leaf: [:])))
  }

  /// A key path of 100,000 components (200 KB) parses, prints and compiles: the parser
  /// appends each key in place (it rebuilt the key array per component, 39 s for this).
  @Test func hundredThousandKeyPath() throws {
    let path = Array(repeating: "a", count: 100_000).joined(separator: ".")
    let syntax = try PredicateSyntax(parsing: path + " == 1")
    #expect(syntax.predicateFormat == path + " == 1")
    let p = try SiftPredicate(syntax: syntax)
    #expect(try p.evaluate(with: ["a": ["a": ["b": 1]]] as SiftValue) == false)
    #expect(try p.evaluate(with: [:] as SiftValue) == false)
  }

  /// JSON nested exactly `maxDepth` (512) deep reads and evaluates; one level more is a
  /// JSONError, not a crash.
  @Test func jsonAtTheDepthLimit() throws {
    func json(_ depth: Int) -> String {
      String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    }
    let path = Array(repeating: "a", count: 512).joined(separator: ".")
    #expect(try SiftPredicate(format: path + " == 1").evaluate(with: try SiftValue(json: json(512))))
    #expect(throws: JSONError(message: "JSON nesting is deeper than 512", offset: 512 * 5)) {
      try SiftValue(json: json(513))
    }
    #expect(throws: JSONError(message: "JSON nesting is deeper than 512", offset: 512 * 5)) {
      try SiftValue(json: json(100_000))
    }
  }

  /// A key mapped over arrays nested 512 deep (the JSON reader's default depth) works; one
  /// more array is a `limitExceeded` error, and so is a value 20,000 arrays deep built in
  /// Swift, where the recursion overflowed the stack at 10,000. (Much deeper values are out
  /// of reach: Swift's own destruction of a value overflows a test thread's stack at about
  /// 40,000 nested arrays in a debug build.)
  @Test(arguments: [(Semantics.maxValueDepth, true), (Semantics.maxValueDepth + 1, false), (20_000, false)])
  func keyOnDeeplyNestedArrays(_ depth: Int, _ fits: Bool) throws {
    #expect(Semantics.maxValueDepth == 512)
    let input: SiftValue = ["a": Self.nestedArray(depth, leaf: ["b": 1])]
    for format in ["a.b.@count == 1", "a.@unionOfObjects.b.@count == 1"] {
      let error = try Self.evaluationError(format, input)
      if fits {
        #expect(error == nil, "\(format)")
      } else {
        #expect(error?.kind == .limitExceeded, "\(format)")
        #expect(error?.message == "the value is nested more than 512 arrays deep", "\(format)")
      }
    }
  }

  /// `==` on values nested 20,000 deep gives the right answer without recursing that deep.
  @Test func equalityOfDeeplyNestedValues() throws {
    let deep = Self.nestedArray(20_000, leaf: ["k": [1, 2]])
    let same = Self.nestedArray(20_000, leaf: ["k": [1, 2.0]])
    let other = Self.nestedArray(20_000, leaf: ["k": [1, 3]])
    let input: SiftValue = ["a": deep, "b": same, "c": other, "list": [other, same]]
    #expect(try Self.evaluate("a == b", input))
    #expect(try Self.evaluate("a != c", input))
    #expect(try Self.evaluate("a IN list", input))
    #expect(try Self.evaluate("count(list.@distinctUnionOfObjects.self) == 2", input))
    let dictionaries: SiftValue = ["a": Self.nestedDictionary(20_000), "b": Self.nestedDictionary(20_000)]
    #expect(try Self.evaluate("a == b", dictionaries))
  }

  // MARK: - Numbers

  static let numbers: SiftValue = [
    "max": .int(.max), "min": .int(.min), "zero": 0, "xs": [.int(.max), 1], "big": .int(1 << 62),
  ]

  /// Huge, tiny and overflowing numbers, in constants (folded at compile time) and in
  /// values (computed by the VM): never a trap. An integer result that does not fit is the
  /// correctly rounded double; a literal that does not fit a double is a syntax error.
  @Test(arguments: [
    // Literals.
    "1e-400 == 0", "zero == 1e-400", "1e-99999 == 0.0", "99999999999999999999999 == 1e23",
    "-9223372036854775808 == min", "9223372036854775808 == 9223372036854775808.0",
    "2.5e-324 == 5e-324", "1.7976931348623157e308 > 1e308",
    // 64-bit hex, octal and binary literals are their values, not bit patterns.
    "-0x8000000000000000 == min", "0x8000000000000000 == 9223372036854775808.0", "0x7FFFFFFFFFFFFFFF == max",
    "0xFFFFFFFFFFFFFFFF == 18446744073709551615", "0xFFFFFFFFFFFFFFFF > 0", "-0xFFFFFFFFFFFFFFFF < min",
    "0b1000000000000000000000000000000000000000000000000000000000000000 == -min",
    // Integer overflow becomes a double.
    "9223372036854775807 + 1 == 9223372036854775808.0", "max + 1 == 9223372036854775808.0", "max + 1 > max",
    "min - 1 == -9223372036854775808.0", "-9223372036854775808 * -1 == 9223372036854775808.0",
    "min * -1 == 9223372036854775808.0", "-min == 9223372036854775808.0", "min / -1 == 9223372036854775808.0",
    "abs(-9223372036854775808) == 9223372036854775808.0", "abs(min) == 9223372036854775808.0",
    "max * max == 85070591730234615847396907784232501249.0", "min * min == 85070591730234615865843651857942052864.0",
    "big * 4 == 18446744073709551616.0", "from:subtract:(min, max) < -1.8e19", "add:to:(max, max) > 1.8e19",
    "multiply:by:(min, 2) == -18446744073709551616.0", "modulus:by:(min, -1) == 0",
    "xs.@sum.self == 9223372036854775808.0", "sum(xs) == 9223372036854775808.0",
    "xs.@avg.self == 4611686018427387904.0",
    // Doubles go to infinity, shifts drop bits.
    "max ** 20 > 1e308", "1e308 * 10 == max ** 20", "-1e308 * 10 < -1e308", "max << 1 == -2", "min >> 70 == -1",
    "max << 64 == 0",
    // Conversions.
    "CAST('99999999999999999999', 'NSNumber') == 1e20", "CAST('-9223372036854775808', 'NSNumber') == min",
    "CAST(1e300, 'NSString') == '1e+300'", "CAST(max, 'NSString') == '9223372036854775807'",
  ])
  func numbersThatHold(_ format: String) throws {
    #expect(try Self.evaluate(format, Self.numbers), "\(format)")
  }

  @Test(arguments: [
    ("max / 0", EvaluationError.Kind.divisionByZero, "division by zero"),
    ("max / 0.0", .divisionByZero, "division by zero"),
    ("1 / 0", .divisionByZero, "division by zero"),
    ("divide:by:(min, 0)", .divisionByZero, "division by zero"),
    ("modulus:by:(max, 0)", .divisionByZero, "modulus by zero"),
    ("modulus:by:(1.5, 0.0)", .divisionByZero, "modulus by zero"),
    ("1e300 & 1", .typeMismatch, "& needs integers, not a number"),
    ("bitwiseOr:with:(9223372036854775808, 1)", .typeMismatch, "| needs integers, not a number"),
    ("xs[-9223372036854775808]", .indexOutOfRange, "index -9223372036854775808 is out of range for an array of 2"),
    ("xs[max]", .indexOutOfRange, "index 9223372036854775807 is out of range for an array of 2"),
    ("randomn:(1e300)", .invalidArgument, "randomn: needs a positive integer"),
    ("CAST('1e999', 'NSNumber')", .invalidArgument, "CAST: \"1e999\" is not a number"),
  ])
  func numbersThatFail(_ expression: String, _ kind: EvaluationError.Kind, _ message: String) throws {
    let error = try Self.evaluationError(expression + " == 1", Self.numbers)
    #expect(error?.kind == kind, "\(expression)")
    #expect(error?.message == message, "\(expression)")
  }

  /// Values the VM computes keep their kind: overflow gives a double, exact results ints.
  @Test func overflowResultKinds() throws {
    let two63 = SiftValue.double(9_223_372_036_854_775_808.0)
    #expect(try Semantics.binary(.add, .int(.max), 1) == two63)
    #expect(try Semantics.binary(.subtract, .int(.min), 1) == .double(-9_223_372_036_854_775_808.0))
    #expect(try Semantics.binary(.multiply, .int(.min), -1) == two63)
    #expect(try Semantics.binary(.add, .int(.max - 1), 1) == .int(.max))
    #expect(try Semantics.negate(.int(.min)) == two63)
    #expect(try Semantics.divide(.int(.min), -1) == two63)
    #expect(try Semantics.divide(.int(.min), 1) == .int(.min))
    #expect(try Semantics.modulus(.int(.min), -1) == .int(0))
    #expect(try Functions.call(.abs, [.int(.min)]) == two63)
    #expect(try Functions.call(.abs, [.int(.min + 1)]) == .int(.max))
    #expect(try Functions.sum([.int(.max), 1, -1]) == .double(9_223_372_036_854_775_808.0))
    #expect(try Functions.sum([.int(.max), -1, 1]) == .int(.max))
  }

  @Test(arguments: [
    ("x == 1e400", "number literal is out of range"), ("x == -1e400", "number literal is out of range"),
    ("x == 1e99999", "number literal is out of range"),
    ("x == 0x10000000000000000", "integer literal does not fit in 64 bits"),
    ("x == -0x10000000000000000", "integer literal does not fit in 64 bits"),
    ("x == 0b" + String(repeating: "1", count: 65), "integer literal does not fit in 64 bits"),
    ("x % 0 == 1", "unknown format specifier"),
  ])
  func numberLiteralsOutOfRange(_ format: String, _ message: String) {
    let error = #expect(throws: PredicateSyntaxError.self) { try SiftPredicate(format: format) }
    #expect(error?.error.message == message)
  }

  /// Numeric format arguments are checked, never converted with a trap.
  @Test func numericArgumentsOutOfRange() throws {
    #expect(throws: PredicateSyntaxError.self) { try SiftPredicate(format: "x == %d", arguments: [.double(1e300)]) }
    #expect(throws: PredicateSyntaxError.self) { try SiftPredicate(format: "x == %d", arguments: [.double(.nan)]) }
    let p = try SiftPredicate(format: "x == %f", arguments: [.int(.max)])
    #expect(try p.evaluate(with: ["x": .double(9_223_372_036_854_775_808.0)]))
  }

  @Test(
    arguments: [
      ("1e400", nil), ("-1e400", nil), ("1e-400", SiftValue.double(0)), ("99999999999999999999999", .double(1e23)),
      ("-9223372036854775808", .int(.min)), ("9223372036854775807", .int(.max)),
      ("9223372036854775808", .double(9_223_372_036_854_775_808.0)),
      ("-9223372036854775809", .double(-9_223_372_036_854_775_808.0)),
    ] as [(String, SiftValue?)])
  func jsonNumbers(_ text: String, _ expected: SiftValue?) {
    let value = try? SiftValue(json: text)
    #expect(value == expected, "\(text)")
    if expected == nil {
      #expect(throws: JSONError(message: "number is out of range", offset: 0)) { try SiftValue(json: text) }
    }
  }

  /// An unsigned NSNumber above Int.max keeps its value as a double instead of wrapping.
  @Test func largeUnsignedFoundationNumbers() throws {
    #expect(SiftValue(foundation: NSNumber(value: UInt64.max)) == .double(18_446_744_073_709_551_615.0))
    #expect(SiftValue(foundation: NSNumber(value: UInt64(Int.max))) == .int(.max))
    #expect(SiftValue(foundation: NSNumber(value: UInt64(7))) == .int(7))
    #expect(SiftValue(foundation: NSNumber(value: Int64.min)) == .int(.min))
  }

  // MARK: - Invalid UTF-8 in byte input

  /// Every byte entry point of the engine (`SiftValue(json:)` on bytes and the member-range
  /// reader the CLI uses) rejects invalid UTF-8 with an offset; predicates take bytes only
  /// through `PredicateSyntax(parsingUTF8:)` (see LimitsTests).
  @Test(
    arguments: [
      ([0x22, 0xC3, 0x28, 0x22], "string is not valid UTF-8", 1),
      ([0x7B, 0x22, 0x6B, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D], "string is not valid UTF-8", 3),
      ([0x7B, 0x22, 0x6B, 0x22, 0x3A, 0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22, 0x7D], "string is not valid UTF-8", 6),
      ([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], "expected a JSON value", 0),
      ([0x5B, 0x31, 0x2C, 0xC3, 0xA9, 0x5D], "expected a JSON value", 3),
      ([0x7B, 0xFF, 0x3A, 0x31, 0x7D], "expected a string key", 1),
      ([0x31, 0x80], "unexpected text after the JSON value", 1),
      ([0x22, 0x61, 0x22, 0x20, 0xFE], "unexpected text after the JSON value", 4),
      ([0x74, 0x72, 0x75, 0xC3, 0xA9], "expected true", 0),
    ] as [([UInt8], String, Int)])
  func invalidUTF8InJSON(_ bytes: [UInt8], _ message: String, _ offset: Int) {
    let expected = JSONError(message: message, offset: offset)
    #expect(throws: expected) {
      try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in _ = try SiftValue(json: buffer) }
    }
    #expect(throws: expected) {
      try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
        _ = try SiftValue.readWithMemberRanges(json: buffer)
      }
    }
  }
}

/// String work is charged by the bytes it touches (``Cost``), the same through every input
/// kind: at exactly the charge the evaluation finishes, one step less it fails.
@Suite("Limits: string work")
struct StringWorkLimitTests {
  struct Holder: SiftTyped {
    var s: String
    static let siftFields = SiftFields<Holder>().field("s", \.s)
  }

  static let subject = String(repeating: "a", count: 6_400)

  static let charges: [(String, Int)] = [
    ("s CONTAINS 'x'", 100), ("s CONTAINS[c] 'x'", 800), ("s BEGINSWITH 'b'", 100), ("s ENDSWITH[d] 'b'", 800),
    ("s == 'a'", 100), ("s IN {'a', 'b'}", 100), ("s IN[c] {'a', 'b'}", 800), ("s LIKE '*x*'", 100),
    ("s LIKE 'a*a*a*a*a*a*a*a*x'", 100 * (1 + 17 / 8)), ("s MATCHES '.*x.*'", 100), ("s MATCHES 'a+x'", 100),
    ("s MATCHES '(a)\\\\1*'", 100 + backreferenceCharge), ("s < 'b'", 100), ("s ==[c] 'b'", 800),
    ("uppercase(s) == 'c'", 800 + 100),
  ]

  /// What `(a)\1*` on the subject is charged for its backtracking.
  static let backreferenceCharge = LimitsEdgeTests.backtrackingCharge(
    try! LimitsEdgeTests.matchSteps("(a)\\1*", subject)!, subject.utf8.count)

  static func outcome(_ body: () throws(EvaluationError) -> Bool) -> String {
    do throws(EvaluationError) { return "\(try body())" } catch { return error.kind.rawValue }
  }

  /// The outcome through each input kind, with `maxSteps`.
  static func outcomes(_ format: String, _ steps: Int) throws -> [String] {
    let limits = EvaluationLimits(maxSteps: steps)
    let plain = try SiftPredicate(format: format, options: CompileOptions(limits: limits))
    let schema = SiftSchema(fields: ["s"])
    let bound = try SiftPredicate(format: format, options: CompileOptions(schema: schema, limits: limits))
    let typed = try SiftPredicate(format: format, for: Holder.self, options: CompileOptions(limits: limits))
    let selfFormat = format.replacingOccurrences(of: "s ", with: "SELF ").replacingOccurrences(
      of: "(s)", with: "(SELF)")
    let kernel = try SiftPredicate(format: selfFormat, options: CompileOptions(limits: limits))
    let foundation: [String: Any] = ["s": subject]
    return [
      outcome { () throws(EvaluationError) in try plain.evaluate(with: ["s": .string(subject)] as SiftValue) },
      outcome { () throws(EvaluationError) in
        try bound.evaluate(with: SiftRecord(schema: schema, values: [.string(subject)]))
      },
      outcome { () throws(EvaluationError) in try typed.evaluate(with: Holder(s: subject)) },
      outcome { () throws(EvaluationError) in try plain.evaluate(with: foundation) },
      outcome { () throws(EvaluationError) in try kernel.evaluate(with: subject) },
    ]
  }

  @Test(arguments: charges)
  func stringWorkAtTheBudget(_ format: String, _ steps: Int) throws {
    let fits = try Self.outcomes(format, steps)
    #expect(!fits.contains("limitExceeded"), "\(format) at \(steps): \(fits)")
    #expect(Set(fits).count == 1, "\(format): input kinds disagree: \(fits)")
    let over = try Self.outcomes(format, steps - 1)
    #expect(over.allSatisfy { $0 == "limitExceeded" }, "\(format) at \(steps - 1): \(over) (fits: \(fits))")
  }

  /// The issue's case: a SUBQUERY whose body searches a 1 MiB string stops at the budget
  /// after a few dozen elements, with the range of the part that ran out.
  @Test func searchesOfALongStringInsideASubqueryStop() throws {
    let long = String(repeating: "a", count: 1 << 20)
    let input: SiftValue = ["s": .string(long), "xs": .array((0..<11_500).map { .string("x\($0)") })]
    let format = "SUBQUERY(xs, $x, s CONTAINS $x).@count > 0"
    let p = try SiftPredicate(format: format)
    do throws(EvaluationError) {
      _ = try p.evaluate(with: input)
      Issue.record("finished")
    } catch {
      #expect(error.kind == .limitExceeded)
      #expect(error.range.start == 17, "\(error.range)")
    }
  }
}

/// A predicate too large to compile fails before code generation, with the size it needs
/// (an OR of `k` comparisons needs `2k` instructions: a test and a jump each, less one jump,
/// plus the final `ret`); constant MATCHES patterns are capped by
/// ``EvaluationLimits/maxCompiledPatterns``.
@Suite("Limits: compile size")
struct CompileSizeLimitTests {
  static func orChain(_ k: Int, _ term: (Int) -> String) -> String { (0..<k).map(term).joined(separator: " OR ") }

  @Test func instructionsAtTheEdge() throws {
    // 32,767 comparisons: 65,534 instructions at least, under the 16-bit limit.
    let fits = try SiftPredicate(format: Self.orChain(32_767) { "a == \($0)" })
    #expect(try fits.evaluate(with: ["a": 32_766] as SiftValue))
    #expect(try fits.evaluate(with: ["a": 32_767] as SiftValue) == false)
    #expect {
      _ = try SiftPredicate(format: Self.orChain(32_768) { "a == \($0)" })
    } throws: { error in
      (error as? PredicateSyntaxError)?.error.message
        == "predicate is too large to compile (it needs at least 65536 instructions; the limit is 65535)"
    }
  }

  @Test(arguments: [3, 4_096])
  func compiledPatternsAtTheEdge(_ limit: Int) throws {
    let options = CompileOptions(limits: EvaluationLimits(maxCompiledPatterns: limit))
    let fits = try SiftPredicate(format: Self.orChain(limit) { "s MATCHES 'x\($0)+y'" }, options: options)
    #expect(try fits.evaluate(with: ["s": "x2y"] as SiftValue))
    #expect {
      _ = try SiftPredicate(format: Self.orChain(limit + 1) { "s MATCHES 'x\($0)+y'" }, options: options)
    } throws: { error in
      (error as? PredicateSyntaxError)?.error.message
        == "predicate has \(limit + 1) MATCHES patterns; the limit is \(limit)"
    }
  }

  /// The limit travels with an encoded predicate.
  @Test func compiledPatternsLimitIsEncoded() throws {
    let limits = EvaluationLimits(maxCompiledPatterns: 7)
    let data = try JSONEncoder().encode(limits)
    #expect(try JSONDecoder().decode(EvaluationLimits.self, from: data) == limits)
  }
}
