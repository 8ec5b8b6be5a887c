import Foundation
import SiftTestSupport
import Testing

@testable import Sift

/// Work inside values (nested collections, long strings, built text) is charged as it is
/// done (Documentation/Limits.md, "The step budget and the cost model"): at exactly the
/// charge an evaluation finishes, one step less it stops with `limitExceeded`. Each case
/// here once went uncharged, or charged only its top level.
@Suite("Limits: work inside values")
struct DeepWorkLimitTests {
  struct Mail: SiftTyped {
    var tags: [String]
    static let siftFields = SiftFields<Mail>().field("tags", \.tags)
  }

  /// `[[i]]` for i in 0..<n: each element two collections deep.
  static func nested(_ n: Int) -> SiftValue { .array((0..<n).map { .array([.array([.int($0)])]) }) }

  static func zeros(_ n: Int) -> [SiftValue] { Array(repeating: .int(0), count: n) }

  static let long = String(repeating: "a", count: 6_400)
  static let accented = String(repeating: "\u{E9}", count: 400)  // 800 bytes

  /// A value of `[[0, 0], [0]]` and its description, as NSArray writes it.
  static let small: SiftValue = [[0, 0], [0]]
  static let smallDescription = "(\n    (\n        0,\n        0\n    ),\n    (\n        0\n    )\n)"

  /// (name, format, input, arguments, steps): the exact charge of each evaluation.
  static let charges: [(String, String, SiftValue, [SiftValue], Int)] = [
    // UNION: a step per element of both sides, then each element grouped (Cost.grouping steps) and
    // hashed all the way down (two collections in each `[[i]]`: a step each).
    ("union of nested", "(b UNION b).@count == 0", ["b": nested(100)], [], 200 + 200 * (Cost.grouping + 2)),
    // INTERSECT: the right side grouped, each left element looked up, the kept ones grouped.
    ("intersect of nested", "(b INTERSECT b).@count == 0", ["b": nested(100)], [], 200 + 300 * (Cost.grouping + 2)),
    (
      "distinct of nested", "count(b.@distinctUnionOfObjects.self) == 0", ["b": nested(100)], [],
      100 + 100 * (Cost.grouping + 2)
    ),
    // An empty left side: nothing to hash on the right.
    ("minus from nothing", "({} MINUS b).@count == 0", ["b": nested(100)], [], 0),
    ("intersect with nothing", "({} INTERSECT b).@count == 0", ["b": nested(100)], [], 0),
    // Strings grouped: their bytes / 16 hashed (64 bytes: 4 steps each).
    (
      "union of strings", "(b UNION b).@count == 0",
      ["b": .array((0..<10).map { .string(String(repeating: "x", count: 60) + "\($0)000") })], [],
      20 + 20 * (Cost.grouping + 4)
    ),
    // mode: each number grouped.
    (
      "mode", "mode(xs).@count == 0", ["xs": .array((0..<1_000).map { .int($0 % 7) })], [],
      1_000 + 1_000 * Cost.grouping
    ),
    // `==` of nested collections: every level of one size, before it is walked.
    (
      "== nested", "a == b", ["a": .array([.array(zeros(1_000))]), "b": .array([.array(zeros(999) + [1])])], [],
      1 + 1_000
    ),
    ("== of different sizes", "a == b", ["a": .array([.array(zeros(1_000))]), "b": .array(zeros(2))], [], 0),
    (
      "== of dictionaries", "a == b",
      ["a": ["k": .array(zeros(500)), "j": 1], "b": ["k": .array(zeros(500)), "j": 1]], [], 2 + 500
    ),
    // IN over collections of collections: each member, then each comparison.
    (
      "IN nested", "a IN b", ["a": .array(zeros(100)), "b": .array(Array(repeating: .array(zeros(100)), count: 3))], [],
      3 + 100
    ),
    // containsObject: and isEqual: go through the same rules.
    ("containsObject:", "xs containsObject: 1", ["xs": .array(zeros(1_000))], [], 1_000),
    (
      "containsObject: nested", "xs containsObject: y",
      ["xs": .array(Array(repeating: .array(zeros(100)), count: 10)), "y": .array(zeros(99) + [1])], [], 10 + 10 * 100
    ),
    ("isEqual: nested", "a isEqual: b", ["a": .array(zeros(700)), "b": .array(zeros(700))], [], 700),
    // A description is charged for what it writes (elements, and its bytes / 8), before
    // writing it.
    (
      "description", "FUNCTION(a, 'description') == nil", ["a": small], [],
      5 + smallDescription.utf8.count / 8
    ),
    // A dictionary's keys are sorted for its description: n × log₂ n (3 keys: 3 × 2).
    (
      "description of a dictionary", "FUNCTION(d, 'description') == nil", ["d": ["a": 1, "b": 2, "c": 3]], [],
      3 + 6 + "{\n    a = 1;\n    b = 2;\n    c = 3;\n}".utf8.count / 8
    ),
    // capitalizedString: ASCII byte by byte (bytes / 8), other text four steps a byte.
    ("capitalizedString ASCII", "FUNCTION(s, 'capitalizedString') == nil", ["s": .string(long)], [], 800),
    ("capitalizedString accented", "FUNCTION(s, 'capitalizedString') == nil", ["s": .string(accented)], [], 3_200),
    // Numbers are read byte by byte: folded bytes.
    ("intValue", "FUNCTION(s, 'intValue') == nil", ["s": .string(long)], [], 800),
    ("isEqualToString:", "FUNCTION(s, 'isEqualToString:', s) == nil", ["s": .string(long)], [], 200),
    // A key looked up is hashed: ASCII bytes / 16, other text bytes / 2 (it is normalised),
    // on a dictionary by index and on each element a key is mapped over.
    ("index by a long key", "d[s] == nil", ["d": ["k": 1], "s": .string(long)], [], 400),
    ("index by an accented key", "d[s] == nil", ["d": ["k": 1], "s": .string(accented)], [], 400),
    (
      "mapped long key", "xs.%K == nil", ["xs": .array(Array(repeating: ["k": 1], count: 10))],
      [.string(String(repeating: "k", count: 640))], 10 * (1 + 40)
    ),
    // Case mapping: ASCII bytes / 8, other text two steps a byte.
    ("uppercase ASCII", "uppercase(s) == nil", ["s": .string(long)], [], 800),
    ("uppercase accented", "uppercase(s) == nil", ["s": .string(accented)], [], 1_600),
    ("lowercaseString accented", "FUNCTION(s, 'lowercaseString') == nil", ["s": .string(accented)], [], 1_600),
    // @max orders strings: each comparison's bytes.
    ("@max of strings", "xs.@max.self == nil", ["xs": .array([.string(long), .string(long)])], [], 2 + 200),
    // median: the walk and a sort (n × log₂ n / 8).
    ("median", "median(xs) == nil", ["xs": .array(zeros(1_000))], [], 1_000 + 1_250),
  ]

