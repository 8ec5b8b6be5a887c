/// Why saved values could not be applied to a Focus filter.
public struct FocusParameterError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong with one parameter.
  public enum Reason: Error, Sendable, Hashable {
    /// The filter has no parameter with this key.
    case unknownParameter
    /// The saved value has another kind than the parameter.
    case typeMismatch(expected: FocusParameterKind, actual: FocusParameterKind)
    /// The entity's query returned no entity for the saved identifier.
    case entityNotFound(identifier: String)
    /// The app enum has no case with the saved raw value.
    case unknownEnumCase(rawValue: String)
    /// The entity's query threw; its error, rendered.
    case queryFailed(String)
  }

  /// The filter type's name.
  public var filter: String
  /// The parameter key (the property name).
  public var key: String
  /// What went wrong.
  public var reason: Reason

  /// Creates an error for one parameter of one filter.
  public init(filter: String, key: String, reason: Reason) {
    self.filter = filter
    self.key = key
    self.reason = reason
  }

  /// A one-line message naming the filter, the parameter and the cause.
  public var description: String {
    let cause =
      switch reason {
      case .unknownParameter: "no such parameter"
      case .typeMismatch(let expected, let actual): "expected a \(expected.rawValue) value, got \(actual.rawValue)"
      case .entityNotFound(let identifier): "no entity with identifier '\(identifier)'"
      case .unknownEnumCase(let rawValue): "no enum case with raw value '\(rawValue)'"
      case .queryFailed(let message): "entity query failed: \(message)"
      }
    return "\(filter).\(key): \(cause)"
  }
}
