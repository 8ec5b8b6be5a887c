/// One notification as the system handled it: kept whatever the decision, in arrival order,
/// so a muted notification is silent but never lost.
public struct DeliveryRecord: Sendable, Hashable {
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
}

/// What an app (or its extension) is told when the active Focus changes.
public struct FocusChange: Sendable, Hashable {
  /// The app.
  public var app: String
  /// The Focus now active, or nil when Focus was turned off.
  public var focus: String?
  /// The saved parameter values of the app's filter for that Focus (empty when none).
  public var parameterValues: [String: FocusParameterValue]
}