  static func outcome(_ format: String, _ input: SiftValue, _ arguments: [SiftValue], steps: Int) throws -> String {
    let p = try SiftPredicate(
      format: format, arguments: arguments, options: CompileOptions(limits: EvaluationLimits(maxSteps: steps)))
    do {
      return "\(try p.evaluate(with: input))"
    } catch {
      return error.kind.rawValue
    }
  }

  @Test(arguments: charges)
  func chargedAtTheEdge(_ name: String, _ format: String, _ input: SiftValue, _ arguments: [SiftValue], _ steps: Int)
    throws
  {
    let fits = try Self.outcome(format, input, arguments, steps: steps)
    #expect(fits != "limitExceeded", "\(name) at \(steps)")
    if steps > 0 {
      #expect(
        try Self.outcome(format, input, arguments, steps: steps - 1) == "limitExceeded", "\(name) at \(steps - 1)")
    }
  }

  /// Values an input builds to be read are charged for what was built: a Foundation
  /// collection as it is converted (4 steps an element), a typed field's array.
  @Test func builtValuesAreCharged() throws {
    let limits = { (n: Int) in CompileOptions(limits: EvaluationLimits(maxSteps: n)) }
    let ints: [Any] = Array(repeating: 0, count: 1_000)
    let inputs: [(String, [String: Any], Int)] = [
      ("[Any]", ["a": ints], 4_000),
      ("[Int]", ["a": Array(repeating: 0, count: 1_000)], 4_000),
      ("[String]", ["a": Array(repeating: "x", count: 1_000)], 4_000),
      ("NSArray", ["a": NSArray(array: ints)], 4_000),
      ("[String: Any] in [Any]", ["a": [["k": 1, "j": 2] as [String: Any]] as [Any]], 4 + 8),
    ]
    for (name, foundation, steps) in inputs {
      #expect(
        try SiftPredicate(format: "a == nil", options: limits(steps)).evaluate(with: foundation) == false, "\(name)")
      #expect(throws: EvaluationError.self, "\(name)") {
        try SiftPredicate(format: "a == nil", options: limits(steps - 1)).evaluate(with: foundation)
      }
    }
    let mail = Mail(tags: (0..<1_000).map { "t\($0)" })
    #expect(
      try SiftPredicate(format: "tags == nil", for: Mail.self, options: limits(1_000)).evaluate(with: mail) == false)
    #expect(throws: EvaluationError.self) {
      try SiftPredicate(format: "tags == nil", for: Mail.self, options: limits(999)).evaluate(with: mail)
    }
  }

  /// The description written is NSArray's and NSDictionary's, however deep.
  @Test func descriptionText() throws {
    #expect(BuiltinSelectors.description(Self.small) == Self.smallDescription)
    #expect(
      BuiltinSelectors.description(["b": ["x y", 1], "a": [:]])
        == "{\n    a = {\n};\n    b = (\n        \"x y\",\n        1\n    );\n}")
    // Deeper than the walks go: limitExceeded, as for keys mapped over such values.
    let deep = (0..<(Semantics.maxValueDepth + 1)).reduce(SiftValue.int(0)) { v, _ in .array([v]) }
    #expect(throws: EvaluationError.self) { try BuiltinSelectors.descriptionCost(deep, stepsLeft: .max) }
  }

  /// A CAST error quotes at most the start of the value.
  @Test func messagesQuoteAnExcerpt() throws {
    let p = try SiftPredicate(format: "CAST(s, 'NSNumber') == 1")
    do {
      _ = try p.evaluate(with: ["s": .string(String(repeating: "x", count: 1 << 20))] as SiftValue)
      Issue.record("evaluated")
    } catch {
      #expect(error.kind == .invalidArgument)
      #expect(error.message.utf8.count < 120, "\(error.message.utf8.count) bytes")
      #expect(error.message.hasSuffix("… (1048576 bytes)\" is not a number"), "\(error.message)")
    }
    #expect(EvaluationError.excerpt("short") == "short")
    let cut = EvaluationError.excerpt(String(repeating: "\u{E9}", count: 100))
    #expect(cut == String(repeating: "\u{E9}", count: 24) + "… (200 bytes)")
  }
}

