import Foundation

extension Semantics {
  /// Binary arithmetic and bitwise operators (Documentation/Semantics.md, "Arithmetic"), and
  /// the set operators, which charge their hashing to `steps`.
  static func binary(_ op: BinaryOperator, _ a: SiftValue, _ b: SiftValue, steps: inout Int)
    throws(EvaluationError) -> SiftValue
  {
    switch op {
    case .add, .subtract, .multiply:
      if case .int(let x) = a, case .int(let y) = b {
        let (r, overflow): (Int, Bool) =
          switch op {
          case .add: x.addingReportingOverflow(y)
          case .subtract: x.subtractingReportingOverflow(y)
          default: x.multipliedReportingOverflow(by: y)
          }
        if !overflow { return .int(r) }
        // The correctly rounded value of the exact result.
        let (wx, wy) = (Int128(x), Int128(y))
        switch op {
        case .add: return .double(Double(wx + wy))
        case .subtract: return .double(Double(wx - wy))
        default: return .double(Double(wx * wy))
        }
      }
      let (x, y) = try numbers(op.rawValue, a, b)
      switch op {
      case .add: return .double(x + y)
      case .subtract: return .double(x - y)
      default: return .double(x * y)
      }
    case .divide:
      return try divide(a, b)
    case .power:
      let (x, y) = try numbers(op.rawValue, a, b)
      return .double(pow(x, y))
    case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .shiftLeft, .shiftRight:
      let (x, y) = try integers(op.rawValue, a, b)
      switch op {
      case .bitwiseAnd: return .int(x & y)
      case .bitwiseOr: return .int(x | y)
      case .bitwiseXor: return .int(x ^ y)
      // Swift's smart shifts: a negative count shifts the other way, overshifts saturate.
      case .shiftLeft: return .int(x << y)
      default: return .int(x >> y)
      }
    case .union, .intersect, .minus:
      return try setOperation(op, a, b, steps: &steps)
    }
  }

  /// ``binary(_:_:_:steps:)`` without a budget: for arithmetic, which charges nothing.
  static func binary(_ op: BinaryOperator, _ a: SiftValue, _ b: SiftValue) throws(EvaluationError) -> SiftValue {
    var unlimited = Int.max
    return try binary(op, a, b, steps: &unlimited)
  }

  /// `UNION`, `INTERSECT`, `MINUS` of two collections (nil is the empty one): the distinct
  /// elements, in the order of the left collection, then (for UNION) the right one. Every
  /// element is a step, and is grouped once (``EqualityTable``, which charges its probe and
  /// what is inside the element); with an empty left side, INTERSECT and MINUS are empty
  /// without looking at the right.
  static func setOperation(_ op: BinaryOperator, _ a: SiftValue, _ b: SiftValue, steps: inout Int)
    throws(EvaluationError) -> SiftValue
  {
    func elements(_ v: SiftValue) throws(EvaluationError) -> [SiftValue] {
      switch v {
      case .null: return []
      case .array(let xs): return xs
      default: throw typeError("\(op.rawValue) needs collections, not a \(v.kindName)")
      }
    }
    let left = try elements(a)
    let right = try elements(b)
    switch op {
    case .union:
      try charge(left.count + right.count, &steps)
      var seen = EqualityTable(capacity: left.count + right.count)
      for side in [left, right] {
        for x in side { try seen.insert(x, steps: &steps) }
      }
      return .array(seen.values)
    default:
      guard !left.isEmpty else { return .array([]) }
      try charge(left.count + right.count, &steps)
      var other = EqualityTable(capacity: right.count)
      for y in right { try other.insert(y, steps: &steps) }
      let keep = op == .intersect
      var seen = EqualityTable(capacity: left.count)
      for x in left where try (other.index(of: x, steps: &steps) != nil) == keep {
        try seen.insert(x, steps: &steps)
      }
      return .array(seen.values)
    }
  }

  static func divide(_ a: SiftValue, _ b: SiftValue) throws(EvaluationError) -> SiftValue {
    let (x, y) = try numbers("/", a, b)
    if y == 0 { throw EvaluationError(.divisionByZero, "division by zero") }
    if case .int(let i) = a, case .int(let j) = b, j != -1 || i != .min, i % j == 0 { return .int(i / j) }
    return .double(x / y)
  }

  static func modulus(_ a: SiftValue, _ b: SiftValue) throws(EvaluationError) -> SiftValue {
    let (x, y) = try numbers("modulus:by:", a, b)
    if y == 0 { throw EvaluationError(.divisionByZero, "modulus by zero") }
    if case .int(let i) = a, case .int(let j) = b {
      return .int(j == -1 ? 0 : i % j)
    }
    return .double(fmod(x, y))
  }

  static func negate(_ a: SiftValue) throws(EvaluationError) -> SiftValue {
    switch a {
    case .int(let i): return i == .min ? .double(-Double(i)) : .int(-i)
    case .double(let d): return .double(-d)
    case .bool(let b): return .int(b ? -1 : 0)
    default: throw typeError("cannot negate a \(a.kindName)")
    }
  }

  static func bitwiseNot(_ a: SiftValue) throws(EvaluationError) -> SiftValue {
    guard let i = integer(a) else { throw typeError("~ needs an integer, not a \(a.kindName)") }
    return .int(~i)
  }

  static func numbers(_ what: String, _ a: SiftValue, _ b: SiftValue) throws(EvaluationError) -> (Double, Double) {
    guard let x = number(a), let y = number(b) else {
      let bad = number(a) == nil ? a : b
      throw typeError("\(what) needs numbers, not a \(bad.kindName)")
    }
    return (x, y)
  }

  static func integers(_ what: String, _ a: SiftValue, _ b: SiftValue) throws(EvaluationError) -> (Int, Int) {
    guard let x = integer(a), let y = integer(b) else {
      let bad = integer(a) == nil ? a : b
      throw typeError("\(what) needs integers, not a \(bad.kindName)")
    }
    return (x, y)
  }
}
