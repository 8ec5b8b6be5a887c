import Foundation
import Testing

@testable import SiftFocus

/// One model of each user in a service, whichever call made it: registrations reach the
/// systems that exist, `setFilters` and `system(for:)` agree, a system is wired before any
/// caller sees it, an import goes through the live system, and a configuration written
/// before the filters in force existed never decides fail-open.
@Suite struct ServiceModelTests {
  static let app = "com.example.mail"

  /// The issue's reproducer: a system made before the app was registered did not know the
  /// app, so mail from a muted account was `delivered noFilter`.
  @Test func registerReachesSystemsThatExist() async throws {
    let service = FocusService()
    let alice = try await service.system(for: "alice")
    try service.register(MailFocusFilter.self, app: Self.app)
    try await alice.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    try await alice.activate("Work")
    #expect(service.decide(mail(.family), user: "alice", app: Self.app).reason == .notMatched)
    #expect(service.decide(mail(.work), user: "alice", app: Self.app).reason == .matched)
  }

  /// Replacing an app's filter type reaches them too: the next activation builds with it,
  /// and `current` reads it.
  @Test func replacingAFilterTypeReachesSystemsThatExist() async throws {
    let service = FocusService()
    try service.register(SystemChatFilter.self, app: Self.app)
    let alice = try await service.system(for: "alice")
    try service.register(MailFocusFilter.self, app: Self.app)
    try await alice.save(MailFocusFilter.configured([.news]), for: Self.app, in: "Work")
    #expect(try await alice.activate("Work").isEmpty)
    #expect(service.decide(mail(.news), user: "alice", app: Self.app).reason == .matched)
    #expect(service.decide(mail(.work), user: "alice", app: Self.app).reason == .notMatched)
    let current = try await alice.withApp(Self.app) { try await MailFocusFilter.current }
    #expect(current.mailboxes == [.news])
  }

