import Sift
import SiftTestSupport

/// Random (predicate text, record) pairs for the differential test of the VM against the
/// reference evaluator. Predicates are produced as text, so the parser is exercised too;
/// they use every operator, option, quantifier and deterministic function over a small
/// vocabulary of keys: `a b name code tags nums nested.x nested.y nested.list items flag
/// when big`. `random`, `random:`, `randomn:` and `now` are never generated, nor are format
/// specifiers (the text has no arguments). Some predicates are ill-typed on purpose, so
/// evaluation errors are compared as well.
///
/// `MATCHES` only sees ASCII text (`code` and literals) with ASCII patterns, where ICU (the
/// reference) and PCRE2 (the VM) agree.
enum RandomCases {
  static func make(seed: UInt64, count: Int) -> [(format: String, object: SiftValue)] {
    var generator = RandomCaseGenerator(rng: SplitMix64(seed: seed))
    var cases: [(format: String, object: SiftValue)] = []
    cases.reserveCapacity(count)
    for _ in 0..<count {
      let object = generator.record()
      generator.bound = []
      let format = generator.predicate(depth: 2)
      cases.append((format, object))
    }
    return cases
  }
}

/// The generator behind ``RandomCases``.
struct RandomCaseGenerator {
  var rng: SplitMix64
  /// Variables assigned so far in the predicate being built (usable after their assignment).
  var bound: [String] = []

  // MARK: Vocabulary

  /// Strings for `name`, `nested.y` and string literals: ASCII, precomposed and decomposed
  /// accents, ß, Turkish dotted/dotless i, Greek, full-width letters, digits, wildcards.
  static let words = [
    "alpha", "Beta", "gamma", "ALPHA", "beta", "café", "cafe\u{301}", "CAFE", "Straße", "STRASSE",
    "strasse", "İstanbul", "istanbul", "ıi", "σοφία", "ΣΟΦΊΑ", "naïve", "ＡＢＣ", "abc", "", "x y", "10", "9",
    "a*b", "Ünïcödé", "e", "é",
  ]
  /// ASCII strings: the only text MATCHES is applied to.
  static let asciiWords = ["ab12", "XYZ", "hello world", "a.b", "", "abc", "ABC", "a1", "zz", "hello"]
  static let likePatterns = [
    "a*", "*a*", "?eta", "*ß*", "Stra?e", "*", "", "\\\\*", "a\\\\*b", "??", "caf?", "*E", "ALPHA", "*İ*", "σ*",
  ]
  static let regexPatterns = [
    "[a-z]+", ".*a.*", "\\\\w+", "[A-Z].*", "(ab|he).*", ".", "\\\\d+", "a.b", "", "hello world", "[a-z]+[0-9]*",
    "(",
  ]
  static let optionSets = ["", "", "", "[c]", "[d]", "[cd]", "[n]", "[l]", "[cdn]", "[CD]"]

  // MARK: Records

  mutating func number() -> SiftValue {
    switch rng.below(10) {
    case 0: .double(Double(rng.int(-50...50)) / 10)
    case 1: .bool(rng.chance(50))
    default: .int(rng.int(-5...10))
    }
  }

  mutating func word() -> SiftValue { .string(rng.pick(Self.words)) }

  /// Usually the intended kind; sometimes nil, missing or another kind.
  mutating func sometimesOdd(_ value: SiftValue) -> SiftValue? {
    switch rng.below(20) {
    case 0: return nil
    case 1: return .null
    case 2: return rng.chance(50) ? word() : number()
    default: return value
    }
  }

