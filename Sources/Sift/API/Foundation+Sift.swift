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
    switch value {
    case is NSNull: self = .null
    case let b as Bool where type(of: value) == Bool.self: self = .bool(b)
    case let n as NSNumber where type(of: value) is NSNumber.Type:
      let type = String(cString: n.objCType)
      switch type {
      case "c", "B": self = .bool(n.boolValue)
      case "f", "d": self = .double(n.doubleValue)
      default: self = .int(n.intValue)
      }
    case let i as Int: self = .int(i)
    case let d as Double: self = .double(d)
    case let f as Float: self = .double(Double(f))
    case let s as String: self = .string(s)
    case let date as Date: self = .date(secondsSinceReferenceDate: date.timeIntervalSinceReferenceDate)
    case let v as SiftValue: self = v
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
