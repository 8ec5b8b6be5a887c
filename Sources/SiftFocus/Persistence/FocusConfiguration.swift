/// Everything the system remembers across restarts: the Focus modes, which one is active,
/// for each Focus and app the parameter values the user set for the app's filter, and the
/// filters in force (so a restart decides exactly as before it, never with no filter).
public struct FocusConfiguration: Sendable, Hashable, Codable {
  /// The Focus modes, built-in and user-defined.
  public var modes: [FocusMode]
  /// The name of the active Focus, or nil when none is on.
  public var activeFocus: String?
  /// Saved parameter values: Focus name → app identifier → parameter key → value.
  public var savedParameters: [String: [String: [String: FocusParameterValue]]]
  /// The filter of each app under the active Focus, as the last activation built it: app
  /// identifier → filter. Empty when no Focus is active.
  public var inForce: [String: AppliedFilter]
  /// Set when the configuration was read from a file written before the filters in force
  /// were saved while a Focus was active: nobody knows them, so the system fails closed
  /// (every app's notifications muted with ``NotificationDecision/Reason/filterUnavailable(_:)``)
  /// until the next activation builds them. Encoded by leaving `inForce` out again, so a
  /// save keeps it.
  public internal(set) var filtersInForceUnknown = false

  /// A configuration; by default the built-in Focus modes, none active, nothing saved.
  public init(
    modes: [FocusMode] = FocusMode.builtIn, activeFocus: String? = nil,
    savedParameters: [String: [String: [String: FocusParameterValue]]] = [:],
    inForce: [String: AppliedFilter] = [:]
  ) {
    self.modes = modes
    self.activeFocus = activeFocus
    self.savedParameters = savedParameters
    self.inForce = inForce
  }

  private enum CodingKeys: String, CodingKey { case modes, activeFocus, savedParameters, inForce }

  /// Decodes a configuration. A file without `inForce` (written before it existed) whose
  /// Focus is active has unknown filters in force (``filtersInForceUnknown``): deciding
  /// with none would let everything through.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    modes = try c.decode([FocusMode].self, forKey: .modes)
    activeFocus = try c.decodeIfPresent(String.self, forKey: .activeFocus)
    savedParameters = try c.decode([String: [String: [String: FocusParameterValue]]].self, forKey: .savedParameters)
    if let known = try c.decodeIfPresent([String: AppliedFilter].self, forKey: .inForce) {
      inForce = known
    } else {
      inForce = [:]
      filtersInForceUnknown = activeFocus != nil
    }
  }

  /// Encodes the configuration (`inForce` left out while ``filtersInForceUnknown``).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(modes, forKey: .modes)
    try c.encodeIfPresent(activeFocus, forKey: .activeFocus)
    try c.encode(savedParameters, forKey: .savedParameters)
    if !filtersInForceUnknown { try c.encode(inForce, forKey: .inForce) }
  }

  /// The Focus with exactly this name (compared by bytes), if the configuration has one.
  public func mode(named name: String) -> FocusMode? { modes.first { $0.name.sameBytes(as: name) } }
}

/// One app's filter in force: the parameter values it was built from (what
/// ``FocusFilter/current`` rebuilds) and the notification filter the decisions use.
public struct AppliedFilter: Sendable, Hashable, Codable {
  /// The parameter values of the configuration in force; nil when nothing is saved for the
  /// app under the Focus (its `perform()` got the defaults and nothing is filtered).
  public var parameterValues: [String: FocusParameterValue]?
  /// What decides the app's notifications.
  public var notificationFilter: NotificationFilter

  /// Creates an applied filter.
  public init(parameterValues: [String: FocusParameterValue]?, notificationFilter: NotificationFilter) {
    self.parameterValues = parameterValues
    self.notificationFilter = notificationFilter
  }
}
