/// A predicate's *shape*: its syntax tree with the constants compared against record
/// values replaced by variables `$__c0`, `$__c1`, … in order of appearance. Predicates
/// that differ only in those constants (`account IN {…three ids…} AND priority >= k`
/// for a million subscriptions) have one shape, compiled once; each keeps only its
/// constants.
///
/// Which constants become variables: an operand of a comparison reached from the root
/// through AND, OR and NOT whose other operand is not a constant, except the pattern of
/// LIKE and MATCHES, which is compiled with the program (a variable pattern would be
/// compiled at every evaluation). Every other constant (inside arithmetic, functions,
/// SUBQUERY, a LIKE or MATCHES pattern) stays in the shape, so predicates that differ
/// there have different shapes.
///
/// The tree is constant-folded first, as the compiler folds it, so `{1, 2}` is already the
/// array constant and `-(3)` the number when the constants are taken.
enum ShapeExtraction {
  /// The reserved variable names, precomputed for the common counts.
  private static let names: [String] = (0..<32).map { "__c\($0)" }

  /// The name of constant `i`.
  static func name(_ i: Int) -> String { i < names.count ? names[i] : "__c\(i)" }

  /// The constant a shape variable stands for, or nil for any other variable.
  static func parameter(_ e: ExpressionSyntax) -> Int? {
    guard case .variable(let name) = e.kind, name.hasPrefix("__c") else { return nil }
    return Int(name.dropFirst(3))
  }

  /// `p` folded as the compiler folds it under `limits`.
  static func folded(_ p: PredicateSyntax, limits: EvaluationLimits) -> PredicateSyntax {
    ConstantFolder.mayFold(p) ? ConstantFolder(limits: limits).fold(p) : p
  }

  /// The shape of the folded tree `p`, appending the constants taken out to `constants`.
  static func shape(of p: PredicateSyntax, constants: inout [SiftValue]) -> PredicateSyntax {
    var p = p
    switch p.kind {
    case .constant, .customSelector:
      return p
    case .comparison(var c):
      let lhsConstant = c.lhs.isConstant
      let rhsConstant = c.rhs.isConstant
      guard lhsConstant != rhsConstant else { return p }
      if lhsConstant {
        c.lhs = parameter(c.lhs, &constants)
      } else if c.op != .like && c.op != .matches {
        c.rhs = parameter(c.rhs, &constants)
      } else {
        return p
      }
      p.kind = .comparison(c)
      return p
    case .not(let inner):
      p.kind = .not(shape(of: inner, constants: &constants))
      return p
    case .and(let operands):
      p.kind = .and(operands.map { shape(of: $0, constants: &constants) })
      return p
    case .or(let operands):
      p.kind = .or(operands.map { shape(of: $0, constants: &constants) })
      return p
    }
  }

  private static func parameter(_ e: ExpressionSyntax, _ constants: inout [SiftValue]) -> ExpressionSyntax {
    guard case .constant(let v) = e.kind else { return e }
    let variable = ExpressionSyntax(.variable(name(constants.count)), range: e.range)
    constants.append(v)
    return variable
  }

  /// The folded tree back: each shape variable replaced by its constant.
  static func substituting(_ constants: [SiftValue], in p: PredicateSyntax) -> PredicateSyntax {
    var p = p
    switch p.kind {
    case .constant, .customSelector:
      return p
    case .comparison(var c):
      if let i = parameter(c.lhs) { c.lhs = ExpressionSyntax(.constant(constants[i]), range: c.lhs.range) }
      if let i = parameter(c.rhs) { c.rhs = ExpressionSyntax(.constant(constants[i]), range: c.rhs.range) }
      p.kind = .comparison(c)
      return p
    case .not(let inner):
      p.kind = .not(substituting(constants, in: inner))
      return p
    case .and(let operands):
      p.kind = .and(operands.map { substituting(constants, in: $0) })
      return p
    case .or(let operands):
      p.kind = .or(operands.map { substituting(constants, in: $0) })
      return p
    }
  }

  /// Whether a compiled predicate can share a shape's code: compiled without a schema or
  /// a typed layout (its key paths are its own slots), and with a tree that can
  /// (``canShare(_:)-(PredicateSyntax)``).
  static func canShare(_ predicate: SiftPredicate) -> Bool {
    predicate.options.schema == nil && predicate.layout == nil && canShare(predicate.syntax)
  }

  /// Whether a tree can share a shape's code: it reads and binds no variables of its own
  /// (SUBQUERY, `$x`, `:=`) and calls no functions of the caller's (those live in its
  /// options, which shared code does not have).
  static func canShare(_ syntax: PredicateSyntax) -> Bool {
    !syntax.containsNode { child in
      switch child {
      case .predicate(let p):
        if case .customSelector = p.kind { return true }
      case .expression(let e):
        switch e.kind {
        case .customFunction, .variable, .assignment, .subquery: return true
        default: break
        }
      }
      return false
    }
  }

  /// The first key of every key path from the evaluated object, in the order first read:
  /// the slots a set's shared code reads (``PredicateIndex``).
  static func firstKeys(of syntax: PredicateSyntax) -> [String] {
    var keys: [String] = []
    func visit(_ child: SyntaxChild) {
      if case .expression(let e) = child, case .keyPath(nil, let path) = e.kind, let first = path.first,
        first != "self", !first.isCollectionOperator
      {
        keys.append(first)
      }
      child.forEachChild(visit)
    }
    visit(.predicate(syntax))
    return keys
  }
}