  /// The issue's reproducer: in memory, `setFilter` then `system(for:)` wiped the row
  /// (muted became `delivered noActiveFocus`); with SQLite the user had no Focus modes, so
  /// `activate("Personal")` threw.
  @Test(arguments: [false, true])
  func setFilterThenSystemIsOneUser(database: Bool) async throws {
    let service =
      database
      ? try FocusService(database: FocusDatabase(path: try FocusDatabaseTests.temporaryPath())) : FocusService()
    try service.register(MailFocusFilter.self, app: Self.app)
    let filter = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["work-mail"]))
    try await service.setFilter(filter, user: "u", app: Self.app, focus: "Work")
    #expect(service.decide(mail(.family), user: "u", app: Self.app).reason == .notMatched)
    let system = try await service.system(for: "u")
    #expect(service.decide(mail(.family), user: "u", app: Self.app).reason == .notMatched)
    #expect(await system.activeFocus == "Work")
    #expect(await system.decision(for: mail(.family), app: Self.app).reason == .notMatched)
    #expect(await system.configuration.modes.map(\.name).contains("Personal"))
    try await system.activate("Personal")
    #expect(service.decide(mail(.family), user: "u", app: Self.app).reason == .noFilter)
    // A Focus the user did not have is added as a mode of theirs.
    try await service.setFilter(filter, user: "v", app: Self.app, focus: "Gardening")
    let v = try await service.system(for: "v")
    #expect(await v.configuration.mode(named: "Gardening") != nil)
    try await v.activate("Work")
  }

  /// `setFilters` under another Focus ends the filters in force under the previous one, in
  /// the decision table, in SQLite and so after a restart. (Before, the table dropped them
  /// and SQLite kept them: after a restart the old Focus's filter for `chat` decided under
  /// Personal, where it had been `noFilter`.)
  @Test(arguments: [false, true])
  func setFiltersUnderAnotherFocusEndsThePreviousFilters(database: Bool) async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let service = database ? try FocusService(database: FocusDatabase(path: path)) : FocusService()
    let chat = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["a"]))
    let mail = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["b"]))
    try await service.setFilter(chat, user: "u", app: "chat", focus: "Work")
    try await service.setFilter(mail, user: "u", app: "mail", focus: "Personal")
    let x = NotificationContent(filterCriteria: "x")
    #expect(service.decide(x, user: "u", app: "chat").reason == .noFilter)
    #expect(service.decide(x, user: "u", app: "mail").reason == .notMatched)
    let system = try await service.system(for: "u")
    #expect(await system.configuration.inForce.keys.sorted() == ["mail"])
    guard database else { return }
    let restarted = try FocusService(database: FocusDatabase(path: path))
    #expect(restarted.decide(x, user: "u", app: "chat").reason == .noFilter)
    #expect(restarted.decide(x, user: "u", app: "mail").reason == .notMatched)
  }

  /// `setFilters` for a user whose system is live goes through it: the system has the
  /// filter, and its next change keeps it rather than publishing a stale copy.
  @Test func setFiltersReachesALiveSystem() async throws {
    let service = FocusService()
    try service.register(MailFocusFilter.self, app: Self.app)
    let system = try await service.system(for: "u")
    let filter = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["work-mail"]))
    try await service.setFilters([("u", "Work", "other-app", filter)])
    #expect(await system.activeFocus == "Work")
    #expect(await system.configuration.inForce["other-app"]?.notificationFilter == filter)
    try await system.addFocus(FocusMode(name: "Reading"))
    try await system.deliver(mail(.family), to: Self.app)
    #expect(service.decide(mail(.family), user: "u", app: "other-app").reason == .notMatched)
  }

  /// The first-use race, with the interleaving injected: the caller that made the system
  /// is held after the system entered the cache; a second caller gets it, saves and
  /// activates. The system was wired before it could be seen, so the activation built the
  /// registered app's filter and the service decides with it (before, the cached system
  /// had no apps and no observer until the first caller's `attach` ran: the activation
  /// persisted an empty set of filters and the decision was `noFilter`).
  @Test func aSystemIsWiredBeforeAnyCallerSeesIt() async throws {
    let service = FocusService()
    try service.register(MailFocusFilter.self, app: Self.app)
    service.afterMaking.withLock { $0 = { _ in if let gate = Gate.current { await gate.pass() } } }
    let gate = Gate()
    let first = Task { try await Gate.$current.withValue(gate) { try await service.system(for: "alice") } }
    await gate.entered()
    let second = try await service.system(for: "alice")
    try await second.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    try await second.activate("Work")
    #expect(await second.configuration.inForce[Self.app] != nil)
    #expect(service.decide(mail(.family), user: "alice", app: Self.app).reason == .notMatched)
    await gate.open()
    #expect(try await first.value === second)
  }

  /// The issue's reproducer: an import into a running service was not seen by its
  /// decisions, and the next change through the cached system overwrote it. Through the
  /// service it is seen at once and kept; straight into a database a service runs over, it
  /// is an error that says what to do.
  @Test func anImportGoesThroughTheLiveSystem() async throws {
    let database = try FocusDatabase(path: try FocusDatabaseTests.temporaryPath())
    let service = try FocusService(database: database)
    try service.register(MailFocusFilter.self, app: Self.app)
    let alice = try await service.system(for: "alice")
    try await alice.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    try await alice.activate("Work")

    let other = FocusSystem()
    try await other.register(MailFocusFilter.self, app: Self.app)
    try await other.save(MailFocusFilter.configured([.family]), for: Self.app, in: "Personal")
    try await other.activate("Personal")
    let imported = await other.configuration

    #expect {
      try database.importConfiguration(imported, for: "alice")
    } throws: { error in
      "\(error)".contains("FocusService running over it")
    }
    try await service.importConfiguration(imported, for: "alice")
    #expect(service.decide(mail(.family), user: "alice", app: Self.app).reason == .matched)
    #expect(await alice.activeFocus == "Personal")
    try await alice.addFocus(FocusMode(name: "Reading"))  // a later change keeps the import
    #expect(try database.configuration(of: "alice").activeFocus == "Personal")
    #expect(service.decide(mail(.work), user: "alice", app: Self.app).reason == .notMatched)
  }

  /// A JSON store written before `inForce` existed, with Work active: it decided with no
  /// filter until the next activation. Now it fails closed until the filters are built
  /// again (``FocusSystem/restoreFiltersInForce()`` or an activation); a save keeps the
  /// mark; an import through a service builds them; the database refuses it unbuilt.
  @Test func aConfigurationWithoutFiltersInForceFailsClosed() async throws {
    let store = try FocusStoreTests.temporaryStore()
    let legacy = """
      {"activeFocus": "Work", "modes": [{"name": "Work", "isBuiltIn": true}],
       "savedParameters": {"Work": {"com.example.mail": {"mailboxes":
         {"kind": "array", "value": [{"kind": "entity", "value": "work-mail"}]}}}}}
      """
    try Data(legacy.utf8).write(to: store.url)
    let system = try FocusSystem(store: store)
    try await system.register(MailFocusFilter.self, app: Self.app)
    #expect(await system.configuration.filtersInForceUnknown)
    let muted = try await system.deliver(mail(.work), to: Self.app).decision
    #expect(muted.outcome == .muted && muted.reason.code == "filterUnavailable")
    try await system.addFocus(FocusMode(name: "Reading"))
    #expect(try FocusStore(url: store.url).load().filtersInForceUnknown)

    let configuration = try store.load()
    #expect(throws: FocusStoreError.self) {
      try FocusDatabase(path: try FocusDatabaseTests.temporaryPath()).importConfiguration(configuration, for: "u")
    }
    let service = FocusService()
    try service.register(MailFocusFilter.self, app: Self.app)
    try await service.importConfiguration(configuration, for: "u")
    #expect(service.decide(mail(.work), user: "u", app: Self.app).reason == .matched)
    #expect(service.decide(mail(.family), user: "u", app: Self.app).reason == .notMatched)

    #expect(try await system.restoreFiltersInForce().isEmpty)
    #expect(try await system.deliver(mail(.work), to: Self.app).decision.reason == .matched)
    #expect(try await system.deliver(mail(.family), to: Self.app).decision.reason == .notMatched)
    #expect(try !FocusStore(url: store.url).load().filtersInForceUnknown)
  }

  /// An import whose filters in force are unknown is built before it is installed: while
  /// its filters are being built (held at the entity query's `await`), the system still
  /// decides with the configuration it had, and a delivery is recorded under it. (Before,
  /// the import was installed first and restored on failure, so a call that ran during the
  /// build saw an unpersisted configuration: Personal, every app muted `filterUnavailable`.)
  @Test func anImportIsInstalledOnlyOnceBuiltAndPersisted() async throws {
    let service = FocusService()
    try service.register(MailFocusFilter.self, app: Self.app)
    let alice = try await service.system(for: "alice")
    try await alice.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    try await alice.activate("Work")
    let legacy = """
      {"activeFocus": "Personal", "modes": [{"name": "Personal", "isBuiltIn": true}],
       "savedParameters": {"Personal": {"com.example.mail": {"mailboxes":
         {"kind": "array", "value": [{"kind": "entity", "value": "family-mail"}]}}}}}
      """
    let imported = try JSONDecoder().decode(FocusConfiguration.self, from: Data(legacy.utf8))
    #expect(imported.filtersInForceUnknown)
    let gate = Gate()
    let importing = Task {
      try await Gate.$current.withValue(gate) { try await service.importConfiguration(imported, for: "alice") }
    }
    await gate.entered()
    #expect(await alice.activeFocus == "Work")
    #expect(await alice.decision(for: mail(.work), app: Self.app).reason == .matched)
    #expect(try await alice.deliver(mail(.family), to: Self.app).decision.reason == .notMatched)
    #expect(service.decide(mail(.work), user: "alice", app: Self.app).reason == .matched)
    await gate.open()
    try await importing.value
    #expect(await alice.activeFocus == "Personal")
    #expect(await alice.decision(for: mail(.family), app: Self.app).reason == .matched)
    #expect(service.decide(mail(.work), user: "alice", app: Self.app).reason == .notMatched)
  }
}
