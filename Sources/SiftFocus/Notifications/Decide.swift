import Sift

extension NotificationFilter {
  /// Decides one notification under the active Focus (Documentation/FocusLayer.md, decisions 2–7).
  ///
  /// The order matters: no predicate wins over everything (`noFilter`); a `critical`
  /// notification is presented when the app may send them (``allowsCriticalAlerts``, Apple's
  /// entitlement; otherwise it is an `active` one) and a `timeSensitive` one when the Focus
  /// allows it,
  /// whatever the predicate says; an app whose context could not be built fails closed
  /// (`filterUnavailable`); an untagged notification is delivered rather than silently lost
  /// (`noFilterCriteria`); an evaluation error mutes with the error's message
  /// (`predicateError`). The target-content prefix mutes nothing: it selects the scene (see
  /// ``DeliveryRecord/opensFocusScene``). For decision 1 (no Focus active) use
  /// ``NotificationDecision/noActiveFocus``, or ``decide(_:under:)`` with `nil`.
  @inlinable
  public func decide(_ content: NotificationContent) -> NotificationDecision {
    // Inlinable so the caller's loop sees through the call (Benchmarks/README.md); the rule
    // itself is one call, so the allow list's layout stays internal.
    if isUnfiltered { return NotificationDecision(outcome: .delivered, reason: .noFilter) }
    switch content.interruptionLevel {
    case .critical where allowsCriticalAlerts: return NotificationDecision(outcome: .delivered, reason: .critical)
    case .timeSensitive where allowsTimeSensitive:
      return NotificationDecision(outcome: .delivered, reason: .timeSensitive)
    case .passive, .active, .timeSensitive, .critical: break
    }
    if let failure = unavailableReason {
      return NotificationDecision(outcome: .muted, reason: .filterUnavailable(failure))
    }
    guard let criteria = content.filterCriteria else {
      return NotificationDecision(outcome: .delivered, reason: .noFilterCriteria)
    }
    let matched: Bool
    do {
      matched = try ruleMatches(criteria)
    } catch {
      return NotificationDecision(outcome: .muted, reason: .predicateError(error.message))
    }
    return matched
      ? NotificationDecision(outcome: .delivered, reason: .matched)
      : NotificationDecision(outcome: .muted, reason: .notMatched)
  }

  /// Whether the filter lets everything through (no predicate, nothing failed).
  @usableFromInline var isUnfiltered: Bool {
    if case .none = rule { return true }
    return false
  }

  /// The failure that makes the app fail closed, if any.
  @usableFromInline var unavailableReason: String? {
    if case .unavailable(let reason) = rule { return reason }
    return nil
  }

  /// Runs the rule against a notification's filterCriteria.
  @usableFromInline func ruleMatches(_ criteria: String) throws(EvaluationError) -> Bool {
    switch rule {
    case .none: return true
    case .unavailable: return false
    case .allowList(let list): return list.contains(criteria)
    case .predicate(let predicate): return try predicate.evaluate(with: criteria)
    }
  }

  /// Whether a notification with this targetContentIdentifier opens the scene the app
  /// context selects (true when it starts with the prefix; false without a prefix).
  public func selectsScene(_ targetContentIdentifier: String?) -> Bool {
    guard let prefix = targetContentIdentifierPrefix, let target = targetContentIdentifier else { return false }
    return target.hasPrefix(prefix)
  }

  /// Decides one notification given the active Focus's filter for the app: `nil` when no
  /// Focus is active (decision 1, `noActiveFocus`); otherwise ``decide(_:)``. A Focus that is
  /// active but has nothing saved for the app is a filter without a predicate (decision 2).
  public static func decide(_ content: NotificationContent, under filter: NotificationFilter?)
    -> NotificationDecision
  {
    guard let filter else { return .noActiveFocus }
    return filter.decide(content)
  }
}
