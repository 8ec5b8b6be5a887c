import Synchronization

/// An app known to the system: its filter type, erased so apps with different filter types
/// sit in one table, and how a Focus change reaches it. Immutable, so a service hands one
/// registration to every user.
struct RegisteredApp: Sendable {
  /// The app identifier, exactly as registered.
  var app: String
  /// The filter type's name (what errors name, and what `current` checks).
  var filterKey: String
  /// The filter built from saved values (entities resolved through their queries).
  var make: @Sendable ([String: FocusParameterValue]) async throws -> any FocusFilter
  /// The filter with every parameter at its default.
  var defaults: @Sendable () -> any FocusFilter
  /// Whether a Focus change calls `perform()` (unless a system marks the app otherwise).
  var isRunning: Bool
  /// Whether the app may send `critical` notifications (Apple's critical-alerts entitlement).
  var allowsCriticalAlerts: Bool
  var extensionHandler: (@Sendable (FocusChange) async throws -> Void)?

  init<F: FocusFilter>(
    _ type: F.Type, app: String, isRunning: Bool, allowsCriticalAlerts: Bool,
    extensionHandler: (@Sendable (FocusChange) async throws -> Void)?
  ) {
    self.app = app
    make = { values in try await F(parameterValues: values) }
    defaults = { F() }
    filterKey = F.registryKey
    self.isRunning = isRunning
    self.allowsCriticalAlerts = allowsCriticalAlerts
    self.extensionHandler = extensionHandler
  }
}

/// The apps registered with one system, or with a service for all its users: read live by
/// every system that shares it, so a registration reaches systems that already exist.
final class AppRegistry: Sendable {
  private let apps = Mutex<[IDKey: RegisteredApp]>([:])

  /// Adds or replaces an app. An identifier that is canonically equivalent to a registered
  /// one but has other bytes is refused: the two would share one entry of a configuration's
  /// String-keyed tables while being different apps.
  func register(_ registered: RegisteredApp) throws(FocusSystemError) {
    let clash = apps.withLock { (apps) -> String? in
      if let other = FocusSpelling.clash(registered.app, in: apps.keys.lazy.map(\.text)) { return other }
      apps[IDKey(registered.app)] = registered
      return nil
    }
    if let clash { throw FocusSystemError(message: FocusSpelling.message("app id", registered.app, clash)) }
  }

  /// The registered id with the text of `id` and other bytes, if any.
  func clash(_ id: String) -> String? { apps.withLock { FocusSpelling.clash(id, in: $0.keys.lazy.map(\.text)) } }

  /// The app registered with exactly this id.
  func app(_ id: String) -> RegisteredApp? { apps.withLock { $0[IDKey(id)] } }

  /// Every registered app, in byte order of their ids.
  var all: [RegisteredApp] {
    apps.withLock { Array($0.values) }.sorted { $0.app.utf8.lexicographicallyPrecedes($1.app.utf8) }
  }

  /// The registered app `id`, or an error naming the ids that are registered.
  func require(_ id: String) throws(FocusSystemError) -> RegisteredApp {
    if let registered = app(id) { return registered }
    let known = all.map { Self.quoted($0.app) }
    throw FocusSystemError(
      message:
        "no app \(Self.quoted(id)) is registered"
        + (known.isEmpty ? " (none is)" : " (registered: \(known.joined(separator: ", ")))"))
  }

  /// An id in quotes, with control characters (a NUL) escaped so the message shows them.
  static func quoted(_ id: String) -> String {
    "'"
      + id.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? $0.escaped(asASCII: true) : String($0) }.joined()
      + "'"
  }
}