  mutating func record() -> SiftValue {
    var d: [String: SiftValue] = [:]
    d["a"] = sometimesOdd(number())
    d["b"] = sometimesOdd(.double(Double(rng.int(-50...100)) / 10))
    d["name"] = sometimesOdd(word())
    // Never a non-ASCII string: `code` is what MATCHES reads.
    switch rng.below(20) {
    case 0: break
    case 1: d["code"] = .null
    case 2: d["code"] = number()
    default: d["code"] = .string(rng.pick(Self.asciiWords))
    }
    var tags: [SiftValue] = []
    for _ in 0..<rng.below(5) {
      tags.append(rng.chance(90) ? .string(rng.pick(Self.asciiWords + ["café", "Straße", "σοφία"])) : number())
    }
    d["tags"] = sometimesOdd(.array(tags))
    var nums: [SiftValue] = []
    for _ in 0..<rng.below(6) {
      nums.append(rng.chance(90) ? number() : (rng.chance(50) ? .null : word()))
    }
    d["nums"] = sometimesOdd(.array(nums))
    var list: [SiftValue] = []
    for _ in 0..<rng.below(3) { list.append(["v": number()]) }
    d["nested"] = sometimesOdd(["x": number(), "y": word(), "list": .array(list)])
    var items: [SiftValue] = []
    for _ in 0..<rng.below(4) {
      var item: [String: SiftValue] = ["name": word()]
      if rng.chance(85) { item["price"] = .double(Double(rng.int(0...100)) / 4) }
      items.append(.dictionary(item))
    }
    d["items"] = sometimesOdd(.array(items))
    d["flag"] = sometimesOdd(.bool(rng.chance(50)))
    if rng.chance(40) { d["when"] = .date(secondsSinceReferenceDate: Double(rng.int(0...1000))) }
    if rng.chance(15) { d["big"] = rng.chance(50) ? .int(Int.max) : .int(Int.min) }
    return .dictionary(d)
  }

  // MARK: Literals

  static func quote(_ s: String) -> String {
    var out = "'"
    for ch in s.unicodeScalars {
      if ch == "'" || ch == "\\" { out += "\\" }
      out.unicodeScalars.append(ch)
    }
    return out + "'"
  }

  mutating func numberLiteral() -> String {
    switch rng.below(12) {
    case 0: return "\(Double(rng.int(-50...50)) / 10)"
    case 1: return rng.pick(["YES", "NO", "TRUE", "FALSE"])
    case 2: return rng.pick(["9223372036854775807", "0x10", "0b101", "1e2"])
    default: return "\(rng.int(-3...10))"
    }
  }

  mutating func stringLiteral() -> String { Self.quote(rng.pick(Self.words)) }

  mutating func options() -> String { rng.pick(Self.optionSets) }

  // MARK: Expressions

