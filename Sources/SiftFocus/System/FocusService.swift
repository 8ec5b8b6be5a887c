import Synchronization

/// Focus for many users in one process: the server-side decision for each notification,
/// addressed to a user and an app, and one ``FocusSystem`` per user for everything else
/// (activations, saved parameters, history, badges), all kept in one ``FocusDatabase``.
///
/// Users share nothing but immutable data: the app registrations, and the program that
/// decides the talk's `SELF IN %@` shape (each user keeps only their ids). Decisions read a
/// table that each user's system updates when its filters change, so a decision never
/// waits for an activation and always sees one whole set of filters of one user.
///
/// ```swift
/// let service = try FocusService(database: FocusDatabase(path: "focus.sqlite"))
/// service.register(ChatFocusFilter.self, app: "chat")
/// let alice = try service.system(for: "alice")
/// try await alice.save(workFilter, for: "chat", in: "Work")
/// try await alice.activate("Work")
/// service.decide(notification, user: "alice", app: "chat").outcome   // .delivered / .muted
/// ```
public final class FocusService: Sendable {
  /// Where the users' state lives; nil for a service kept in memory.
  public let database: FocusDatabase?
  private let registrations = Mutex<[(app: String, registered: RegisteredApp)]>([])
  private let systems = Mutex<[String: FocusSystem]>([:])
  private let table = Mutex(DecisionTable())

  /// A service over `database`: every user's active Focus and filters in force are loaded
  /// now (the talk's shape without a compile), so decisions are right from the first
  /// notification after a restart.
  public init(database: FocusDatabase) throws(FocusStoreError) {
    self.database = database
    var loaded = DecisionTable()
    // Rows arrive ordered by user, so one user's apps are collected, then the user's row is
    // made and filled in one step (a row number is only valid until the next insertion).
    var pending: (user: String, focus: String?, filters: [AppFilter])?
    func flush(_ entry: (user: String, focus: String?, filters: [AppFilter])) {
      let row = loaded.slot(for: entry.user)
      loaded.setFocus(entry.focus, row: row)
      loaded.setFilters(entry.filters, row: row)
    }
    try database.forEachFilterInForce { (user, focus, app, filter) throws(FocusStoreError) in
      if let entry = pending, entry.user != user {
        flush(entry)
        pending = nil
      }
      if pending == nil { pending = (user, focus, []) }
      if let app { pending?.filters.append(AppFilter(app: app, filter: try filter())) }
    }
    if let entry = pending { flush(entry) }
    table.withLock { $0 = loaded }
  }

  /// A service kept in memory only (tests, and services that persist elsewhere).
  public init() {
    database = nil
  }

  /// The number of users the decision table holds.
  public var userCount: Int { table.withLock { $0.count } }

  /// Registers an app's filter type for every user (systems made later get it; so do the
  /// ones already made). `isRunning` and `extensionHandler` are as in
  /// ``FocusSystem/register(_:app:isRunning:extensionHandler:)``.
  public func register<F: FocusFilter>(
    _ filter: F.Type, app: String, isRunning: Bool = false,
    extensionHandler: (@Sendable (FocusChange) async throws -> Void)? = nil
  ) {
    var registered = RegisteredApp(filter, isRunning: isRunning)
    registered.extensionHandler = extensionHandler
    registrations.withLock { list in
      list.removeAll { $0.app == app }
      list.append((app, registered))
    }
  }

  /// The system of `user` (made on first use, with every registered app, backed by the
  /// database). Its activations update this service's decisions.
  public func system(for user: String) async throws -> FocusSystem {
    if let system = systems.withLock({ $0[user] }) { return system }
    let made: FocusSystem
    if let database {
      made = try FocusSystem(database: database, user: user)
    } else {
      made = FocusSystem()
    }
    let (system, isNew) = systems.withLock { (cache) -> (FocusSystem, Bool) in
      if let existing = cache[user] { return (existing, false) }
      cache[user] = made
      return (made, true)
    }
    if isNew {
      let apps = registrations.withLock { $0 }
      await system.attach(apps: apps) { [weak self] focus, inForce in
        self?.publish(user: user, focus: focus, inForce: inForce)
      }
    }
    return system
  }

