/// A type a ``FocusParameter`` can hold: Bool, String, Int, Double, Float, an ``AppEntity``,
/// an ``AppEnum``, an array of entities or enums (or of any of these), or an optional of one
/// of these.
///
/// The system saves values as ``FocusParameterValue`` and turns them back into the app's
/// types through this protocol when it builds a filter for a Focus.
public protocol FocusParameterRepresentable: Sendable {
  /// The kind of saved value this type reads.
  static var focusParameterKind: FocusParameterKind { get }
  /// Whether the parameter may be left unset (true for optionals).
  static var isOptionalFocusParameter: Bool { get }
  /// The value to save, or nil when there is nothing to save (an unset optional).
  var focusParameterValue: FocusParameterValue? { get }
  /// Builds a value from a saved one; async because entities resolve through their query.
  static func resolveFocusParameter(_ value: FocusParameterValue) async throws -> Self

  /// Builds the elements of a saved list; by default one ``resolveFocusParameter(_:)`` per
  /// element (entities override it to ask their query once for the whole list).
  static func resolveFocusParameters(_ values: [FocusParameterValue]) async throws -> [Self]

  /// For a list, the kind of each element (what Focus settings' picker offers); nil for
  /// every other type.
  static var focusParameterElementKind: FocusParameterKind? { get }
}

extension FocusParameterRepresentable {
  /// Most types are required parameters.
  public static var isOptionalFocusParameter: Bool { false }

  /// One element at a time.
  public static func resolveFocusParameters(_ values: [FocusParameterValue]) async throws -> [Self] {
    var result: [Self] = []
    result.reserveCapacity(values.count)
    for value in values { result.append(try await resolveFocusParameter(value)) }
    return result
  }

  /// Not a list.
  public static var focusParameterElementKind: FocusParameterKind? { nil }
}

extension Float: FocusParameterRepresentable {
  /// Saved as ``FocusParameterKind/double`` (every Float is exactly a Double).
  public static var focusParameterKind: FocusParameterKind { .double }
  /// The number, widened.
  public var focusParameterValue: FocusParameterValue? { .double(Double(self)) }
  /// Reads a saved number, rounded to the nearest Float.
  public static func resolveFocusParameter(_ value: FocusParameterValue) throws -> Float {
    guard case .double(let double) = value else { throw mismatch(value) }
    return Float(double)
  }
}

extension Array: FocusParameterRepresentable where Element: FocusParameterRepresentable {
  /// Saved as ``FocusParameterKind/array`` of the element's kind.
  public static var focusParameterKind: FocusParameterKind { .array }
  /// Each element's saved form, in order.
  public var focusParameterValue: FocusParameterValue? { .array(compactMap(\.focusParameterValue)) }
  /// Reads a saved list through ``FocusParameterRepresentable/resolveFocusParameters(_:)``.
  public static func resolveFocusParameter(_ value: FocusParameterValue) async throws -> [Element] {
    guard case .array(let values) = value else { throw mismatch(value) }
    return try await Element.resolveFocusParameters(values)
  }
  /// The element's kind.
  public static var focusParameterElementKind: FocusParameterKind? { Element.focusParameterKind }
}

extension Bool: FocusParameterRepresentable {
  /// Booleans are saved as ``FocusParameterKind/bool``.
  public static var focusParameterKind: FocusParameterKind { .bool }
  /// The Boolean itself.
  public var focusParameterValue: FocusParameterValue? { .bool(self) }
  /// Reads a saved Boolean.
  public static func resolveFocusParameter(_ value: FocusParameterValue) throws -> Bool {
    guard case .bool(let bool) = value else { throw mismatch(value) }
    return bool
  }
}

extension String: FocusParameterRepresentable {
  /// Strings are saved as ``FocusParameterKind/string``.
  public static var focusParameterKind: FocusParameterKind { .string }
  /// The string itself.
  public var focusParameterValue: FocusParameterValue? { .string(self) }
  /// Reads a saved string.
  public static func resolveFocusParameter(_ value: FocusParameterValue) throws -> String {
    guard case .string(let string) = value else { throw mismatch(value) }
    return string
  }
}

extension Int: FocusParameterRepresentable {
  /// Integers are saved as ``FocusParameterKind/int``.
  public static var focusParameterKind: FocusParameterKind { .int }
  /// The integer itself.
  public var focusParameterValue: FocusParameterValue? { .int(self) }
  /// Reads a saved integer.
  public static func resolveFocusParameter(_ value: FocusParameterValue) throws -> Int {
    guard case .int(let int) = value else { throw mismatch(value) }
    return int
  }
}

extension Double: FocusParameterRepresentable {
  /// Doubles are saved as ``FocusParameterKind/double``.
  public static var focusParameterKind: FocusParameterKind { .double }
  /// The number itself.
  public var focusParameterValue: FocusParameterValue? { .double(self) }
  /// Reads a saved number; an integer is not widened, so a stored value keeps one meaning.
  public static func resolveFocusParameter(_ value: FocusParameterValue) throws -> Double {
    guard case .double(let double) = value else { throw mismatch(value) }
    return double
  }
}

extension Optional: FocusParameterRepresentable where Wrapped: FocusParameterRepresentable {
  /// The wrapped type's kind.
  public static var focusParameterKind: FocusParameterKind { Wrapped.focusParameterKind }
  /// Optionals may stay unset.
  public static var isOptionalFocusParameter: Bool { true }
  /// The wrapped type's element kind.
  public static var focusParameterElementKind: FocusParameterKind? { Wrapped.focusParameterElementKind }
  /// The wrapped value's saved form, or nil when unset.
  public var focusParameterValue: FocusParameterValue? { self?.focusParameterValue }
  /// A saved value is always present, so it resolves to `.some`.
  public static func resolveFocusParameter(_ value: FocusParameterValue) async throws -> Wrapped? {
    try await Wrapped.resolveFocusParameter(value)
  }
}

extension FocusParameterRepresentable {
  /// The failure for a saved value of another kind.
  static func mismatch(_ value: FocusParameterValue) -> FocusParameterError.Reason {
    .typeMismatch(expected: focusParameterKind, actual: value.kind)
  }
}
