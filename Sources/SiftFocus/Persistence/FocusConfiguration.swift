/// Everything the system remembers across restarts: the Focus modes, which one is active,
/// and for each Focus and app the parameter values the user set for the app's filter.
public struct FocusConfiguration: Sendable, Hashable, Codable {
  /// The Focus modes, built-in and user-defined.
  public var modes: [FocusMode]
  /// The name of the active Focus, or nil when none is on.
  public var activeFocus: String?
  /// Saved parameter values: Focus name → app identifier → parameter key → value.
  public var savedParameters: [String: [String: [String: FocusParameterValue]]]

  /// A configuration; by default the built-in Focus modes, none active, nothing saved.
  public init(
    modes: [FocusMode] = FocusMode.builtIn, activeFocus: String? = nil,
    savedParameters: [String: [String: [String: FocusParameterValue]]] = [:]
  ) {
    self.modes = modes
    self.activeFocus = activeFocus
    self.savedParameters = savedParameters
  }

  /// The Focus with this name, if the configuration has one.
  public func mode(named name: String) -> FocusMode? { modes.first { $0.name == name } }
}
