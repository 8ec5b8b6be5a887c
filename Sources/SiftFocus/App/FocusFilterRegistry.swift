import Synchronization

/// Where the system side hooks in: it answers ``FocusFilter/current`` and hears
/// ``FocusFilter/invalidateFocusFilterAppContext()`` and ``FocusFilter/setBadgeCount(_:)``.
///
/// Internal: the `FocusSystem` actor in this module installs a provider and a handler;
/// until it does, `current` returns the configuration last applied in this process.
final class FocusFilterRegistry: Sendable {
  /// Resolves the active configuration for a filter type (saved values of the active Focus).
  typealias CurrentProvider = @Sendable (_ key: String) async throws -> (any FocusFilter)?
  /// Told the registry key of a filter whose app context should be read again.
  typealias InvalidationHandler = @Sendable (_ key: String) -> Void
  /// Sets the badge of the app whose filter has the registry key; false when no app has it.
  typealias BadgeHandler = @Sendable (_ key: String, _ count: Int) async -> Bool

  static let shared = FocusFilterRegistry()

  private struct State {
    var applied: [String: any FocusFilter] = [:]
    var provider: CurrentProvider?
    var invalidationHandler: InvalidationHandler?
    var badgeHandler: BadgeHandler?
  }

  private let state = Mutex(State())

  /// Records `filter` as the current configuration of its type.
  func recordApplied<F: FocusFilter>(_ filter: F) {
    state.withLock { $0.applied[F.registryKey] = filter }
  }

  /// Forgets the current configuration of a type (its Focus ended).
  func clearApplied<F: FocusFilter>(_ type: F.Type) {
    _ = state.withLock { $0.applied.removeValue(forKey: F.registryKey) }
  }

  func setProvider(_ provider: CurrentProvider?) {
    state.withLock { $0.provider = provider }
  }

  func setInvalidationHandler(_ handler: InvalidationHandler?) {
    state.withLock { $0.invalidationHandler = handler }
  }

  func setBadgeHandler(_ handler: BadgeHandler?) {
    state.withLock { $0.badgeHandler = handler }
  }

  func setBadgeCount<F: FocusFilter>(_ count: Int, for type: F.Type) async throws {
    let handler = state.withLock { $0.badgeHandler }
    guard let handler, await handler(F.registryKey, count) else {
      throw FocusFilterError.notRegistered(filter: F.registryKey)
    }
  }

  func current<F: FocusFilter>(_ type: F.Type) async throws -> F {
    let (provider, applied) = state.withLock { ($0.provider, $0.applied[F.registryKey]) }
    // The lock is released before awaiting the provider, which may call back in.
    if let provider, let filter = try await provider(F.registryKey) as? F { return filter }
    if let filter = applied as? F { return filter }
    throw FocusFilterError.noCurrentConfiguration(filter: F.registryKey)
  }

  func invalidate<F: FocusFilter>(_ type: F.Type) {
    let handler = state.withLock { $0.invalidationHandler }
    handler?(F.registryKey)
  }
}
