import SiftTestSupport
import Testing

@testable import SiftSyntax

/// Property tests over thousands of generated trees (see `SyntaxTreeGenerator`): canonical
/// text parses back to the same tree, and printing is a fixed point, under both
/// `CompoundPrecedence` settings.
@Suite struct RoundTripTests {
  static let treesPerBatch = 500
  static let batches: [UInt64] = Array(0..<8)

  /// `parse(print(t)) == t` (structural equality ignores ranges) and
  /// `print(parse(print(t))) == print(t)`.
  @Test(arguments: [CompoundPrecedence.orBindsTighter, .andBindsTighter], batches)
  func printThenParseIsIdentity(_ precedence: CompoundPrecedence, _ batch: UInt64) {
    var generator = SyntaxTreeGenerator(seed: batch &* 0x1_0000 &+ (precedence == .orBindsTighter ? 1 : 2))
    var failures = 0
    for i in 0..<Self.treesPerBatch {
      let tree = generator.predicate(depth: 1 + i % 5)
      let text = tree.predicateFormat
      do {
        let parsed = try parse(text, [], precedence)
        if parsed != tree || parsed.predicateFormat != text {
          failures += 1
          if failures <= 3 {
            Issue.record(
              """
              round trip changed the tree (batch \(batch), tree \(i))
              text:     \(text)
              reprint:  \(parsed.predicateFormat)
              expected:
              \(tree.treeDump)
              parsed:
              \(parsed.treeDump)
              """)
          }
        }
      } catch {
        failures += 1
        if failures <= 3 {
          Issue.record("canonical text does not parse (batch \(batch), tree \(i)):\n\(error)")
        }
      }
    }
    #expect(failures == 0)
  }

  /// Every node of a parsed tree covers bytes inside its parent's range, and inside the text.
  @Test(arguments: batches)
  func rangesNest(_ batch: UInt64) throws {
    var generator = SyntaxTreeGenerator(seed: 0xFACE &+ batch)
    for i in 0..<Self.treesPerBatch / 2 {
      let text = generator.predicate(depth: 1 + i % 5).predicateFormat
      let parsed = try parse(text)
      var problems: [String] = []
      RangeChecker(limit: text.utf8.count) { problems.append($0) }.check(
        parsed, within: SourceRange(start: 0, end: text.utf8.count))
      #expect(problems.isEmpty, "\(text)\n\(problems.joined(separator: "\n"))\n\(parsed.treeDump)")
      if !problems.isEmpty { return }
    }
  }

  /// Printing a tree after a round trip with arbitrary whitespace changes nothing.
  @Test(arguments: batches)
  func whitespaceIsInsignificant(_ batch: UInt64) throws {
    var generator = SyntaxTreeGenerator(seed: 0xBEEF &+ batch)
    var rng = SplitMix64(seed: batch)
    for i in 0..<Self.treesPerBatch / 4 {
      let tree = generator.predicate(depth: 1 + i % 4)
      let text = tree.predicateFormat
      // Put extra whitespace between tokens (re-lexing the canonical text gives their ranges).
      let tokens = try lexAll(text)
      var spaced = ""
      var last = 0
      let bytes = Array(text.utf8)
      for token in tokens {
        spaced += String(decoding: bytes[last..<token.range.start], as: UTF8.self)
        spaced += rng.pick(["", " ", "\n", "\t ", "\r\n"])
        spaced += String(decoding: bytes[token.range.start..<token.range.end], as: UTF8.self)
        last = token.range.end
      }
      #expect(try parse(spaced) == tree, "\(spaced)")
    }
  }

  /// The length the canonical-text check counts is the length of the printed text.
  @Test(arguments: batches)
  func countedLengthIsThePrintedLength(_ batch: UInt64) {
    var generator = SyntaxTreeGenerator(seed: 0x1E_0000 &+ batch)
    for i in 0..<Self.treesPerBatch {
      let tree = generator.predicate(depth: 1 + i % 5)
      #expect(CanonicalPrinter.length(tree) == tree.predicateFormat.utf8.count, "\(tree)")
      if case .comparison(let c) = tree.kind {
        #expect(CanonicalPrinter.length(c.rhs) == c.rhs.description.utf8.count, "\(c.rhs)")
      }
    }
  }

