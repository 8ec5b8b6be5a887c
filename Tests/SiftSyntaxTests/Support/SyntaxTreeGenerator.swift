import SiftTestSupport

@testable import SiftSyntax

/// Generates random syntax trees in the parser's canonical output space: trees that the
/// parser can produce from some text. Each place where a tree outside that space is
/// avoided is marked CONSTRAINT, with the reason.
struct SyntaxTreeGenerator {
  var rng: SplitMix64

  init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  /// Keys: plain identifiers, reserved words (printed with `#`), collection operators,
  /// `self` in any case, non-ASCII names, and names that look like numbers or functions.
  /// CONSTRAINT: keys are identifiers (or `@` + identifier). A `%K` argument may hold any
  /// string, but a key with a space or a leading digit has no spelling in predicate text.
  static let keys = [
    "a", "b", "name", "_x1", "e5", "x1", "E", "café", "日本", "@count", "@sum", "@avg",
    "@distinctUnionOfObjects",
    "self", "SELF", "Self", "like", "FIRST", "size", "any", "NONE", "not", "and", "function", "ternary",
    "Ternary",
    "subquery", "cast", "nil", "true", "yes", "no", "null", "truepredicate", "sum", "now", "random", "in",
    "uti",
    "fetch", "anykey", "apply", "minus", "union", "between", "contains", "ci", "@like",
  ]

  /// Variable names (SUBQUERY iterators and assignment targets too); reserved words are
  /// ordinary names after `$`.
  static let variables = ["x", "y", "v", "like", "SELF", "é", "_v1", "first"]

  static let stringPieces = [
    "", "a", "Adam", " ", "\"", "'", "\\", "\\n", "\n", "\t", "\r", "\u{0}", "\u{7}", "\u{1F}", "\u{7F}",
    "\u{80}",
    "é", "e\u{301}", "日本", "👍", "\u{FFFD}", "%@", "%K", "$x", "AND", "*?", "\\d+", "it's",
  ]

  static let doubles: [Double] = [
    0, -0.0, 0.1, 1.5, -2.5, 3, 1e16, 1e-7, .leastNonzeroMagnitude, 1e300, -1e300, .greatestFiniteMagnitude,
    123_456.789,
    9_223_372_036_854_775_808,
  ]

  // MARK: Predicates

  mutating func predicate(depth: Int) -> PredicateSyntax {
    guard depth > 0 else { return rng.chance(85) ? comparison(depth: 0) : constantPredicate() }
    switch rng.below(10) {
    case 0: return constantPredicate()
    case 1, 2: return PredicateSyntax(.not(predicate(depth: depth - 1)))
    case 3, 4: return PredicateSyntax(.and(operands(depth: depth - 1)))
    case 5, 6: return PredicateSyntax(.or(operands(depth: depth - 1)))
    default: return comparison(depth: depth - 1)
    }
  }

  /// CONSTRAINT: AND/OR have at least two operands; the parser never builds an empty or
  /// one-operand compound. Directly nested AND in AND (or OR in OR) is fine: the printer
  /// parenthesises any compound operand and the parser keeps a parenthesised compound as
  /// its own node.
  mutating func operands(depth: Int) -> [PredicateSyntax] {
    (0..<(2 + rng.below(3))).map { _ in predicate(depth: depth) }
  }

  mutating func constantPredicate() -> PredicateSyntax { PredicateSyntax(.constant(rng.chance(50))) }

  mutating func comparison(depth: Int) -> PredicateSyntax {
    let quantifier: Quantifier? = rng.chance(70) ? nil : rng.pick(Quantifier.allCases)
    var options: ComparisonOptions = []
    if rng.chance(30) { options = ComparisonOptions(rawValue: UInt8(1 + rng.below(15))) }
    let c = ComparisonSyntax(
      quantifier: quantifier, expression(depth: depth), rng.pick(ComparisonOperator.allCases),
      options: options,
      expression(depth: depth))
    return PredicateSyntax(.comparison(c))
  }

  // MARK: Expressions

