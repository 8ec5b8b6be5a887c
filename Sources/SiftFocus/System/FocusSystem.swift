/// What goes wrong on the system side.
public struct FocusSystemError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public var message: String
  /// The message.
  public var description: String { message }
}

/// The operating system's part of Focus: the Focus modes, the parameter values saved per
/// Focus and app, activation (which calls each app's `perform()`, or hands the change to
/// its extension when the app is not running), the decision for every notification, the
/// history (muted notifications included) and the badges.
///
/// An actor: notifications can be delivered from many tasks while a Focus changes. Each
/// decision reads the filters of one Focus: a change builds the new filters first and
/// switches to them in one step.
public actor FocusSystem {
  private let store: FocusStore?
  /// The modes, the active Focus and the saved parameters (persisted after every change
  /// when the system has a store).
  public private(set) var configuration: FocusConfiguration
  private var apps: [String: RegisteredApp] = [:]
  /// The notification filter of each app under the active Focus.
  private var filters: [String: NotificationFilter] = [:]
  private var records: [DeliveryRecord] = []
  private var badges: [String: Int] = [:]

  /// A system whose configuration lives in `store` (loaded now: an unreadable file is an
  /// error, not an empty start).
  public init(store: FocusStore) throws(FocusStoreError) {
    self.store = store
    configuration = try store.load()
  }

  /// A system kept in memory only.
  public init(configuration: FocusConfiguration = FocusConfiguration()) {
    store = nil
    self.configuration = configuration
  }

  /// The active Focus, or nil.
  public var activeFocus: String? { configuration.activeFocus }

  /// Adds a user-defined Focus (a name already present is left as it is).
  public func addFocus(_ mode: FocusMode) throws(FocusStoreError) {
    guard configuration.mode(named: mode.name) == nil else { return }
    configuration.modes.append(mode)
    try persist()
  }

  /// Registers an app and its focus filter type. The system reads the filter's static title
  /// and description from the type; `isRunning` decides whether a Focus change calls
  /// `perform()` in the app or goes to `extensionHandler`.
  public func register<F: FocusFilter>(
    _ filter: F.Type, app: String, isRunning: Bool = true,
    extensionHandler: (@Sendable (FocusChange) async -> Void)? = nil
  ) {
    var registered = RegisteredApp(filter, isRunning: isRunning)
    registered.extensionHandler = extensionHandler
    apps[app] = registered
    installHooks()
  }

  /// Answers `current` and hears `invalidateFocusFilterAppContext()` for the registered
  /// filter types (the registry is process-wide: the system registered last answers).
  private func installHooks() {
    FocusFilterRegistry.shared.setProvider { [weak self] key in
      guard let self else { return nil }
      return try await self.currentFilter(forKey: key)
    }
    FocusFilterRegistry.shared.setInvalidationHandler { [weak self] key in
      guard let self else { return }
      Task { try? await self.reloadAppContext(forKey: key) }
    }
    FocusFilterRegistry.shared.setBadgeHandler { [weak self] key, count in
      guard let self else { return false }
      return await self.setBadgeCount(count, forKey: key)
    }
  }

  /// Sets the badge of the app whose filter type has `key`; false when no app has it.
  func setBadgeCount(_ count: Int, forKey key: String) -> Bool {
    guard let app = apps.first(where: { $0.value.filterKey == key })?.key else { return false }
    badges[app] = count
    return true
  }

  /// Sets `app`'s badge, as the app does with `setBadgeCount` (see
  /// ``FocusFilter/setBadgeCount(_:)``, the app-side call). The count holds until a delivered
  /// notification adds to it, the app reads its notifications, or the next Focus change
  /// recounts it.
  public func setBadgeCount(_ count: Int, for app: String) throws(FocusSystemError) {
    guard count >= 0 else { throw FocusSystemError(message: "a badge count cannot be negative (got \(count))") }
    badges[app] = count
  }

  /// The filter of the app whose filter type has `key`, built from the values saved for the
  /// active Focus (nil when no Focus is active or nothing is saved).
  func currentFilter(forKey key: String) async throws -> (any FocusFilter)? {
    guard let focus = configuration.activeFocus,
      let (app, registered) = apps.first(where: { $0.value.filterKey == key }),
      let values = configuration.savedParameters[focus]?[app]
    else { return nil }
    return try await registered.filter(values)
  }

  /// Reads the app context of the app whose filter type has `key` again (the app asked, with
  /// `invalidateFocusFilterAppContext()`, because what its predicate allows changed).
  public func reloadAppContext(forKey key: String) async throws {
    guard let focus = configuration.activeFocus,
      let (app, registered) = apps.first(where: { $0.value.filterKey == key }),
      let values = configuration.savedParameters[focus]?[app]
    else { return }
    filters[app] = try await registered.make(values).notificationFilter
    recomputeBadges()
  }

  /// Marks an app as running or not.
  public func setRunning(_ running: Bool, app: String) { apps[app]?.isRunning = running }

  /// Saves what the user set for `app`'s filter under `focus` (only the parameters that are
  /// set are stored). Takes effect at the next activation of that Focus.
  public func save<F: FocusFilter>(_ filter: F, for app: String, in focus: String) throws {
    guard configuration.mode(named: focus) != nil else {
      throw FocusSystemError(message: "there is no Focus named '\(focus)'")
    }
    configuration.savedParameters[focus, default: [:]][app] = filter.parameterValues
    try persist()
  }

  /// Turns `focus` on (or every Focus off, with nil). For each registered app, the filter is
  /// built from the values saved for that Focus. Then the filters switch in one step and
  /// every badge is recounted; only then is a running app's `perform()` called (so a count
  /// the app sets there with ``FocusFilter/setBadgeCount(_:)`` wins over the recount), and an
  /// app that is not running gets the change through its extension handler. Returns the apps
  /// whose filter could not be built or whose `perform()` threw, with the error (the others
  /// are switched anyway; an app whose filter could not be built is left unfiltered).
  @discardableResult
  public func activate(_ focus: String?) async throws -> [String: String] {
    if let focus, configuration.mode(named: focus) == nil {
      throw FocusSystemError(message: "there is no Focus named '\(focus)'")
    }
    var next: [String: NotificationFilter] = [:]
    var failures: [String: String] = [:]
    var changes: [PendingChange] = []
    for (app, registered) in apps.sorted(by: { $0.key < $1.key }) {
      guard let focus, let values = configuration.savedParameters[focus]?[app] else {
        changes.append(PendingChange(app: app, registered: registered, instance: nil, values: [:]))
        continue
      }
      do {
        let instance = try await registered.make(values)
        next[app] = instance.notificationFilter
        changes.append(PendingChange(app: app, registered: registered, instance: instance, values: values))
      } catch {
        failures[app] = "\(error)"
      }
    }
    filters = next
    configuration.activeFocus = focus
    try persist()
    recomputeBadges()

    for change in changes {
      let registered = change.registered
      guard let instance = change.instance else {
        registered.clear()
        if !registered.isRunning, let handler = registered.extensionHandler {
          await handler(FocusChange(app: change.app, focus: focus, parameterValues: [:]))
        }
        continue
      }
      if registered.isRunning {
        do {
          try await instance.activate()
        } catch {
          failures[change.app] = "\(error)"
        }
      } else {
        instance.record()
        await registered.extensionHandler?(
          FocusChange(app: change.app, focus: focus, parameterValues: change.values))
      }
    }
    return failures
  }

  /// One app's side of a Focus change, built before the filters switch and told after.
  private struct PendingChange {
    var app: String
    var registered: RegisteredApp
    /// Nil when nothing is saved for the app under the new Focus (or no Focus is active).
    var instance: RegisteredApp.Instance?
    var values: [String: FocusParameterValue]
  }

  /// Decides a notification for `app` under the active Focus, keeps it in the history and
  /// counts it toward the badge when it is delivered.
  @discardableResult
  public func deliver(_ content: NotificationContent, to app: String) -> DeliveryRecord {
    let record = DeliveryRecord(
      sequence: records.count + 1, app: app, content: content, focus: configuration.activeFocus,
      decision: decide(content, for: app), isRead: false)
    records.append(record)
    if record.decision.outcome == .delivered { badges[app, default: 0] += 1 }
    return record
  }

  /// The history, oldest first: every notification, delivered or muted (optionally one app's).
  public func history(of app: String? = nil) -> [DeliveryRecord] {
    guard let app else { return records }
    return records.filter { $0.app == app }
  }

  /// The app's badge: its unread notifications that the active Focus lets through.
  public func badgeCount(of app: String) -> Int { badges[app, default: 0] }

  /// Marks every notification of `app` read (its badge goes to 0).
  public func markAllRead(app: String) {
    for k in records.indices where records[k].app == app { records[k].isRead = true }
    badges[app] = 0
  }

  private func decide(_ content: NotificationContent, for app: String) -> NotificationDecision {
    guard configuration.activeFocus != nil else { return .noActiveFocus }
    return NotificationFilter.decide(content, under: filters[app] ?? NotificationFilter(predicate: nil))
  }

  /// The badge after a Focus change: what matters under the new Focus, as the talk
  /// recommends (`setBadgeCount`), recounted from the unread history.
  private func recomputeBadges() {
    var counts: [String: Int] = [:]
    for record in records where !record.isRead {
      if decide(record.content, for: record.app).outcome == .delivered { counts[record.app, default: 0] += 1 }
    }
    badges = counts
  }

  private func persist() throws(FocusStoreError) {
    try store?.save(configuration)
  }
}