  /// Replaces `user`'s row of the decision table (called by the user's system after every
  /// change of its filters).
  func publish(user: String, focus: String?, inForce: [String: AppliedFilter]) {
    let filters = inForce.sorted { $0.key < $1.key }.map { AppFilter(app: $0.key, filter: $0.value.notificationFilter) }
    table.withLock { t in
      let row = t.slot(for: user)
      t.setFocus(focus, row: row)
      t.setFilters(filters, row: row)
    }
  }

  /// Installs `filter` as `user`'s filter for `app` under `focus` directly, without a
  /// filter type (a service that builds its predicates itself, and the scale benchmark).
  /// Stored in the database when the service has one.
  public func setFilter(_ filter: NotificationFilter, user: String, app: String, focus: String)
    throws(FocusStoreError)
  {
    try database?.storeFilters([(user, focus, app, filter)])
    install(filter, user: user, app: app, focus: focus)
  }

  /// Installs many filters at once (one transaction when the service has a database).
  public func setFilters(_ entries: [(user: String, focus: String, app: String, filter: NotificationFilter)])
    throws(FocusStoreError)
  {
    try database?.storeFilters(entries)
    table.withLock { t in
      for entry in entries { Self.install(entry.filter, user: entry.user, app: entry.app, focus: entry.focus, &t) }
    }
  }

  private func install(_ filter: NotificationFilter, user: String, app: String, focus: String) {
    table.withLock { Self.install(filter, user: user, app: app, focus: focus, &$0) }
  }

  private static func install(
    _ filter: NotificationFilter, user: String, app: String, focus: String, _ t: inout DecisionTable
  ) {
    let row = t.slot(for: user)
    t.setFocus(focus, row: row)
    var filters = t.filters(row: row)
    if let k = filters.firstIndex(where: { $0.app == app }) {
      filters[k].filter = filter
    } else {
      filters.append(AppFilter(app: app, filter: filter))
      filters.sort { $0.app < $1.app }
    }
    t.setFilters(filters, row: row)
  }

  /// Decides one notification for `app` of `user`, as that user's system would
  /// (``NotificationFilter/decide(_:)``): delivered with `noActiveFocus` for a user without
  /// an active Focus (or unknown), `noFilter` for an app with no filter under it.
  public func decide(_ content: NotificationContent, user: String, app: String) -> NotificationDecision {
    table.withLock { t in
      guard let row = t.find(user) else { return .noActiveFocus }
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
  /// notifications to random users because the next users' entries are fetched from memory
  /// while the current ones are decided.
  public func decide(_ batch: ArraySlice<Addressed>) -> [NotificationDecision] {
    var decisions: [NotificationDecision] = []
    decisions.reserveCapacity(batch.count)
    table.withLock { t in
      let lookahead = 16
      batch.withUnsafeBufferPointer { items in
        for k in 0..<min(lookahead, items.count) {
          if let home = t.home(of: items[k].user) { t.prefetch(home) }
        }
        for k in items.indices {
          if k + lookahead < items.count, let home = t.home(of: items[k + lookahead].user) { t.prefetch(home) }
          guard let row = t.find(items[k].user) else {
            decisions.append(.noActiveFocus)
            continue
          }
          decisions.append(t.decide(items[k].content, row: row, app: items[k].app))
        }
      }
    }
    return decisions
  }

  /// The active Focus of `user` as the decision table has it.
  public func activeFocus(of user: String) -> String? {
    table.withLock { t in t.find(user).flatMap { t.focus(row: $0) } }
  }

  /// The `allow_list` column for a filter: each id followed by U+001F (so an empty list and
  /// a list of one empty id differ), when the filter is a bare allow list and no id contains
  /// that character; nil otherwise (the JSON column is then read).
  static func allowListColumn(_ filter: NotificationFilter) -> String? {
    guard let members = filter.allowListMembers, !members.contains(where: { $0.contains("\u{1F}") }) else {
      return nil
    }
    return members.map { $0 + "\u{1F}" }.joined()
  }

  static func members(ofAllowListColumn column: String) -> [String] {
    column.split(separator: "\u{1F}", omittingEmptySubsequences: false).dropLast().map(String.init)
  }
}

/// One app's filter in a user's row.
struct AppFilter: Sendable {
  var app: String
  var filter: NotificationFilter
}
