/// Folds constant subtrees before code generation, using the same semantics the VM runs.
/// A subtree whose evaluation fails is left alone, so its error is raised at evaluation
/// time with its source range. Non-deterministic functions are never folded.
final class ConstantFolder {
  /// The predicate's limits: folding does no more work than one evaluation may, so a
  /// constant over a limit is left for evaluation to report.
  let limits: EvaluationLimits
  /// The budget of the whole fold, shared by every subtree: a predicate that repeats a
  /// costly constant comparison (`%@ == %@` over large arguments, thousands of times)
  /// folds until it is spent, then leaves the rest to evaluation, which charges it again.
  private var steps: Int

  init(limits: EvaluationLimits) {
    self.limits = limits
    steps = limits.maxSteps
  }

  func fold(_ p: PredicateSyntax) -> PredicateSyntax {
    var p = p
    switch p.kind {
    case .constant: return p
    case .comparison(var c):
      // Most operands are plain keys and literals: leave those nodes as they are, so
      // compiling does not rebuild (and reallocate) the tree.
      let lhsFoldable = Self.mayFold(c.lhs)
      let rhsFoldable = Self.mayFold(c.rhs)
      if lhsFoldable || rhsFoldable {
        if lhsFoldable { c.lhs = fold(c.lhs) }
        if rhsFoldable { c.rhs = fold(c.rhs) }
        p.kind = .comparison(c)
      }
      if case .constant(let l) = c.lhs.kind, case .constant(let r) = c.rhs.kind {
        let result: Bool?
        if let q = c.quantifier {
          result = try? Semantics.quantified(q, l, c.op, r, c.options, regex: limits.regex, steps: &steps)
        } else {
          result = try? Semantics.compare(l, c.op, r, c.options, regex: limits.regex, steps: &steps)
        }
        if let result { p.kind = .constant(result) }
      }
      return p
    case .not(let inner):
      guard Self.mayFold(inner) else { return p }
      let folded = fold(inner)
      if case .constant(let b) = folded.kind { return PredicateSyntax(.constant(!b), range: p.range) }
      p.kind = .not(folded)
      return p
    case .and(let operands):
      guard operands.contains(where: Self.mayFold) else { return p }
      return Self.compound(operands.map(fold), isAnd: true, range: p.range)
    case .or(let operands):
      guard operands.contains(where: Self.mayFold) else { return p }
      return Self.compound(operands.map(fold), isAnd: false, range: p.range)
    case .customSelector(let lhs, let selector, let rhs):
      // The selector's function is the caller's: only its operands fold.
      p.kind = .customSelector(lhs: fold(lhs), selector: selector, rhs: fold(rhs))
      return p
    }
  }

  /// Whether folding could change `p` at all (a constant operand, a foldable expression).
  static func mayFold(_ p: PredicateSyntax) -> Bool {
    switch p.kind {
    case .constant: true
    case .comparison(let c):
      mayFold(c.lhs) || mayFold(c.rhs) || (c.lhs.isConstant && c.rhs.isConstant)
    case .not(let inner): mayFold(inner)
    case .and(let ps), .or(let ps): ps.contains(where: mayFold)
    case .customSelector(let lhs, _, let rhs): mayFold(lhs) || mayFold(rhs)
    }
  }

  /// Left to right with early exit: constants that cannot decide are dropped; a deciding
  /// constant drops everything after it (those operands would never run).
  private static func compound(_ operands: [PredicateSyntax], isAnd: Bool, range: SourceRange) -> PredicateSyntax {
    var kept: [PredicateSyntax] = []
    for operand in operands {
      if case .constant(let b) = operand.kind {
        if b == isAnd { continue }
        kept.append(operand)
        break
      }
      kept.append(operand)
    }
    if kept.isEmpty { return PredicateSyntax(.constant(isAnd), range: range) }
    if kept.count == 1 { return kept[0] }
    return PredicateSyntax(isAnd ? .and(kept) : .or(kept), range: range)
  }

