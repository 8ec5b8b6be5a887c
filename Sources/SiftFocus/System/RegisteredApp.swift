/// An app known to the system: its filter type, erased so apps with different filter types
/// sit in one table, and how a Focus change reaches it.
struct RegisteredApp: Sendable {
  /// The filter built from saved values, with what the system needs from it.
  struct Instance: Sendable {
    var notificationFilter: NotificationFilter
    var activate: @Sendable () async throws -> Void
    var record: @Sendable () -> Void
  }

  /// The filter type's key in ``FocusFilterRegistry`` (what invalidation reports).
  var filterKey: String
  var make: @Sendable ([String: FocusParameterValue]) async throws -> Instance
  /// The filter itself, built from saved values (what `current` returns).
  var filter: @Sendable ([String: FocusParameterValue]) async throws -> any FocusFilter
  var clear: @Sendable () -> Void
  var isRunning: Bool
  var extensionHandler: (@Sendable (FocusChange) async -> Void)?

  init<F: FocusFilter>(_ type: F.Type, isRunning: Bool) {
    make = { values in
      let filter = try await F(parameterValues: values)
      let context = filter.appContext
      return Instance(
        notificationFilter: NotificationFilter(
          predicate: context.notificationFilterPredicate,
          targetContentIdentifierPrefix: context.targetContentIdentifierPrefix),
        activate: { try await filter.activate() },
        record: { FocusFilterRegistry.shared.recordApplied(filter) })
    }
    filter = { values in try await F(parameterValues: values) }
    clear = { FocusFilterRegistry.shared.clearApplied(F.self) }
    filterKey = F.registryKey
    self.isRunning = isRunning
  }
}
