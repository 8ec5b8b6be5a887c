import Sift

/// The decision-relevant part of a Focus filter's app context under one Focus: the compiled
/// predicate, the target-content-identifier prefix, whether badges are hidden, whether the
/// Focus lets time-sensitive notifications through, and, when the app context could not be
/// built, why. Deciding reads nothing else, so a filter is a `Sendable` snapshot that many
/// decisions can share while the Focus changes.
public struct NotificationFilter: Sendable, Hashable {
  /// Evaluated with a notification's filterCriteria as `SELF`; `nil` means no filter (or,
  /// with ``failure``, a filter that could not be built). A `SELF IN {ids}` predicate is
  /// kept as its ids alone (about 100 bytes rather than a 2.35 KB program) and compiled
  /// again when read here.
  public var predicate: SiftPredicate? {
    get {
      switch rule {
      case .none, .unavailable: return nil
      case .predicate(let predicate): return predicate
      case .allowList(let list):
        return try? SiftPredicate(format: "SELF IN %@", arguments: [.array(list.members.map { .string($0) })])
      }
    }
    set { rule = Self.rule(newValue) }
  }
  /// Selects which scene a notification opens (its targetContentIdentifier starts with the
  /// prefix); it mutes nothing, as on Apple platforms. See ``DeliveryRecord/opensFocusScene``.
  public var targetContentIdentifierPrefix: String?
  /// Whether the app's badge is hidden while this filter is in force.
  public var hidesBadges: Bool
  /// Whether `timeSensitive` notifications break through (the Focus's setting,
  /// ``FocusMode/allowsTimeSensitive``).
  public var allowsTimeSensitive: Bool
  /// Whether the app may send `critical` notifications (the counterpart of Apple's
  /// critical-alerts entitlement; ``FocusSystem/register(_:app:isRunning:allowsCriticalAlerts:extensionHandler:)``
  /// sets it). Off by default: a `critical` notification from an app without it is decided
  /// as an `active` one.
  public var allowsCriticalAlerts: Bool
  /// Why the app context could not be built (its predicate did not compile, or reading it
  /// threw): the app's notifications are then muted with
  /// ``NotificationDecision/Reason/filterUnavailable(_:)`` (fail closed). Nil normally;
  /// setting it drops the predicate.
  public var failure: String? {
    get {
      if case .unavailable(let message) = rule { return message }
      return nil
    }
    set { rule = newValue.map { .unavailable($0) } ?? .none }
  }
  /// What decides, prepared once: the talk's `SELF IN %@` shape as a bare allow list.
  @usableFromInline var rule: DecisionRule

  /// Creates a filter.
  public init(
    predicate: SiftPredicate?, targetContentIdentifierPrefix: String? = nil, hidesBadges: Bool = false,
    allowsTimeSensitive: Bool = true, allowsCriticalAlerts: Bool = false
  ) {
    rule = Self.rule(predicate)
    self.targetContentIdentifierPrefix = targetContentIdentifierPrefix
    self.hidesBadges = hidesBadges
    self.allowsTimeSensitive = allowsTimeSensitive
    self.allowsCriticalAlerts = allowsCriticalAlerts
  }

  /// A `SELF IN {ids}` filter from its ids, without compiling anything (a service loading
  /// many users).
  init(
    allowList ids: [String], targetContentIdentifierPrefix: String?, hidesBadges: Bool, allowsTimeSensitive: Bool,
    allowsCriticalAlerts: Bool
  ) {
    rule = .allowList(AllowList(ids))
    self.targetContentIdentifierPrefix = targetContentIdentifierPrefix
    self.hidesBadges = hidesBadges
    self.allowsTimeSensitive = allowsTimeSensitive
    self.allowsCriticalAlerts = allowsCriticalAlerts
  }

  /// A filter for an app whose app context could not be built: every notification of the
  /// app that is not `critical` (from an app allowed them) or allowed `timeSensitive` is
  /// muted with the reason.
  public static func unavailable(
    _ reason: String, allowsTimeSensitive: Bool = true, allowsCriticalAlerts: Bool = false
  ) -> NotificationFilter {
    var filter = NotificationFilter(
      predicate: nil, allowsTimeSensitive: allowsTimeSensitive, allowsCriticalAlerts: allowsCriticalAlerts)
    filter.rule = .unavailable(reason)
    return filter
  }

  static func rule(_ predicate: SiftPredicate?) -> DecisionRule {
    guard let predicate else { return .none }
    // Only predicates compiled with the default options: an allow list has no step budget
    // or schema to honour, and `SELF IN` over ids needs none.
    if predicate.substitutions.isEmpty, let list = AllowList(predicate.syntax) { return .allowList(list) }
    return .predicate(predicate)
  }

  /// The ids when the filter is a bare allow list.
  var allowListMembers: [String]? {
    if case .allowList(let list) = rule { return list.members }
    return nil
  }
}

extension NotificationFilter: Codable {
  private enum CodingKeys: String, CodingKey {
    case predicate, targetContentIdentifierPrefix, hidesBadges, allowsTimeSensitive, allowsCriticalAlerts, failure
  }

  /// Decodes a filter saved with ``encode(to:)``; the predicate is compiled again.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      predicate: try c.decodeIfPresent(SiftPredicate.self, forKey: .predicate),
      targetContentIdentifierPrefix: try c.decodeIfPresent(String.self, forKey: .targetContentIdentifierPrefix),
      hidesBadges: try c.decodeIfPresent(Bool.self, forKey: .hidesBadges) ?? false,
      allowsTimeSensitive: try c.decodeIfPresent(Bool.self, forKey: .allowsTimeSensitive) ?? true,
      allowsCriticalAlerts: try c.decodeIfPresent(Bool.self, forKey: .allowsCriticalAlerts) ?? false)
    if let failure = try c.decodeIfPresent(String.self, forKey: .failure) { self.failure = failure }
  }

  /// Encodes the predicate (format and arguments) and the settings.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeIfPresent(predicate, forKey: .predicate)
    try c.encodeIfPresent(targetContentIdentifierPrefix, forKey: .targetContentIdentifierPrefix)
    if hidesBadges { try c.encode(true, forKey: .hidesBadges) }
    if !allowsTimeSensitive { try c.encode(false, forKey: .allowsTimeSensitive) }
    if allowsCriticalAlerts { try c.encode(true, forKey: .allowsCriticalAlerts) }
    try c.encodeIfPresent(failure, forKey: .failure)
  }
}

/// What decides a notification under a filter, prepared when the filter is made.
@usableFromInline
enum DecisionRule: Sendable, Hashable {
  /// No predicate: nothing is filtered.
  case none
  /// The app context could not be built: fail closed with this message.
  case unavailable(String)
  /// `SELF IN {ids}`: a byte comparison against each id, no program.
  case allowList(AllowList)
  /// Any other predicate, run by the VM.
  case predicate(SiftPredicate)
}
