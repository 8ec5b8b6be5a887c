/// The kind of value a Focus filter parameter holds, as the system stores it.
public enum FocusParameterKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// A Boolean.
  case bool
  /// A string.
  case string
  /// An integer.
  case int
  /// A floating-point number.
  case double
  /// An app entity, stored by its identifier.
  case entity
  /// An app enum, stored by its raw value.
  case enumCase
  /// A list of values of one kind (``FocusParameterDescription/elementKind``): several
  /// entities (`[MailboxEntity]`) or enum cases.
  case array
}

/// A parameter value as the system saves it for a Focus.
///
/// Entities and enum cases are stored by identifier and raw value, not by the app's own
/// type, so that saved configurations stay readable when the app is not running.
public enum FocusParameterValue: Sendable, Hashable {
  /// A Boolean value.
  case bool(Bool)
  /// A string value.
  case string(String)
  /// An integer value.
  case int(Int)
  /// A floating-point value.
  case double(Double)
  /// The identifier of an app entity.
  case entity(String)
  /// The raw value of an app enum case.
  case enumCase(String)
  /// A list of values (several entities or enum cases), in the order the user picked them.
  indirect case array([FocusParameterValue])

  /// The kind of this value, used to reject a saved value of the wrong type.
  public var kind: FocusParameterKind {
    switch self {
    case .bool: .bool
    case .string: .string
    case .int: .int
    case .double: .double
    case .entity: .entity
    case .enumCase: .enumCase
    case .array: .array
    }
  }
}

extension FocusParameterValue: Codable {
  private enum CodingKeys: String, CodingKey { case kind, value }

  /// Decodes `{"kind": …, "value": …}`; the explicit kind keeps `1` and `1.0`, or an
  /// entity identifier and a string, apart after a JSON round trip.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(FocusParameterKind.self, forKey: .kind) {
    case .bool: self = .bool(try container.decode(Bool.self, forKey: .value))
    case .string: self = .string(try container.decode(String.self, forKey: .value))
    case .int: self = .int(try container.decode(Int.self, forKey: .value))
    case .double: self = .double(try container.decode(Double.self, forKey: .value))
    case .entity: self = .entity(try container.decode(String.self, forKey: .value))
    case .enumCase: self = .enumCase(try container.decode(String.self, forKey: .value))
    case .array: self = .array(try container.decode([FocusParameterValue].self, forKey: .value))
    }
  }

  /// Encodes `{"kind": …, "value": …}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind, forKey: .kind)
    switch self {
    case .bool(let value): try container.encode(value, forKey: .value)
    case .string(let value), .entity(let value), .enumCase(let value): try container.encode(value, forKey: .value)
    case .int(let value): try container.encode(value, forKey: .value)
    case .double(let value): try container.encode(value, forKey: .value)
    case .array(let values): try container.encode(values, forKey: .value)
    }
  }
}
