extension NotificationFilter {
  /// Decides one notification under the active Focus (Documentation/FocusLayer.md, decisions 2–6).
  ///
  /// The order matters: no predicate wins over everything (`noFilter`); an untagged
  /// notification is delivered rather than silently lost (`noFilterCriteria`); an evaluation
  /// error mutes with the error's message (`predicateError`); only a matched notification is
  /// then checked against the target-content prefix. For decision 1 (no Focus active) use
  /// ``NotificationDecision/noActiveFocus``, or ``decide(_:under:)`` with `nil`.
  @inlinable
  public func decide(_ content: NotificationContent) -> NotificationDecision {
    // Inlinable so the caller's loop sees through the call, and the predicate is borrowed rather
    // than bound with `guard let` (a copy that retained its storage on every notification):
    // together 267 -> 146 instructions per decision (Benchmarks/README.md).
    guard predicate != nil else { return NotificationDecision(outcome: .delivered, reason: .noFilter) }
    guard let criteria = content.filterCriteria else {
      return NotificationDecision(outcome: .delivered, reason: .noFilterCriteria)
    }
    let matched: Bool
    do {
      // Checked non-nil above. The String overload is the kernel path for `SELF IN {…}`.
      matched = try predicate.unsafelyUnwrapped.evaluate(with: criteria)
    } catch {
      return NotificationDecision(outcome: .muted, reason: .predicateError(error.message))
    }
    guard matched else { return NotificationDecision(outcome: .muted, reason: .notMatched) }
    if let prefix = targetContentIdentifierPrefix, let target = content.targetContentIdentifier,
      !target.hasPrefix(prefix)
    {
      return NotificationDecision(outcome: .muted, reason: .targetContentMismatch(prefix: prefix))
    }
    return NotificationDecision(outcome: .delivered, reason: .matched)
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
