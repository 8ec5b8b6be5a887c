/// The decision-relevant part of a Focus filter's app context: the compiled predicate and
/// the optional target-content-identifier prefix. Deciding reads nothing else, so a filter
/// is a `Sendable` snapshot that many decisions can share while the Focus changes.
public struct NotificationFilter: Sendable {
  /// Evaluated with a notification's filterCriteria as `SELF`; `nil` means no filter.
  public var predicate: SiftPredicate?
  /// When set, a matched notification whose targetContentIdentifier does not start with it is muted.
  public var targetContentIdentifierPrefix: String?

  /// Creates a filter.
  public init(predicate: SiftPredicate?, targetContentIdentifierPrefix: String? = nil) {
    self.predicate = predicate
    self.targetContentIdentifierPrefix = targetContentIdentifierPrefix
  }
}
