import Synchronization

/// What goes wrong on the system side.
public struct FocusSystemError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public var message: String
  /// The message.
  public var description: String { message }
}

/// How a system keeps an app's badge.
public enum BadgeRule: Sendable, Hashable {
  /// Apple's rule, the default: a delivered notification with `aps.badge` sets the badge
  /// (0 clears it); one without leaves it unchanged, and so does a Focus change. The app
  /// sets the count that matters (``FocusFilter/setBadgeCount(_:)``, typically from
  /// `perform()`).
  case apns
  /// The unread count, for a service that keeps it for its apps: each delivered
  /// notification adds one (or sets its `aps.badge`), and every Focus change recounts each
  /// app's badge from the unread history under the new filters, before `perform()` runs.
  case unreadCount
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
/// Every change is built aside, persisted, and only then installed: a change that fails to
/// persist throws and leaves the system (and a service's decisions) as they were.
/// Activations are serialised: each one starts after the previous one finished, so the
/// last requested wins. Every result computed across an `await` is checked against the
/// activation generation before it is installed, so a slow re-read of an app context never
/// lands under a Focus it was not computed for. The filters in force are persisted with the
/// configuration, so a restart decides exactly as before it.
public actor FocusSystem {
  /// The user this system is for: the id of a service's or a database's user, nil for a
  /// standalone system. Code in `perform()` reads it as ``FocusFilter/currentUser``.
  public nonisolated let user: String?
  private let persistence: FocusPersistence
  /// The modes, the active Focus, the saved parameters and the filters in force (persisted
  /// after every change when the system has a store).
  public private(set) var configuration: FocusConfiguration
  /// The registered apps: the system's own, or its service's (shared by every user).
  private nonisolated let registry: AppRegistry
  /// Apps this user's system marked as running or not, over their registrations.
  private var running: [IDKey: Bool] = [:]
  /// The history of a system without a database (a database keeps it on disk only).
  private var records: [DeliveryRecord] = []
  private var recordBytes = 0
  private var nextSequence = 1
  private var badges: [String: Int] = [:]
  /// How many notifications the history keeps (the oldest go first).
  public nonisolated let historyLimit: Int
  /// How many bytes the history keeps (``DeliveryRecord``'s strings plus 64 per record;
  /// the oldest go first, and a record larger than the whole bound is not kept).
  public nonisolated let historyByteLimit: Int
  /// How badges are kept.
  public nonisolated let badgeRule: BadgeRule
  /// Bumped when an activation installs its filters: what a result computed across an
  /// `await` checks before it is installed.
  private var generation = 0
  /// The latest app-context re-read started per app: only the latest may install.
  private var reloadTickets: [String: Int] = [:]
  /// The end of the activation chain (activations run one after another); nil when none
  /// is queued, so an idle system holds no task.
  private var tail: Task<Void, Never>?
  private var queued = 0
  /// Told the active Focus, its policy and the filters in force after every change that
  /// was persisted (a ``FocusService``'s decision table).
  private let observer: (@Sendable (String?, FocusPolicy?, [String: AppliedFilter]) -> Void)?
  /// Set when the service deleted the user: checked under the database's lock before
  /// every write, so nothing recreates a deleted user.
  nonisolated let lifetime: SystemLifetime
  /// Activation requests received (the race tests wait for a request to be queued).
  private(set) var activationRequests = 0

  /// The default of ``historyByteLimit``: 1 MiB.
  public static let defaultHistoryByteLimit = 1 << 20

  /// A system whose configuration lives in `store`, a JSON file for a single app (loaded
  /// now: an unreadable file is an error, not an empty start). The history and badges are
  /// kept in memory.
  public init(
    store: FocusStore, historyLimit: Int = 10_000, historyByteLimit: Int = FocusSystem.defaultHistoryByteLimit,
    badges: BadgeRule = .apns
  ) throws(FocusStoreError) {
    user = nil
    persistence = .json(store)
    configuration = try store.load()
    registry = AppRegistry()
    observer = nil
    lifetime = SystemLifetime()
    self.historyLimit = max(historyLimit, 0)
    self.historyByteLimit = max(historyByteLimit, 0)
    badgeRule = badges
  }

  /// The system of `user` in a database no ``FocusService`` runs over (created on first
  /// use). The configuration and badges are read now; the history stays on disk.
  ///
  /// - Throws: ``FocusStoreError`` when the user's state cannot be read, or when a service
  ///   runs over the database (get the system with ``FocusService/system(for:)`` then, so
  ///   there is one model of the user).
  public init(
    database: FocusDatabase, user: String, historyLimit: Int = 1_000,
    historyByteLimit: Int = FocusSystem.defaultHistoryByteLimit, badges: BadgeRule = .apns
  ) throws(FocusStoreError) {
    guard !database.isClaimed else { throw database.claimedError("get a user's system") }
    try self.init(
      database: database, user: user, registry: AppRegistry(), observer: nil, lifetime: SystemLifetime(),
      historyLimit: historyLimit, historyByteLimit: historyByteLimit, badges: badges)
  }

  /// A service's system of `user` in its database.
  init(
    database: FocusDatabase, user: String, registry: AppRegistry,
    observer: (@Sendable (String?, FocusPolicy?, [String: AppliedFilter]) -> Void)?, lifetime: SystemLifetime,
    historyLimit: Int, historyByteLimit: Int, badges: BadgeRule
  ) throws(FocusStoreError) {
    self.user = user
    self.lifetime = lifetime
    persistence = .database(database, user: user)
    let state = try database.loadUser(user)
    configuration = state.configuration
    self.badges = state.badges
    nextSequence = state.nextSequence
    self.registry = registry
    self.observer = observer
    self.historyLimit = max(historyLimit, 0)
    self.historyByteLimit = max(historyByteLimit, 0)
    badgeRule = badges
  }

  /// A system kept in memory only.
  public init(
    configuration: FocusConfiguration = FocusConfiguration(), historyLimit: Int = 10_000,
    historyByteLimit: Int = FocusSystem.defaultHistoryByteLimit, badges: BadgeRule = .apns
  ) {
    self.init(
      user: nil, configuration: configuration, registry: AppRegistry(), observer: nil, lifetime: SystemLifetime(),
      historyLimit: historyLimit, historyByteLimit: historyByteLimit, badges: badges)
  }

  /// A memory-only system of a service's user.
  init(
    user: String?, configuration: FocusConfiguration, registry: AppRegistry,
    observer: (@Sendable (String?, FocusPolicy?, [String: AppliedFilter]) -> Void)?, lifetime: SystemLifetime,
    historyLimit: Int, historyByteLimit: Int, badges: BadgeRule
  ) {
    self.user = user
    self.lifetime = lifetime
    persistence = .none
    self.configuration = configuration
    self.registry = registry
    self.observer = observer
    self.historyLimit = max(historyLimit, 0)
    self.historyByteLimit = max(historyByteLimit, 0)
    badgeRule = badges
  }

  /// The active Focus, or nil.
  public var activeFocus: String? { configuration.activeFocus }

  /// Adds a user-defined Focus (a name already present, byte for byte, is left as it is).
  ///
  /// - Throws: ``FocusSystemError`` when a Focus has the same text with other bytes (names
  ///   are compared by bytes); ``FocusStoreError`` when the change cannot be persisted.
  public func addFocus(_ mode: FocusMode) throws {
    try checkAlive()
    guard configuration.mode(named: mode.name) == nil else { return }
    if let other = FocusSpelling.clash(mode.name, in: configuration.modes.lazy.map(\.name)) {
      throw FocusSystemError(message: FocusSpelling.message("Focus name", mode.name, other))
    }
    var next = configuration
    next.modes.append(mode)
    try persist(next, badges: badges)
    configuration = next
  }

  /// Registers an app and its focus filter type. `isRunning` decides whether a Focus change
  /// calls `perform()` in the app or goes to `extensionHandler`, which receives the filter
  /// in force and runs it with ``FocusChange/perform()``. `allowsCriticalAlerts` is the
  /// counterpart of Apple's critical-alerts entitlement: only such an app's `critical`
  /// notifications break through a Focus. Takes effect at the next activation.
  ///
  /// - Throws: ``FocusSystemError`` when `app` has the same text as a registered id with
  ///   other bytes.
  public func register<F: FocusFilter>(
    _ filter: F.Type, app: String, isRunning: Bool = true, allowsCriticalAlerts: Bool = false,
    extensionHandler: (@Sendable (FocusChange) async throws -> Void)? = nil
  ) throws {
    try registry.register(
      RegisteredApp(
        filter, app: app, isRunning: isRunning, allowsCriticalAlerts: allowsCriticalAlerts,
        extensionHandler: extensionHandler))
  }

  /// Marks an app as running or not (for this user).
  public func setRunning(_ running: Bool, app: String) { self.running[IDKey(app)] = running }

  /// Runs `body` as code of `app` for this user: inside it, ``FocusFilter/current``,
  /// ``FocusFilter/setBadgeCount(_:)`` and ``FocusFilter/invalidateFocusFilterAppContext()``
  /// reach this system and app. The system does the same around `perform()`, `appContext`
  /// and extension handlers.
  ///
  /// - Throws: ``FocusSystemError`` when no app with exactly this id is registered (a typo
  ///   would otherwise reach nothing), and whatever `body` throws.
  public nonisolated func withApp<T: Sendable>(_ app: String, _ body: () async throws -> T) async throws -> T {
    _ = try registry.require(app)
    return try await FocusScope.$current.withValue(FocusScope(system: self, app: app)) { try await body() }
  }

  /// The filter of `app` in force: built from the values the last activation used, or
  /// `F()` with every default when no Focus is active or nothing is saved for the app.
  /// What ``FocusFilter/current`` returns inside the app's scope.
  ///
  /// - Throws: ``FocusFilterError/notRegistered(filter:)`` when `app` is registered with
  ///   another filter type; a ``FocusParameterError`` when the filter cannot be rebuilt.
  public func currentFilter<F: FocusFilter>(_ type: F.Type, for app: String) async throws -> F {
    if let registered = registry.app(app), registered.filterKey != F.registryKey {
      throw FocusFilterError.notRegistered(filter: F.registryKey)
    }
    guard configuration.activeFocus != nil, let values = configuration.inForce.exactly(app)?.parameterValues else {
      return F()
    }
    return try await F(parameterValues: values)
  }

  /// Reads the app context of `app` again (the app asked, with
  /// ``FocusFilter/invalidateFocusFilterAppContext()``, because what its predicate allows
  /// changed). The filter is rebuilt from the values in force; the result is installed only
  /// if no activation happened and no later re-read started while it was being built.
  public func reloadAppContext(for app: String) async throws {
    try checkAlive()
    guard let focus = configuration.activeFocus, let registered = registry.app(app),
      let values = configuration.inForce.exactly(app)?.parameterValues
    else { return }
    let started = generation
    let ticket = reloadTickets[app, default: 0] + 1
    reloadTickets[app] = ticket
    let filter = try await registered.make(values)
    // The await above may have let an activation or a newer re-read in: install only if
    // this result is still the current one.
    guard started == generation, reloadTickets[app] == ticket, configuration.activeFocus == focus else { return }
    let (notificationFilter, _) = buildNotificationFilter(
      filter, registered: registered, focus: focus, allowsTimeSensitive: allowsTimeSensitive(focus))
    var next = configuration
    next.inForce[app] = AppliedFilter(parameterValues: values, notificationFilter: notificationFilter)
    let nextBadges = try recountedBadges(under: next)
    try persist(next, badges: nextBadges)
    configuration = next
    badges = nextBadges
    publish()
  }

  /// Saves what the user set for `app`'s filter under `focus` (only the parameters that are
  /// set are stored). Takes effect at the next activation of that Focus.
  ///
  /// - Throws: ``FocusSystemError`` when there is no such Focus, no app with exactly this id
  ///   is registered, or it is registered with another filter type; ``FocusStoreError``
  ///   when the change cannot be persisted.
  public func save<F: FocusFilter>(_ filter: F, for app: String, in focus: String) throws {
    try checkAlive()
    guard let mode = configuration.mode(named: focus) else {
      throw FocusSystemError(message: "there is no Focus named \(AppRegistry.quoted(focus))")
    }
    let registered = try registry.require(app)
    guard registered.filterKey == F.registryKey else {
      throw FocusSystemError(
        message: "the app \(AppRegistry.quoted(app)) is registered with \(registered.filterKey), not \(F.registryKey)")
    }
    var next = configuration
    next.savedParameters[mode.name, default: [:]][registered.app] = filter.parameterValues
    try persist(next, badges: badges)
    configuration = next
  }

  /// Turns `focus` on (or every Focus off, with nil), after any activation already
  /// requested has finished. For each registered app the filter is built from the values
  /// saved for that Focus, or with the defaults when the Focus ends or nothing is saved for
  /// the app. Then the new state is persisted, the filters switch in one step (and, under
  /// ``BadgeRule/unreadCount``, every badge is recounted); only then is each running app's
  /// `perform()` called (so a count the app sets there with ``FocusFilter/setBadgeCount(_:)``
  /// wins), and an app that is not running gets the change through its extension handler.
  ///
  /// Returns the apps whose filter could not be built, whose app context failed or whose
  /// `perform()` threw, with the error. An app whose filter or context failed is switched
  /// anyway and fails closed: its notifications are muted with
  /// ``NotificationDecision/Reason/filterUnavailable(_:)``.
  ///
  /// - Throws: ``FocusSystemError`` for an unknown Focus; ``FocusStoreError`` when the new
  ///   state cannot be persisted (nothing changes then, and no `perform()` runs).
  @discardableResult
  public func activate(_ focus: String?) async throws -> [String: String] {
    activationRequests += 1
    return try await serially { try await $0.runActivation(focus, performing: true) }
  }

  /// Builds the filters in force of the active Focus again from the saved values, without
  /// calling `perform()`: for a configuration read from a file written before the filters
  /// in force were saved, which decides fail-closed until they are built.
  @discardableResult
  public func restoreFiltersInForce() async throws -> [String: String] {
    try await serially { try await $0.runActivation($0.configuration.activeFocus, performing: false) }
  }

  /// Runs `body` after every activation requested before it.
  private func serially<T: Sendable>(_ body: @escaping @Sendable (FocusSystem) async throws -> T) async throws -> T {
    let previous = tail
    queued += 1
    let run = Task { () async throws -> T in
      await previous?.value
      return try await body(self)
    }
    tail = Task { _ = await run.result }
    defer {
      queued -= 1
      if queued == 0 { tail = nil }
    }
    return try await run.value
  }

  /// Builds the filters of `focus` and installs them with the Focus. `imported` is a
  /// configuration being imported (its filters in force unknown): the filters are built
  /// from it and it is installed with them, while the system keeps deciding with its
  /// current configuration until both are persisted.
  private func runActivation(_ focus: String?, performing: Bool, imported: FocusConfiguration? = nil) async throws
    -> [String: String]
  {
    try checkAlive()
    let source = imported ?? configuration
    if let focus, source.mode(named: focus) == nil {
      throw FocusSystemError(message: "there is no Focus named \(AppRegistry.quoted(focus))")
    }
    let timeSensitive = focus.map { Self.allowsTimeSensitive($0, in: source) } ?? true
    var next: [String: AppliedFilter] = [:]
    var failures: [String: String] = [:]
    var changes: [PendingChange] = []
    for registered in registry.all {
      let app = registered.app
      let values = focus.flatMap { source.savedParameters.exactly($0)?.exactly(app) }
      var filter = registered.defaults()
      if let focus, let values {
        do {
          filter = try await registered.make(values)
          let (notificationFilter, failure) = buildNotificationFilter(
            filter, registered: registered, focus: focus, allowsTimeSensitive: timeSensitive)
          if let failure { failures[app] = failure }
          next[app] = AppliedFilter(parameterValues: values, notificationFilter: notificationFilter)
        } catch {
          let message = "the \(registered.filterKey) filter for the \(focus) Focus cannot be built: \(error)"
          failures[app] = message
          next[app] = AppliedFilter(
            parameterValues: values,
            notificationFilter: .unavailable(
              message, allowsTimeSensitive: timeSensitive, allowsCriticalAlerts: registered.allowsCriticalAlerts))
        }
      } else if focus != nil {
        // Active, nothing saved for the app: perform() gets the defaults, nothing is filtered.
        next[app] = AppliedFilter(
          parameterValues: nil,
          notificationFilter: NotificationFilter(
            predicate: nil, allowsTimeSensitive: timeSensitive, allowsCriticalAlerts: registered.allowsCriticalAlerts))
      }
      changes.append(PendingChange(app: app, filter: filter, values: values ?? [:]))
    }
    // Serialised, so no other activation ran during the awaits above; the configuration
    // is read again here, so saves made meanwhile are kept (an import replaces it whole).
    try checkAlive()
    var nextConfiguration = imported ?? configuration
    nextConfiguration.inForce = next
    nextConfiguration.activeFocus = focus
    nextConfiguration.filtersInForceUnknown = false
    let nextBadges = try recountedBadges(under: nextConfiguration)
    try persist(nextConfiguration, badges: nextBadges)
    // Persisted: install. Bumping the generation discards any app-context re-read that
    // started under the old filters.
    generation += 1
    configuration = nextConfiguration
    badges = nextBadges
    publish()
    guard performing else { return failures }

    for change in changes {
      guard let registered = registry.app(change.app) else { continue }
      do {
        if running[IDKey(change.app)] ?? registered.isRunning {
          try await FocusScope.$current.withValue(FocusScope(system: self, app: change.app)) {
            try await change.filter.perform()
          }
        } else if let handler = registered.extensionHandler {
          let event = FocusChange(
            app: change.app, focus: focus, filter: change.filter, parameterValues: change.values, system: self)
          try await FocusScope.$current.withValue(FocusScope(system: self, app: change.app)) {
            try await handler(event)
          }
        }
      } catch {
        failures[change.app] = failures[change.app] ?? "perform() failed: \(error)"
      }
    }
    return failures
  }

  private func allowsTimeSensitive(_ focus: String) -> Bool { Self.allowsTimeSensitive(focus, in: configuration) }

  private static func allowsTimeSensitive(_ focus: String, in configuration: FocusConfiguration) -> Bool {
    configuration.mode(named: focus)?.allowsTimeSensitive ?? true
  }

  /// The notification filter of a built filter under `focus`: its app context, with the
  /// Focus's time-sensitive setting and the app's critical-alert permission. A context that
  /// throws gives a filter that fails closed, and the message naming the filter, the Focus
  /// and the error.
  private func buildNotificationFilter(
    _ filter: any FocusFilter, registered: RegisteredApp, focus: String, allowsTimeSensitive: Bool
  ) -> (NotificationFilter, failure: String?) {
    do {
      let context = try FocusScope.$current.withValue(FocusScope(system: self, app: registered.app)) {
        try filter.appContext
      }
      return (
        NotificationFilter(
          predicate: context.notificationFilterPredicate,
          targetContentIdentifierPrefix: context.targetContentIdentifierPrefix, hidesBadges: context.hidesBadges,
          allowsTimeSensitive: allowsTimeSensitive, allowsCriticalAlerts: registered.allowsCriticalAlerts), nil
      )
    } catch {
      let message = "the app context of \(String(reflecting: type(of: filter))) for the \(focus) Focus failed: \(error)"
      return (
        .unavailable(
          message, allowsTimeSensitive: allowsTimeSensitive, allowsCriticalAlerts: registered.allowsCriticalAlerts),
        message
      )
    }
  }

  /// One app's side of a Focus change, built before the filters switch and told after.
  private struct PendingChange {
    var app: String
    var filter: any FocusFilter
    var values: [String: FocusParameterValue]
  }

  /// Replaces the whole configuration (an import through ``FocusService``), after any
  /// activation requested before. When its filters in force are unknown (a file written
  /// before they were saved), they are built from its saved values first, without
  /// `perform()`.
  func replaceConfiguration(_ imported: FocusConfiguration) async throws {
    try await serially { system in
      try await system.installImported(imported)
    }
  }

  private func installImported(_ imported: FocusConfiguration) async throws {
    try checkAlive()
    if let problem = FocusSpelling.problem(in: imported, registry: registry) {
      throw FocusSystemError(message: "cannot import the configuration: \(problem)")
    }
    var next = imported
    if next.filtersInForceUnknown {
      // Built through the activation path from the imported configuration, which is
      // installed only once it and its filters are persisted: until then (across the
      // awaits of building) the system decides with its current configuration, and a
      // failure changes nothing.
      _ = try await runActivation(next.activeFocus, performing: false, imported: next)
      return
    }
    next.filtersInForceUnknown = false
    let nextBadges = try recountedBadges(under: next)
    try persist(next, badges: nextBadges)
    generation += 1
    configuration = next
    badges = nextBadges
    publish()
  }

  /// Installs `filter` as the filter of `app` under `focus` directly (a service's
  /// ``FocusService/setFilters(_:)`` for a user whose system is live), adding `focus` as a
  /// user-defined mode when the user has no such Focus.
  func installFilter(_ filter: NotificationFilter, app: String, focus: String) throws {
    try checkAlive()
    if let other = FocusSpelling.clash(focus, in: configuration.modes.lazy.map(\.name)) {
      throw FocusSystemError(message: FocusSpelling.message("Focus name", focus, other))
    }
    let kept = configuration.activeFocus?.sameBytes(as: focus) == true ? Array(configuration.inForce.keys) : []
    if let other = FocusSpelling.clash(app, in: kept) ?? registry.clash(app) {
      throw FocusSystemError(message: FocusSpelling.message("app id", app, other))
    }
    var next = configuration
    if next.mode(named: focus) == nil { next.modes.append(FocusMode(name: focus)) }
    if let current = next.activeFocus, !current.sameBytes(as: focus) { next.inForce = [:] }
    next.activeFocus = focus
    if let key = next.inForce.keys.first(where: { $0.sameBytes(as: app) }) { next.inForce[key] = nil }
    next.inForce[app] = AppliedFilter(parameterValues: [:], notificationFilter: filter)
    next.filtersInForceUnknown = false
    try persist(next, badges: badges)
    generation += 1
    configuration = next
    publish()
  }

  /// The filter deciding `app`'s notifications now (nil when no Focus is active). Apps the
  /// active Focus silences are decided by it first (``decision(for:app:)``).
  public func notificationFilter(for app: String) -> NotificationFilter? {
    guard let focus = configuration.activeFocus else { return nil }
    if configuration.filtersInForceUnknown {
      return .unavailable(
        "the filters in force under the \(focus) Focus were not saved with this configuration "
          + "(it predates them); activate the Focus again, or call restoreFiltersInForce()",
        allowsTimeSensitive: allowsTimeSensitive(focus))
    }
    return configuration.inForce.exactly(app)?.notificationFilter
      ?? NotificationFilter(predicate: nil, allowsTimeSensitive: allowsTimeSensitive(focus))
  }

  /// The decision for a notification of `app` under the active Focus, without keeping it:
  /// what ``deliver(_:to:)`` records. The Focus's allowed apps and senders first, then the
  /// app's filter.
  public func decision(for content: NotificationContent, app: String) -> NotificationDecision {
    decide(content, app: app, under: configuration)
  }

  private func decide(_ content: NotificationContent, app: String, under configuration: FocusConfiguration)
    -> NotificationDecision
  {
    guard let focus = configuration.activeFocus else { return .noActiveFocus }
    let policy = configuration.mode(named: focus)?.policy ?? FocusPolicy.default(forFocus: focus)
    let filter: NotificationFilter?
    if configuration.filtersInForceUnknown {
      filter = notificationFilter(for: app)
    } else {
      filter = configuration.inForce.exactly(app)?.notificationFilter
    }
    let critical = registry.app(app)?.allowsCriticalAlerts == true || filter?.allowsCriticalAlerts == true
    return policy.decide(content, app: app, filter: filter, allowsCriticalAlerts: critical)
  }

  /// Decides a notification for `app` under the active Focus, keeps it in the history and,
  /// when it is delivered, updates the badge by the system's ``badgeRule``. Muted
  /// notifications never touch the badge. The record keeps what decisions and badges need
  /// (``DeliveryRecord``).
  @discardableResult
  ///
  /// - Throws: ``FocusSystemError`` for an app that is not registered;
  ///   ``FocusStoreError`` when the record cannot be persisted (nothing changes then).
  public func deliver(_ content: NotificationContent, to app: String) throws -> DeliveryRecord {
    try checkAlive()
    let app = try registry.require(app).app
    let filter = configuration.activeFocus == nil ? nil : notificationFilter(for: app)
    let record = DeliveryRecord(
      sequence: nextSequence, app: app, content: content, focus: configuration.activeFocus,
      decision: decide(content, app: app, under: configuration), isRead: false,
      opensFocusScene: filter?.selectsScene(content.targetContentIdentifier) ?? false
    ).trimmed()
    var badge: Int?
    if record.decision.outcome == .delivered {
      switch badgeRule {
      case .apns: badge = content.badge
      case .unreadCount: badge = Self.badge(after: badges[app, default: 0], content)
      }
    }
    if case .database(let database, let user) = persistence {
      try database.appendHistory(
        record, user: user, limit: historyLimit, byteLimit: historyByteLimit, badge: badge, alive: lifetime)
    }
    nextSequence += 1
    if case .database = persistence {
    } else {
      keepInMemory(record)
    }
    if let badge { badges[app] = badge }
    return record
  }

  /// Appends to the in-memory history and drops the oldest beyond the bounds.
  private func keepInMemory(_ record: DeliveryRecord) {
    let bytes = record.retainedBytes
    guard historyLimit > 0, bytes <= historyByteLimit else { return }
    records.append(record)
    recordBytes += bytes
    var drop = 0
    var dropped = 0
    while records.count - drop > historyLimit || recordBytes - dropped > historyByteLimit {
      dropped += records[drop].retainedBytes
      drop += 1
    }
    if drop > 0 {
      records.removeFirst(drop)
      recordBytes -= dropped
    }
  }

  /// The badge after one delivered notification under ``BadgeRule/unreadCount``: its
  /// `aps.badge`, or one more (stopping at ``NotificationContent/maximumBadge``).
  package static func badge(after count: Int, _ content: NotificationContent) -> Int {
    if let badge = content.badge { return badge }
    return count >= NotificationContent.maximumBadge ? NotificationContent.maximumBadge : max(count, 0) + 1
  }

  /// The history, oldest first: every notification, delivered or muted (optionally one
  /// app's); at most ``historyLimit`` of them and ``historyByteLimit`` bytes.
  public func history(of app: String? = nil) throws(FocusStoreError) -> [DeliveryRecord] {
    if case .database(let database, let user) = persistence { return try database.history(user: user, app: app) }
    guard let app else { return records }
    return records.filter { $0.app.sameBytes(as: app) }
  }

  /// The app's badge: what the sender or the app set (and, under ``BadgeRule/unreadCount``,
  /// what was delivered under the active Focus and not read); 0 while the app's filter in
  /// force hides badges.
  public func badgeCount(of app: String) -> Int {
    if notificationFilter(for: app)?.hidesBadges == true { return 0 }
    return badges.exactly(app) ?? 0
  }

  /// Sets `app`'s badge, as the app does with `setBadgeCount` (see
  /// ``FocusFilter/setBadgeCount(_:)``, the app-side call); a count above
  /// ``NotificationContent/maximumBadge`` is clamped to it. The count holds until a
  /// delivered notification changes it, the app reads its notifications, or (under
  /// ``BadgeRule/unreadCount``) the next Focus change recounts it.
  ///
  /// - Throws: ``FocusSystemError`` for a negative count or an app that is not registered;
  ///   ``FocusStoreError`` when it cannot be persisted.
  public func setBadgeCount(_ count: Int, for app: String) throws {
    try checkAlive()
    guard count >= 0 else { throw FocusSystemError(message: "a badge count cannot be negative (got \(count))") }
    let registered = try registry.require(app)
    let clamped = NotificationContent.clampedBadge(count)
    if case .database(let database, let user) = persistence {
      try database.saveBadge(clamped, app: registered.app, user: user, alive: lifetime)
    }
    badges[registered.app] = clamped
  }

  /// Marks every notification of `app` read (its badge goes to 0).
  public func markAllRead(app: String) throws {
    try checkAlive()
    if case .database(let database, let user) = persistence {
      try database.markRead(user: user, app: app, alive: lifetime)
    }
    for k in records.indices where records[k].app.sameBytes(as: app) { records[k].isRead = true }
    badges[app] = 0
  }

  /// The badges under ``BadgeRule/unreadCount`` after a change of the filters: what
  /// matters under the new Focus, as the talk recommends, recounted from the unread
  /// history: each unread notification the new filters deliver adds one or sets its
  /// `aps.badge`. Under ``BadgeRule/apns`` the badges stay as they are.
  private func recountedBadges(under next: FocusConfiguration) throws -> [String: Int] {
    guard badgeRule == .unreadCount else { return badges }
    let unread: [DeliveryRecord]
    if case .database(let database, let user) = persistence {
      unread = try database.history(user: user, app: nil, unreadOnly: true)
    } else {
      unread = records.filter { !$0.isRead }
    }
    var counts: [String: Int] = [:]
    for record in unread where decide(record.content, app: record.app, under: next).outcome == .delivered {
      counts[record.app] = Self.badge(after: counts[record.app, default: 0], record.content)
    }
    return counts
  }

  /// Tells the service the state that decides (after it was persisted).
  private func publish() {
    guard let observer else { return }
    let policy = configuration.activeFocus.map {
      configuration.mode(named: $0)?.policy ?? FocusPolicy.default(forFocus: $0)
    }
    observer(configuration.activeFocus, policy, configuration.inForce)
  }

  private func persist(_ next: FocusConfiguration, badges: [String: Int]) throws(FocusStoreError) {
    switch persistence {
    case .none: return
    case .json(let store): try store.save(next)
    case .database(let database, let user):
      try database.saveUser(user, configuration: next, badges: badges, alive: lifetime)
    }
  }

  /// Throws once the service deleted this user.
  private func checkAlive() throws(FocusSystemError) {
    if lifetime.isDeleted {
      throw FocusSystemError(message: "the user \(AppRegistry.quoted(user ?? "")) was deleted from the service")
    }
  }
}

/// Whether a service deleted a system's user; read and set under the lock of what the
/// system writes to (the database's, or the service's table), so a write racing a deletion
/// either lands before it or fails.
final class SystemLifetime: Sendable {
  private let deleted = Atomic<Bool>(false)
  var isDeleted: Bool { deleted.load(ordering: .sequentiallyConsistent) }
  func markDeleted() { deleted.store(true, ordering: .sequentiallyConsistent) }
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
