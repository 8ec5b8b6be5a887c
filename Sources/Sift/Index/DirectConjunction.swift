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
final class DirectConjunction: Sendable {
  enum Operand: Sendable {
    case constant(Int)
    /// A key path, by its number among the index's paths (``PathValues``).
    case subject(Int)
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

  let clauses: ContiguousArray<Clause>
  /// The answer of a shape folded to `TRUEPREDICATE` or `FALSEPREDICATE`.
  let constant: Bool?

  /// The conjunction of `shape`, or nil when it is not one; `path` numbers a key path.
  init?(_ shape: PredicateSyntax, path: (_ keys: [String]) -> Int) {
    if case .constant(let b) = shape.kind {
      clauses = []
      constant = b
      return
    }
    // Checked first, so no path is numbered for a shape that is not a conjunction.
    guard Self.isConjunction(shape) else { return nil }
    var clauses = ContiguousArray<Clause>()
    Self.collect(shape, into: &clauses, path)
    self.clauses = clauses
    constant = nil
  }

  private static func isConjunction(_ p: PredicateSyntax) -> Bool {
    switch p.kind {
    case .and(let operands): return operands.allSatisfy(isConjunction)
    case .constant(true): return true
    case .comparison(let c): return isDirect(c)
    case .not(let inner):
      guard case .comparison(let c) = inner.kind else { return false }
      return isDirect(c)
    default: return false
    }
  }

  private static func isDirect(_ c: ComparisonSyntax) -> Bool {
    c.op != .like && c.op != .matches && isOperand(c.lhs) && isOperand(c.rhs)
  }

  private static func isOperand(_ e: ExpressionSyntax) -> Bool {
    ShapeExtraction.parameter(e) != nil || SubjectPath.keys(of: e) != nil
  }

  private static func collect(
    _ p: PredicateSyntax, into clauses: inout ContiguousArray<Clause>, _ path: ([String]) -> Int
  ) {
    switch p.kind {
    case .and(let operands):
      for operand in operands { collect(operand, into: &clauses, path) }
    case .comparison(let c):
      clauses.append(clause(c, negated: false, path))
    case .not(let inner):
      if case .comparison(let c) = inner.kind { clauses.append(clause(c, negated: true, path)) }
    default:
      break
    }
  }

  private static func clause(_ c: ComparisonSyntax, negated: Bool, _ path: ([String]) -> Int) -> Clause {
    Clause(
      lhs: operand(c.lhs, path), op: c.op, options: c.options, quantifier: c.quantifier, rhs: operand(c.rhs, path),
      negated: negated)
  }

  private static func operand(_ e: ExpressionSyntax, _ path: ([String]) -> Int) -> Operand {
    if let k = ShapeExtraction.parameter(e) { return .constant(k) }
    return .subject(path(SubjectPath.keys(of: e)!))
  }

  /// Whether the predicate matches the record of `values`; nil when this cannot tell
  /// (see the type).
  func evaluate(_ values: PathValues, _ constants: ConstantSlice, limits: EvaluationLimits) -> Bool? {
    if let constant { return constant }
    return clauses.withUnsafeBufferPointer { clauses in evaluate(clauses, values, constants, limits) }
  }

  @inline(__always)
  private func evaluate(
    _ clauses: UnsafeBufferPointer<Clause>, _ values: PathValues, _ constants: ConstantSlice,
    _ limits: EvaluationLimits
  ) -> Bool? {
    var bound = 0
    let budget = limits.maxSteps / 2
    for clause in clauses {
      var mapsArray = false
      guard let lhs = value(clause.lhs, values, constants, &mapsArray),
        let rhs = value(clause.rhs, values, constants, &mapsArray)
      else {
        // Reading the key path throws in the VM too: the predicate fails.
        return false
      }
      if mapsArray { return nil }
      let holds: Bool
      do {
        holds = try Self.compare(lhs, clause, rhs, limits.regex)
      } catch {
        return false
      }
      // A false operand decides, whatever the budget: false or failed, never a match.
      if holds == clause.negated { return false }
      bound = Self.adding(bound, Self.weight(lhs) &* Self.weight(rhs) &* 8 &+ 8)
      if bound > budget { return nil }
    }
    return true
  }

  @inline(__always)
  private func value(
    _ operand: Operand, _ values: PathValues, _ constants: ConstantSlice, _ mapsArray: inout Bool
  ) -> ConstantSlice.Constant? {
    switch operand {
    case .constant(let k):
      return k < constants.count ? constants.constant(k) : nil
    case .subject(let path):
      guard let (v, mapped) = values.value(path) else { return nil }
      if mapped { mapsArray = true }
      return .value(v)
    }
  }

