import Foundation

/// The NSExpression function list (Documentation/Semantics.md, "Functions").
enum Functions {
  /// `f` applied to `args`, charging its work to `steps` before doing it (``Cost``): a
  /// step per element an aggregate walks (and a sort's comparisons for `median:`), the
  /// bytes of a string case-mapped or measured.
  static func call(_ f: BuiltinFunction, _ args: [SiftValue], steps: inout Int) throws(EvaluationError) -> SiftValue {
    if walksArray(f), case .array(let a) = args.first {
      try Semantics.charge(a.count, &steps)
      if f == .median { try Semantics.charge(Cost.sorting(a.count), &steps) }
    }
    switch f {
    case .mode: return try mode(array(f, args[0]), steps: &steps)
    case .uppercase, .lowercase:
      if case .string(let s) = args[0] { try Semantics.charge(Cost.caseMapping(s), &steps) }
    case .length:
      if case .string(let s) = args[0] { try Semantics.charge(Cost.string(s.utf8.count, folding: false), &steps) }
    default: break
    }
    return try call(f, args)
  }

  /// `f` applied to `args`, its cost charged by the caller.
  static func call(_ f: BuiltinFunction, _ args: [SiftValue]) throws(EvaluationError) -> SiftValue {
    // `min:`/`max:` order numbers only, which charges nothing.
    var unused = Int.max
    switch f {
    case .sum: return try sum(array(f, args[0]))
    case .count: return .int(try array(f, args[0]).count)
    case .min: return try extreme(array(f, args[0]), wantMax: false, numbersOnly: true, steps: &unused)
    case .max: return try extreme(array(f, args[0]), wantMax: true, numbersOnly: true, steps: &unused)
    case .average: return try average(array(f, args[0]))
    case .median: return try median(array(f, args[0]))
    case .mode:
      // Numbers only: grouped within the walk the caller charged.
      return try mode(array(f, args[0]), steps: &unused)
    case .stddev: return try stddev(array(f, args[0]))
    case .add: return try Semantics.binary(.add, args[0], args[1])
    case .subtract: return try Semantics.binary(.subtract, args[0], args[1])
    case .multiply: return try Semantics.binary(.multiply, args[0], args[1])
    case .divide: return try Semantics.divide(args[0], args[1])
    case .modulus: return try Semantics.modulus(args[0], args[1])
    case .raise: return try Semantics.binary(.power, args[0], args[1])
    case .sqrt: return .double(Foundation.sqrt(try number(f, args[0])))
    case .log: return .double(log10(try number(f, args[0])))
    case .ln: return .double(Foundation.log(try number(f, args[0])))
    case .exp: return .double(Foundation.exp(try number(f, args[0])))
    case .floor, .ceiling, .trunc:
      switch args[0] {
      case .int: return args[0]
      case .bool(let b): return .int(b ? 1 : 0)
      default:
        let x = try number(f, args[0])
        return .double(f == .floor ? x.rounded(.down) : f == .ceiling ? x.rounded(.up) : x.rounded(.towardZero))
      }
    case .abs:
      switch args[0] {
      case .int(let i): return i == .min ? .double(-Double(i)) : .int(Swift.abs(i))
      case .bool(let b): return .int(b ? 1 : 0)
      default: return .double(Swift.abs(try number(f, args[0])))
      }
    case .uppercase, .lowercase:
      switch args[0] {
      case .null: return .null
      case .string(let s): return .string(f == .uppercase ? s.uppercased() : s.lowercased())
      default: throw Semantics.typeError("\(f.rawValue) needs a string, not a \(args[0].kindName)")
      }
    case .length:
      switch args[0] {
      case .null: return .null
      case .string(let s): return .int(s.utf16.count)
      default: throw Semantics.typeError("length: needs a string, not a \(args[0].kindName)")
      }
    case .noindex: return args[0]
    case .random: return .double(Double.random(in: 0..<1))
    case .randomElement: return try array(f, args[0]).randomElement() ?? .null
    case .randomInteger:
      let n = try number(f, args[0])
      guard n >= 1, let bound = Int(exactly: n.rounded(.down)) else {
        throw EvaluationError(.invalidArgument, "randomn: needs a positive integer")
      }
      return .int(Int.random(in: 0..<bound))
    case .now: return .date(secondsSinceReferenceDate: Date().timeIntervalSinceReferenceDate)
    case .bitwiseAnd: return try Semantics.binary(.bitwiseAnd, args[0], args[1])
    case .bitwiseOr: return try Semantics.binary(.bitwiseOr, args[0], args[1])
    case .bitwiseXor: return try Semantics.binary(.bitwiseXor, args[0], args[1])
    case .leftShift: return try Semantics.binary(.shiftLeft, args[0], args[1])
    case .rightShift: return try Semantics.binary(.shiftRight, args[0], args[1])
    case .onesComplement: return try Semantics.bitwiseNot(args[0])
    }
  }

