import Foundation
import Sift

// MARK: - Arithmetic and bitwise

extension Ref {
  /// An exact integer result: an Int when it fits, else its double value (correctly rounded
  /// from the exact 128-bit result).
  package static func exact(_ r: Int128) -> SiftValue {
    if let i = Int(exactly: r) { return .int(i) }
    return .double(Double(r))
  }

  package static func numbers(_ a: SiftValue, _ b: SiftValue, _ name: String, range: SourceRange)
    throws(EvaluationError)
    -> (Number, Number)
  {
    guard let x = number(a), let y = number(b) else {
      throw EvaluationError(.typeMismatch, "\(name) needs numbers, not a \(a.kindName) and a \(b.kindName)", at: range)
    }
    return (x, y)
  }

  package static func isZero(_ n: Number) -> Bool {
    switch n {
    case .int(let i): i == 0
    case .double(let d): d == 0
    }
  }

  package static func binary(_ op: BinaryOperator, _ a: SiftValue, _ b: SiftValue, range: SourceRange)
    throws(EvaluationError) -> SiftValue
  {
    switch op {
    case .add, .subtract, .multiply:
      let (x, y) = try numbers(a, b, op.rawValue, range: range)
      if case .int(let i) = x, case .int(let j) = y {
        let p = Int128(i)
        let q = Int128(j)
        return exact(op == .add ? p + q : op == .subtract ? p - q : p * q)
      }
      let (p, q) = (x.asDouble, y.asDouble)
      return .double(op == .add ? p + q : op == .subtract ? p - q : p * q)
    case .divide:
      let (x, y) = try numbers(a, b, "/", range: range)
      if isZero(y) { throw EvaluationError(.divisionByZero, "division by zero", at: range) }
      if case .int(let i) = x, case .int(let j) = y {
        let (p, q) = (Int128(i), Int128(j))
        if p % q == 0 { return exact(p / q) }
      }
      return .double(x.asDouble / y.asDouble)
    case .power:
      let (x, y) = try numbers(a, b, "**", range: range)
      return .double(pow(x.asDouble, y.asDouble))
    case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .shiftLeft, .shiftRight:
      let x = try integer(a, op.rawValue, range: range)
      let y = try integer(b, op.rawValue, range: range)
      switch op {
      case .bitwiseAnd: return .int(x & y)
      case .bitwiseOr: return .int(x | y)
      case .bitwiseXor: return .int(x ^ y)
      // Decision: shifts are Swift's smart shifts (a negative count shifts the other way;
      // bits shifted out of a left shift are lost; 64 or more gives 0, or -1 for `>>` of a
      // negative number).
      case .shiftLeft: return .int(x << max(-128, min(128, y)))
      default: return .int(x >> max(-128, min(128, y)))
      }
    case .union, .intersect, .minus:
      preconditionFailure("set operations are ReferenceEvaluator.setOperation")
    }
  }

  /// `modulus:by:`: integers keep the dividend's sign; doubles use fmod.
  package static func modulus(_ a: SiftValue, _ b: SiftValue, range: SourceRange) throws(EvaluationError) -> SiftValue {
    let (x, y) = try numbers(a, b, "modulus:by:", range: range)
    if isZero(y) { throw EvaluationError(.divisionByZero, "modulus by zero", at: range) }
    if case .int(let i) = x, case .int(let j) = y {
      return .int(Int(Int128(i) % Int128(j)))
    }
    return .double(fmod(x.asDouble, y.asDouble))
  }

  /// An operand of a bitwise operator. Decision: booleans are 0 and 1; a double counts when
  /// it is integral and within Int's range.
  package static func integer(_ v: SiftValue, _ name: String, range: SourceRange) throws(EvaluationError) -> Int {
    switch number(v) {
    case .int(let i): return i
    case .double(let d):
      if let i = Int(exactly: d) { return i }
      throw EvaluationError(.typeMismatch, "\(name) needs an integer, not \(d)", at: range)
    case nil:
      throw EvaluationError(.typeMismatch, "\(name) needs an integer, not a \(v.kindName)", at: range)
    }
  }

  /// Unary minus keeps the kind. Decision: a boolean negates as the integer 0 or 1.
  package static func negate(_ v: SiftValue, range: SourceRange) throws(EvaluationError) -> SiftValue {
    switch number(v) {
    case .int(let i): return exact(-Int128(i))
    case .double(let d): return .double(-d)
    case nil: throw EvaluationError(.typeMismatch, "cannot negate a \(v.kindName)", at: range)
    }
  }
}

// MARK: - Functions

