/// An app known to the system: its filter type, erased so apps with different filter types
/// sit in one table, and how a Focus change reaches it. Immutable apart from `isRunning`,
/// so a service can hand one registration to every user.
struct RegisteredApp: Sendable {
  /// The filter type's name (what errors name, and what `current` checks).
  var filterKey: String
  /// The filter built from saved values (entities resolved through their queries).
  var make: @Sendable ([String: FocusParameterValue]) async throws -> any FocusFilter
  /// The filter with every parameter at its default.
  var defaults: @Sendable () -> any FocusFilter
  var isRunning: Bool
  var extensionHandler: (@Sendable (FocusChange) async throws -> Void)?

  init<F: FocusFilter>(_ type: F.Type, isRunning: Bool) {
    make = { values in try await F(parameterValues: values) }
    defaults = { F() }
    filterKey = F.registryKey
    self.isRunning = isRunning
  }
}
