import Foundation

extension SiftValue {
  /// Converts a Foundation value: `NSNull`/nil, `NSNumber` and Swift numbers and booleans,
  /// `String`/`NSString`, `Date`, arrays and `[String: Any]` dictionaries (nested).
  /// Returns nil for anything else.
  public init?(foundation value: Any?) {
    guard let value else {
      self = .null
      return
    }
    // A nil inside `Any` (an element of `[String: Any?]` seen as `[String: Any]`).
    if case Optional<Any>.none = value {
      self = .null
      return
    }
    // Swift's own types first: a cast of a Swift value to a class (`is NSNull`,
    // `as NSNumber`) boxes it on Linux, and `as [String: Any?]` rebuilds a `[String: Any]`.
    switch value {
    case let s as String: self = .string(s)
    case let b as Bool where type(of: value) == Bool.self: self = .bool(b)
    case let i as Int where type(of: value) == Int.self: self = .int(i)
    case let d as Double where type(of: value) == Double.self: self = .double(d)
    case let d as [String: Any]:
      var out: [String: SiftValue] = [:]
      out.reserveCapacity(d.count)
      for (k, e) in d {
        guard let v = SiftValue(foundation: e) else { return nil }
        out[k] = v
      }
      self = .dictionary(out)
    case let a as [Any]:
      var out: [SiftValue] = []
      out.reserveCapacity(a.count)
      for e in a {
        guard let v = SiftValue(foundation: e) else { return nil }
        out.append(v)
      }
      self = .array(out)
    case let v as SiftValue: self = v
    case is NSNull: self = .null
    case _ where type(of: value) is NSNumber.Type:
      let n = value as! NSNumber
      let type = String(cString: n.objCType)
      switch type {
      case "c", "B": self = .bool(n.boolValue)
      case "f", "d": self = .double(n.doubleValue)
      // intValue would wrap an unsigned value above Int.max to a negative number.
      case "Q" where n.uint64Value > UInt64(Int.max), "L" where n.uint64Value > UInt64(Int.max):
        self = .double(n.doubleValue)
      default: self = .int(n.intValue)
      }
    case let i as Int: self = .int(i)
    case let d as Double: self = .double(d)
    case let f as Float: self = .double(Double(f))
    case let date as Date: self = .date(secondsSinceReferenceDate: date.timeIntervalSinceReferenceDate)
    case let a as [Any?]:
      var out: [SiftValue] = []
      for e in a {
        guard let v = SiftValue(foundation: e) else { return nil }
        out.append(v)
      }
      self = .array(out)
    case let d as [String: Any?]:
      var out: [String: SiftValue] = [:]
      for (k, e) in d {
        guard let v = SiftValue(foundation: e) else { return nil }
        out[k] = v
      }
      self = .dictionary(out)
    default:
      return nil
    }
  }
}

extension SiftPredicate {
  /// Evaluates against Foundation values (`[String: Any]`, arrays, `NSNumber`, `NSNull`,
  /// `Date`, strings), the way `NSPredicate.evaluate(with:)` is called. A value that has
  /// no Sift equivalent is a `typeMismatch` error.
  public func evaluate(with object: Any?, variables: [String: SiftValue] = Dictionary()) throws(EvaluationError) -> Bool
  {
    guard let value = SiftValue(foundation: object) else {
      throw EvaluationError(.typeMismatch, "cannot evaluate against a value of type \(type(of: object))")
    }
    return try run(value, variables: variables)
  }
}
