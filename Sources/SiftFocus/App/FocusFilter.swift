/// An app's Focus filter, modelled on App Intents' `SetFocusFilterIntent`: static metadata,
/// ``FocusParameter`` properties the user sets per Focus, and the app's reaction.
public protocol FocusFilter: Sendable {
  /// A filter with every parameter at its default; the system fills in saved values.
  init()

  /// The filter's name in Focus settings; read once, when the app is installed.
  static var title: String { get }
  /// A longer explanation on the configuration page; nil by default.
  static var description: String? { get }

  /// The title and subtitle Focus settings show for this configuration.
  var displayRepresentation: DisplayRepresentation { get }
  /// What the system uses to mute notifications under this configuration; filters
  /// nothing by default. A throw (a predicate that does not compile) is an activation error
  /// naming the problem, and the app's notifications fail closed under the Focus.
  var appContext: FocusFilterAppContext { get throws }

  /// Called with the parameters filled in when the Focus changes.
  func perform() async throws

  /// Configurations offered as one-tap suggestions; none by default.
  static func suggestedFocusFilters(for context: FocusSuggestionContext) async -> [Self]

  /// The configuration in force, read on demand rather than in ``perform()``: the filter
  /// the last activation built, or the defaults when no Focus is active or nothing is saved
  /// for the app. Reads the scope of the calling code (see ``FocusSystem/withApp(_:_:)``).
  static var current: Self { get async throws }
}

extension FocusFilter {
  /// No description.
  public static var description: String? { nil }

  /// No predicate and no prefix: notifications are not filtered.
  public var appContext: FocusFilterAppContext { FocusFilterAppContext() }

  /// No suggestions.
  public static func suggestedFocusFilters(for context: FocusSuggestionContext) async -> [Self] { [] }

  /// The filter in force for the app whose code is running (the system binds the scope
  /// around `perform()`, `appContext` and extension handlers; an app binds it with
  /// ``FocusSystem/withApp(_:_:)``).
  ///
  /// - Throws: ``FocusFilterError/notRegistered(filter:)`` outside any app's scope, or when
  ///   the app is registered with another filter type.
  public static var current: Self {
    get async throws {
      guard let scope = FocusScope.current else { throw FocusFilterError.notRegistered(filter: registryKey) }
      return try await scope.system.currentFilter(Self.self, for: scope.app)
    }
  }

  /// Asks the system to read ``appContext`` again (the parameters did not change, but what
  /// the app derives from them did). The re-read runs in the background; a Focus change that
  /// happens meanwhile wins over it. Does nothing outside any app's scope.
  public static func invalidateFocusFilterAppContext() {
    guard let scope = FocusScope.current else { return }
    Task { try? await scope.system.reloadAppContext(for: scope.app) }
  }

  /// Sets the app's badge, as `UNUserNotificationCenter.setBadgeCount` does: call it from
  /// ``perform()`` with the count that matters under the new Focus. The system has already
  /// recounted the badge from the unread notifications the Focus lets through before it calls
  /// `perform()`, so the app's own count wins; later delivered notifications add to it.
  ///
  /// - Throws: ``FocusFilterError/negativeBadgeCount(_:)``, or
  ///   ``FocusFilterError/notRegistered(filter:)`` outside any app's scope.
  public static func setBadgeCount(_ count: Int) async throws {
    guard count >= 0 else { throw FocusFilterError.negativeBadgeCount(count) }
    guard let scope = FocusScope.current else { throw FocusFilterError.notRegistered(filter: registryKey) }
    try await scope.system.setBadgeCount(count, for: scope.app)
  }

  /// The user whose app code is running: the id of the ``FocusSystem`` whose scope the
  /// caller runs in (`perform()`, `appContext`, an extension handler, ``FocusSystem/withApp(_:_:)``),
  /// so a service's `perform()` knows whose Focus changed. Nil outside any scope and for a
  /// standalone system.
  public static var currentUser: String? { FocusScope.current?.system.user }

  /// The registry key: the fully qualified type name, stable across launches.
  static var registryKey: String { String(reflecting: Self.self) }
}

/// What the system knows when it asks for suggested configurations.
public struct FocusSuggestionContext: Sendable, Hashable {
  /// The name of the Focus being configured ("Work"), when known.
  public var focusName: String?

  /// Creates a context.
  public init(focusName: String? = nil) {
    self.focusName = focusName
  }
}

/// Failures reading a filter's configuration.
public enum FocusFilterError: Error, Sendable, Hashable, CustomStringConvertible {
  /// ``FocusFilter/setBadgeCount(_:)`` was given a negative count.
  case negativeBadgeCount(Int)
  /// A static call (``FocusFilter/current``, ``FocusFilter/setBadgeCount(_:)``) ran outside
  /// any app's scope, or the app is registered with another filter type.
  case notRegistered(filter: String)
  /// ``FocusFilterAppContext/init(predicateFormat:arguments:targetContentIdentifierPrefix:hidesBadges:)``
  /// was given a predicate that does not compile: the text and the diagnostic.
  case invalidPredicate(format: String, diagnostic: String)

  /// A one-line message naming the filter.
  public var description: String {
    switch self {
    case .negativeBadgeCount(let count): "a badge count cannot be negative (got \(count))"
    case .notRegistered(let filter): "no app with focus filter \(filter) is in scope (see FocusSystem.withApp)"
    case .invalidPredicate(let format, let diagnostic): "the predicate \"\(format)\" does not compile: \(diagnostic)"
    }
  }
}
