/// What the decisions need of the active Focus mode: which apps it silences, which senders
/// break through, whether time-sensitive notifications do. Hashed and compared by bytes, so
/// a service's decision table keeps one copy per distinct policy. `package` for the fuzz
/// targets, which check the decision table against it.
package struct FocusPolicy: Sendable {
  package var allowsTimeSensitive: Bool
  package var allowedApps: AllowedApps
  package var allowedSenders: [String]

  package init(allowsTimeSensitive: Bool, allowedApps: AllowedApps, allowedSenders: [String]) {
    self.allowsTimeSensitive = allowsTimeSensitive
    self.allowedApps = allowedApps
    self.allowedSenders = allowedSenders
  }

  /// A Focus that allows every app and names no sender: each app's filter decides alone.
  var isOpen: Bool {
    if case .all = allowedApps { return true }
    return false
  }

  /// The decision for a notification of `app` under this Focus: muted when the Focus
  /// silences the app (unless critical from an app allowed them, time-sensitive under a
  /// Focus that allows those, or from an allowed sender); otherwise the app's filter's
  /// (``NotificationFilter/decide(_:)``), or `noFilter` when it has none.
  package func decide(
    _ content: NotificationContent, app: String, filter: NotificationFilter?, allowsCriticalAlerts: Bool
  ) -> NotificationDecision {
    if !allowedApps.allows(app) { return silenced(content, allowsCriticalAlerts: allowsCriticalAlerts) }
    return filter?.decide(content) ?? NotificationDecision(outcome: .delivered, reason: .noFilter)
  }

  /// The decision for a notification of an app this Focus silences.
  func silenced(_ content: NotificationContent, allowsCriticalAlerts: Bool) -> NotificationDecision {
    switch content.interruptionLevel {
    case .critical where allowsCriticalAlerts: return NotificationDecision(outcome: .delivered, reason: .critical)
    case .timeSensitive where allowsTimeSensitive:
      return NotificationDecision(outcome: .delivered, reason: .timeSensitive)
    case .passive, .active, .timeSensitive, .critical: break
    }
    if let sender = content.senderIdentifier, allowedSenders.contains(where: { $0.sameBytes(as: sender) }) {
      return NotificationDecision(outcome: .delivered, reason: .allowedSender)
    }
    return NotificationDecision(outcome: .muted, reason: .silencedByFocus)
  }

  /// The policy a Focus named `name` has when nothing else is known of it (a service that
  /// installs filters itself): the built-in mode's, or an open one.
  package static func `default`(forFocus name: String) -> FocusPolicy {
    FocusMode.builtIn.first { $0.name.sameBytes(as: name) }?.policy
      ?? FocusPolicy(allowsTimeSensitive: true, allowedApps: .all, allowedSenders: [])
  }
}

extension FocusPolicy: Hashable, Codable {
  package static func == (a: FocusPolicy, b: FocusPolicy) -> Bool {
    guard a.allowsTimeSensitive == b.allowsTimeSensitive, a.allowedSenders.count == b.allowedSenders.count,
      zip(a.allowedSenders, b.allowedSenders).allSatisfy({ $0.sameBytes(as: $1) })
    else { return false }
    switch (a.allowedApps, b.allowedApps) {
    case (.all, .all): return true
    case (.only(let x), .only(let y)), (.allExcept(let x), .allExcept(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.sameBytes(as: $1) }
    case (.all, _), (.only, _), (.allExcept, _): return false
    }
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(allowsTimeSensitive)
    func combine(_ list: [String]) {
      hasher.combine(list.count)
      for item in list { hasher.combine(IDKey(item)) }
    }
    switch allowedApps {
    case .all: hasher.combine(0)
    case .only(let apps):
      hasher.combine(1)
      combine(apps)
    case .allExcept(let apps):
      hasher.combine(2)
      combine(apps)
    }
    combine(allowedSenders)
  }
}
