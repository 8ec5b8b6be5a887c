/// The system and app that a piece of app code runs for: how the Apple-shaped static calls
/// (``FocusFilter/current``, ``FocusFilter/setBadgeCount(_:)``,
/// ``FocusFilter/invalidateFocusFilterAppContext()``) find their user and app.
///
/// A task-local value rather than a registry: the system binds it around every call into
/// app code (`perform()`, `appContext`, the extension handler), and an app binds it around
/// its own code paths with ``FocusSystem/withApp(_:_:)``. Two users in one process, or four
/// apps sharing one filter type, each see only their own scope, and nothing process-wide is
/// mutated.
struct FocusScope: Sendable {
  /// The user's system.
  let system: FocusSystem
  /// The app identifier the system registered.
  let app: String

  /// The scope of the running task, if any.
  @TaskLocal static var current: FocusScope?
}