extension Ref {
  package static func call(_ f: BuiltinFunction, _ args: [SiftValue], range: SourceRange) throws(EvaluationError)
    -> SiftValue
  {
    func mismatch(_ what: String) -> EvaluationError {
      EvaluationError(.typeMismatch, "\(f.rawValue) needs \(what)", at: range)
    }
    func one() throws(EvaluationError) -> Number {
      guard let n = number(args[0]) else { throw mismatch("a number, not a \(args[0].kindName)") }
      return n
    }
    /// Decision: the statistics functions need an array; nil is a type mismatch too.
    func array() throws(EvaluationError) -> [SiftValue] {
      guard case .array(let a) = args[0] else { throw mismatch("an array, not a \(args[0].kindName)") }
      return a
    }
    func numeric() throws(EvaluationError) -> [SiftValue] {
      var out: [SiftValue] = []
      for v in try array() where v != .null {
        guard isNumber(v) else { throw mismatch("numbers, found a \(v.kindName)") }
        out.append(v)
      }
      return out
    }
    switch f {
    case .sum: return try sum(try numeric(), range: range)
    case .count: return .int(try array().count)
    case .average: return try average(try numeric(), range: range)
    case .min, .max:
      // Decision: the first least/greatest element, returned unchanged (an int stays an int).
      let values = try numeric()
      guard var best = values.first else { return .null }
      for v in values.dropFirst() {
        guard let c = order(number(v)!, number(best)!) else { continue }
        if f == .min ? c < 0 : c > 0 { best = v }
      }
      return best
    case .median:
      // Decision: a double; the mean of the two middle values for an even count.
      let sorted = try numeric().map { number($0)!.asDouble }.sorted()
      if sorted.isEmpty { return .null }
      let m = sorted.count / 2
      return .double(sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2)
    case .mode:
      // Decision: values are grouped by numeric equality (1 and 1.0 together); each group is
      // represented by its first element.
      var groups: [(value: SiftValue, count: Int)] = []
      for v in try numeric() {
        if let i = groups.firstIndex(where: { equal($0.value, v, []) }) {
          groups[i].count += 1
        } else {
          groups.append((v, 1))
        }
      }
      let top = groups.map(\.count).max() ?? 0
      return .array(groups.filter { $0.count == top }.map(\.value))
    case .stddev:
      let xs = try numeric().map { number($0)!.asDouble }
      if xs.isEmpty { return .null }
      let mean = xs.reduce(0, +) / Double(xs.count)
      return .double((xs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(xs.count)).squareRoot())
    case .add: return try binary(.add, args[0], args[1], range: range)
    case .subtract: return try binary(.subtract, args[0], args[1], range: range)
    case .multiply: return try binary(.multiply, args[0], args[1], range: range)
    case .divide: return try binary(.divide, args[0], args[1], range: range)
    case .modulus: return try modulus(args[0], args[1], range: range)
    case .raise: return try binary(.power, args[0], args[1], range: range)
    case .sqrt: return .double(try one().asDouble.squareRoot())
    case .log: return .double(log10(try one().asDouble))
    case .ln: return .double(Foundation.log(try one().asDouble))
    case .exp: return .double(Foundation.exp(try one().asDouble))
    case .floor, .ceiling, .trunc:
      // Integers (booleans included, as ints) are returned unchanged.
      switch try one() {
      case .int(let i): return .int(i)
      case .double(let d):
        let rule: FloatingPointRoundingRule = f == .floor ? .down : f == .ceiling ? .up : .towardZero
        return .double(d.rounded(rule))
      }
    case .abs:
      switch try one() {
      case .int(let i): return exact(i < 0 ? -Int128(i) : Int128(i))
      case .double(let d): return .double(Swift.abs(d))
      }
    case .uppercase, .lowercase:
      // Unicode default case mapping, no locale (`ß` uppercases to `SS`).
      switch args[0] {
      case .null: return .null
      case .string(let s): return .string(f == .uppercase ? s.uppercased() : s.lowercased())
      default: throw mismatch("a string, not a \(args[0].kindName)")
      }
    case .length:
      // Decision: nil gives nil, as for uppercase: and lowercase:.
      switch args[0] {
      case .null: return .null
      case .string(let s): return .int(s.utf16.count)
      default: throw mismatch("a string, not a \(args[0].kindName)")
      }
    case .noindex:
      return args[0]
    case .bitwiseAnd: return try binary(.bitwiseAnd, args[0], args[1], range: range)
    case .bitwiseOr: return try binary(.bitwiseOr, args[0], args[1], range: range)
    case .bitwiseXor: return try binary(.bitwiseXor, args[0], args[1], range: range)
    case .leftShift: return try binary(.shiftLeft, args[0], args[1], range: range)
    case .rightShift: return try binary(.shiftRight, args[0], args[1], range: range)
    case .onesComplement: return .int(~(try integer(args[0], f.rawValue, range: range)))
    case .random:
      return .double(Double.random(in: 0..<1))
    case .randomElement:
      return try array().randomElement() ?? .null
    case .randomInteger:
      let n = try integer(args[0], f.rawValue, range: range)
      guard n > 0 else { throw EvaluationError(.invalidArgument, "randomn: needs a positive bound", at: range) }
      return .int(Int.random(in: 0..<n))
    case .now:
      return .date(secondsSinceReferenceDate: Date().timeIntervalSinceReferenceDate)
    }
  }

  /// `sum:` and `@sum`. Decision: the left fold of `+` from the integer 0, in element order
  /// (so ints stay ints until a double appears or the running sum overflows).
  package static func sum(_ values: [SiftValue], range: SourceRange) throws(EvaluationError) -> SiftValue {
    var total: SiftValue = .int(0)
    for v in values { total = try binary(.add, total, v, range: range) }
    return total
  }

  /// `average:` and `@avg`: a double (the sum's value divided by the count); nil when empty.
  package static func average(_ values: [SiftValue], range: SourceRange) throws(EvaluationError) -> SiftValue {
    if values.isEmpty { return .null }
    guard let total = number(try sum(values, range: range)) else { return .null }
    return .double(total.asDouble / Double(values.count))
  }
}