  /// Whether `f` walks the array it is given (so evaluation charges one step per element).
  static func walksArray(_ f: BuiltinFunction) -> Bool {
    switch f {
    case .sum, .min, .max, .average, .median, .mode, .stddev: true
    default: false
    }
  }

  /// Deterministic functions can be folded at compile time.
  static func isDeterministic(_ f: BuiltinFunction) -> Bool {
    switch f {
    case .random, .randomElement, .randomInteger, .now: false
    default: true
    }
  }

  static func array(_ f: BuiltinFunction, _ v: SiftValue) throws(EvaluationError) -> [SiftValue] {
    switch v {
    case .array(let a): return a
    default: throw Semantics.typeError("\(f.rawValue) needs an array, not a \(v.kindName)")
    }
  }

  static func number(_ f: BuiltinFunction, _ v: SiftValue) throws(EvaluationError) -> Double {
    guard let x = Semantics.number(v) else {
      throw Semantics.typeError("\(f.rawValue) needs a number, not a \(v.kindName)")
    }
    return x
  }

  /// Non-nil numbers of a collection; anything else is a type error.
  static func numbers(_ values: [SiftValue], _ what: String) throws(EvaluationError) -> [SiftValue] {
    var out: [SiftValue] = []
    for v in values {
      if case .null = v { continue }
      guard Semantics.isNumber(v) else { throw Semantics.typeError("\(what) needs numbers, not a \(v.kindName)") }
      out.append(v)
    }
    return out
  }

  static func sum(_ values: [SiftValue]) throws(EvaluationError) -> SiftValue {
    var total: SiftValue = .int(0)
    for v in try numbers(values, "sum") { total = try Semantics.binary(.add, total, v) }
    return total
  }

  static func average(_ values: [SiftValue]) throws(EvaluationError) -> SiftValue {
    let nums = try numbers(values, "average")
    guard !nums.isEmpty else { return .null }
    let total = nums.reduce(0.0) { $0 + Semantics.number($1)! }
    return .double(total / Double(nums.count))
  }

  /// The first least or greatest element, unchanged. `@min`/`@max` also order strings and
  /// dates (each comparison of two strings charged to `steps`); `min:`/`max:` take numbers
  /// only.
  static func extreme(_ values: [SiftValue], wantMax: Bool, numbersOnly: Bool, steps: inout Int)
    throws(EvaluationError) -> SiftValue
  {
    var best: SiftValue? = nil
    for v in values {
      switch v {
      case .null: continue
      case .int, .double, .bool: break
      case .string where !numbersOnly, .date where !numbersOnly: break
      default: throw Semantics.typeError("\(wantMax ? "max" : "min") needs numbers, not a \(v.kindName)")
      }
      guard let current = best else {
        best = v
        continue
      }
      guard let o = try Semantics.order(v, current, [], steps: &steps) else { continue }
      if wantMax ? o > 0 : o < 0 { best = v }
    }
    return best ?? .null
  }

  static func median(_ values: [SiftValue]) throws(EvaluationError) -> SiftValue {
    let nums = try numbers(values, "median").map { Semantics.number($0)! }.sorted()
    guard !nums.isEmpty else { return .null }
    let mid = nums.count / 2
    return .double(nums.count % 2 == 1 ? nums[mid] : (nums[mid - 1] + nums[mid]) / 2)
  }