  /// Whether folding could change `e`: false for leaves and plain key paths.
  static func mayFold(_ e: ExpressionSyntax) -> Bool {
    switch e.kind {
    case .constant, .evaluatedObject, .variable: false
    case .keyPath(let base, _): base.map(mayFold) ?? false
    default: true
    }
  }

  func fold(_ e: ExpressionSyntax) -> ExpressionSyntax {
    var e = e
    func constant(_ x: ExpressionSyntax) -> SiftValue? {
      if case .constant(let v) = x.kind { return v }
      return nil
    }
    func replace(_ compute: () throws(EvaluationError) -> SiftValue) -> ExpressionSyntax {
      do {
        return ExpressionSyntax(.constant(try compute()), range: e.range)
      } catch {
        return e
      }
    }
    switch e.kind {
    case .constant, .evaluatedObject, .variable, .assignment, .customFunction, .subquery, .ternary:
      // Assignments and variables depend on evaluation order; the others on the input.
      switch e.kind {
      case .assignment(let name, let value): e.kind = .assignment(variable: name, value: fold(value))
      case .ternary(let p, let a, let b):
        let condition = fold(p)
        if case .constant(let c) = condition.kind { return c ? fold(a) : fold(b) }
        e.kind = .ternary(condition, fold(a), fold(b))
      default: break
      }
      return e
    case .keyPath(let base, let keys):
      guard let base else { return e }
      let folded = fold(base)
      e.kind = .keyPath(base: folded, keys: keys)
      if let v = constant(folded) {
        return replace { () throws(EvaluationError) in try Semantics.keyPath(keys[...], on: v, steps: &steps) }
      }
      return e
    case .aggregate(let elements):
      let folded = elements.map(fold)
      e.kind = .aggregate(folded)
      let values = folded.compactMap(constant)
      if values.count == folded.count { return ExpressionSyntax(.constant(.array(values)), range: e.range) }
      return e
    case .index(let base, let index):
      let b = fold(base)
      switch index {
      case .expression(let i):
        let fi = fold(i)
        e.kind = .index(b, .expression(fi))
        if let bv = constant(b), let iv = constant(fi) {
          return replace { () throws(EvaluationError) in try Semantics.index(bv, iv, steps: &steps) }
        }
      default:
        e.kind = .index(b, index)
        if let bv = constant(b) { return replace { () throws(EvaluationError) in try Semantics.index(bv, index) } }
      }
      return e
    case .negate(let x):
      let f = fold(x)
      e.kind = .negate(f)
      if let v = constant(f) { return replace { () throws(EvaluationError) in try Semantics.negate(v) } }
      return e
    case .bitwiseNot(let x):
      let f = fold(x)
      e.kind = .bitwiseNot(f)
      if let v = constant(f) { return replace { () throws(EvaluationError) in try Semantics.bitwiseNot(v) } }
      return e
    case .binary(let op, let a, let b):
      let fa = fold(a)
      let fb = fold(b)
      e.kind = .binary(op, fa, fb)
      if let x = constant(fa), let y = constant(fb) {
        return replace { () throws(EvaluationError) in try Semantics.binary(op, x, y, steps: &steps) }
      }
      return e
    case .function(let f, let args):
      let folded = args.map(fold)
      e.kind = .function(f, folded)
      let values = folded.compactMap(constant)
      if Functions.isDeterministic(f), values.count == folded.count {
        return replace { () throws(EvaluationError) in try Functions.call(f, values, steps: &steps) }
      }
      return e
    case .cast(let x, let type):
      let f = fold(x)
      e.kind = .cast(f, type: type)
      if let v = constant(f) {
        return replace { () throws(EvaluationError) in try Functions.cast(v, to: type, steps: &steps) }
      }
      return e
    }
  }
}

extension ExpressionSyntax {
  var isConstant: Bool {
    if case .constant = kind { return true }
    return false
  }
}
