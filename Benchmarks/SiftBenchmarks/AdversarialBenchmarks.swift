import Sift
import SiftCommandLine

/// The `adversarial` suite: the wall time of predicates and inputs built to stall an
/// evaluator (catastrophic regular expressions, huge key paths and OR chains, string work
/// inside SUBQUERY, a record plan over a line of 150,000 fields), each with its outcome:
/// `true`/`false` when decided, `limitExceeded`, or `error` for a predicate refused at
/// compile time. Each case runs a few times (its first run included: a service sees a
/// hostile predicate once); the row is the median.
enum AdversarialBenchmarks {
  /// One run of a case: its outcome.
  typealias Run = () -> String

  static func run(_ options: BenchmarkOptions) {
    let runs = options.quick ? 3 : 7
    let clock = ContinuousClock()
    for (name, make) in cases where options.includes("adversarial \(name)") {
      let run = make()
      var samples: [Double] = []
      var outcome = ""
      for _ in 0..<runs {
        samples.append(clock.measure { outcome = run() }.nanoseconds)
      }
      let ns = samples.median
      let ms = milliseconds(ns)
      if options.json {
        print(
          JSONLine.make([
            "suite": "adversarial", "workload": .string(name), "engine": "sift",
            "ns_per_op": JSONLine.number(Report.rounded(ns)), "ms": JSONLine.number(ms), "outcome": .string(outcome),
          ]))
      } else {
        print("\("adversarial \(name)".padding(50)) \(ms.leftPadding(9)) ms  \(outcome)")
      }
    }
  }

