/// What a Focus filter tells the system about the app under the current Focus, modelled on
/// App Intents' `FocusFilterAppContext`.
public struct FocusFilterAppContext: Sendable {
  /// Evaluated with each notification's `filterCriteria` as `SELF`; false mutes it. Nil
  /// means the app does not filter notifications under this Focus.
  public var notificationFilterPredicate: SiftPredicate?
  /// When set, a notification whose `targetContentIdentifier` does not start with it is muted.
  public var targetContentIdentifierPrefix: String?

  /// Creates a context; with no arguments the app filters nothing.
  public init(notificationFilterPredicate: SiftPredicate? = nil, targetContentIdentifierPrefix: String? = nil) {
    self.notificationFilterPredicate = notificationFilterPredicate
    self.targetContentIdentifierPrefix = targetContentIdentifierPrefix
  }
}
