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

  /// `==`, never throws: different kinds are unequal. Uncharged: for values whose cost the
  /// caller has paid for (``EqualityKey``'s hash walks each value first) or bounded by the
  /// predicate's own text.
  @inline(__always)
  static func equal(_ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions) -> Bool {
    var unlimited = Int.max
    return (try? equal(a, b, options, steps: &unlimited)) ?? false
  }

  /// `==`, charging what it compares as it goes (``Cost``): each pair of collections of one
  /// size it reaches, at any depth, one step per element or entry before walking them (and
  /// a dictionary key's hashing); each pair of strings, their string work. Collections of
  /// different sizes cost nothing, and the walk stops at the first difference, so what
  /// it never reaches is never charged.
  static func equal(_ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions, steps: inout Int)
    throws(EvaluationError) -> Bool
  {
    try equal(a, b, options, depth: 0, steps: &steps)
  }

  private static func equal(
    _ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions, depth: Int, steps: inout Int
  ) throws(EvaluationError) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.string(let x), .string(let y)):
      try charge(Cost.comparison(x, y, options), &steps)
      return StringSemantics.equal(x, y, options)
    case (.int(let x), .int(let y)): return x == y
    case (.date(let x), .date(let y)): return x == y
    case (.array(let x), .array(let y)):
      guard x.count == y.count else { return false }
      if depth == maxValueDepth { return try equalWithoutRecursion(a, b, options, steps: &steps) }
      try charge(x.count, &steps)
      for i in x.indices where try !equal(x[i], y[i], options, depth: depth + 1, steps: &steps) { return false }
      return true
    case (.dictionary(let x), .dictionary(let y)):
      guard x.count == y.count else { return false }
      if depth == maxValueDepth { return try equalWithoutRecursion(a, b, options, steps: &steps) }
      try charge(x.count, &steps)
      for (k, v) in x {
        // Looking the key up hashes it.
        try charge(Cost.lookup(k), &steps)
        guard let w = y.literalValue(forKey: k), try equal(v, w, options, depth: depth + 1, steps: &steps) else {
          return false
        }
      }
      return true
    default:
      if isNumber(a), isNumber(b) { return numericOrder(a, b) == 0 }
      return false
    }
  }

  /// `==` for values nested deeper than the stack should go: the same answer and the same
  /// charges, with the pairs still to compare kept on the heap.
  @inline(never)
  private static func equalWithoutRecursion(
    _ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions, steps: inout Int
  ) throws(EvaluationError) -> Bool {
    var pending = [(a, b)]
    while let (x, y) = pending.popLast() {
      switch (x, y) {
      case (.array(let p), .array(let q)):
        guard p.count == q.count else { return false }
        try charge(p.count, &steps)
        for i in p.indices.reversed() { pending.append((p[i], q[i])) }
      case (.dictionary(let p), .dictionary(let q)):
        guard p.count == q.count else { return false }
        try charge(p.count, &steps)
        for (k, v) in p {
          try charge(Cost.lookup(k), &steps)
          guard let w = q.literalValue(forKey: k) else { return false }
          pending.append((v, w))
        }
      default:
        // Not two collections: no recursion.
        if try !equal(x, y, options, depth: 0, steps: &steps) { return false }
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

  /// Every comparison operator on two values, with the nil and type rules, charging its
  /// work to `steps` as it goes (``Cost``: string bytes, elements walked, patterns compiled
  /// and backtracking). `regex` bounds MATCHES with a pattern known only now.
  static func compare(
    _ lhs: SiftValue, _ op: ComparisonOperator, _ rhs: SiftValue, _ options: ComparisonOptions,
    regex: RegexLimits, steps: inout Int
  ) throws(EvaluationError) -> Bool {
    switch op {
    case .equal: return try equal(lhs, rhs, options, steps: &steps)
    case .notEqual: return try !equal(lhs, rhs, options, steps: &steps)
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      if case .null = lhs {
        if case .null = rhs { return op == .lessOrEqual || op == .greaterOrEqual }
        return false
      }
      if case .null = rhs { return false }
      guard let o = try order(lhs, rhs, options, steps: &steps) else { return false }
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
      guard try compare(bounds[0], .lessOrEqual, lhs, options, regex: regex, steps: &steps) else { return false }
      return try compare(lhs, .lessOrEqual, bounds[1], options, regex: regex, steps: &steps)
    case .in:
      return try membership(lhs, in: rhs, options, steps: &steps)
    case .contains:
      if case .string = lhs {
        return try stringOperator(lhs, rhs, op: .contains, options, regex: regex, steps: &steps)
      }
      return try membership(rhs, in: lhs, options, steps: &steps)
    case .beginsWith, .endsWith, .like, .matches:
      return try stringOperator(lhs, rhs, op: op, options, regex: regex, steps: &steps)
    }
  }

  /// ``compare(_:_:_:_:regex:steps:)`` without a budget, for values the caller has bounded
  /// (constant folding under its own budget passes one instead).
  static func compare(
    _ lhs: SiftValue, _ op: ComparisonOperator, _ rhs: SiftValue, _ options: ComparisonOptions,
    regex: RegexLimits
  ) throws(EvaluationError) -> Bool {
    var unlimited = Int.max
    return try compare(lhs, op, rhs, options, regex: regex, steps: &unlimited)
  }

  /// ``order(_:_:_:)`` after charging the string work of comparing two strings.
  static func order(_ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions, steps: inout Int)
    throws(EvaluationError) -> Int?
  {
    if case .string(let x) = a, case .string(let y) = b { try charge(Cost.comparison(x, y, options), &steps) }
    return try order(a, b, options)
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

  /// `element IN container`: a step per member, charged before the walk, then what
  /// comparing the element with each member costs (``equal(_:_:_:steps:)``); a substring
  /// search for two strings.
  static func membership(
    _ element: SiftValue, in container: SiftValue, _ options: ComparisonOptions, steps: inout Int
  ) throws(EvaluationError) -> Bool {
    if case .null = element { return false }
    switch container {
    case .null: return false
    case .array(let elements):
      try charge(elements.count, &steps)
      for e in elements where try equal(element, e, options, steps: &steps) { return true }
      return false
    case .dictionary(let entries):
      try charge(entries.count, &steps)
      for e in entries.values where try equal(element, e, options, steps: &steps) { return true }
      return false
    case .string(let haystack):
      switch element {
      case .string(let needle):
        try charge(Cost.comparison(haystack, needle, options), &steps)
        return StringSemantics.contains(haystack, needle, options)
      default: throw typeError("IN a string needs a string on the left, not a \(element.kindName)")
      }
    default:
      throw typeError("IN needs a collection or a string on the right, not a \(container.kindName)")
    }
  }

  /// BEGINSWITH, ENDSWITH, substring CONTAINS, LIKE and MATCHES with a dynamic pattern,
  /// each charged before it runs: the strings' bytes; for LIKE the pattern compiled and
  /// its worst-case match; for MATCHES the pattern compiled, the subject, and
  /// backtracking tier by tier as it runs.
  static func stringOperator(
    _ lhs: SiftValue, _ rhs: SiftValue, op: ComparisonOperator, _ options: ComparisonOptions,
    regex limits: RegexLimits, steps: inout Int
  ) throws(EvaluationError) -> Bool {
    if case .null = lhs { return false }
    if case .null = rhs { return false }
    guard case .string(let s) = lhs, case .string(let t) = rhs else {
      let bad = { if case .string = lhs { return rhs } else { return lhs } }()
      throw typeError("\(op.rawValue) needs strings, not a \(bad.kindName)")
    }
    switch op {
    case .beginsWith, .endsWith, .contains:
      try charge(Cost.comparison(s, t, options), &steps)
      switch op {
      case .beginsWith: return StringSemantics.hasPrefix(s, t, options)
      case .endsWith: return StringSemantics.hasSuffix(s, t, options)
      default: return StringSemantics.contains(s, t, options)
      }
    case .like:
      try charge(Cost.string(t.utf8.count, folding: true), &steps)
      try charge(Cost.like(s.utf8.count, patternBytes: t.utf8.count), &steps)
      return LikePattern(t, options: options).matches(s)
    case .matches:
      try charge(Cost.string(t.utf8.count, folding: true), &steps)
      try charge(Cost.string(s.utf8.count, folding: false), &steps)
      do throws(RegexFailure) {
        let regex = try RegexPattern(t, caseInsensitive: options.contains(.caseInsensitive), limits: limits)
        return try regex.matches(s, stepsLeft: &steps)
      } catch {
        if error.exhaustedBudget { throw stepBudgetExceeded() }
        throw EvaluationError(.regex, "MATCHES: \(error.message)")
      }
    case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .in:
      return false
    }
  }

  /// ANY / ALL over the left collection: a step per element, charged before the walk,
  /// then each comparison's own work.
  static func quantified(
    _ quantifier: Quantifier, _ lhs: SiftValue, _ op: ComparisonOperator, _ rhs: SiftValue,
    _ options: ComparisonOptions, regex: RegexLimits, steps: inout Int
  ) throws(EvaluationError) -> Bool {
    switch lhs {
    case .null: return quantifier == .all
    case .array(let elements):
      try charge(elements.count, &steps)
      for e in elements {
        let r = try compare(e, op, rhs, options, regex: regex, steps: &steps)
        if quantifier == .any, r { return true }
        if quantifier == .all, !r { return false }
      }
      return quantifier == .all
    default:
      throw typeError("\(quantifier.rawValue) needs a collection on the left, not a \(lhs.kindName)")
    }
  }

  /// ``quantified(_:_:_:_:_:regex:steps:)`` without a budget (see
  /// ``compare(_:_:_:_:regex:)``).
  static func quantified(
    _ quantifier: Quantifier, _ lhs: SiftValue, _ op: ComparisonOperator, _ rhs: SiftValue,
    _ options: ComparisonOptions, regex: RegexLimits
  ) throws(EvaluationError) -> Bool {
    var unlimited = Int.max
    return try quantified(quantifier, lhs, op, rhs, options, regex: regex, steps: &unlimited)
  }
}
