/// What the system did with one notification under the active Focus, and why.
///
/// Muted notifications are never dropped: the decision travels with them into the history.
public struct NotificationDecision: Sendable, Hashable {
  /// Whether the notification was presented.
  public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// Presented (banner, sound, badge).
    case delivered
    /// Kept in the history silently.
    case muted
  }

  /// Which rule of the design (Documentation/FocusLayer.md, decisions 1–12) decided.
  public enum Reason: Sendable, Hashable, CustomStringConvertible {
    /// No Focus is active (decision 1).
    case noActiveFocus
    /// The active Focus has no filter for the app, or its app context has no predicate (decision 2).
    case noFilter
    /// The predicate was true for the notification's filterCriteria (decision 3).
    case matched
    /// The predicate was false for the notification's filterCriteria (decision 3).
    case notMatched
    /// The notification has no filterCriteria, so the predicate does not apply (decision 4).
    case noFilterCriteria
    /// Evaluating the predicate failed; the associated value is the error's message (decision 5).
    case predicateError(String)
    /// A `critical` notification of an app permitted to send them (the counterpart of Apple's
    /// critical-alerts entitlement): presented under every Focus, whatever the filter (decision 6).
    case critical
    /// A `timeSensitive` notification under a Focus that allows them (decision 6).
    case timeSensitive
    /// The app's context could not be built under this Focus (its predicate did not compile,
    /// or reading it threw): the app fails closed. The value names the predicate and the
    /// diagnostic (decision 7).
    case filterUnavailable(String)
    /// The service has no state for this user (never stored, or deleted): delivered, as with
    /// no Focus, but told apart from a known user who has none (decision 1).
    case unknownUser
    /// The active Focus silences the app (Do Not Disturb and Sleep silence every app they do
    /// not list; ``FocusMode/allowedApps``) (decision 11).
    case silencedByFocus
    /// The app is silenced, but the Focus allows the notification's sender
    /// (``FocusMode/allowedSenders``, ``NotificationContent/senderIdentifier``) (decision 11).
    case allowedSender

    /// A stable identifier for machine-readable output (`"noActiveFocus"`, `"predicateError"`, …).
    public var code: String {
      switch self {
      case .noActiveFocus: "noActiveFocus"
      case .noFilter: "noFilter"
      case .matched: "matched"
      case .notMatched: "notMatched"
      case .noFilterCriteria: "noFilterCriteria"
      case .predicateError: "predicateError"
      case .critical: "critical"
      case .timeSensitive: "timeSensitive"
      case .filterUnavailable: "filterUnavailable"
      case .unknownUser: "unknownUser"
      case .silencedByFocus: "silencedByFocus"
      case .allowedSender: "allowedSender"
      }
    }

    /// A short English phrase that does not name the Focus (see ``explanation(focus:)``).
    public var description: String { explanation(focus: nil) }

    /// A short English phrase for JSON output and logs, naming the Focus when `focus` is given
    /// (for example `filterCriteria not allowed by the Personal Focus predicate`). The Focus is
    /// a parameter rather than part of the reason so reasons stay comparable across Focus modes.
    public func explanation(focus: String?) -> String {
      let the = focus.map { "the \($0) Focus" } ?? "the Focus"
      switch self {
      case .noActiveFocus: return "no Focus is active"
      case .noFilter: return "the app has no filter for \(the)"
      case .matched: return "filterCriteria allowed by \(the) predicate"
      case .notMatched: return "filterCriteria not allowed by \(the) predicate"
      case .noFilterCriteria: return "the notification has no filterCriteria"
      case .predicateError(let message): return "\(the) predicate failed: \(message)"
      case .critical: return "critical notifications break through \(the)"
      case .timeSensitive: return "\(the) lets time-sensitive notifications through"
      case .filterUnavailable(let message): return "the app's filter for \(the) is unavailable: \(message)"
      case .unknownUser: return "the service has no Focus state for this user"
      case .silencedByFocus: return "\(the) silences this app"
      case .allowedSender: return "\(the) allows this sender"
      }
    }
  }

  /// Delivered or muted.
  public var outcome: Outcome
  /// The rule that decided.
  public var reason: Reason

  /// Creates a decision.
  public init(outcome: Outcome, reason: Reason) {
    self.outcome = outcome
    self.reason = reason
  }

  /// The decision for every notification while no Focus is active (decision 1).
  public static let noActiveFocus = NotificationDecision(outcome: .delivered, reason: .noActiveFocus)

  /// The decision for a user the service does not know (decision 1).
  public static let unknownUser = NotificationDecision(outcome: .delivered, reason: .unknownUser)

  /// The reason's explanation; see ``Reason/explanation(focus:)``.
  public func explanation(focus: String?) -> String { reason.explanation(focus: focus) }
}
