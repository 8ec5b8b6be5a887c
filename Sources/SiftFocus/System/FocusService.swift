import Synchronization

/// Focus for many users in one process: the server-side decision for each notification,
/// addressed to a user and an app, and one ``FocusSystem`` per user for everything else
/// (activations, saved parameters, history, badges), all kept in one ``FocusDatabase``.
///
/// Users share nothing but immutable data: the app registrations, and the program that
/// decides the talk's `SELF IN %@` shape (each user keeps only their ids). Decisions read a
/// table that each user's system updates when its filters change, once the change is
/// persisted, so a decision never waits for an activation and always sees one whole set of
/// filters of one user.
///
/// There is one model of each user, whichever call made it: ``setFilters(_:)``,
/// ``importConfiguration(_:for:)`` and ``deleteUser(_:)`` go through the user's live
/// system when there is one, and ``system(for:)`` starts from what they stored. User ids
/// are compared by their bytes in every layer (``IDKey``).
///
/// With a database, a system that nothing but the service holds is released once more than
/// ``liveSystemLimit`` are live (and by ``releaseIdleSystems()``); the next
/// ``system(for:)`` reads the user again. A memory-only service keeps every user's system,
/// since it holds the only copy of their state.
///
/// ```swift
/// let service = try FocusService(database: FocusDatabase(path: "focus.sqlite"))
/// try service.register(ChatFocusFilter.self, app: "chat")
/// let alice = try await service.system(for: "alice")
/// try await alice.save(workFilter, for: "chat", in: "Work")
/// try await alice.activate("Work")
/// service.decide(notification, user: "alice", app: "chat").outcome   // .delivered / .muted
/// ```
public final class FocusService: Sendable {
  /// Where the users' state lives; nil for a service kept in memory.
  public let database: FocusDatabase?
  let registry = AppRegistry()
  private let cache = Mutex(SystemCache())
  private let table = Mutex(DecisionTable())
  /// How the users' systems keep badges.
  public let badgeRule: BadgeRule
  /// How many systems a service with a database keeps before it releases the idle ones.
  public let liveSystemLimit: Int
  /// The history bounds of the users' systems.
  public let historyLimit: Int
  /// The history byte bound of the users' systems.
  public let historyByteLimit: Int
  /// Users whose stored state could not be read when the service loaded, with why: each of
  /// them decides fail-closed (their unreadable filters mute with `filterUnavailable`,
  /// an unreadable Focus policy silences every app) while every other user is served.
  public let loadProblems: [String: String]

  /// A service over `database`: every user's active Focus and filters in force are loaded
  /// now (the talk's shape without a compile), so decisions are right from the first
  /// notification after a restart.
  ///
  /// - Throws: ``FocusStoreError`` when the database cannot be read, or another service
  ///   already runs over this ``FocusDatabase``.
  public init(
    database: FocusDatabase, badges: BadgeRule = .apns, liveSystemLimit: Int = 10_000, historyLimit: Int = 1_000,
    historyByteLimit: Int = FocusSystem.defaultHistoryByteLimit
  ) throws(FocusStoreError) {
    try database.claim()
    self.database = database
    badgeRule = badges
    self.liveSystemLimit = max(liveSystemLimit, 0)
    self.historyLimit = historyLimit
    self.historyByteLimit = historyByteLimit
    var loaded = DecisionTable()
    var problems: [String: String] = [:]
    // Rows arrive ordered by user (by bytes), so one user's apps are collected, then the
    // user's row is made and filled in one step (a row number is only valid until the next
    // insertion).
    var pending: (row: FocusDatabase.LoadedRow, filters: [AppFilter])?
    // The default policy of the last Focus name seen: most users are in one of a few.
    var lastDefault: (focus: String, policy: FocusPolicy)?
    func flush(_ entry: (row: FocusDatabase.LoadedRow, filters: [AppFilter])) {
      let row = loaded.slot(for: entry.row.user)
      var policy = entry.row.policy
      if policy == nil, let focus = entry.row.focus {
        if let last = lastDefault, last.focus.sameBytes(as: focus) {
          policy = last.policy
        } else {
          let made = FocusPolicy.default(forFocus: focus)
          lastDefault = (focus, made)
          policy = made
        }
      }
      loaded.setMode(entry.row.focus, policy: policy ?? FocusPolicy.default(forFocus: ""), row: row)
      loaded.setFilters(entry.filters, row: row)
    }
    do throws(FocusStoreError) {
      // Sized once: growing a table of a million users rehashes it some twenty times.
      loaded = DecisionTable(expectedUsers: try database.userCount())
      try database.forEachFilterInForce { (row, filter) throws(FocusStoreError) in
        if let entry = pending, !entry.row.user.sameBytes(as: row.user) {
          flush(entry)
          pending = nil
        }
        if pending == nil { pending = (row, []) }
        if let problem = row.problem { problems[row.user] = problem }
        guard let app = row.app else { return }
        do throws(FocusStoreError) {
          pending?.filters.append(AppFilter(app: app, filter: try filter()))
        } catch {
          // One unreadable row fails that user's app closed; the other users load.
          problems[row.user] = error.message
          pending?.filters.append(
            AppFilter(app: app, filter: .unavailable("the filter in force could not be read: \(error.message)")))
        }
      }
    } catch {
      database.release()
      throw error
    }
    if let entry = pending { flush(entry) }
    loadProblems = problems
    table.withLock { $0 = loaded }
  }