  /// Every predicate the parser accepts, its arguments bound, prints to text that it
  /// accepts again under the same limits and that reads back to the same tree; and a
  /// refusal for the canonical length is exact: the text would have been longer than the
  /// limit. Random formats mixing `%@`, `%K`, `%d` and string literals holding control
  /// characters, quotes and backslashes, under limits from 8 to 200 bytes, so that both
  /// sides of the edge are reached often.
  @Test(arguments: batches)
  func acceptedPredicatesPrintToTextTheyAccept(_ batch: UInt64) throws {
    var rng = SplitMix64(seed: 0xCA_0000 &+ batch)
    var accepted = 0
    var refused = 0
    for _ in 0..<400 {
      var arguments: [SiftValue] = []
      let format = Self.randomFormat(&rng, &arguments)
      let limits = SyntaxLimits(maxInputLength: 8 + rng.below(193))
      guard format.utf8.count <= limits.maxInputLength else { continue }
      do {
        let tree = try parse(format, arguments, limits: limits)
        accepted += 1
        let text = tree.predicateFormat
        // A collection argument is not counted (beyond its `{}`): the limit grows by its
        // printed text.
        var within = limits
        for argument in arguments where argument.isCollection {
          var printed = ""
          CanonicalPrinter.writeConstant(argument, to: &printed)
          within.maxInputLength += printed.utf8.count - 2
        }
        #expect(text.utf8.count <= within.maxInputLength, "\(format) \(arguments) -> \(text)")
        let reparsed = try parse(text, limits: within)
        // An array argument reads back as a literal aggregate of its elements (the same
        // value): then the text is the fixed point.
        if !arguments.contains(where: \.isCollection) {
          #expect(reparsed == tree, "\(format) \(arguments) -> \(text)")
        } else {
          #expect(reparsed.predicateFormat == text, "\(format) \(arguments) -> \(text)")
        }
      } catch let error where error.error.message.hasPrefix("the canonical text") {
        refused += 1
        let unlimited = try parse(format, arguments, limits: SyntaxLimits(maxInputLength: .max))
        #expect(unlimited.predicateFormat.utf8.count > limits.maxInputLength, "\(format) \(arguments)")
      } catch {
        // Another error (an empty %K key, say): not this property's concern.
      }
    }
    #expect(accepted > 100)
    #expect(refused > 20)
  }

  static func randomFormat(_ rng: inout SplitMix64, _ arguments: inout [SiftValue]) -> String {
    let pieces = ["a", "\u{0}", "\u{1}", "\n", "\t", "\"", "\\", "é", ".", "-", "\u{7F}", "x y"]
    func string() -> String { (0..<rng.below(12)).map { _ in rng.pick(pieces) }.joined() }
    func literal() -> String {
      // Inside single quotes: escape the quote and the backslash, keep the rest raw.
      "'" + string().map { $0 == "\\" ? "\\\\" : $0 == "'" ? "\\'" : String($0) }.joined() + "'"
    }
    func operand() -> String {
      switch rng.below(6) {
      case 0:
        arguments.append(.string(string()))
        return "%@"
      case 1:
        arguments.append(.string(string()))
        return "%K"
      case 2:
        arguments.append(.int(Int(truncatingIfNeeded: rng.next())))
        return "%d"
      case 3:
        arguments.append(.array((0..<rng.below(4)).map { _ in .string(string()) }))
        return "%@"
      case 4: return literal()
      default: return rng.pick(["k", "#\"\u{1}\"", "1e15", "NO", "SELF"])
      }
    }
    let comparisons = (0..<1 + rng.below(3)).map { _ in
      operand() + rng.pick(["=", " == ", "!=", " BEGINSWITH ", " IN "]) + operand()
    }
    return comparisons.joined(separator: rng.pick([" AND ", "&&", "||"]))
  }

  /// The generator reaches every node kind, every operator and every function, so the
  /// properties above cover the whole grammar.
  @Test func generatorCoversTheGrammar() {
    var generator = SyntaxTreeGenerator(seed: 42)
    var seen = Set<String>()
    for i in 0..<5_000 {
      KindCollector { seen.insert($0) }.collect(generator.predicate(depth: 1 + i % 5))
    }
    var expected: Set<String> = [
      "constant-predicate", "comparison", "not", "and", "or", "quantifier-ANY", "quantifier-ALL", "options",
      "null", "bool", "int", "negative-int", "double", "negative-double", "string", "self", "variable",
      "keyPath",
      "keyPath-base", "aggregate", "index-FIRST", "index-LAST", "index-SIZE", "index-expression", "negate",
      "bitwiseNot", "customFunction", "subquery", "cast", "ternary", "assignment", "reserved-key",
      // Shapes where printing needs parentheses or care.
      "negative-constant-base", "assignment-operand", "same-level-right-operand", "compound-in-same-compound",
      "compound-under-not", "none", "key-self-after-dot",
    ]
    for op in ComparisonOperator.allCases { expected.insert("op-" + op.rawValue) }
    for op in BinaryOperator.allCases { expected.insert("binary-" + op.rawValue) }
    for f in BuiltinFunction.allCases { expected.insert("function-" + f.rawValue) }
    #expect(expected.subtracting(seen).isEmpty, "never generated: \(expected.subtracting(seen).sorted())")
  }
}

