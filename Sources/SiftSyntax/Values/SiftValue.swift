/// A JSON-like value: what format arguments bind to, what constants in a predicate are,
/// and one of the input kinds a predicate evaluates against.
///
/// Equality and hashing are structural (`.int(1) != .double(1)`); the engine's
/// comparison operators implement NSPredicate's looser rules on top.
public enum SiftValue: Hashable, Sendable {
  /// `nil`, `NULL`, JSON `null`, `NSNull`.
  case null
  /// `TRUE`/`YES`, `FALSE`/`NO`, JSON booleans.
  case bool(Bool)
  /// An integer.
  case int(Int)
  /// A floating-point number.
  case double(Double)
  /// A string.
  case string(String)
  /// A point in time, in seconds since 2001-01-01 00:00:00 UTC (Foundation's reference date).
  case date(secondsSinceReferenceDate: Double)
  /// An ordered collection.
  case array([SiftValue])
  /// A dictionary with string keys (a JSON object).
  case dictionary([String: SiftValue])
}

extension SiftValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// `nil` is ``null``.
  public init(nilLiteral: ()) { self = .null }
  /// A boolean literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer literal.
  public init(integerLiteral value: Int) { self = .int(value) }
  /// A floating-point literal.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// A string literal.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array literal.
  public init(arrayLiteral elements: SiftValue...) { self = .array(elements) }
  /// A dictionary literal; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, SiftValue)...) {
    self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

extension SiftValue {
  /// A short name of the value's kind, used in error messages ("string", "number", …).
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .int, .double: "number"
    case .string: "string"
    case .date: "date"
    case .array: "array"
    case .dictionary: "dictionary"
    }
  }
}
