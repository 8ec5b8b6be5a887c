/// One notification as the system handled it: kept whatever the decision, in arrival order,
/// so a muted notification is silent but never lost.
public struct DeliveryRecord: Sendable, Hashable, Codable {
  /// Arrival order within the system, from 1.
  public var sequence: Int
  /// The app the notification is for.
  public var app: String
  /// The notification.
  public var content: NotificationContent
  /// The Focus active when it arrived (nil: none).
  public var focus: String?
  /// Delivered or muted, and why.
  public var decision: NotificationDecision
  /// Whether the user has seen it (read notifications no longer count toward the badge).
  public var isRead: Bool
  /// Whether opening it goes to the scene the app context selects (its
  /// targetContentIdentifier starts with the app context's prefix), as the `focus:`
  /// activation conditions of a scene do on Apple platforms. It decides nothing else.
  public var opensFocusScene: Bool = false
}

/// What an app (or its extension) is told when the active Focus changes.
public struct FocusChange: Sendable {
  /// The app.
  public var app: String
  /// The Focus now active, or nil when Focus was turned off.
  public var focus: String?
  /// The filter in force: built from the saved values, or the defaults when the Focus ended
  /// or has nothing saved for the app.
  public var filter: any FocusFilter
  /// The saved parameter values of the app's filter for that Focus (empty when none).
  public var parameterValues: [String: FocusParameterValue]
  /// The system the change comes from.
  let system: FocusSystem

  /// Runs the filter's `perform()` in the app's scope, as an app extension does when the
  /// system wakes it (so `current` and `setBadgeCount` inside reach this user and app).
  public func perform() async throws {
    try await system.withApp(app) { try await filter.perform() }
  }
}