  /// One comparison, as ``Semantics/compare(_:_:_:_:regex:)`` and
  /// ``Semantics/quantified(_:_:_:_:_:regex:)`` answer it. A flattened array on the right
  /// of `IN` or `BETWEEN` is read in place, by the same rules (membership: a null element
  /// is in nothing, otherwise `==` with some member; BETWEEN: two bounds, null is
  /// false, then `low <= x` and `x <= high`); anywhere else it is made an array first.
  private static func compare(
    _ lhs: ConstantSlice.Constant, _ clause: Clause, _ rhs: ConstantSlice.Constant, _ regex: RegexLimits
  ) throws(EvaluationError) -> Bool {
    switch (lhs, rhs) {
    case (.value(let l), .value(let r)):
      if let q = clause.quantifier {
        return try Semantics.quantified(q, l.pointee, clause.op, r.pointee, clause.options, regex: regex)
      }
      return try Semantics.compare(l.pointee, clause.op, r.pointee, clause.options, regex: regex)
    case (.value(let l), .elements(let elements)) where clause.op == .in || clause.op == .between:
      guard let q = clause.quantifier else { return try single(l.pointee, clause, elements, regex) }
      // Semantics.quantified, over the left collection.
      switch l.pointee {
      case .null: return q == .all
      case .array(let items):
        for item in items {
          let r = try single(item, clause, elements, regex)
          if q == .any, r { return true }
          if q == .all, !r { return false }
        }
        return q == .all
      default:
        throw Semantics.typeError("\(q.rawValue) needs a collection on the left, not a \(l.pointee.kindName)")
      }
    default:
      var l = SiftValue.null
      var r = SiftValue.null
      switch lhs {
      case .value(let v): l = v.pointee
      case .elements(let e): l = .array(Array(e))
      }
      switch rhs {
      case .value(let v): r = v.pointee
      case .elements(let e): r = .array(Array(e))
      }
      if let q = clause.quantifier {
        return try Semantics.quantified(q, l, clause.op, r, clause.options, regex: regex)
      }
      return try Semantics.compare(l, clause.op, r, clause.options, regex: regex)
    }
  }

  /// `x IN elements` or `x BETWEEN elements` for one value `x`.
  @inline(__always)
  private static func single(
    _ x: SiftValue, _ clause: Clause, _ elements: UnsafeBufferPointer<SiftValue>, _ regex: RegexLimits
  ) throws(EvaluationError) -> Bool {
    if clause.op == .in {
      if case .null = x { return false }
      for e in elements where Semantics.equal(x, e, clause.options) { return true }
      return false
    }
    guard elements.count == 2 else {
      throw EvaluationError(.invalidArgument, "BETWEEN needs an array of two bounds, as in {1, 5}")
    }
    if case .null = x { return false }
    guard try Semantics.compare(elements[0], .lessOrEqual, x, clause.options, regex: regex) else { return false }
    return try Semantics.compare(x, .lessOrEqual, elements[1], clause.options, regex: regex)
  }

  private static let weightCap = 1 << 24

  /// ``weight(_:cap:depth:)`` of a comparison operand.
  @inline(__always)
  private static func weight(_ operand: ConstantSlice.Constant) -> Int {
    switch operand {
    case .value(let v): return weight(v.pointee, cap: weightCap)
    case .elements(let elements):
      var w = 1
      for e in elements {
        w += weight(e, cap: weightCap)
        if w >= weightCap { return weightCap }
      }
      return w
    }
  }

  // More than the VM can charge for one comparison of `lhs` and `rhs`: 8 × weight(lhs) ×
  // weight(rhs) + 8. Each element visited and each 8 bytes of string work is at most a
  // step (Cost.swift), and a comparison visits at most every pair of an element of one
  // side with one of the other.

  private static func adding(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
  }

  /// 1 + a string's bytes / 8 + the weights of a collection's elements (and 1 + bytes / 2
  /// for each key of a dictionary), at most `cap` (also for values nested too deep to walk
  /// here).
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
      for (k, e) in d {
        // Comparing two dictionaries hashes each key (Cost.lookup: at most its bytes / 2).
        w += 1 + k.utf8.count / 2 + weight(e, cap: cap, depth: depth + 1)
        if w >= cap { return cap }
      }
      return w
    default: return 1
    }
  }
}
