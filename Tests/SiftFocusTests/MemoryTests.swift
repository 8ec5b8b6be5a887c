import Foundation
import Testing

@testable import SiftFocus

/// What a user costs, and that nothing grows without bound: idle systems are released,
/// users can be deleted, the history is bounded in bytes and keeps no message text, and
/// the decision table reuses its slots and has the entry size it says.
@Suite struct MemoryTests {
  static let app = "com.example.mail"

  static func service(liveSystemLimit: Int = 10_000) throws -> FocusService {
    let service = try FocusService(
      database: FocusDatabase(path: try FocusDatabaseTests.temporaryPath()), liveSystemLimit: liveSystemLimit)
    try service.register(MailFocusFilter.self, app: app)
    return service
  }

  /// Systems nothing but the service holds are released past the limit (and on request);
  /// one a caller holds never is; a released user comes back with their state.
  @Test func idleSystemsAreReleased() async throws {
    let service = try Self.service(liveSystemLimit: 3)
    let held = try await service.system(for: "held")
    try await held.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    for k in 0..<10 {
      let system = try await service.system(for: "user\(k)")
      try await system.save(MailFocusFilter.configured([.family]), for: Self.app, in: "Work")
      try await system.activate("Work")
    }
    #expect(service.liveSystemCount <= 4)
    let released = service.releaseIdleSystems()
    #expect(released >= 1 && service.liveSystemCount == 1)
    #expect(try await service.system(for: "held") === held)
    let back = try await service.system(for: "user3")
    #expect(await back.activeFocus == "Work")
    #expect(await back.decision(for: mail(.family), app: Self.app).reason == .matched)
    #expect(service.decide(mail(.work), user: "user3", app: Self.app).reason == .notMatched)
    // A memory-only service holds the only copy of its users' state: nothing is released.
    let memory = FocusService()
    _ = try await memory.system(for: "u")
    #expect(memory.releaseIdleSystems() == 0 && memory.liveSystemCount == 1)
  }

