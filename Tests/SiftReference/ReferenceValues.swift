import Foundation
import Sift

/// Value rules of the reference evaluator: equality, ordering, membership, key paths,
/// indexes and CAST. Arithmetic and functions are in `ReferenceArithmetic.swift`.
package enum Ref {}

// MARK: - Numbers

extension Ref {
  /// A number as the rules see it: booleans are the integers 0 and 1.
  package enum Number {
    case int(Int)
    case double(Double)

    var asDouble: Double {
      switch self {
      case .int(let i): Double(i)
      case .double(let d): d
      }
    }
  }

  package static func number(_ v: SiftValue) -> Number? {
    switch v {
    case .bool(let b): .int(b ? 1 : 0)
    case .int(let i): .int(i)
    case .double(let d): .double(d)
    default: nil
    }
  }

  package static func isNumber(_ v: SiftValue) -> Bool { number(v) != nil }

  /// Exact numeric order (an Int and a Double are compared without rounding): -1, 0, 1,
  /// or nil when a NaN is involved.
  package static func order(_ a: Number, _ b: Number) -> Int? {
    switch (a, b) {
    case (.int(let x), .int(let y)):
      return x < y ? -1 : (x == y ? 0 : 1)
    case (.double(let x), .double(let y)):
      if x.isNaN || y.isNaN { return nil }
      return x < y ? -1 : (x == y ? 0 : 1)
    case (.int(let x), .double(let y)):
      return orderIntDouble(x, y)
    case (.double(let x), .int(let y)):
      return orderIntDouble(y, x).map { -$0 }
    }
  }

  private static func orderIntDouble(_ i: Int, _ d: Double) -> Int? {
    if d.isNaN { return nil }
    if d >= 9_223_372_036_854_775_808.0 { return -1 }  // 2^63 > every Int
    if d < -9_223_372_036_854_775_808.0 { return 1 }
    let floor = d.rounded(.down)
    let f = Int(floor)
    if i < f { return -1 }
    if i > f { return 1 }
    return d > floor ? -1 : 0
  }
}

// MARK: - Equality and ordering

extension Ref {
  /// `==` of Semantics.md. Decision: options are passed down into the elements of arrays
  /// and the values of dictionaries (they still only act where both sides are strings);
  /// dictionary keys compare literally. A NaN is unequal to everything, itself included.
  package static func equal(_ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions) -> Bool {
    switch (a, b) {
    case (.null, .null):
      return true
    case (.string(let x), .string(let y)):
      return RefStrings.equal(x, y, options)
    case (.date(let x), .date(let y)):
      return x == y
    case (.array(let x), .array(let y)):
      guard x.count == y.count else { return false }
      for (p, q) in zip(x, y) where !equal(p, q, options) { return false }
      return true
    case (.dictionary(let x), .dictionary(let y)):
      guard x.count == y.count else { return false }
      for (key, value) in x {
        guard let other = lookup(y, key), equal(value, other, options) else { return false }
      }
      return true
    default:
      if let x = number(a), let y = number(b) { return order(x, y) == 0 }
      return false
    }
  }

  /// A dictionary's value for `key`, matching the key scalar by scalar (Swift's dictionary
  /// lookup alone would accept a canonically equivalent key).
  package static func lookup(_ d: [String: SiftValue], _ key: String) -> SiftValue? {
    guard let i = d.index(forKey: key), d[i].key.unicodeScalars.elementsEqual(key.unicodeScalars) else {
      return nil
    }
    return d[i].value
  }

  /// The order of two non-nil values: numbers, strings (folded by `options`) or dates.
  /// nil result: unordered (a NaN). Anything else is a type mismatch.
  package static func order(_ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions, range: SourceRange)
    throws(EvaluationError) -> Int?
  {
    switch (a, b) {
    case (.string(let x), .string(let y)):
      return RefStrings.order(x, y, options)
    case (.date(let x), .date(let y)):
      return x < y ? -1 : (x == y ? 0 : 1)
    default:
      if let x = number(a), let y = number(b) { return order(x, y) }
      throw EvaluationError(.typeMismatch, "cannot order a \(a.kindName) and a \(b.kindName)", at: range)
    }
  }

  /// `< <= > >=` with the nil rules.
  package static func ordered(
    _ a: SiftValue, _ op: ComparisonOperator, _ b: SiftValue, _ options: ComparisonOptions, range: SourceRange
  ) throws(EvaluationError) -> Bool {
    if a == .null, b == .null { return op == .lessOrEqual || op == .greaterOrEqual }
    if a == .null || b == .null { return false }
    guard let c = try order(a, b, options, range: range) else { return false }
    switch op {
    case .less: return c < 0
    case .lessOrEqual: return c <= 0
    case .greater: return c > 0
    default: return c >= 0
    }
  }

