import Foundation

extension SiftValue {
  /// Converts a Foundation value: `NSNull`/nil, `NSNumber` and Swift numbers and booleans,
  /// `String`/`NSString`, `Date`/`NSDate`, arrays, sets and string-keyed dictionaries
  /// (Swift's and Foundation's, nested), and any ``SiftFieldValue``. Returns nil when some
  /// value in it has no Sift equivalent.
  public init?(foundation value: Any?) {
    guard let value else {
      self = .null
      return
    }
    guard let converted = try? FoundationValue.read(value) else { return nil }
    self = converted
  }
}

extension SiftPredicate {
  /// Evaluates against Foundation values (`[String: Any]`, `NSDictionary`, arrays,
  /// `NSNumber`, `NSNull`, `Date`, strings), the way `NSPredicate.evaluate(with:)` is
  /// called. A dictionary is read lazily: only the keys the predicate touches are looked
  /// up and converted, so a value Sift cannot read (a `UUID`) fails the evaluation only
  /// when the predicate reads it, with a `typeMismatch` error that names the key and the
  /// type.
  public func evaluate(with object: Any?, variables: [String: SiftValue] = Dictionary()) throws(EvaluationError) -> Bool
  {
    try runFoundation(object, variables: variables)
  }

  /// Evaluates against Foundation values; **returns false when evaluation fails**.
  public func matches(_ object: Any?) -> Bool { (try? runFoundation(object, variables: nil)) ?? false }

  @inline(__always)
  private func runFoundation(_ object: Any?, variables: [String: SiftValue]?) throws(EvaluationError) -> Bool {
    guard let object else { return try run(.null, variables: variables) }
    switch ObjectIdentifier(type(of: object)) {
    case ObjectIdentifier([String: Any].self):
      return try withUnsafePointer(to: ExistentialPayload.load(object, as: [String: Any].self)) {
        (p) throws(EvaluationError) in
        try run(FoundationReader(dictionary: p), variables: variables)
      }
    case ObjectIdentifier(String.self):
      return try run(.string(ExistentialPayload.load(object, as: String.self)), variables: variables)
    default:
      if let d = object as? NSDictionary, let bridged = d as? [String: Any] {
        return try withUnsafePointer(to: bridged) { (p) throws(EvaluationError) in
          try run(FoundationReader(dictionary: p), variables: variables)
        }
      }
      let value: SiftValue
      do throws(FoundationValue.Unreadable) {
        value = try FoundationValue.read(object)
      } catch {
        throw error.error(at: nil)
      }
      return try run(value, variables: variables)
    }
  }
}