  /// Deleting a user removes their rows, their decisions and their live system, whose
  /// later calls throw; an activation held at its `await` while the user is deleted does
  /// not bring them back.
  @Test(arguments: [false, true])
  func aDeletedUserIsGone(database: Bool) async throws {
    let service = database ? try Self.service() : FocusService()
    if !database { try service.register(MailFocusFilter.self, app: Self.app) }
    let alice = try await service.system(for: "alice")
    try await alice.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    try await alice.activate("Work")
    let gate = Gate()
    let racing = Task { try await Gate.$current.withValue(gate) { try await alice.activate("Work") } }
    await gate.entered()
    try service.deleteUser("alice")
    await gate.open()
    await #expect(throws: FocusSystemError.self) { try await racing.value }
    #expect(service.decide(mail(.family), user: "alice", app: Self.app) == .unknownUser)
    #expect(service.userCount == 0)
    await #expect(throws: FocusSystemError.self) { try await alice.deliver(mail(.work), to: Self.app) }
    if let db = service.database { #expect(try db.users().isEmpty) }
    let fresh = try await service.system(for: "alice")
    #expect(fresh !== alice)
    #expect(await fresh.activeFocus == nil)
  }

  /// The history is bounded in bytes as well as in records, keeps only what decisions and
  /// badges need (no title, body or userInfo), and a record larger than the whole bound is
  /// not kept; in memory and in SQLite alike.
  @Test(arguments: [false, true])
  func theHistoryIsBoundedInBytes(database: Bool) async throws {
    let limit = 4_096
    let system =
      database
      ? try FocusSystem(
        database: FocusDatabase(path: try FocusDatabaseTests.temporaryPath()), user: "u", historyByteLimit: limit)
      : FocusSystem(historyByteLimit: limit)
    try await system.register(MailFocusFilter.self, app: Self.app)
    let body = String(repeating: "b", count: 1 << 20)
    for k in 0..<100 {
      let content = NotificationContent(
        title: "t", body: body, filterCriteria: "account-\(k)-" + String(repeating: "c", count: 100),
        userInfo: ["big": .string(body)])
      try await system.deliver(content, to: Self.app)
    }
    let history = try await system.history()
    let kept = history.reduce(0) { $0 + $1.retainedBytes }
    #expect(kept <= limit && kept + history[0].retainedBytes > limit)
    #expect(history.last?.sequence == 100)
    #expect(history.allSatisfy { $0.content.title.isEmpty && $0.content.body.isEmpty && $0.content.userInfo.isEmpty })
    try await system.deliver(NotificationContent(filterCriteria: String(repeating: "x", count: limit)), to: Self.app)
    #expect(try await system.history().last?.sequence == 100)  // too large to keep
  }

  /// The issue's reproducer: 500 deliveries of 1 MB made a 478 MiB database. The bodies
  /// are no longer stored.
  @Test func bodiesAreNotStored() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let system = try FocusSystem(database: FocusDatabase(path: path), user: "u")
    try await system.register(MailFocusFilter.self, app: Self.app)
    let body = String(repeating: "b", count: 1 << 20)
    for k in 0..<500 {
      try await system.deliver(NotificationContent(body: body, filterCriteria: "account-\(k)"), to: Self.app)
    }
    var size = 0
    for suffix in ["", "-wal"] {
      size += (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0
    }
    #expect(size < 8 << 20, "\(size) bytes on disk")
  }

  /// The entry is the size the table's comments say (measured, not assumed).
  @Test func theTableEntryIs80Bytes() {
    #expect(MemoryLayout<Entry>.stride == 80)
    #expect(MemoryLayout<UserRecord>.stride == 64)
  }

  /// A multi-app user switched on and off 10,000 times keeps one side-table slot (before,
  /// every cycle appended one, and `Int32(general.count)` would trap after 2³¹); mode
  /// slots and the long-id arena are reused as well.
  @Test func theTableReusesItsSlots() throws {
    var table = DecisionTable()
    let chat = NotificationFilter(predicate: try SiftPredicate(format: "SELF BEGINSWITH 'a'"))
    let mail = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["m"]))
    let row = table.slot(for: "multi-app-user-with-a-long-id")
    for k in 0..<10_000 {
      let row = table.find("multi-app-user-with-a-long-id") ?? row
      if k % 2 == 0 {
        table.setMode("Work", policy: .default(forFocus: "Work"), row: row)
        table.setFilters([AppFilter(app: "chat", filter: chat), AppFilter(app: "mail", filter: mail)], row: row)
      } else {
        table.setMode(nil, policy: .default(forFocus: ""), row: row)
        table.setFilters([], row: row)
      }
      let policy = FocusPolicy(allowsTimeSensitive: true, allowedApps: .only(["app-\(k)"]), allowedSenders: [])
      let other = table.slot(for: "edits-its-mode")
      table.setMode("Custom", policy: policy, row: other)
    }
    #expect(table.sideTableSlots == 1)
    #expect(table.modeSlots <= 3)
    // Long ids added and removed: the arena is compacted rather than grown.
    for k in 0..<20_000 {
      let id = "a-long-user-id-that-comes-and-goes-\(k)"
      _ = table.slot(for: id)
      table.remove(id)
    }
    #expect(table.arenaBytes < 200_000)
    #expect(table.count == 2)
    #expect(table.find("multi-app-user-with-a-long-id") != nil && table.find("edits-its-mode") != nil)
  }

  /// Removing users keeps every other one findable (backward-shift deletion leaves no
  /// hole in a probe run), for short and long ids.
  @Test func removalKeepsEveryOtherUser() throws {
    var table = DecisionTable()
    let ids = (0..<5_000).map { $0 % 2 == 0 ? "u\($0)" : "a-long-user-identifier-\($0)" }
    for id in ids { table.setMode("Work", policy: .default(forFocus: "Work"), row: table.slot(for: id)) }
    for id in ids.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) { table.remove(id) }
    for (k, id) in ids.enumerated() {
      let found = table.find(id)
      if k % 3 == 0 {
        #expect(found == nil, "\(id)")
      } else {
        #expect(found.map { table.mode(row: $0)?.name } == "Work", "\(id)")
      }
    }
  }
}