  /// A service kept in memory only (tests, and services that persist elsewhere).
  public init(
    badges: BadgeRule = .apns, historyLimit: Int = 10_000, historyByteLimit: Int = FocusSystem.defaultHistoryByteLimit
  ) {
    database = nil
    badgeRule = badges
    liveSystemLimit = Int.max
    self.historyLimit = historyLimit
    self.historyByteLimit = historyByteLimit
    loadProblems = [:]
  }

  deinit { database?.release() }

  /// The number of users the decision table holds.
  public var userCount: Int { table.withLock { $0.count } }

  /// The number of users' systems in memory.
  public var liveSystemCount: Int { cache.withLock { $0.systems.count } }

  /// Registers an app's filter type for every user: systems that exist see it at once,
  /// systems made later too. `isRunning`, `allowsCriticalAlerts` and `extensionHandler` are
  /// as in ``FocusSystem/register(_:app:isRunning:allowsCriticalAlerts:extensionHandler:)``
  /// (with the same defaults); the new filter type builds the app's filter at each user's
  /// next activation.
  ///
  /// - Throws: ``FocusSystemError`` when `app` has the same text as a registered id with
  ///   other bytes.
  public func register<F: FocusFilter>(
    _ filter: F.Type, app: String, isRunning: Bool = true, allowsCriticalAlerts: Bool = false,
    extensionHandler: (@Sendable (FocusChange) async throws -> Void)? = nil
  ) throws(FocusSystemError) {
    try registry.register(
      RegisteredApp(
        filter, app: app, isRunning: isRunning, allowsCriticalAlerts: allowsCriticalAlerts,
        extensionHandler: extensionHandler))
    table.withLock { $0.setAllowsCriticalAlerts(allowsCriticalAlerts, app: app) }
  }

  /// The system of `user`: the live one, or one made now with every registered app, from
  /// what the database (or, for a memory-only service, the decision table) holds of the
  /// user. Made and wired to this service's decisions before any other caller can see it.
  public func system(for user: String) async throws -> FocusSystem {
    let (system, isNew) = try cache.withLock { (cache) throws(FocusStoreError) -> (FocusSystem, Bool) in
      if let system = cache.systems[IDKey(user)] { return (system, false) }
      // Made whole (apps, observer, state) before it enters the cache, where other callers
      // find it: a second caller never gets a system that is still being wired.
      let system = try makeSystem(user)
      cache.systems[IDKey(user)] = system
      if cache.systems.count > max(liveSystemLimit, cache.sweepAt) {
        let kept = Self.releaseIdle(&cache, keeping: IDKey(user))
        cache.sweepAt = max(liveSystemLimit, kept * 2)
      }
      return (system, true)
    }
    if isNew, let hook = afterMaking.withLock({ $0 }) { await hook(user) }
    return system
  }

  /// Runs after a new system entered the cache and before ``system(for:)`` returns it to
  /// the caller that made it: where the first-use race test holds that caller.
  let afterMaking = Mutex<(@Sendable (String) async -> Void)?>(nil)

  /// A new system of `user`, wired to publish into this service's table.
  private func makeSystem(_ user: String) throws(FocusStoreError) -> FocusSystem {
    let lifetime = SystemLifetime()
    let observer: @Sendable (String?, FocusPolicy?, [String: AppliedFilter]) -> Void = {
      [weak self] focus, policy, inForce in
      self?.publish(user: user, lifetime: lifetime, focus: focus, policy: policy, inForce: inForce)
    }
    if let database {
      return try FocusSystem(
        database: database, user: user, registry: registry, observer: observer, lifetime: lifetime,
        historyLimit: historyLimit, historyByteLimit: historyByteLimit, badges: badgeRule)
    }
    return FocusSystem(
      user: user, configuration: configurationFromTable(user), registry: registry, observer: observer,
      lifetime: lifetime, historyLimit: historyLimit, historyByteLimit: historyByteLimit, badges: badgeRule)
  }