  /// `x IN container` (and `container CONTAINS x`).
  package static func membership(
    _ x: SiftValue, in container: SiftValue, _ options: ComparisonOptions, operatorName: String,
    range: SourceRange
  ) throws(EvaluationError) -> Bool {
    if x == .null || container == .null { return false }
    switch container {
    case .array(let elements):
      for e in elements where equal(e, x, options) { return true }
      return false
    case .dictionary(let d):
      for v in d.values where equal(v, x, options) { return true }
      return false
    case .string(let s):
      guard case .string(let needle) = x else {
        throw EvaluationError(
          .typeMismatch, "\(operatorName) on a string needs a string to look for, not a \(x.kindName)", at: range)
      }
      return RefStrings.contains(s, needle, options)
    default:
      throw EvaluationError(
        .typeMismatch, "\(operatorName) needs an array, dictionary or string, not a \(container.kindName)",
        at: range)
    }
  }
}

// MARK: - Key paths

extension Ref {
  package static let countOperator = "@count"
  package static let numericOperators: Set<String> = ["@sum", "@avg", "@min", "@max"]
  package static let objectUnions: Set<String> = ["@unionOfObjects", "@distinctUnionOfObjects"]
  package static let arrayUnions: Set<String> = ["@unionOfArrays", "@distinctUnionOfArrays", "@distinctUnionOfSets"]

  /// Reads `keys` from `base`, one key at a time. A collection operator consumes the rest of
  /// the path (the keys after it are applied to each element).
  package static func keyPath(_ base: SiftValue, _ keys: [String], range: SourceRange) throws(EvaluationError)
    -> SiftValue
  {
    var v = base
    var i = 0
    while i < keys.count {
      let key = keys[i]
      let rest = Array(keys[(i + 1)...])
      if key == countOperator {
        // "a key after it applies to nothing more": the rest of the path is ignored.
        switch v {
        case .null: return .null
        case .array(let a): return .int(a.count)
        case .dictionary(let d): return .int(d.count)
        default:
          throw EvaluationError(.typeMismatch, "@count needs an array or dictionary, not a \(v.kindName)", at: range)
        }
      }
      if numericOperators.contains(key) || objectUnions.contains(key) || arrayUnions.contains(key) {
        return try collectionOperator(key, v, rest, range: range)
      }
      v = try applyKey(v, key, range: range)
      i += 1
    }
    return v
  }

  /// One ordinary key. Decision: the key `self` is the value itself, whatever its kind
  /// (it is what `nums.@sum.self` relies on); other `@` keys that are not collection
  /// operators are ordinary keys (`@type` in a JSON object).
  package static func applyKey(_ v: SiftValue, _ key: String, range: SourceRange) throws(EvaluationError) -> SiftValue {
    if key == "self" { return v }
    switch v {
    case .null:
      return .null
    case .dictionary(let d):
      return lookup(d, key) ?? .null
    case .array(let elements):
      var out: [SiftValue] = []
      for e in elements { out.append(try applyKey(e, key, range: range)) }
      return .array(out)
    case .string(let s) where key == "length":
      return .int(s.utf16.count)
    default:
      throw EvaluationError(.typeMismatch, "a \(v.kindName) has no key '\(key)'", at: range)
    }
  }

  /// `@sum @avg @min @max @unionOfObjects @distinctUnionOfObjects @unionOfArrays
  /// @distinctUnionOfArrays @distinctUnionOfSets`.
  ///
  /// Decisions: a missing key after an operator that needs one is invalidArgument before
  /// anything else is looked at; a nil base gives nil; a base that is not an array
  /// (a dictionary included) is typeMismatch; nil values are skipped by every operator;
  /// `@avg` is a double; `@min`/`@max` return the first least/greatest element unchanged;
  /// the array unions take an optional key (applied to each element first), skip nil
  /// elements, need every other element to be an array and keep the inner elements as they
  /// are; the distinct forms keep first occurrences, by `==` without options.
  package static func collectionOperator(_ op: String, _ base: SiftValue, _ rest: [String], range: SourceRange)
    throws(EvaluationError) -> SiftValue
  {
    if rest.isEmpty && !arrayUnions.contains(op) {
      throw EvaluationError(.invalidArgument, "\(op) needs a key after it, as in \(op).self", at: range)
    }
    let elements: [SiftValue]
    switch base {
    case .null: return .null
    case .array(let a): elements = a
    default: throw EvaluationError(.typeMismatch, "\(op) needs an array, not a \(base.kindName)", at: range)
    }
    var values: [SiftValue] = []
    for e in elements {
      let v = rest.isEmpty ? e : try keyPath(e, rest, range: range)
      if v != .null { values.append(v) }
    }
    switch op {
    case "@sum":
      return try sum(values, range: range)
    case "@avg":
      return try average(values, range: range)
    case "@min", "@max":
      guard var best = values.first else { return .null }
      for v in values {
        switch v {
        case .string, .date: break
        default:
          guard isNumber(v) else {
            throw EvaluationError(.typeMismatch, "\(op) cannot order a \(v.kindName)", at: range)
          }
        }
      }
      for v in values.dropFirst() {
        guard let c = try order(v, best, [], range: range) else { continue }
        if op == "@min" ? c < 0 : c > 0 { best = v }
      }
      return best
    case "@unionOfObjects":
      return .array(values)
    case "@distinctUnionOfObjects":
      return .array(distinct(values))
    default:
      var flat: [SiftValue] = []
      for v in values {
        guard case .array(let inner) = v else {
          throw EvaluationError(.typeMismatch, "\(op) needs arrays of arrays, found a \(v.kindName)", at: range)
        }
        flat += inner
      }
      return .array(op == "@unionOfArrays" ? flat : distinct(flat))
    }
  }