  /// An expression that is usually a number.
  mutating func numeric(depth: Int) -> String {
    let leaf = depth <= 0 || rng.chance(45)
    if leaf {
      switch rng.below(16) {
      case 0, 1, 2: return numberLiteral()
      case 3, 4: return "a"
      case 5: return "b"
      case 6: return "nested.x"
      case 7: return rng.pick(["nums[0]", "nums[1]", "nums[LAST]", "nums[FIRST]", "nums[SIZE]"])
      case 8: return rng.pick(["nums.@count", "tags.@count", "items.@count", "nested.@count"])
      case 9: return rng.pick(["nums.@sum.self", "nums.@avg.self", "nums.@min.self", "nums.@max.self"])
      case 10: return rng.pick(["items.@sum.price", "items.@max.price", "items.@min.price", "items.@avg.price"])
      case 11: return rng.pick(["items[0].price", "nested.list[0].v", "nested.list.@sum.v"])
      case 12: return rng.pick(["name.length", "code.length", "flag", "big", "missing"])
      case 13: return bound.isEmpty ? "a" : "$" + rng.pick(bound)
      case 14: return rng.pick(["nums.@sum", "$unbound", "name"])  // mistakes on purpose
      default: return "SUBQUERY(items, $i, $i.price > \(rng.int(0...20))).@count"
      }
    }
    let d = depth - 1
    switch rng.below(14) {
    case 0, 1:
      let op = rng.pick(["+", "-", "*", "/", "+", "-"])
      return "(\(numeric(depth: d)) \(op) \(numeric(depth: d)))"
    case 2: return "(\(numeric(depth: d)) ** \(rng.int(0...3)))"
    case 3:
      let op = rng.pick(["&", "|", "^", "<<", ">>"])
      return "(\(numeric(depth: d)) \(op) \(rng.chance(80) ? String(rng.int(0...4)) : numeric(depth: d)))"
    case 4: return rng.chance(50) ? "-\(numeric(depth: d))" : "~\(numeric(depth: d))"
    case 5:
      let f = rng.pick(["sum", "count", "min", "max", "average", "median", "stddev"])
      let arg = rng.pick(["nums", "items.price", "nested.list.v", "tags", "{1, 2, 3}", "{}", "{a, b}", "a"])
      return "\(f)(\(arg))"
    case 6:
      let f = rng.pick(["sqrt", "log", "ln", "exp", "floor", "ceiling", "trunc", "abs", "noindex", "onesComplement"])
      return "\(f)(\(numeric(depth: d)))"
    case 7:
      let f = rng.pick([
        "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:",
        "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:",
      ])
      return "\(f)(\(numeric(depth: d)), \(numeric(depth: d)))"
    case 8: return "length(\(string(depth: d)))"
    case 9: return "TERNARY(\(predicate(depth: d)), \(numeric(depth: d)), \(numeric(depth: d)))"
    case 10: return "CAST(\(rng.pick(["'3'", "'2.5'", "'x'", "name", "a", "when", "b"])), 'NSNumber')"
    case 11:
      let name = rng.pick(["v", "w"])
      let text = "($\(name) := \(numeric(depth: d)))"
      bound.append(name)
      return text
    case 12: return "{\(numeric(depth: d)), \(numeric(depth: d))}[\(rng.int(0...2))]"
    default: return "nested['x']"
    }
  }

  /// An expression that is usually a string.
  mutating func string(depth: Int) -> String {
    if depth <= 0 || rng.chance(50) {
      switch rng.below(9) {
      case 0, 1, 2: return stringLiteral()
      case 3, 4: return "name"
      case 5: return "nested.y"
      case 6: return rng.pick(["tags[0]", "tags[LAST]", "items[0].name", "code"])
      case 7: return "SELF.name"
      default: return rng.pick(["missing", "a"])
      }
    }
    let d = depth - 1
    switch rng.below(5) {
    case 0: return "uppercase(\(string(depth: d)))"
    case 1: return "lowercase(\(string(depth: d)))"
    case 2: return "CAST(\(rng.pick(["a", "b", "flag", "name", "3", "2.5"])), 'NSString')"
    case 3: return "TERNARY(\(predicate(depth: d)), \(string(depth: d)), \(string(depth: d)))"
    default: return "noindex(\(string(depth: d)))"
    }
  }

  /// Text MATCHES may see: ASCII only.
  mutating func asciiString() -> String {
    rng.pick(["code", "code", Self.quote(rng.pick(Self.asciiWords)), "uppercase(code)", "lowercase(code)"])
  }

  mutating func collection() -> String {
    rng.pick([
      "tags", "nums", "items.price", "items.name", "nested.list.v", "{1, 2, 3}", "{'alpha', 'café'}", "{}",
      "a", "name", "nested", "missing", "SUBQUERY(nums, $n, $n > 1)", "items.@unionOfObjects.price",
      "items.@distinctUnionOfObjects.name",
    ])
  }

  // MARK: Predicates

