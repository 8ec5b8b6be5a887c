/// The value rules of Documentation/Semantics.md, shared by the VM's generic instructions
/// and by constant folding. Errors are thrown without a source range; the VM adds the
/// range of the instruction that failed.
enum Semantics {
  static func typeError(_ message: String) -> EvaluationError {
    EvaluationError(.typeMismatch, message)
  }

  /// How many arrays and dictionaries deep the recursive value walks go (equality, a key
  /// path mapped over nested arrays, a collection operator on nested arrays), so a deeply
  /// nested value built in Swift cannot overflow the stack. The JSON reader's default
  /// `maxDepth`, so every value read with it is within reach.
  static let maxValueDepth = 512

  /// Takes `count` steps from the evaluation's budget (``EvaluationLimits/maxSteps``).
  @inline(__always)
  static func charge(_ count: Int, _ steps: inout Int) throws(EvaluationError) {
    // Compared before subtracting: a budget near Int.min must neither trap nor wrap.
    guard count <= steps else { throw stepBudgetExceeded() }
    steps -= count
  }

  @inline(never)
  static func stepBudgetExceeded() -> EvaluationError {
    EvaluationError(.limitExceeded, "evaluation exceeded its step budget (EvaluationLimits.maxSteps)")
  }

  @inline(never)
  static func tooDeep() -> EvaluationError {
    EvaluationError(.limitExceeded, "the value is nested more than \(maxValueDepth) arrays deep")
  }

  /// A number's value as a double, for bools, ints and doubles.
  @inline(__always)
  static func number(_ v: SiftValue) -> Double? {
    switch v {
    case .int(let i): Double(i)
    case .double(let d): d
    case .bool(let b): b ? 1 : 0
    default: nil
    }
  }

  /// Integer view used by exact comparisons and bitwise operators.
  @inline(__always)
  static func integer(_ v: SiftValue) -> Int? {
    switch v {
    case .int(let i): i
    case .bool(let b): b ? 1 : 0
    case .double(let d): Int(exactly: d)
    default: nil
    }
  }

  static func isNumber(_ v: SiftValue) -> Bool {
    switch v {
    case .int, .double, .bool: true
    default: false
    }
  }

  // MARK: - Equality

  /// `==`, never throws: different kinds are unequal.
  @inline(__always)
  static func equal(_ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions) -> Bool {
    equal(a, b, options, depth: 0)
  }

