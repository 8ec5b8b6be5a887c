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
  /// nothing by default.
  var appContext: FocusFilterAppContext { get }

  /// Called with the parameters filled in when the Focus changes.
  func perform() async throws

  /// Configurations offered as one-tap suggestions; none by default.
  static func suggestedFocusFilters(for context: FocusSuggestionContext) async -> [Self]

  /// The configuration of the active Focus, read on demand rather than in ``perform()``.
  /// Throws ``FocusFilterError/noCurrentConfiguration(filter:)`` when none is known.
  static var current: Self { get async throws }
}

extension FocusFilter {
  /// No description.
  public static var description: String? { nil }

  /// No predicate and no prefix: notifications are not filtered.
  public var appContext: FocusFilterAppContext { FocusFilterAppContext() }

  /// No suggestions.
  public static func suggestedFocusFilters(for context: FocusSuggestionContext) async -> [Self] { [] }

  /// Reads through the registry the system side keeps (see ``FocusFilterRegistry``).
  public static var current: Self {
    get async throws { try await FocusFilterRegistry.shared.current(Self.self) }
  }

  /// Asks the system to read ``appContext`` again (the parameters did not change, but what
  /// the app derives from them did); does nothing when no system is listening.
  public static func invalidateFocusFilterAppContext() {
    FocusFilterRegistry.shared.invalidate(Self.self)
  }

  /// Sets the app's badge, as `UNUserNotificationCenter.setBadgeCount` does: call it from
  /// ``perform()`` with the count that matters under the new Focus. The system has already
  /// recounted the badge from the unread notifications the Focus lets through before it calls
  /// `perform()`, so the app's own count wins; later delivered notifications add to it.
  ///
  /// - Throws: ``FocusFilterError/negativeBadgeCount(_:)``, or
  ///   ``FocusFilterError/notRegistered(filter:)`` when no `FocusSystem` knows the app.
  public static func setBadgeCount(_ count: Int) async throws {
    guard count >= 0 else { throw FocusFilterError.negativeBadgeCount(count) }
    try await FocusFilterRegistry.shared.setBadgeCount(count, for: Self.self)
  }

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
  /// No configuration has been applied for this filter type (no Focus with it is active).
  case noCurrentConfiguration(filter: String)
  /// ``FocusFilter/setBadgeCount(_:)`` was given a negative count.
  case negativeBadgeCount(Int)
  /// ``FocusFilter/setBadgeCount(_:)`` was called while no system has the app registered.
  case notRegistered(filter: String)

  /// A one-line message naming the filter.
  public var description: String {
    switch self {
    case .noCurrentConfiguration(let filter): "no current configuration for focus filter \(filter)"
    case .negativeBadgeCount(let count): "a badge count cannot be negative (got \(count))"
    case .notRegistered(let filter): "no Focus system has an app registered with focus filter \(filter)"
    }
  }
}