  /// The most frequent numbers, in the order first seen. Grouped through a hash table
  /// (``EqualityTable``): linear, where a search of the groups was quadratic.
  static func mode(_ values: [SiftValue], steps: inout Int) throws(EvaluationError) -> SiftValue {
    let numbers = try numbers(values, "mode")
    var groups = EqualityTable(capacity: numbers.count)
    var counts: [Int] = []
    for v in numbers {
      let (inserted, index) = try groups.insert(v, steps: &steps)
      if inserted { counts.append(1) } else { counts[index] += 1 }
    }
    let top = counts.max() ?? 0
    return .array(groups.values.indices.filter { counts[$0] == top }.map { groups.values[$0] })
  }

  static func stddev(_ values: [SiftValue]) throws(EvaluationError) -> SiftValue {
    let nums = try numbers(values, "stddev").map { Semantics.number($0)! }
    guard !nums.isEmpty else { return .null }
    let mean = nums.reduce(0, +) / Double(nums.count)
    let variance = nums.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(nums.count)
    return .double(variance.squareRoot())
  }

  static let castTypes: Set<String> = ["NSNumber", "NSDecimalNumber", "NSString", "NSDate"]

  /// `CAST(value, 'Type')`: the type name is checked first; a value that cannot be
  /// converted is an `invalidArgument` error. A string read or built is charged its bytes.
  static func cast(_ v: SiftValue, to type: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    guard castTypes.contains(type) else {
      throw EvaluationError(
        .invalidArgument,
        "CAST to '\(EvaluationError.excerpt(type))' is not supported; use NSNumber, NSString or NSDate")
    }
    if case .null = v { return .null }
    if case .string(let s) = v { try Semantics.charge(Cost.string(s.utf8.count, folding: false), &steps) }
    func invalid() -> EvaluationError {
      EvaluationError(.invalidArgument, "CAST: cannot make \(type) from a \(v.kindName)")
    }
    switch type {
    case "NSNumber", "NSDecimalNumber":
      switch v {
      case .int, .double, .bool: return v
      case .date(let s): return .double(s)
      case .string(let s):
        guard let n = parseNumber(s) else {
          throw EvaluationError(.invalidArgument, "CAST: \"\(EvaluationError.excerpt(s))\" is not a number")
        }
        return n
      default: throw invalid()
      }
    case "NSString":
      switch v {
      case .string: return v
      case .int(let i): return .string(String(i))
      case .double(let d):
        if d == d.rounded(.towardZero), Swift.abs(d) < 1e16 { return .string(String(Int(d))) }
        return .string(d.description)
      case .bool(let b): return .string(b ? "1" : "0")
      default: throw invalid()
      }
    default:
      switch v {
      case .date: return v
      case .int, .double, .bool: return .date(secondsSinceReferenceDate: Semantics.number(v)!)
      default: throw invalid()
      }
    }
  }

  /// `[+-]digits[.digits][e[+-]digits]` (also `.5`), nothing else; an int when it fits.
  static func parseNumber(_ s: String) -> SiftValue? {
    let b = Array(s.utf8)
    var i = 0
    if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
    let digitsStart = i
    func isDigit(_ x: UInt8) -> Bool { x >= UInt8(ascii: "0") && x <= UInt8(ascii: "9") }
    while i < b.count, isDigit(b[i]) { i += 1 }
    var intDigits = i - digitsStart
    var isInteger = true
    if i < b.count, b[i] == UInt8(ascii: ".") {
      i += 1
      isInteger = false
      let f = i
      while i < b.count, isDigit(b[i]) { i += 1 }
      intDigits += i - f
    }
    guard intDigits > 0 else { return nil }
    if i < b.count, b[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      isInteger = false
      if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
      let e = i
      while i < b.count, isDigit(b[i]) { i += 1 }
      guard i > e else { return nil }
    }
    guard i == b.count else { return nil }
    let text = s.hasPrefix("+") ? String(s.dropFirst()) : s
    if isInteger, let n = Int(text) { return .int(n) }
    guard let d = Double(text), d.isFinite else { return nil }
    return .double(d)
  }
}