  private static func equal(_ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions, depth: Int) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.string(let x), .string(let y)): return StringSemantics.equal(x, y, options)
    case (.int(let x), .int(let y)): return x == y
    case (.date(let x), .date(let y)): return x == y
    case (.array(let x), .array(let y)):
      guard x.count == y.count else { return false }
      if depth == maxValueDepth { return equalWithoutRecursion(a, b, options) }
      for i in x.indices where !equal(x[i], y[i], options, depth: depth + 1) { return false }
      return true
    case (.dictionary(let x), .dictionary(let y)):
      guard x.count == y.count else { return false }
      if depth == maxValueDepth { return equalWithoutRecursion(a, b, options) }
      for (k, v) in x {
        guard let w = y.literalValue(forKey: k), equal(v, w, options, depth: depth + 1) else { return false }
      }
      return true
    default:
      if isNumber(a), isNumber(b) { return numericOrder(a, b) == 0 }
      return false
    }
  }

  /// `==` for values nested deeper than the stack should go: the same answer, with the
  /// pairs still to compare kept on the heap.
  @inline(never)
  private static func equalWithoutRecursion(_ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions) -> Bool {
    var pending = [(a, b)]
    while let (x, y) = pending.popLast() {
      switch (x, y) {
      case (.array(let p), .array(let q)):
        guard p.count == q.count else { return false }
        for i in p.indices { pending.append((p[i], q[i])) }
      case (.dictionary(let p), .dictionary(let q)):
        guard p.count == q.count else { return false }
        for (k, v) in p {
          guard let w = q.literalValue(forKey: k) else { return false }
          pending.append((v, w))
        }
      default:
        // Not two collections: no recursion.
        if !equal(x, y, options, depth: 0) { return false }
      }
    }
    return true
  }

  /// Exact order of two numbers (an int and a double compare without rounding the int);
  /// nil when either is NaN.
  static func numericOrder(_ a: SiftValue, _ b: SiftValue) -> Int? {
    switch (a, b) {
    case (.double(let x), .double(let y)):
      if x.isNaN || y.isNaN { return nil }
      return x < y ? -1 : (x > y ? 1 : 0)
    case (.double, _):
      return numericOrder(b, a).map { -$0 }
    default:
      let i = integer(a)!
      switch b {
      case .double(let d):
        if d.isNaN { return nil }
        if d >= 9_223_372_036_854_775_808.0 { return -1 }
        if d < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = Int(d.rounded(.down))
        if i != whole { return i < whole ? -1 : 1 }
        return Double(whole) == d ? 0 : -1
      default:
        let j = integer(b)!
        return i < j ? -1 : (i > j ? 1 : 0)
      }
    }
  }

  // MARK: - Ordering

  /// -1, 0 or 1; nil when the values are unordered (NaN), which makes every ordering false.
  static func order(_ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions) throws(EvaluationError) -> Int? {
    switch (a, b) {
    case (.string(let x), .string(let y)): return StringSemantics.compare(x, y, options)
    case (.date(let x), .date(let y)): return x < y ? -1 : (x > y ? 1 : 0)
    case (.int(let x), .int(let y)): return x < y ? -1 : (x > y ? 1 : 0)
    default:
      if isNumber(a), isNumber(b) { return numericOrder(a, b) }
      throw typeError("cannot order \(a.kindName) and \(b.kindName)")
    }
  }

  // MARK: - Comparison predicates

  /// Every comparison operator on two values, with the nil and type rules. `regex` bounds
  /// MATCHES with a pattern known only now.
  static func compare(
    _ lhs: SiftValue, _ op: ComparisonOperator, _ rhs: SiftValue, _ options: ComparisonOptions,
    regex: RegexLimits
  ) throws(EvaluationError) -> Bool {
    switch op {
    case .equal: return equal(lhs, rhs, options)
    case .notEqual: return !equal(lhs, rhs, options)
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      if case .null = lhs {
        if case .null = rhs { return op == .lessOrEqual || op == .greaterOrEqual }
        return false
      }
      if case .null = rhs { return false }
      guard let o = try order(lhs, rhs, options) else { return false }
      switch op {
      case .less: return o < 0
      case .lessOrEqual: return o <= 0
      case .greater: return o > 0
      default: return o >= 0
      }
    case .between:
      guard case .array(let bounds) = rhs, bounds.count == 2 else {
        throw EvaluationError(.invalidArgument, "BETWEEN needs an array of two bounds, as in {1, 5}")
      }
      // A nil left side is false; then lo <= x AND x <= hi, with AND's early stop and
      // the ordering nil rules (a nil bound gives false).
      if case .null = lhs { return false }
      guard try compare(bounds[0], .lessOrEqual, lhs, options, regex: regex) else { return false }
      return try compare(lhs, .lessOrEqual, bounds[1], options, regex: regex)
    case .in:
      return try membership(lhs, in: rhs, options)
    case .contains:
      if case .string = lhs {
        return try stringOperator(lhs, rhs, op: .contains, options, regex: regex)
      }
      return try membership(rhs, in: lhs, options)
    case .beginsWith, .endsWith, .like, .matches:
      return try stringOperator(lhs, rhs, op: op, options, regex: regex)
    }
  }

  /// The comparison of two integers for the operators that have one; nil for the others
  /// (they take the generic path). The VM's fast path for `key OP integer-constant`.
  @inline(__always)
  static func compareIntegers(_ x: Int, _ op: ComparisonOperator, _ y: Int) -> Bool? {
    switch op {
    case .equal: x == y
    case .notEqual: x != y
    case .less: x < y
    case .lessOrEqual: x <= y
    case .greater: x > y
    case .greaterOrEqual: x >= y
    default: nil
    }
  }

  /// `element IN container`.
  static func membership(_ element: SiftValue, in container: SiftValue, _ options: ComparisonOptions)
    throws(EvaluationError) -> Bool
  {
    if case .null = element { return false }
    switch container {
    case .null: return false
    case .array(let elements):
      for e in elements where equal(element, e, options) { return true }
      return false
    case .dictionary(let entries):
      for e in entries.values where equal(element, e, options) { return true }
      return false
    case .string(let haystack):
      switch element {
      case .string(let needle): return StringSemantics.contains(haystack, needle, options)
      default: throw typeError("IN a string needs a string on the left, not a \(element.kindName)")
      }
    default:
      throw typeError("IN needs a collection or a string on the right, not a \(container.kindName)")
    }
  }

  /// BEGINSWITH, ENDSWITH, substring CONTAINS, LIKE and MATCHES with a dynamic pattern.
  static func stringOperator(
    _ lhs: SiftValue, _ rhs: SiftValue, op: ComparisonOperator, _ options: ComparisonOptions, regex limits: RegexLimits
  ) throws(EvaluationError) -> Bool {
    if case .null = lhs { return false }
    if case .null = rhs { return false }
    guard case .string(let s) = lhs, case .string(let t) = rhs else {
      let bad = { if case .string = lhs { return rhs } else { return lhs } }()
      throw typeError("\(op.rawValue) needs strings, not a \(bad.kindName)")
    }
    switch op {
    case .beginsWith: return StringSemantics.hasPrefix(s, t, options)
    case .endsWith: return StringSemantics.hasSuffix(s, t, options)
    case .contains: return StringSemantics.contains(s, t, options)
    case .like: return LikePattern(t, options: options).matches(s)
    case .matches:
      do throws(RegexFailure) {
        let regex = try RegexPattern(t, caseInsensitive: options.contains(.caseInsensitive), limits: limits)
        return try regex.matches(s)
      } catch {
        throw EvaluationError(.regex, "MATCHES: \(error.message)")
      }
    default: return false
    }
  }

  /// ANY / ALL over the left collection.
  static func quantified(
    _ quantifier: Quantifier, _ lhs: SiftValue, _ op: ComparisonOperator, _ rhs: SiftValue,
    _ options: ComparisonOptions, regex: RegexLimits
  ) throws(EvaluationError) -> Bool {
    switch lhs {
    case .null: return quantifier == .all
    case .array(let elements):
      for e in elements {
        let r = try compare(e, op, rhs, options, regex: regex)
        if quantifier == .any, r { return true }
        if quantifier == .all, !r { return false }
      }
      return quantifier == .all
    default:
      throw typeError("\(quantifier.rawValue) needs a collection on the left, not a \(lhs.kindName)")
    }
  }
}