  /// What the table holds of a user installed with ``setFilters(_:)`` in a memory-only
  /// service, as a configuration: the built-in modes (and the active Focus if it is none
  /// of them), the active Focus and its filters.
  private func configurationFromTable(_ user: String) -> FocusConfiguration {
    table.withLock { t in
      var configuration = FocusConfiguration()
      guard let row = t.find(user) else { return configuration }
      if let (focus, policy) = t.mode(row: row) {
        if configuration.mode(named: focus) == nil {
          configuration.modes.append(
            FocusMode(
              name: focus, allowsTimeSensitive: policy.allowsTimeSensitive, allowedApps: policy.allowedApps,
              allowedSenders: policy.allowedSenders))
        }
        configuration.activeFocus = focus
      }
      for entry in t.filters(row: row) {
        configuration.inForce[entry.app] = AppliedFilter(parameterValues: [:], notificationFilter: entry.filter)
      }
      return configuration
    }
  }

  /// Releases the systems that nothing but the service holds (no caller keeps them, no
  /// task runs on them): their state is in the database, and ``system(for:)`` reads it
  /// again. Returns how many were released; always 0 for a memory-only service, whose
  /// systems hold the only copy of their users' state.
  @discardableResult
  public func releaseIdleSystems() -> Int {
    guard database != nil else { return 0 }
    return cache.withLock { cache in
      let before = cache.systems.count
      let kept = Self.releaseIdle(&cache, keeping: nil)
      cache.sweepAt = max(liveSystemLimit, kept * 2)
      return before - kept
    }
  }

  /// Drops every uniquely referenced system but `keeping`; returns how many are left.
  private static func releaseIdle(_ cache: inout SystemCache, keeping: IDKey?) -> Int {
    for key in Array(cache.systems.keys) where key != keeping {
      // Unique: nothing else (no caller, no running task, no FocusChange) holds it, and
      // nothing can get it while the lock is held.
      if isKnownUniquelyReferenced(&cache.systems[key]!) { cache.systems[key] = nil }
    }
    return cache.systems.count
  }