/// ``EqualityKey`` hashes what `==` compares, all the way down, so only equal values
/// collide.
@Suite("Grouping by equality")
struct EqualityKeyTests {
  static func digest(_ v: SiftValue) throws -> Int {
    var steps = Int.max
    return try EqualityKey.digest(of: v, steps: &steps)
  }

  /// Values that differ three or more levels down, and strings that are canonically
  /// equivalent but byte-different, hash apart (a two-level hash and Swift's string hash
  /// made them all collide).
  @Test func distinctValuesHashApart() throws {
    let nested = try Set((0..<10_000).map { try Self.digest(.array([.array([.array([.int($0)])])])) })
    #expect(nested.count == 10_000)
    let forms = try Set(
      (0..<1_024).map { bits in
        try Self.digest(.string((0..<10).map { bits >> $0 & 1 == 0 ? "\u{E9}" : "e\u{301}" }.joined()))
      })
    #expect(forms.count == 1_024)
    #expect(try Self.digest(["a": ["b": ["c": 1]]]) != Self.digest(["a": ["b": ["c": 2]]]))
  }

  /// Equal values hash alike: numbers of any kind with one value, dictionaries in any
  /// order, -0.0 and 0.0, and random values drawn from a small domain (so that many
  /// pairs are equal) whenever `==` says they are equal.
  @Test func equalValuesHashAlike() throws {
    #expect(try Self.digest([[1]]) == Self.digest([[1.0]]))
    #expect(try Self.digest([[1]]) == Self.digest([[true]]))
    #expect(try Self.digest(.date(secondsSinceReferenceDate: 0)) == Self.digest(.date(secondsSinceReferenceDate: -0.0)))
    var forward: [String: SiftValue] = [:]
    var backward: [String: SiftValue] = [:]
    for i in 0..<50 { forward["k\(i)"] = .int(i) }
    for i in (0..<50).reversed() { backward["k\(i)"] = .int(i) }
    #expect(try Self.digest(.dictionary(forward)) == Self.digest(.dictionary(backward)))

    var generator = SplitMix64(seed: 7)
    func value(_ depth: Int) -> SiftValue {
      switch generator.next() % (depth > 2 ? 4 : 6) {
      case 0: return .int(Int(generator.next() % 3))
      case 1: return .double(Double(generator.next() % 3))
      case 2: return .string(["a", "b", "\u{E9}", "e\u{301}"][Int(generator.next() % 4)])
      case 3: return .bool(generator.next() % 2 == 0)
      case 4: return .array((0..<Int(generator.next() % 3)).map { _ in value(depth + 1) })
      default:
        return .dictionary(
          Dictionary((0..<Int(generator.next() % 3)).map { ("k\($0)", value(depth + 1)) }) { a, _ in a })
      }
    }
    var equalPairs = 0
    for _ in 0..<20_000 {
      let a = value(0)
      let b = value(0)
      if Semantics.equal(a, b, []) {
        equalPairs += 1
        #expect(try Self.digest(a) == Self.digest(b), "\(a) == \(b)")
      }
    }
    #expect(equalPairs > 1_000)
  }
}