  mutating func predicate(depth: Int) -> String {
    if depth > 0 {
      switch rng.below(10) {
      case 0: return "(\(predicate(depth: depth - 1)) AND \(predicate(depth: depth - 1)))"
      case 1: return "(\(predicate(depth: depth - 1)) OR \(predicate(depth: depth - 1)))"
      case 2: return "\(predicate(depth: depth - 1)) \(rng.pick(["AND", "OR", "&&", "||"])) \(comparison(depth: depth))"
      case 3: return "NOT (\(predicate(depth: depth - 1)))"
      default: break
      }
    }
    if rng.chance(3) { return rng.pick(["TRUEPREDICATE", "FALSEPREDICATE"]) }
    return comparison(depth: depth)
  }

  mutating func comparison(depth: Int) -> String {
    let d = max(depth, 1)
    switch rng.below(20) {
    case 0, 1, 2, 3:
      let op = rng.pick(["==", "!=", "<", "<=", ">", ">=", "=", "<>"])
      return "\(numeric(depth: d)) \(op) \(numeric(depth: d))"
    case 4:
      return "\(numeric(depth: d)) BETWEEN {\(numeric(depth: 0)), \(numeric(depth: 0))}"
    case 5, 6, 7:
      let op = rng.pick(["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "IN"])
      return "\(string(depth: d)) \(op)\(options()) \(string(depth: d))"
    case 8, 9:
      let pattern = rng.pick(Self.likePatterns)
      return "\(string(depth: d)) LIKE\(options()) '\(pattern)'"
    case 10:
      let pattern = rng.pick(Self.regexPatterns)
      return "\(asciiString()) MATCHES\(rng.pick(["", "", "[c]", "[d]"])) '\(pattern)'"
    case 11:
      let q = rng.pick(["ANY", "ALL", "NONE", "SOME"])
      let op = rng.pick(["==", "!=", "<", ">", "BEGINSWITH", "CONTAINS", "LIKE", "IN"])
      let rhs =
        switch op {
        case "IN": rng.pick(["{1, 2, 'abc'}", "tags", "'hello world'", "nums"])
        case "BEGINSWITH", "CONTAINS", "LIKE": Self.quote(rng.pick(Self.asciiWords + ["a*", "*b*"]))
        default: rng.chance(50) ? numeric(depth: 0) : stringLiteral()
        }
      return "\(q) \(collection()) \(op)\(options()) \(rhs)"
    case 12:
      let element = rng.chance(50) ? numeric(depth: 0) : stringLiteral()
      return rng.chance(50)
        ? "\(element) IN\(options()) \(collection())" : "\(collection()) CONTAINS\(options()) \(element)"
    case 13:
      return "\(collection()) == \(collection())"
    case 14:
      let n = rng.int(0...10)
      return
        "SUBQUERY(\(collection()), $e, $e \(rng.pick(["<", ">", "==", "!="])) \(n)).@count \(rng.pick(["==", ">", "<="])) \(rng.int(0...3))"
    case 15:
      let f = rng.pick(["mode(nums)", "items.@distinctUnionOfObjects.price", "nested.list.v", "tags"])
      return "\(f) \(rng.pick(["==", "!="])) {\(numeric(depth: 0)), \(numeric(depth: 0))}"
    case 16:
      return
        "CAST(\(rng.pick(["when", "a", "0", "100.5"])), 'NSDate') \(rng.pick(["<", ">=", "=="])) CAST(\(rng.int(0...1000)), 'NSDate')"
    case 17:
      let name = "s"
      let text = "($\(name) := \(string(depth: 0))) \(rng.pick(["==", "BEGINSWITH", "CONTAINS[c]"])) \(stringLiteral())"
      bound.append(name)
      return text
    case 18:
      return "\(numeric(depth: d)) \(rng.pick(["==", "<"])) \(string(depth: 0))"
    default:
      return
        "\(rng.pick(["nums", "tags", "items", "nested", "grid"]))[\(rng.pick(["0", "1", "2", "-1", "LAST", "SIZE", "'x'", "1.0"]))] \(rng.pick(["==", "!="])) \(rng.chance(50) ? numeric(depth: 0) : "nil")"
    }
  }
}
