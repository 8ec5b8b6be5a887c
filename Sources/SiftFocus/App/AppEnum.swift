/// A fixed set of choices the user can pick as a Focus filter parameter, modelled on App
/// Intents' `AppEnum`; saved by raw value.
public protocol AppEnum: CaseIterable, Hashable, RawRepresentable, FocusParameterRepresentable
where RawValue == String {
  /// The name of the enum type, shown above the picker ("Look").
  static var typeDisplayName: String { get }
  /// The name shown for this case.
  var displayName: String { get }
}

extension AppEnum {
  /// Enum cases are saved as ``FocusParameterKind/enumCase``.
  public static var focusParameterKind: FocusParameterKind { .enumCase }
  /// The case's raw value.
  public var focusParameterValue: FocusParameterValue? { .enumCase(rawValue) }

  /// Reads a saved raw value; a raw value the app no longer has is an error, not a default.
  public static func resolveFocusParameter(_ value: FocusParameterValue) throws -> Self {
    guard case .enumCase(let rawValue) = value else { throw mismatch(value) }
    guard let result = Self(rawValue: rawValue) else {
      throw FocusParameterError.Reason.unknownEnumCase(rawValue: rawValue)
    }
    return result
  }
}
