import Foundation
import Testing

@testable import SiftFocus

/// A change is built aside, persisted, then installed: when the write fails (a database
/// that refuses writes, as a read-only one does; a store whose directory is gone), the call
/// throws and nothing changes, in the system, in the service's decisions, or after a restart.
@Suite struct PersistFirstTests {
  static let app = "com.example.mail"

  /// The issue's reproducer: `activate` threw on a read-only database, yet `decide` muted
  /// under the new Focus, and after a restart it delivered.
  @Test func aFailedActivationChangesNothing() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let database = try FocusDatabase(path: path)
    let service = try FocusService(database: database, badges: .unreadCount)
    try service.register(MailFocusFilter.self, app: Self.app)
    let alice = try await service.system(for: "alice")
    try await alice.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    try await alice.deliver(mail(.family), to: Self.app)
    #expect(await alice.badgeCount(of: Self.app) == 1)
    let log = MailLog()
    try database.refuseWrites(true)
    await #expect {
      try await MailLog.$current.withValue(log) { try await alice.activate("Work") }
    } throws: { error in
      "\(error)".contains("cannot be written")
    }
    #expect(log.all.isEmpty)  // no perform() for a change that did not happen
    #expect(await alice.activeFocus == nil)
    #expect(await alice.decision(for: mail(.family), app: Self.app) == .noActiveFocus)
    #expect(await alice.badgeCount(of: Self.app) == 1)  // not recounted under Work
    #expect(service.decide(mail(.family), user: "alice", app: Self.app) == .unknownUser)
    try database.refuseWrites(false)
    try await alice.activate("Work")
    #expect(service.decide(mail(.family), user: "alice", app: Self.app).reason == .notMatched)
  }

  /// Every other change of a database-backed system: saves, new Focus modes, deliveries,
  /// badges, reading, a re-read of the app context.
  @Test func everyFailedWriteChangesNothing() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let database = try FocusDatabase(path: path)
    let system = try FocusSystem(database: database, user: "u", badges: .unreadCount)
    try await system.register(MailFocusFilter.self, app: Self.app)
    try await system.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    try await system.activate("Work")
    try await system.deliver(mail(.work), to: Self.app)
    let configuration = await system.configuration
    let history = try await system.history()
    try database.refuseWrites(true)
    await #expect(throws: FocusStoreError.self) {
      try await system.save(MailFocusFilter.configured([.news]), for: Self.app, in: "Work")
    }
    await #expect(throws: FocusStoreError.self) { try await system.addFocus(FocusMode(name: "Reading")) }
    await #expect(throws: FocusStoreError.self) { try await system.deliver(mail(.work), to: Self.app) }
    await #expect(throws: FocusStoreError.self) { try await system.setBadgeCount(9, for: Self.app) }
    await #expect(throws: FocusStoreError.self) { try await system.markAllRead(app: Self.app) }
    await #expect(throws: FocusStoreError.self) { try await system.activate(nil) }
    #expect(await system.configuration == configuration)
    #expect(await system.badgeCount(of: Self.app) == 1)
    try database.refuseWrites(false)
    // The failed delivery took no sequence number and left no record.
    #expect(try await system.deliver(mail(.work), to: Self.app).sequence == 2)
    #expect(try await system.history().map(\.sequence) == history.map(\.sequence) + [2])
    #expect(await system.badgeCount(of: Self.app) == 2)
    // A restart reads what was committed, nothing else.
    let restarted = try FocusSystem(database: FocusDatabase(path: path), user: "u", badges: .unreadCount)
    #expect(await restarted.configuration == configuration)
    #expect(await restarted.badgeCount(of: Self.app) == 2)
  }

  /// A JSON store that cannot be written (its directory is gone): the same.
  @Test func aStoreThatCannotBeWrittenChangesNothing() async throws {
    let store = try FocusStoreTests.temporaryStore()
    let system = try FocusSystem(store: store)
    try await system.register(MailFocusFilter.self, app: Self.app)
    try await system.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    let configuration = await system.configuration
    try FileManager.default.removeItem(at: store.url.deletingLastPathComponent())
    await #expect(throws: FocusStoreError.self) { try await system.activate("Work") }
    await #expect(throws: FocusStoreError.self) { try await system.addFocus(FocusMode(name: "Reading")) }
    #expect(await system.configuration == configuration)
    #expect(try await system.deliver(mail(.family), to: Self.app).decision == .noActiveFocus)
  }

  /// `setFilters` with a database that refuses writes: the table is left as it was.
  @Test func aFailedSetFiltersLeavesTheTable() async throws {
    let database = try FocusDatabase(path: try FocusDatabaseTests.temporaryPath())
    let service = try FocusService(database: database)
    let first = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["a"]))
    let second = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["b"]))
    try await service.setFilter(first, user: "u", app: "chat", focus: "Work")
    try database.refuseWrites(true)
    await #expect(throws: FocusStoreError.self) {
      try await service.setFilters([("u", "Work", "chat", second), ("v", "Work", "chat", second)])
    }
    #expect(service.decide(NotificationContent(filterCriteria: "a"), user: "u", app: "chat").reason == .matched)
    #expect(service.decide(NotificationContent(filterCriteria: "a"), user: "v", app: "chat").reason == .unknownUser)
  }
}