extension SiftValue {
  fileprivate var isCollection: Bool {
    switch self {
    case .array, .dictionary: true
    default: false
    }
  }
}

/// Walks a tree and reports nodes whose range is outside their parent's.
struct RangeChecker {
  let limit: Int
  let report: (String) -> Void

  func inside(_ r: SourceRange, _ parent: SourceRange, _ what: String) {
    if r.start < parent.start || r.end > parent.end || r.end > limit {
      report("\(what) \(r) is outside \(parent)")
    }
  }

  func check(_ p: PredicateSyntax, within parent: SourceRange) {
    inside(p.range, parent, "predicate")
    p.forEachChild { check($0, within: p.range) }
  }

  func check(_ e: ExpressionSyntax, within parent: SourceRange) {
    inside(e.range, parent, "expression \(e)")
    e.forEachChild { check($0, within: e.range) }
  }

  func check(_ child: SyntaxChild, within parent: SourceRange) {
    switch child {
    case .predicate(let p): check(p, within: parent)
    case .expression(let e): check(e, within: parent)
    }
  }
}

/// Names every construct in a tree, for the generator's coverage test.
struct KindCollector {
  let see: (String) -> Void

  func collect(_ p: PredicateSyntax) {
    switch p.kind {
    case .constant: see("constant-predicate")
    case .comparison(let c):
      see("comparison")
      see("op-" + c.op.rawValue)
      if let q = c.quantifier { see("quantifier-" + q.rawValue) }
      if !c.options.isEmpty { see("options") }
      collect(c.lhs)
      collect(c.rhs)
    case .not(let inner):
      see("not")
      switch inner.kind {
      case .and, .or: see("compound-under-not")
      case .comparison(let c) where c.quantifier == .any: see("none")
      default: break
      }
      collect(inner)
    case .and(let ps):
      see("and")
      if ps.contains(where: { if case .and = $0.kind { true } else { false } }) {
        see("compound-in-same-compound")
      }
      ps.forEach(collect)
    case .or(let ps):
      see("or")
      ps.forEach(collect)
    case .customSelector(let lhs, _, let rhs):
      see("custom-selector")
      collect(lhs)
      collect(rhs)
    }
  }

  static func isNegativeNumber(_ e: ExpressionSyntax) -> Bool {
    switch e.kind {
    case .constant(.int(let i)): i < 0
    case .constant(.double(let d)): d < 0
    default: false
    }
  }

  func collect(_ e: ExpressionSyntax) {
    switch e.kind {
    case .constant(let v):
      switch v {
      case .null: see("null")
      case .bool: see("bool")
      case .int(let i): see(i < 0 ? "negative-int" : "int")
      case .double(let d): see(d < 0 ? "negative-double" : "double")
      case .string: see("string")
      default: see("other-constant")
      }
    case .evaluatedObject: see("self")
    case .variable: see("variable")
    case .keyPath(let base, let keys):
      see(base == nil ? "keyPath" : "keyPath-base")
      if keys.contains(where: Keyword.needsEscape) { see("reserved-key") }
      if keys.dropFirst().contains("self") { see("key-self-after-dot") }
      if let base, Self.isNegativeNumber(base) { see("negative-constant-base") }
      if let base { collect(base) }
    case .aggregate(let xs):
      see("aggregate")
      xs.forEach(collect)
    case .index(let base, let index):
      switch index {
      case .first: see("index-FIRST")
      case .last: see("index-LAST")
      case .size: see("index-SIZE")
      case .expression(let i):
        see("index-expression")
        collect(i)
      }
      collect(base)
    case .negate(let x):
      see("negate")
      collect(x)
    case .bitwiseNot(let x):
      see("bitwiseNot")
      collect(x)
    case .binary(let op, let a, let b):
      see("binary-" + op.rawValue)
      if case .assignment = a.kind { see("assignment-operand") }
      if case .binary(let inner, _, _) = b.kind, inner.precedence == op.precedence {
        see("same-level-right-operand")
      }
      collect(a)
      collect(b)
    case .function(let f, let xs):
      see("function-" + f.rawValue)
      xs.forEach(collect)
    case .customFunction(let receiver, _, let xs):
      see("customFunction")
      collect(receiver)
      xs.forEach(collect)
    case .subquery(let collection, _, let body):
      see("subquery")
      collect(collection)
      collect(body)
    case .cast(let x, _):
      see("cast")
      collect(x)
    case .ternary(let p, let a, let b):
      see("ternary")
      collect(p)
      collect(a)
      collect(b)
    case .assignment(_, let x):
      see("assignment")
      collect(x)
    }
  }
}
