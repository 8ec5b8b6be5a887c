import Sift

/// What a Focus filter tells the system about the app under the current Focus, modelled on
/// App Intents' `FocusFilterAppContext`.
public struct FocusFilterAppContext: Sendable {
  /// Evaluated with each notification's `filterCriteria` as `SELF`; false mutes it. Nil
  /// means the app does not filter notifications under this Focus.
  public var notificationFilterPredicate: SiftPredicate?
  /// Selects the scene a notification opens: one whose `targetContentIdentifier` starts
  /// with it opens the Focus's scene. It mutes nothing (as on Apple platforms).
  public var targetContentIdentifierPrefix: String?
  /// Whether the app's badge is hidden while this configuration is in force (a mail app's
  /// "Hide Badges" switch): delivered notifications are still counted, the badge shows 0.
  public var hidesBadges: Bool

  /// Creates a context; with no arguments the app filters nothing.
  public init(
    notificationFilterPredicate: SiftPredicate? = nil, targetContentIdentifierPrefix: String? = nil,
    hidesBadges: Bool = false
  ) {
    self.notificationFilterPredicate = notificationFilterPredicate
    self.targetContentIdentifierPrefix = targetContentIdentifierPrefix
    self.hidesBadges = hidesBadges
  }

  /// A context whose predicate is compiled from `predicateFormat` and `arguments`, the way
  /// `NSPredicate(format:argumentArray:)` is written in an app's `appContext`.
  ///
  /// - Throws: ``FocusFilterError/invalidPredicate(format:diagnostic:)`` naming the text and
  ///   the compiler's diagnostic, so the activation reports it and the app fails closed.
  public init(
    predicateFormat: String, arguments: [SiftValue] = [], targetContentIdentifierPrefix: String? = nil,
    hidesBadges: Bool = false
  ) throws(FocusFilterError) {
    let predicate: SiftPredicate
    do {
      predicate = try SiftPredicate(format: predicateFormat, arguments: arguments)
    } catch {
      throw .invalidPredicate(format: predicateFormat, diagnostic: "\(error)")
    }
    self.init(
      notificationFilterPredicate: predicate, targetContentIdentifierPrefix: targetContentIdentifierPrefix,
      hidesBadges: hidesBadges)
  }

  /// A context whose predicate is compiled from `predicateFormat` and Swift values, as the
  /// talk writes it: `FocusFilterAppContext(predicateFormat: "SELF IN %@", allowedAccountList)`
  /// with a `[String]`, no ``SiftValue`` needed (strings, numbers, Booleans, dates and
  /// collections of them, as ``SiftPredicate/init(format:_:_:)`` reads them).
  ///
  /// - Throws: ``FocusFilterError/invalidPredicate(format:diagnostic:)`` for a predicate
  ///   that does not compile or an argument Sift cannot read.
  public init(
    predicateFormat: String, _ first: Any?, _ rest: Any?..., targetContentIdentifierPrefix: String? = nil,
    hidesBadges: Bool = false
  ) throws(FocusFilterError) {
    let predicate: SiftPredicate
    do {
      predicate = try SiftPredicate(format: predicateFormat, argumentArray: [first] + rest)
    } catch {
      throw .invalidPredicate(format: predicateFormat, diagnostic: "\(error)")
    }
    self.init(
      notificationFilterPredicate: predicate, targetContentIdentifierPrefix: targetContentIdentifierPrefix,
      hidesBadges: hidesBadges)
  }
}