  mutating func expression(depth: Int) -> ExpressionSyntax {
    guard depth > 0, rng.chance(75) else { return leaf() }
    let d = depth - 1
    switch rng.below(14) {
    case 0: return keyPathWithBase(depth: d)
    case 1: return ExpressionSyntax(.aggregate((0..<rng.below(4)).map { _ in expression(depth: d) }))
    case 2: return ExpressionSyntax(.index(expression(depth: d), index(depth: d)))
    case 3: return negate(depth: d)
    case 4: return ExpressionSyntax(.bitwiseNot(expression(depth: d)))
    case 5, 6, 7:
      return ExpressionSyntax(
        .binary(rng.pick(BinaryOperator.allCases), expression(depth: d), expression(depth: d)))
    case 8:
      // CONSTRAINT: a built-in function gets exactly its arity in arguments; another count
      // is a parse error.
      let f = rng.pick(BuiltinFunction.allCases)
      return ExpressionSyntax(.function(f, (0..<f.arity).map { _ in expression(depth: d) }))
    case 9:
      return ExpressionSyntax(
        .customFunction(
          receiver: expression(depth: d), name: string(),
          arguments: (0..<rng.below(3)).map { _ in expression(depth: d) }))
    case 10:
      return ExpressionSyntax(
        .subquery(
          collection: expression(depth: d), variable: rng.pick(Self.variables), predicate: predicate(depth: d)
        ))
    case 11:
      return ExpressionSyntax(.cast(expression(depth: d), type: rng.chance(50) ? "NSNumber" : string()))
    case 12:
      return ExpressionSyntax(.ternary(predicate(depth: d), expression(depth: d), expression(depth: d)))
    default:
      return ExpressionSyntax(.assignment(variable: rng.pick(Self.variables), value: expression(depth: d)))
    }
  }

  mutating func leaf() -> ExpressionSyntax {
    switch rng.below(6) {
    case 0: return ExpressionSyntax(.evaluatedObject)
    case 1: return ExpressionSyntax(.variable(rng.pick(Self.variables)))
    case 2, 3: return ExpressionSyntax(.keyPath(base: nil, keys: keys()))
    default: return ExpressionSyntax(.constant(constant()))
    }
  }

  mutating func keys() -> [String] { (0..<(1 + rng.below(3))).map { _ in rng.pick(Self.keys) } }

  /// CONSTRAINT: the base of a key path is never a key path or `SELF`: the parser extends
  /// `a.b` into one key-path node and reads `SELF.a` as `a`.
  mutating func keyPathWithBase(depth: Int) -> ExpressionSyntax {
    var base = expression(depth: depth)
    while true {
      switch base.kind {
      case .keyPath, .evaluatedObject: base = expression(depth: depth)
      default: return ExpressionSyntax(.keyPath(base: base, keys: keys()))
      }
    }
  }

  /// CONSTRAINT: `.negate` never wraps a number constant: the parser folds `-5` and `-(5)`
  /// into the constant -5 (a negative constant is generated directly instead).
  mutating func negate(depth: Int) -> ExpressionSyntax {
    var operand = expression(depth: depth)
    while Self.isNumberConstant(operand) { operand = expression(depth: depth) }
    return ExpressionSyntax(.negate(operand))
  }

  static func isNumberConstant(_ e: ExpressionSyntax) -> Bool {
    switch e.kind {
    case .constant(.int), .constant(.double): true
    default: false
    }
  }

  mutating func index(depth: Int) -> IndexSyntax {
    switch rng.below(5) {
    case 0: .first
    case 1: .last
    case 2: .size
    default: .expression(expression(depth: depth))
    }
  }

  /// CONSTRAINT: constants are null, booleans, integers, finite doubles and strings. NaN and
  /// the infinities print as
  /// `CAST("nan", "NSNumber")`, dates as `CAST(seconds, "NSDate")`, arrays as `{…}` and
  /// dictionaries in a reading-only form: those constants only come from `%@` arguments, and
  /// their text parses as a CAST or aggregate node, not a constant.
  mutating func constant() -> SiftValue {
    switch rng.below(9) {
    case 0: return .null
    case 1: return .bool(rng.chance(50))
    case 2, 3:
      switch rng.below(4) {
      case 0: return .int(rng.below(10))
      case 1: return .int(-rng.below(1000))
      case 2: return .int(rng.pick([Int.max, Int.min, Int.min + 1, 1 << 53, -(1 << 40)]))
      default: return .int(Int(truncatingIfNeeded: rng.next()) | 1)
      }
    case 4, 5:
      if rng.chance(50) { return .double(rng.pick(Self.doubles)) }
      var d = Double(bitPattern: rng.next())
      while !d.isFinite { d = Double(bitPattern: rng.next()) }
      return .double(d)
    default: return .string(string())
    }
  }

  mutating func string() -> String {
    (0..<rng.below(4)).map { _ in rng.pick(Self.stringPieces) }.joined()
  }
}