  /// Replaces `user`'s row of the decision table (called by the user's system after every
  /// change of its filters was persisted).
  func publish(
    user: String, lifetime: SystemLifetime, focus: String?, policy: FocusPolicy?, inForce: [String: AppliedFilter]
  ) {
    let filters = inForce.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
      AppFilter(app: $0.key, filter: $0.value.notificationFilter)
    }
    table.withLock { t in
      // Checked under the lock deleteUser takes: a deleted user's row never comes back.
      guard !lifetime.isDeleted else { return }
      let row = t.slot(for: user)
      t.setMode(focus, policy: policy ?? FocusPolicy.default(forFocus: focus ?? ""), row: row)
      t.setFilters(filters, row: row)
    }
  }

  /// Installs `filter` as `user`'s filter for `app` under `focus` directly, without a
  /// filter type (a service that builds its predicates itself); see ``setFilters(_:)``.
  public func setFilter(_ filter: NotificationFilter, user: String, app: String, focus: String) async throws {
    try await setFilters([(user, focus, app, filter)])
  }

  /// Installs many filters at once: stored in the database (one transaction for the users
  /// without a live system) and in the decision table; a user whose system is live gets
  /// them through that system, so it and the table never disagree. A Focus the user does
  /// not have is added as a user-defined mode.
  ///
  /// - Throws: ``FocusSystemError`` when an app id or a Focus name has the text of one the
  ///   user (or the registry) already has with other bytes (ids are compared by bytes, and
  ///   the two would share one entry of the user's configuration); ``FocusStoreError`` when
  ///   the users without a live system cannot be stored, or when such a Focus name matches
  ///   one of a stored user's modes other than the active one (found where the database
  ///   adds the mode). None of the users without a live system changes then, in either
  ///   case. Otherwise the first error of a live system's change, after which the live
  ///   systems before it keep their change.
  public func setFilters(_ entries: [(user: String, focus: String, app: String, filter: NotificationFilter)])
    async throws
  {
    let live = try cache.withLock {
      (cache) throws -> [(FocusSystem, (user: String, focus: String, app: String, filter: NotificationFilter))] in
      var live: [(FocusSystem, (user: String, focus: String, app: String, filter: NotificationFilter))] = []
      var direct: [(user: String, focus: String, app: String, filter: NotificationFilter)] = []
      direct.reserveCapacity(entries.count)
      for entry in entries {
        if let system = cache.systems[IDKey(entry.user)] { live.append((system, entry)) } else { direct.append(entry) }
      }
      guard !direct.isEmpty else { return live }
      try checkSpellings(direct)
      let policies = try database?.writeFilters(direct)
      table.withLock { t in
        for (k, entry) in direct.enumerated() {
          Self.install(entry.filter, user: entry.user, app: entry.app, focus: entry.focus, policy: policies?[k], &t)
        }
      }
      return live
    }
    for (system, entry) in live { try await system.installFilter(entry.filter, app: entry.app, focus: entry.focus) }
  }

  /// Refuses the first entry whose app id or Focus name has the text of one its user
  /// already has (their active Focus and its apps, in the table or earlier in the batch),
  /// or of a registered app, with other bytes: the user's configuration would keep the two
  /// in one entry. The Focus modes a database user has besides the active one are checked
  /// where the database adds a mode.
  private func checkSpellings(_ entries: [(user: String, focus: String, app: String, filter: NotificationFilter)])
    throws(FocusSystemError)
  {
    // What the entries before leave of each user they touched: the active Focus and its apps.
    var touched: [IDKey: (focus: String, apps: [String])] = [:]
    let problem = table.withLock { t -> String? in
      for entry in entries {
        let key = IDKey(entry.user)
        var state = touched[key]
        if state == nil, let row = t.find(entry.user), let mode = t.mode(row: row) {
          state = (mode.name, t.filters(row: row).map(\.app))
        }
        var apps: [String] = []
        if let state {
          if let other = FocusSpelling.clash(entry.focus, in: CollectionOfOne(state.focus)) {
            return FocusSpelling.message("Focus name", entry.focus, other)
          }
          if state.focus.sameBytes(as: entry.focus) { apps = state.apps }
        }
        if let other = FocusSpelling.clash(entry.app, in: apps) ?? registry.clash(entry.app) {
          return FocusSpelling.message("app id", entry.app, other)
        }
        if !apps.contains(where: { $0.sameBytes(as: entry.app) }) { apps.append(entry.app) }
        touched[key] = (entry.focus, apps)
      }
      return nil
    }
    if let problem { throw FocusSystemError(message: problem) }
  }

  private static func install(
    _ filter: NotificationFilter, user: String, app: String, focus: String, policy: FocusPolicy?,
    _ t: inout DecisionTable
  ) {
    let row = t.slot(for: user)
    let current = t.mode(row: row)
    let sameFocus = current?.name.sameBytes(as: focus) == true
    t.setMode(focus, policy: policy ?? (sameFocus ? current!.policy : FocusPolicy.default(forFocus: focus)), row: row)
    var filters = sameFocus ? t.filters(row: row) : []
    if let k = filters.firstIndex(where: { $0.app.sameBytes(as: app) }) {
      filters[k].filter = filter
    } else {
      filters.append(AppFilter(app: app, filter: filter))
      filters.sort { $0.app.utf8.lexicographicallyPrecedes($1.app.utf8) }
    }
    t.setFilters(filters, row: row)
  }

  /// Replaces `user`'s configuration (modes, active Focus, saved parameters, filters in
  /// force) with `configuration`, for instance one read from a ``FocusStore`` file, through
  /// the user's system: stored, seen by this service's decisions, and never overwritten by
  /// a stale copy. A configuration whose filters in force are unknown (a file written
  /// before they were saved) gets them built from its saved values first.
  ///
  /// - Throws: ``FocusSystemError`` when two of the configuration's Focus names or app ids
  ///   have one text and other bytes, or one of its app ids has the text of a registered
  ///   app's with other bytes (ids are compared by bytes; the user's state is left as it
  ///   was); what building or persisting the imported state throws.
  public func importConfiguration(_ configuration: FocusConfiguration, for user: String) async throws {
    let system = try await system(for: user)
    try await system.replaceConfiguration(configuration)
  }

  /// Deletes `user`: their stored state, their row of the decision table and their live
  /// system, whose later calls throw. The user is then unknown
  /// (``NotificationDecision/Reason/unknownUser``); ``system(for:)`` starts them afresh.
  public func deleteUser(_ user: String) throws(FocusStoreError) {
    try cache.withLock { (cache) throws(FocusStoreError) in
      let system = cache.systems[IDKey(user)]
      if let database {
        try database.deleteUser(user, marking: system?.lifetime)
      }
      cache.systems[IDKey(user)] = nil
      table.withLock { t in
        system?.lifetime.markDeleted()
        t.remove(user)
      }
    }
  }

  /// Decides one notification for `app` of `user`, as that user's system would
  /// (``FocusSystem/decision(for:app:)``): delivered with `noActiveFocus` for a user without
  /// an active Focus and `unknownUser` for a user the service does not know; muted with
  /// `silencedByFocus` for an app the Focus silences; otherwise the app's filter, `noFilter`
  /// for an app with none.
  public func decide(_ content: NotificationContent, user: String, app: String) -> NotificationDecision {
    table.withLock { t in
      guard let row = t.find(user) else { return .unknownUser }
      return t.decide(content, row: row, app: app)
    }
  }

  /// One notification addressed to one user's app, for ``decide(_:)``.
  public struct Addressed: Sendable {
    /// The user.
    public var user: String
    /// The app.
    public var app: String
    /// The notification.
    public var content: NotificationContent

    /// Creates an addressed notification.
    public init(user: String, app: String, content: NotificationContent) {
      self.user = user
      self.app = app
      self.content = content
    }
  }

  /// Decides a batch of notifications, in order, under one acquisition of the table: the
  /// same decisions as calling ``decide(_:user:app:)`` for each, faster for a stream of
  /// notifications to random users because the next users' entries (and, for ids over 15
  /// bytes, their bytes) are fetched from memory while the current ones are decided.
  public func decide(_ batch: ArraySlice<Addressed>) -> [NotificationDecision] {
    var decisions: [NotificationDecision] = []
    decisions.reserveCapacity(batch.count)
    table.withLock { t in
      // Three stages: the entry is fetched `ahead` notifications early, a long id's bytes
      // `ahead / 2` early (once its entry has arrived), and the decision made last.
      // 16 measured best against 8 and 28 (two lines per entry, plus the notifications'
      // own memory, keep the core's fill buffers busy).
      let ahead = 16
      let ring = 32
      batch.withUnsafeBufferPointer { items in
        withUnsafeTemporaryAllocation(of: DecisionTable.Locator.self, capacity: ring) { locators in
          let n = items.count
          for k in 0..<min(ahead, n) {
            locators[k] = t.locate(items[k].user)
            t.prefetch(locators[k])
          }
          for k in 0..<n {
            if k + ahead < n {
              let locator = t.locate(items[k + ahead].user)
              locators[(k + ahead) % ring] = locator
              t.prefetch(locator)
            }
            if k + ahead / 2 < n { t.prefetchBytes(locators[(k + ahead / 2) % ring]) }
            guard let row = t.find(locators[k % ring], items[k].user) else {
              decisions.append(.unknownUser)
              continue
            }
            decisions.append(t.decide(items[k].content, row: row, app: items[k].app))
          }
        }
      }
    }
    return decisions
  }

  /// The active Focus of `user` as the decision table has it.
  public func activeFocus(of user: String) -> String? {
    table.withLock { t in t.find(user).flatMap { t.mode(row: $0)?.name } }
  }

  /// The number of side-table slots of the decision table (at most the number of users).
  var sideTableSlots: Int { table.withLock { $0.sideTableSlots } }

  /// The number of mode slots of the decision table.
  var modeSlots: Int { table.withLock { $0.modeSlots } }

  /// The `allow_list` column for a filter: each id followed by U+001F (so an empty list and
  /// a list of one empty id differ), when the filter is a bare allow list and no id contains
  /// that character; nil otherwise (the JSON column is then read).
  static func allowListColumn(_ filter: NotificationFilter) -> String? {
    guard let members = filter.allowListMembers, !members.contains(where: { $0.utf8.contains(0x1F) }) else {
      return nil
    }
    return members.map { $0 + "\u{1F}" }.joined()
  }

  /// The ids of an `allow_list` column: each one ends at its U+001F.
  static func members(ofAllowListColumn column: String) -> [String] {
    var column = column
    return column.withUTF8 { bytes in
      var members: [String] = []
      var start = 0
      for k in 0..<bytes.count where bytes[k] == 0x1F {
        members.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<k]), as: UTF8.self))
        start = k + 1
      }
      return members
    }
  }
}

/// The systems a service keeps, by user id (bytes).
struct SystemCache {
  var systems: [IDKey: FocusSystem] = [:]
  /// The count above which the next ``FocusService/system(for:)`` releases idle systems.
  var sweepAt = 0
}

/// One app's filter in a user's row.
package struct AppFilter: Sendable {
  package var app: String
  package var filter: NotificationFilter

  package init(app: String, filter: NotificationFilter) {
    self.app = app
    self.filter = filter
  }
}
