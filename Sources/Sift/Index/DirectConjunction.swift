/// A shape that is comparisons joined by AND (`account IN $__c0 AND priority >= $__c1`,
/// W2's four clauses), evaluated straight through Sift's value rules instead of the VM:
/// no variables dictionary, no registers, no dispatch.
///
/// Why the answer is the VM's: the VM's comparison instructions implement
/// ``Semantics/compare(_:_:_:_:regex:)`` (its specialised string and integer paths answer
/// the same); an AND is true exactly when every operand is true (an operand that is false
/// or fails makes the whole false or failed, whatever the order the VM runs them in, and
/// `matches` answers false for both); and the step budget cannot run out, because this
/// returns an answer only when a bound on every step the VM could charge for these
/// comparisons on these values (strings by their bytes, collections by their elements;
/// ``Cost``) is well inside the budget. A key path through an array, or values too large
/// for the bound, return nil: the shape's program decides.
///
/// Not accepted: LIKE and MATCHES (a pattern is compiled with the program), operands other
/// than constants and plain key paths, and OR or NOT over more than one comparison (the
/// VM's evaluation order decides which failure is reached first).
struct DirectConjunction: Sendable {
  enum Operand: Sendable {
    case constant(Int)
    case subject([String])
  }

  struct Clause: Sendable {
    var lhs: Operand
    var op: ComparisonOperator
    var options: ComparisonOptions
    var quantifier: Quantifier?
    var rhs: Operand
    /// Written under NOT.
    var negated: Bool
  }

  let clauses: [Clause]
  /// The answer of a shape folded to `TRUEPREDICATE` or `FALSEPREDICATE`.
  let constant: Bool?

  init?(_ shape: PredicateSyntax) {
    if case .constant(let b) = shape.kind {
      clauses = []
      constant = b
      return
    }
    var clauses: [Clause] = []
    guard Self.collect(shape, into: &clauses) else { return nil }
    self.clauses = clauses
    constant = nil
  }

  private static func collect(_ p: PredicateSyntax, into clauses: inout [Clause]) -> Bool {
    switch p.kind {
    case .and(let operands):
      return operands.allSatisfy { collect($0, into: &clauses) }
    case .constant(true):
      return true
    case .comparison(let c):
      guard let clause = clause(c, negated: false) else { return false }
      clauses.append(clause)
      return true
    case .not(let inner):
      guard case .comparison(let c) = inner.kind, let clause = clause(c, negated: true) else { return false }
      clauses.append(clause)
      return true
    default:
      return false
    }
  }

  private static func clause(_ c: ComparisonSyntax, negated: Bool) -> Clause? {
    guard c.op != .like, c.op != .matches, let lhs = operand(c.lhs), let rhs = operand(c.rhs) else { return nil }
    return Clause(lhs: lhs, op: c.op, options: c.options, quantifier: c.quantifier, rhs: rhs, negated: negated)
  }

  private static func operand(_ e: ExpressionSyntax) -> Operand? {
    if let k = ShapeExtraction.parameter(e) { return .constant(k) }
    return SubjectPath.keys(of: e).map(Operand.subject)
  }

  /// Whether the predicate matches `root`; nil when this cannot tell (see the type).
  func evaluate(_ root: SiftValue, _ constants: [SiftValue], limits: EvaluationLimits) -> Bool? {
    if let constant { return constant }
    var bound = 0
    let budget = limits.maxSteps / 2
    for clause in clauses {
      var mapsArray = false
      guard let lhs = value(clause.lhs, root, constants, &mapsArray),
        let rhs = value(clause.rhs, root, constants, &mapsArray)
      else {
        // Reading the key path throws in the VM too: the predicate fails.
        return false
      }
      if mapsArray { return nil }
      let holds: Bool
      do {
        if let q = clause.quantifier {
          holds = try Semantics.quantified(q, lhs, clause.op, rhs, clause.options, regex: limits.regex)
        } else {
          holds = try Semantics.compare(lhs, clause.op, rhs, clause.options, regex: limits.regex)
        }
      } catch {
        return false
      }
      // A false operand decides, whatever the budget: false or failed, never a match.
      if holds == clause.negated { return false }
      bound = Self.adding(bound, Self.stepBound(lhs, rhs))
      if bound > budget { return nil }
    }
    return true
  }

  @inline(__always)
  private func value(_ operand: Operand, _ root: SiftValue, _ constants: [SiftValue], _ mapsArray: inout Bool)
    -> SiftValue?
  {
    switch operand {
    case .constant(let k): return k < constants.count ? constants[k] : nil
    case .subject(let keys): return keys.isEmpty ? root : SubjectPath.value(keys, in: root, mapsArray: &mapsArray)
    }
  }

  /// More than the VM can charge for one comparison of `lhs` and `rhs`: each element
  /// visited and each 8 bytes of string work is at most a step (Cost.swift), and a
  /// comparison visits at most every pair of an element of one side with one of the other.
  static func stepBound(_ lhs: SiftValue, _ rhs: SiftValue) -> Int {
    let cap = 1 << 24
    let a = weight(lhs, cap: cap)
    let b = weight(rhs, cap: cap)
    return 8 &* a &* b &+ 8
  }

  private static func adding(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
  }

  /// 1 + a string's bytes / 8 + the weights of a collection's elements, at most `cap`
  /// (also for values nested too deep to walk here).
  static func weight(_ v: SiftValue, cap: Int, depth: Int = 0) -> Int {
    if depth > 32 { return cap }
    switch v {
    case .string(let s): return min(cap, 1 + s.utf8.count / 8)
    case .array(let elements):
      var w = 1
      for e in elements {
        w += weight(e, cap: cap, depth: depth + 1)
        if w >= cap { return cap }
      }
      return w
    case .dictionary(let d):
      var w = 1
      for e in d.values {
        w += weight(e, cap: cap, depth: depth + 1)
        if w >= cap { return cap }
      }
      return w
    default: return 1
    }
  }
}