  /// Nanoseconds as milliseconds with two decimals.
  static func milliseconds(_ ns: Double) -> String {
    let hundredths = Int((ns / 1e4).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// Every case by name, each built when selected (a 1 MB predicate takes time to build).
  static var cases: [(String, () -> Run)] {
    var all: [(String, () -> Run)] = []
    for (pattern, subject) in redos {
      for (label, size) in [("1KB", 1 << 10), ("100KB", 100 << 10), ("1MiB", 1 << 20)] {
        let name = "redos \(pattern) \(label)"
        all.append((name, { matches(pattern, subject(size)) }))
      }
    }
    for (label, size) in [("1KB", 1 << 10), ("5KB", 5 << 10), ("20KB", 20 << 10), ("100KB", 100 << 10)] {
      let name = "(.*a){20} a*30+b*N \(label)"
      all.append(
        (name, { matches("(.*a){20}", String(repeating: "a", count: 30) + String(repeating: "b", count: size)) }))
    }
    all.append(("keypath 100000 format", { keyPathFormat(100_000) }))
    all.append(("keypath 100000 compile", { compile(keyPath(100_000)) }))
    all.append(("or 16000 compile", { compile(orChain(terms: 16_000) { "a == \($0)" }) }))
    // 1 MB, inside the 1 MiB limit on a predicate's length.
    all.append(("or 1MB compile", { compile(orChain(bytes: 1_000_000) { "a == \($0)" }) }))
    all.append(("matches 1MB compile", { compile(orChain(bytes: 1_000_000) { "s MATCHES 'x\($0)+y'" }) }))
    all.append(("like[cd] 1MB compile", { compile(orChain(bytes: 1_000_000) { "s LIKE[cd] '*x\($0)*'" }) }))
    // Other shapes of a 1 MB predicate: each must compile in linear time or fail early.
    all.append(("and distinct keys 1MB compile", { compile(orChain(bytes: 1_000_000) { "k\($0) == 1" }) }))
    all.append(("aggregate 1MB compile", { compile("a IN {" + list(bytes: 1_000_000) { "\($0)" } + "}") }))
    all.append(("strings aggregate 1MB compile", { compile("a IN {" + list(bytes: 1_000_000) { "'s\($0)'" } + "}") }))
    all.append(("string 1MB compile", { compile("s == '" + String(repeating: "x", count: 1_000_000) + "'") }))
    all.append(("sum 1MB compile", { compile(list(bytes: 1_000_000, separator: " + ") { "k\($0)" } + " == 1") }))
    all.append(
      ("constant sum 1MB compile", { compile(list(bytes: 1_000_000, separator: " + ") { "\($0)" } + " == 1") }))
    all.append(("parentheses 500KB compile", { compile(nested(250_000, "(", ")", "a == 1")) }))
    all.append(("NOT 1MB compile", { compile(String(repeating: "NOT ", count: 250_000) + "a == 1") }))
    all.append(("index 1MB compile", { compile("a" + String(repeating: "[0]", count: 330_000) + " == 1") }))
    all.append(("ternary 1MB compile", { compile(nested(40_000, "TERNARY(a == 1, ", ", 0)", "1") + " == 1") }))
    all.append(("subquery nest 1MB compile", { compile(nested(30_000, "SUBQUERY(x, $v, ", ").@count > 0", "a == 1")) }))
    all.append(("function args 1MB compile", { compile("max:({" + list(bytes: 1_000_000) { "\($0)" } + "}) == 1") }))
    all.append(("subquery contains 1MiB", subqueryOverLongString))
    all.append(("record 9000 keys 150000 fields", recordPlan))
    // Work that runs the default budget out, one kind of string work each.
    let accented = String(repeating: "é", count: 1 << 19)
    all.append(
      (
        "subquery contains[cd] 1MiB",
        {
          evaluate(
            "SUBQUERY(xs, $x, s CONTAINS[cd] $x).@count > 0",
            ["s": .string(accented), "xs": strings(11_500) { "x\($0)" }])
        }
      ))
    all.append(
      ("==[cd] 1MiB", { evaluate("s ==[cd] t", ["s": .string(accented), "t": .string(accented.uppercased())]) }))
    all.append(
      (
        "ANY like[cd] 16x64KB",
        {
          evaluate(
            "ANY xs LIKE[cd] '*a*b*c*d*e*f*g*h*z'",
            ["xs": strings(16) { _ in String(repeating: "abcdefgh", count: 8 << 10) }])
        }
      ))
    all.append(
      (
        "ANY backreference 1000x1KB",
        {
          evaluate(
            "ANY xs MATCHES '(a+)+\\\\1b'", ["xs": strings(1_000) { _ in String(repeating: "a", count: 1 << 10) }])
        }
      ))
    all.append(
      (
        "ANY lookahead 100x10KB",
        {
          evaluate(
            "ANY xs MATCHES '(.*a)(?=.*b)'", ["xs": strings(100) { _ in String(repeating: "a", count: 10 << 10) }])
        }
      ))
    all += workTheBudgetCharges
    return all
  }

  /// Work that once went uncharged or was super-linear, each case ≤ 1 MiB of input: it must
  /// finish, or stop with `limitExceeded`, well under 100 ms (README, "Bounded evaluation").
  static var workTheBudgetCharges: [(String, () -> Run)] {
    // Set operations and grouping over values that a hash of two levels, or Swift's
    // canonical-equivalence string hash, made collide.
    let nested = SiftValue.array((0..<104_000).map { .array([.array([.int($0)])]) })
    let spellings = SiftValue.array(
      (0..<16_384).map { bits in .string((0..<14).map { bits >> $0 & 1 == 0 ? "\u{E9}" : "e\u{301}" }.joined()) })
    let zeros = SiftValue.array(Array(repeating: .int(0), count: 500_000))
    let deep = (0..<500).reduce(SiftValue.array(Array(repeating: .int(0), count: 10_000))) { v, _ in .array([v]) }
    let deeper = (0..<500).reduce(SiftValue.array(Array(repeating: .int(0), count: 50_000))) { v, _ in .array([v]) }
    let megabyte = String(repeating: "a", count: 1 << 20)
    let half = String(repeating: "a", count: 1 << 19)
    let words = String(repeating: "hello wORLD ", count: (1 << 20) / 12)
    let accented = String(repeating: "\u{E9}t\u{E9} ", count: (1 << 20) / 6)
    let foundationZeros: [String: Any] = ["a": Array(repeating: 0, count: 500_000)]
    let keyed = SiftValue.dictionary(Dictionary(uniqueKeysWithValues: (0..<100_000).map { ("k\($0)", .int($0)) }))
    return [
      ("union nested [[i]] x104000", { evaluate("(b UNION b).@count == -1", ["b": nested]) }),
      ("union 16384 forms of e-acute", { evaluate("(b UNION b).@count == -1", ["b": spellings]) }),
      (
        "distinct 16384 forms of e-acute",
        { evaluate("count(b.@distinctUnionOfObjects.self) == -1", ["b": spellings]) }
      ),
      ("minus empty left", { evaluate("({} MINUS b).@count == -1", ["b": nested]) }),
      (
        "containsObject: x12000 over 500000",
        { evaluate(orChain(terms: 12_000) { _ in "xs containsObject: y" }, ["xs": zeros, "y": 1]) }
      ),
      (
        "== nested 250000 x10000",
        {
          evaluate(
            orChain(terms: 10_000) { _ in "a == b" },
            [
              "a": .array([.array(Array(repeating: .int(0), count: 250_000))]),
              "b": .array([.array(Array(repeating: .int(0), count: 249_999) + [.int(1)])]),
            ])
        }
      ),
      ("description 500 deep x10000", { evaluate("FUNCTION(a, 'description') == 'x'", ["a": deep]) }),
      ("description 500 deep x50000", { evaluate("FUNCTION(a, 'description') == 'x'", ["a": deeper]) }),
      (
        "capitalizedString 1MiB ASCII x8",
        { evaluate(orChain(terms: 8) { _ in "FUNCTION(s, 'capitalizedString') == 'x'" }, ["s": .string(words)]) }
      ),
      (
        "capitalizedString 1MiB accented x8",
        { evaluate(orChain(terms: 8) { _ in "FUNCTION(s, 'capitalizedString') == 'x'" }, ["s": .string(accented)]) }
      ),
      (
        "uppercase: 1MiB accented x8",
        { evaluate(orChain(terms: 8) { _ in "uppercase(s) == 'x'" }, ["s": .string(accented)]) }
      ),
      (
        "uppercase: 1MiB ASCII x8",
        { evaluate(orChain(terms: 8) { _ in "uppercase(s) == 'x'" }, ["s": .string(words)]) }
      ),
      (
        "uppercase: 100KB accented x1",
        { evaluate("uppercase(s) == 'x'", ["s": .string(String(accented.prefix(1 << 16)))]) }
      ),
      (
        "capitalizedString 100KB accented x1",
        { evaluate("FUNCTION(s, 'capitalizedString') == 'x'", ["s": .string(String(accented.prefix(1 << 16)))]) }
      ),
      (
        "index by 1MiB accented key x10000",
        { evaluate(orChain(terms: 10_000) { _ in "d[s] == 1" }, ["d": ["k": 1], "s": .string(accented)]) }
      ),
      ("median 100000", { evaluate("median(xs) == -1", ["xs": .array(Array(repeating: .int(0), count: 100_000))]) }),
      (
        "Foundation array read 100000 x1",
        { evaluateFoundation("a == nil", ["a": Array(repeating: 0, count: 100_000)]) }
      ),
      (
        "intValue 1MiB of spaces x100",
        {
          evaluate(
            orChain(terms: 100) { _ in "FUNCTION(s, 'intValue') == 1" },
            ["s": .string(String(repeating: " ", count: 1 << 20))])
        }
      ),
      (
        "index by 1MiB key x10000",
        { evaluate(orChain(terms: 10_000) { _ in "d[s] == 1" }, ["d": ["k": 1], "s": .string(megabyte)]) }
      ),
      (
        "@max of 2 long strings x10000",
        {
          evaluate(
            orChain(terms: 10_000) { _ in "xs.@max.self == 'x'" },
            ["xs": .array([.string(half + "a"), .string(half + "b")])])
        }
      ),
      ("median 500000", { evaluate("median(xs) == -1", ["xs": zeros]) }),
      (
        "Foundation array read x10000",
        { evaluateFoundation(orChain(terms: 10_000) { _ in "a == nil" }, foundationZeros) }
      ),
      (
        "description of 100000 keys x10",
        { evaluate(orChain(terms: 10) { _ in "FUNCTION(d, 'description') == 'x'" }, ["d": keyed]) }
      ),
      ("== of 100000 keys x100", { evaluate(orChain(terms: 100) { _ in "d == e" }, ["d": keyed, "e": keyed]) }),
      (
        "CAST 1MiB string to NSNumber",
        { evaluate("CAST(s, 'NSNumber') == 1", ["s": .string(megabyte)]) }
      ),
    ]
  }

  /// `format` compiled once, outside the timing; each run is one evaluation of a
  /// Foundation dictionary.
  static func evaluateFoundation(_ format: String, _ input: [String: Any]) -> Run {
    let p = try! SiftPredicate(format: format)
    return { outcome { () throws(EvaluationError) in try p.evaluate(with: input) } }
  }

  /// The ReDoS set and the subject that makes each backtrack worst: a long run the pattern
  /// almost matches, then a character that fails it.
  static let redos: [(String, @Sendable (Int) -> String)] = [
    ("(a+)+$", { String(repeating: "a", count: $0) + "!" }),
    ("(a|aa)+$", { String(repeating: "a", count: $0) + "!" }),
    ("(a|a?)+$", { String(repeating: "a", count: $0) + "!" }),
    ("(\\w+\\s?)+$", { String(repeating: "a", count: $0) + "!" }),
    ("^(([a-z])+.)+[A-Z]([a-z])+$", { String(repeating: "a", count: $0) + "!" }),
    ("(x+x+)+y", { String(repeating: "x", count: $0) }),
    ("(.*a){20}", { String(repeating: "a", count: 30) + String(repeating: "b", count: $0) }),
  ]

  static func outcome(_ body: () throws(EvaluationError) -> Bool) -> String {
    do throws(EvaluationError) { return "\(try body())" } catch { return error.kind.rawValue }
  }

  /// `format` compiled once, outside the timing; each run is one evaluation of `input`.
  static func evaluate(_ format: String, _ input: SiftValue) -> Run {
    let p = try! SiftPredicate(format: format)
    return { outcome { () throws(EvaluationError) in try p.evaluate(with: input) } }
  }

  static func strings(_ count: Int, _ element: (Int) -> String) -> SiftValue {
    .array((0..<count).map { .string(element($0)) })
  }

  /// `s MATCHES pattern` compiled once, outside the timing; each run is one evaluation.
  static func matches(_ pattern: String, _ subject: String) -> Run {
    let p = try! SiftPredicate(format: "s MATCHES %@", arguments: [.string(pattern)])
    let input: SiftValue = ["s": .string(subject)]
    return { outcome { () throws(EvaluationError) in try p.evaluate(with: input) } }
  }

  static func keyPath(_ components: Int) -> String {
    Array(repeating: "a", count: components).joined(separator: ".") + " == 1"
  }

  /// What `sift format` does: parse, then print the canonical text.
  static func keyPathFormat(_ components: Int) -> Run {
    let text = keyPath(components)
    return {
      guard let syntax = try? PredicateSyntax(parsing: text) else { return "error" }
      blackHole(syntax.predicateFormat)
      return "formatted"
    }
  }

  /// Parse and compile `text`: `compiled`, or `error` for a predicate refused.
  static func compile(_ text: String) -> Run {
    {
      (try? SiftPredicate(format: text)).map {
        blackHole($0); return "compiled"
      } ?? "error"
    }
  }

  static func orChain(terms: Int, _ term: (Int) -> String) -> String {
    (0..<terms).map(term).joined(separator: " OR ")
  }

  /// Terms joined by OR until the text reaches `bytes`.
  static func orChain(bytes: Int, _ term: (Int) -> String) -> String {
    var text = ""
    var i = 0
    while text.utf8.count < bytes {
      if i > 0 { text += " OR " }
      text += term(i)
      i += 1
    }
    return text
  }

  /// Items joined by `separator` until the text reaches `bytes`.
  static func list(bytes: Int, separator: String = ", ", _ item: (Int) -> String) -> String {
    var text = ""
    var i = 0
    while text.utf8.count < bytes {
      if i > 0 { text += separator }
      text += item(i)
      i += 1
    }
    return text
  }

  /// `inner` wrapped `depth` times in `open` … `close`.
  static func nested(_ depth: Int, _ open: String, _ close: String, _ inner: String) -> String {
    String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
  }

  /// A SUBQUERY whose body searches a 1 MiB string for each of 11,500 elements.
  static func subqueryOverLongString() -> Run {
    let p = try! SiftPredicate(format: "SUBQUERY(xs, $x, s CONTAINS $x).@count > 0")
    let input: SiftValue = [
      "s": .string(String(repeating: "a", count: 1 << 20)), "xs": .array((0..<11_500).map { .string("x\($0)") }),
    ]
    return { outcome { () throws(EvaluationError) in try p.evaluate(with: input) } }
  }

  /// `sift filter`'s decision of one line of 150,000 fields by an OR of 9,000 keys
  /// (none present): the record plan reads the line's fields once.
  static func recordPlan() -> Run {
    let format = orChain(terms: 9_000) { "k\($0) == 1" }
    let syntax = try! PredicateSyntax(parsing: format)
    let evaluator = try! LineEvaluator(syntax: syntax, format: format, apns: false, variables: [:])
    let line = "{" + (0..<150_000).map { "\"f\($0)\": \($0)" }.joined(separator: ", ") + "}"
    let bytes = Array(line.utf8) + Array(repeating: 0x20, count: 64)
    return {
      bytes.withUnsafeBufferPointer { p in
        switch evaluator.decide(UnsafeBufferPointer(rebasing: p[..<line.utf8.count]), readable: p.count) {
        case .match: return "true"
        case .noMatch: return "false"
        case .error(let message, _): return "error: \(message)"
        }
      }
    }
  }
}
