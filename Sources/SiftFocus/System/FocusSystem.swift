/// What goes wrong on the system side.
public struct FocusSystemError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public var message: String
  /// The message.
  public var description: String { message }
}

/// One user's side of Focus, as the operating system runs it: the Focus modes, the
/// parameter values saved per Focus and app, activation (which calls each app's
/// `perform()`, or hands the change to its extension when the app is not running), the
/// decision for every notification, the history (muted notifications included) and the
/// badges.
///
/// An actor, and nothing in it is shared with another system: a service holds one per user
/// (or a ``FocusService``), and every call that app code makes through the static API
/// (``FocusFilter/current``, ``FocusFilter/setBadgeCount(_:)``) reaches the system and app
/// whose scope it runs in (``withApp(_:_:)``).
///
/// Activations are serialised: each one starts after the previous one finished, so the
/// last requested wins. Every result computed across an `await` is checked against the
/// activation generation before it is installed, so a slow re-read of an app context never
/// lands under a Focus it was not computed for. The filters in force are persisted with the
/// configuration, so a restart decides exactly as before it.
public actor FocusSystem {
  private let persistence: FocusPersistence
  /// The modes, the active Focus, the saved parameters and the filters in force (persisted
  /// after every change when the system has a store).
  public private(set) var configuration: FocusConfiguration
  private var apps: [String: RegisteredApp] = [:]
  /// The filter instances in force, per app; rebuilt on demand after a restart.
  private var instances: [String: any FocusFilter] = [:]
  private var records: [DeliveryRecord] = []
  private var nextSequence = 1
  private var badges: [String: Int] = [:]
  /// How many notifications the history keeps (the oldest go first).
  public let historyLimit: Int
  /// Bumped when an activation installs its filters: what a result computed across an
  /// `await` checks before it is installed.
  private var generation = 0
  /// The latest app-context re-read started per app: only the latest may install.
  private var reloadTickets: [String: Int] = [:]
  /// The end of the activation chain (activations run one after another).
  private var tail: Task<Void, Never>?
  /// Told the active Focus and the filters in force after every change (a
  /// ``FocusService``'s decision table).
  private var observer: (@Sendable (String?, [String: AppliedFilter]) -> Void)?
  /// Activation requests received (the race tests wait for a request to be queued).
  private(set) var activationRequests = 0

  /// A system whose configuration lives in `store`, a JSON file for a single app (loaded
  /// now: an unreadable file is an error, not an empty start).
  public init(store: FocusStore, historyLimit: Int = 10_000) throws(FocusStoreError) {
    persistence = .json(store)
    configuration = try store.load()
    self.historyLimit = max(historyLimit, 0)
  }

  /// The system of `user` in a service's database (created on first use). The
  /// configuration, the filters in force, the badges and the history are read now.
  public init(database: FocusDatabase, user: String, historyLimit: Int = 1_000) throws(FocusStoreError) {
    persistence = .database(database, user: user)
    let state = try database.loadUser(user)
    configuration = state.configuration
    badges = state.badges
    records = state.history
    nextSequence = (state.history.last?.sequence ?? 0) + 1
    self.historyLimit = max(historyLimit, 0)
  }

  /// A system kept in memory only.
  public init(configuration: FocusConfiguration = FocusConfiguration(), historyLimit: Int = 10_000) {
    persistence = .none
    self.configuration = configuration
    self.historyLimit = max(historyLimit, 0)
  }

  /// The active Focus, or nil.
  public var activeFocus: String? { configuration.activeFocus }

  /// Adds a user-defined Focus (a name already present is left as it is).
  public func addFocus(_ mode: FocusMode) throws(FocusStoreError) {
    guard configuration.mode(named: mode.name) == nil else { return }
    configuration.modes.append(mode)
    try persist()
  }

  /// Registers an app and its focus filter type. `isRunning` decides whether a Focus change
  /// calls `perform()` in the app or goes to `extensionHandler`, which receives the filter
  /// in force and runs it with ``FocusChange/perform()``.
  public func register<F: FocusFilter>(
    _ filter: F.Type, app: String, isRunning: Bool = true,
    extensionHandler: (@Sendable (FocusChange) async throws -> Void)? = nil
  ) {
    var registered = RegisteredApp(filter, isRunning: isRunning)
    registered.extensionHandler = extensionHandler
    apps[app] = registered
  }

  /// Registers a service's apps and starts telling it about every change of the filters.
  func attach(
    apps registrations: [(app: String, registered: RegisteredApp)],
    observer: @escaping @Sendable (String?, [String: AppliedFilter]) -> Void
  ) {
    for (app, registered) in registrations where apps[app] == nil { apps[app] = registered }
    self.observer = observer
    observer(configuration.activeFocus, configuration.inForce)
  }

  /// Marks an app as running or not.
  public func setRunning(_ running: Bool, app: String) { apps[app]?.isRunning = running }

  /// Runs `body` as code of `app` for this user: inside it, ``FocusFilter/current``,
  /// ``FocusFilter/setBadgeCount(_:)`` and ``FocusFilter/invalidateFocusFilterAppContext()``
  /// reach this system and app. The system does the same around `perform()`, `appContext`
  /// and extension handlers.
  public nonisolated func withApp<T: Sendable>(_ app: String, _ body: () async throws -> T) async rethrows -> T {
    try await FocusScope.$current.withValue(FocusScope(system: self, app: app)) { try await body() }
  }

  /// The filter of `app` in force: the one the last activation built, or `F()` with every
  /// default when no Focus is active or nothing is saved for the app. What
  /// ``FocusFilter/current`` returns inside the app's scope.
  ///
  /// - Throws: ``FocusFilterError/notRegistered(filter:)`` when `app` is registered with
  ///   another filter type; a ``FocusParameterError`` when a restored filter cannot be
  ///   rebuilt.
  public func currentFilter<F: FocusFilter>(_ type: F.Type, for app: String) async throws -> F {
    if let registered = apps[app], registered.filterKey != F.registryKey {
      throw FocusFilterError.notRegistered(filter: F.registryKey)
    }
    if let filter = instances[app] { return try cast(filter) }
    // After a restart: rebuild from the values in force, then keep it unless an activation
    // replaced it meanwhile.
    guard configuration.activeFocus != nil, let values = configuration.inForce[app]?.parameterValues else { return F() }
    let started = generation
    let filter = try await F(parameterValues: values)
    if started == generation, instances[app] == nil { instances[app] = filter }
    return filter
  }

  private func cast<F: FocusFilter>(_ filter: any FocusFilter) throws -> F {
    guard let filter = filter as? F else { throw FocusFilterError.notRegistered(filter: F.registryKey) }
    return filter
  }

  /// Reads the app context of `app` again (the app asked, with
  /// ``FocusFilter/invalidateFocusFilterAppContext()``, because what its predicate allows
  /// changed). The filter is rebuilt from the values in force; the result is installed only
  /// if no activation happened and no later re-read started while it was being built.
  public func reloadAppContext(for app: String) async throws {
    guard let focus = configuration.activeFocus, let registered = apps[app],
      let values = configuration.inForce[app]?.parameterValues
    else { return }
    let started = generation
    let ticket = reloadTickets[app, default: 0] + 1
    reloadTickets[app] = ticket
    let filter = try await registered.make(values)
    // The await above may have let an activation or a newer re-read in: install only if
    // this result is still the current one.
    guard started == generation, reloadTickets[app] == ticket, configuration.activeFocus == focus else { return }
    let (notificationFilter, _) = buildNotificationFilter(filter, app: app, focus: focus)
    configuration.inForce[app] = AppliedFilter(parameterValues: values, notificationFilter: notificationFilter)
    instances[app] = filter
    recomputeBadges()
    observer?(focus, configuration.inForce)
    try persist()
  }

  /// Saves what the user set for `app`'s filter under `focus` (only the parameters that are
  /// set are stored). Takes effect at the next activation of that Focus.
  public func save<F: FocusFilter>(_ filter: F, for app: String, in focus: String) throws {
    guard configuration.mode(named: focus) != nil else {
      throw FocusSystemError(message: "there is no Focus named '\(focus)'")
    }
    configuration.savedParameters[focus, default: [:]][app] = filter.parameterValues
    try persist()
  }

  /// Turns `focus` on (or every Focus off, with nil), after any activation already
  /// requested has finished. For each registered app the filter is built from the values
  /// saved for that Focus, or with the defaults when the Focus ends or nothing is saved for
  /// the app. Then the filters switch in one step and every badge is recounted; only then is
  /// each running app's `perform()` called (so a count the app sets there with
  /// ``FocusFilter/setBadgeCount(_:)`` wins over the recount), and an app that is not
  /// running gets the change through its extension handler.
  ///
  /// Returns the apps whose filter could not be built, whose app context failed or whose
  /// `perform()` threw, with the error. An app whose filter or context failed is switched
  /// anyway and fails closed: its notifications are muted with
  /// ``NotificationDecision/Reason/filterUnavailable(_:)``.
  @discardableResult
  public func activate(_ focus: String?) async throws -> [String: String] {
    activationRequests += 1
    let previous = tail
    let run = Task { () async throws -> [String: String] in
      await previous?.value
      return try await self.runActivation(focus)
    }
    tail = Task { _ = await run.result }
    return try await run.value
  }

  private func runActivation(_ focus: String?) async throws -> [String: String] {
    if let focus, configuration.mode(named: focus) == nil {
      throw FocusSystemError(message: "there is no Focus named '\(focus)'")
    }
    var next: [String: AppliedFilter] = [:]
    var built: [String: any FocusFilter] = [:]
    var failures: [String: String] = [:]
    var changes: [PendingChange] = []
    for (app, registered) in apps.sorted(by: { $0.key < $1.key }) {
      let values = focus.flatMap { configuration.savedParameters[$0]?[app] }
      var filter = registered.defaults()
      if let focus, let values {
        do {
          filter = try await registered.make(values)
          let (notificationFilter, failure) = buildNotificationFilter(filter, app: app, focus: focus)
          if let failure { failures[app] = failure }
          next[app] = AppliedFilter(parameterValues: values, notificationFilter: notificationFilter)
        } catch {
          let message = "the \(registered.filterKey) filter for the \(focus) Focus cannot be built: \(error)"
          failures[app] = message
          next[app] = AppliedFilter(parameterValues: values, notificationFilter: .unavailable(message))
        }
      } else if focus != nil {
        // Active, nothing saved for the app: perform() gets the defaults, nothing is filtered.
        next[app] = AppliedFilter(parameterValues: nil, notificationFilter: NotificationFilter(predicate: nil))
      }
      built[app] = filter
      changes.append(PendingChange(app: app, filter: filter, values: values ?? [:]))
    }
    // Serialised, so no other activation ran during the awaits above; bumping the generation
    // discards any app-context re-read that started under the old filters.
    generation += 1
    configuration.inForce = next
    configuration.activeFocus = focus
    instances = built
    recomputeBadges()
    observer?(focus, next)
    try persist()

    for change in changes {
      guard let registered = apps[change.app] else { continue }
      do {
        if registered.isRunning {
          try await withApp(change.app) { try await change.filter.perform() }
        } else if let handler = registered.extensionHandler {
          let event = FocusChange(
            app: change.app, focus: focus, filter: change.filter, parameterValues: change.values, system: self)
          try await withApp(change.app) { try await handler(event) }
        }
      } catch {
        failures[change.app] = failures[change.app] ?? "perform() failed: \(error)"
      }
    }
    return failures
  }

  /// The notification filter of a built filter under `focus`: its app context, with the
  /// Focus's time-sensitive setting. A context that throws gives a filter that fails closed,
  /// and the message naming the filter, the Focus and the error.
  private func buildNotificationFilter(_ filter: any FocusFilter, app: String, focus: String)
    -> (NotificationFilter, failure: String?)
  {
    let allowsTimeSensitive = configuration.mode(named: focus)?.allowsTimeSensitive ?? true
    do {
      let context = try FocusScope.$current.withValue(FocusScope(system: self, app: app)) { try filter.appContext }
      return (
        NotificationFilter(
          predicate: context.notificationFilterPredicate,
          targetContentIdentifierPrefix: context.targetContentIdentifierPrefix, hidesBadges: context.hidesBadges,
          allowsTimeSensitive: allowsTimeSensitive), nil
      )
    } catch {
      let message = "the app context of \(String(reflecting: type(of: filter))) for the \(focus) Focus failed: \(error)"
      return (.unavailable(message, allowsTimeSensitive: allowsTimeSensitive), message)
    }
  }

  /// One app's side of a Focus change, built before the filters switch and told after.
  private struct PendingChange {
    var app: String
    var filter: any FocusFilter
    var values: [String: FocusParameterValue]
  }

  /// The filter deciding `app`'s notifications now (nil when no Focus is active).
  public func notificationFilter(for app: String) -> NotificationFilter? {
    guard configuration.activeFocus != nil else { return nil }
    return configuration.inForce[app]?.notificationFilter ?? NotificationFilter(predicate: nil)
  }

  /// Decides a notification for `app` under the active Focus, keeps it in the history and,
  /// when it is delivered, updates the badge: `aps.badge` sets it (0 clears it), otherwise
  /// it goes up by one. Muted notifications never touch the badge.
  @discardableResult
  public func deliver(_ content: NotificationContent, to app: String) throws(FocusStoreError) -> DeliveryRecord {
    let filter = notificationFilter(for: app)
    let record = DeliveryRecord(
      sequence: nextSequence, app: app, content: content, focus: configuration.activeFocus,
      decision: NotificationFilter.decide(content, under: filter), isRead: false,
      opensFocusScene: filter?.selectsScene(content.targetContentIdentifier) ?? false)
    nextSequence += 1
    records.append(record)
    if records.count > historyLimit { records.removeFirst(records.count - historyLimit) }
    if record.decision.outcome == .delivered { badges[app] = Self.badge(after: badges[app, default: 0], content) }
    try persistDelivery(record)
    return record
  }

  /// The badge after one delivered notification.
  private static func badge(after count: Int, _ content: NotificationContent) -> Int {
    if let badge = content.badge { return max(badge, 0) }
    return count + 1
  }

  /// The history, oldest first: every notification, delivered or muted (optionally one
  /// app's); at most ``historyLimit`` of them.
  public func history(of app: String? = nil) -> [DeliveryRecord] {
    guard let app else { return records }
    return records.filter { $0.app == app }
  }

  /// The app's badge: what was delivered under the active Focus and not read, or what the
  /// app or the sender set; 0 while the app's filter in force hides badges.
  public func badgeCount(of app: String) -> Int {
    if notificationFilter(for: app)?.hidesBadges == true { return 0 }
    return badges[app, default: 0]
  }

  /// Sets `app`'s badge, as the app does with `setBadgeCount` (see
  /// ``FocusFilter/setBadgeCount(_:)``, the app-side call). The count holds until a delivered
  /// notification changes it, the app reads its notifications, or the next Focus change
  /// recounts it.
  public func setBadgeCount(_ count: Int, for app: String) throws {
    guard count >= 0 else { throw FocusSystemError(message: "a badge count cannot be negative (got \(count))") }
    badges[app] = count
    try persistBadges()
  }

  /// Marks every notification of `app` read (its badge goes to 0).
  public func markAllRead(app: String) throws(FocusStoreError) {
    for k in records.indices where records[k].app == app { records[k].isRead = true }
    badges[app] = 0
    if case .database(let database, let user) = persistence {
      try database.markRead(user: user, app: app)
      try database.saveBadges(badges, user: user)
    }
  }

  /// The badge after a Focus change: what matters under the new Focus, as the talk
  /// recommends (`setBadgeCount`), recounted from the unread history: each unread
  /// notification the new filters deliver adds one or sets its `aps.badge`.
  private func recomputeBadges() {
    var counts: [String: Int] = [:]
    for record in records where !record.isRead {
      let filter = notificationFilter(for: record.app)
      if NotificationFilter.decide(record.content, under: filter).outcome == .delivered {
        counts[record.app] = Self.badge(after: counts[record.app, default: 0], record.content)
      }
    }
    badges = counts
  }

  private func persist() throws(FocusStoreError) {
    switch persistence {
    case .none: return
    case .json(let store): try store.save(configuration)
    case .database(let database, let user):
      try database.saveUser(user, configuration: configuration, badges: badges)
    }
  }

  private func persistBadges() throws(FocusStoreError) {
    if case .database(let database, let user) = persistence { try database.saveBadges(badges, user: user) }
  }

  private func persistDelivery(_ record: DeliveryRecord) throws(FocusStoreError) {
    if case .database(let database, let user) = persistence {
      try database.appendHistory(record, user: user, limit: historyLimit, badges: badges)
    }
  }
}

/// Where a system keeps its state.
enum FocusPersistence: Sendable {
  /// Memory only.
  case none
  /// One JSON file (a single app's configuration).
  case json(FocusStore)
  /// A user's rows in a service's SQLite database.
  case database(FocusDatabase, user: String)
}