  package static func distinct(_ values: [SiftValue]) -> [SiftValue] {
    var out: [SiftValue] = []
    for v in values where !out.contains(where: { equal($0, v, []) }) { out.append(v) }
    return out
  }
}

// MARK: - Index

extension Ref {
  /// `base[FIRST]`, `base[LAST]`, `base[SIZE]`, `base[i]`. Decision: an array index must be
  /// an int (a double or boolean is a type mismatch); `[FIRST]`/`[LAST]` on a dictionary is
  /// a type mismatch.
  package static func index(_ base: SiftValue, _ index: IndexSyntax, _ i: SiftValue?, range: SourceRange)
    throws(EvaluationError) -> SiftValue
  {
    if base == .null { return .null }
    switch (index, base) {
    case (.first, .array(let a)): return a.first ?? .null
    case (.last, .array(let a)): return a.last ?? .null
    case (.size, .array(let a)): return .int(a.count)
    case (.size, .dictionary(let d)): return .int(d.count)
    case (.expression, .array(let a)):
      guard case .int(let n) = i else {
        throw EvaluationError(
          .typeMismatch, "an array index must be an integer, not a \(i?.kindName ?? "?")", at: range)
      }
      guard n >= 0, n < a.count else {
        throw EvaluationError(.indexOutOfRange, "index \(n) is outside an array of \(a.count)", at: range)
      }
      return a[n]
    case (.expression, .dictionary(let d)):
      guard case .string(let key) = i else {
        throw EvaluationError(
          .typeMismatch, "a dictionary index must be a string, not a \(i?.kindName ?? "?")", at: range)
      }
      return lookup(d, key) ?? .null
    default:
      throw EvaluationError(.typeMismatch, "cannot index a \(base.kindName)", at: range)
    }
  }
}

// MARK: - CAST

extension Ref {
  /// `CAST(x, 'Type')`. Decisions: the type name is checked first (an unknown name is
  /// invalidArgument even for nil) and is case-sensitive; a numeric string is an optional
  /// sign and decimal digits (an int when it fits), or a decimal with fraction and/or
  /// exponent (a finite double), with no spaces; booleans count as numbers (NSNumber keeps
  /// them, NSString gives "1"/"0", NSDate reads 1/0 seconds); a double becomes NSString
  /// without a fraction when it is integral and below 1e16 in magnitude, else Swift's
  /// shortest description.
  package static func cast(_ v: SiftValue, to type: String, range: SourceRange) throws(EvaluationError) -> SiftValue {
    func invalid() -> EvaluationError {
      EvaluationError(.invalidArgument, "cannot cast a \(v.kindName) to \(type)", at: range)
    }
    switch type {
    case "NSNumber", "NSDecimalNumber":
      switch v {
      case .null, .int, .double, .bool: return v
      case .date(let s): return .double(s)
      case .string(let s):
        guard let n = parseNumber(s) else { throw invalid() }
        return n
      default: throw invalid()
      }
    case "NSString":
      switch v {
      case .null, .string: return v
      case .bool(let b): return .string(b ? "1" : "0")
      case .int(let i): return .string(String(i))
      case .double(let d): return .string(numberText(d))
      default: throw invalid()
      }
    case "NSDate":
      switch v {
      case .null, .date: return v
      default:
        guard let n = number(v) else { throw invalid() }
        return .date(secondsSinceReferenceDate: n.asDouble)
      }
    default:
      throw EvaluationError(.invalidArgument, "CAST to unknown type '\(type)'", at: range)
    }
  }

  package static func parseNumber(_ s: String) -> SiftValue? {
    let scalars = Array(s.unicodeScalars)
    var i = 0
    func digits() -> Int {
      let start = i
      while i < scalars.count, ("0"..."9").contains(scalars[i]) { i += 1 }
      return i - start
    }
    if i < scalars.count, scalars[i] == "+" || scalars[i] == "-" { i += 1 }
    let whole = digits()
    var fraction = 0
    var isInteger = true
    if i < scalars.count, scalars[i] == "." {
      i += 1
      isInteger = false
      fraction = digits()
    }
    guard whole + fraction > 0 else { return nil }
    if i < scalars.count, scalars[i] == "e" || scalars[i] == "E" {
      i += 1
      isInteger = false
      if i < scalars.count, scalars[i] == "+" || scalars[i] == "-" { i += 1 }
      guard digits() > 0 else { return nil }
    }
    guard i == scalars.count else { return nil }
    let text = s.hasPrefix("+") ? String(s.dropFirst()) : s
    if isInteger, let n = Int(text) { return .int(n) }
    guard let d = Double(text), d.isFinite else { return nil }
    return .double(d)
  }

  package static func numberText(_ d: Double) -> String {
    if d == d.rounded(), abs(d) < 1e16 { return String(Int(d)) }
    return "\(d)"
  }
}
