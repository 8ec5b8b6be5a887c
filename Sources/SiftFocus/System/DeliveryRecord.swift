/// One notification as the system handled it: kept whatever the decision, in arrival order,
/// so a muted notification is silent but its decision is never lost.
///
/// The history keeps what decisions and badges need, not the message: ``content`` holds the
/// notification's `filterCriteria`, `senderIdentifier`, `targetContentIdentifier`,
/// interruption level and badge (what a recount decides again), and neither its text nor
/// its `userInfo`; a service keeps its messages where it keeps them anyway.
public struct DeliveryRecord: Sendable, Hashable, Codable {
  /// Arrival order within the system, from 1.
  public var sequence: Int
  /// The app the notification is for.
  public var app: String
  /// The fields of the notification that decide it and count toward the badge.
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

  /// The record with only the content fields the history keeps.
  package func trimmed() -> DeliveryRecord {
    var record = self
    record.content = NotificationContent(
      filterCriteria: content.filterCriteria, targetContentIdentifier: content.targetContentIdentifier,
      interruptionLevel: content.interruptionLevel, badge: content.badge, senderIdentifier: content.senderIdentifier)
    return record
  }

  /// What the record costs the history's byte bound (``FocusSystem/historyByteLimit``): the
  /// bytes of its strings plus 64 for the rest.
  package var retainedBytes: Int {
    var bytes = 64 + app.utf8.count + (focus?.utf8.count ?? 0)
    bytes += content.filterCriteria?.utf8.count ?? 0
    bytes += content.targetContentIdentifier?.utf8.count ?? 0
    bytes += content.senderIdentifier?.utf8.count ?? 0
    switch decision.reason {
    case .predicateError(let message), .filterUnavailable(let message): bytes += message.utf8.count
    case .noActiveFocus, .noFilter, .matched, .notMatched, .noFilterCriteria, .critical, .timeSensitive, .unknownUser,
      .silencedByFocus, .allowedSender:
      break
    }
    return bytes
  }
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

  /// The user whose Focus changed: the id the system was made for (nil for a system that
  /// is not a service's or a database's).
  public var user: String? { system.user }

  /// Runs the filter's `perform()` in the app's scope, as an app extension does when the
  /// system wakes it (so `current` and `setBadgeCount` inside reach this user and app).
  public func perform() async throws {
    try await system.withApp(app) { try await filter.perform() }
  }
}

extension DeliveryRecord {
  /// A record, for the fuzz targets (the system makes them in ``FocusSystem/deliver(_:to:)``).
  package init(
    sequence: Int, app: String, content: NotificationContent, focus: String?, decision: NotificationDecision
  ) {
    self.init(
      sequence: sequence, app: app, content: content, focus: focus, decision: decision, isRead: false,
      opensFocusScene: false)
  }
}
