import Foundation
import Testing

@testable import SiftFocus

/// One identity rule in every layer: ids are compared by their UTF-8 bytes (a NUL is an
/// ordinary byte, canonically equivalent texts with other bytes are other ids), in the
/// systems a service keeps, its decision table (short and long ids), the restart loader and
/// SQLite.
@Suite struct IdentityTests {
  static let app = "com.example.mail"

  /// A service with Alice muting everything but work mail under Work.
  static func service(_ path: String?) async throws -> FocusService {
    let service = try path.map { try FocusService(database: FocusDatabase(path: $0)) } ?? FocusService()
    try service.register(MailFocusFilter.self, app: app)
    let alice = try await service.system(for: "alice")
    try await alice.save(MailFocusFilter.configured([.work]), for: app, in: "Work")
    try await alice.activate("Work")
    return service
  }

  /// The issue's reproducer: `system(for: "alice\0evil")` started with Alice's saved state,
  /// its saves overwrote her rows, and after a restart her own work mail was muted.
  @Test(arguments: [false, true])
  func aNulInAUserIdIsAnotherUser(database: Bool) async throws {
    let path = database ? try FocusDatabaseTests.temporaryPath() : nil
    let service = try await Self.service(path)
    let evil = try await service.system(for: "alice\0evil")
    #expect(await evil.activeFocus == nil)
    #expect(await evil.configuration.savedParameters.isEmpty)
    try await evil.save(MailFocusFilter.configured([.news]), for: Self.app, in: "Personal")
    try await evil.activate("Personal")
    #expect(service.decide(mail(.work), user: "alice", app: Self.app).reason == .matched)
    #expect(service.decide(mail(.work), user: "alice\0evil", app: Self.app).reason == .notMatched)
    guard let path else { return }
    // SQLite: both users are rows of their own, and a restart decides as before it.
    let reopened = try FocusDatabase(path: path)
    #expect(try reopened.users() == ["alice", "alice\0evil"])
    #expect(try reopened.configuration(of: "alice").activeFocus == "Work")
    #expect(try reopened.configuration(of: "alice\0evil").activeFocus == "Personal")
    let restarted = try FocusService(database: reopened)
    #expect(restarted.decide(mail(.work), user: "alice", app: Self.app).reason == .matched)
    #expect(restarted.decide(mail(.news), user: "alice\0evil", app: Self.app).reason == .matched)
    #expect(restarted.decide(mail(.work), user: "alice\0evil", app: Self.app).reason == .notMatched)
  }

  /// An allow list holding `"acct\0x"` let nothing through after a restart (the id was cut
  /// at the NUL); mail for app `"mail\0x"` went from muted to `delivered noFilter`.
  @Test func nulBytesInAccountAndAppIdsSurviveARestart() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let accounts = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["acct\0x"]))
    let muting = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["only"]))
    do {
      let service = try FocusService(database: FocusDatabase(path: path))
      try await service.setFilters([("u1", "Work", "chat", accounts), ("u2", "Work", "mail\0x", muting)])
    }
    let restarted = try FocusService(database: FocusDatabase(path: path))
    #expect(
      restarted.decide(NotificationContent(filterCriteria: "acct\0x"), user: "u1", app: "chat").reason == .matched)
    #expect(
      restarted.decide(NotificationContent(filterCriteria: "acct"), user: "u1", app: "chat").reason == .notMatched)
    #expect(
      restarted.decide(NotificationContent(filterCriteria: "x"), user: "u2", app: "mail\0x").reason == .notMatched)
    #expect(restarted.decide(NotificationContent(filterCriteria: "x"), user: "u2", app: "mail").reason == .noFilter)
    // The JSON column path (a predicate that is not an allow list) keeps the bytes too.
    let system = try await restarted.system(for: "u2")
    #expect(await system.configuration.inForce.keys.contains { $0.sameBytes(as: "mail\0x") })
  }

  /// `"caf\u{E9}"` and `"cafe\u{301}"` are one Swift string and two byte strings: two users
  /// in every layer, before and after a restart; ids of up to 15 bytes and longer ones.
  @Test(
    arguments: [("caf\u{E9}", "cafe\u{301}"), ("a-long-user-id-caf\u{E9}", "a-long-user-id-cafe\u{301}")],
    [
      false, true,
    ])
  func canonicallyEquivalentUserIdsAreTwoUsers(ids: (nfc: String, nfd: String), database: Bool) async throws {
    let (nfc, nfd) = ids
    #expect(nfc == nfd && !nfc.sameBytes(as: nfd))
    let path = try FocusDatabaseTests.temporaryPath()
    let service = database ? try FocusService(database: FocusDatabase(path: path)) : FocusService()
    try service.register(MailFocusFilter.self, app: Self.app)
    let first = try await service.system(for: nfc)
    let second = try await service.system(for: nfd)
    #expect(first !== second)
    try await first.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    try await first.activate("Work")
    // The decision table: one row each; the second user is unknown to it.
    #expect(service.userCount == 1)
    #expect(service.decide(mail(.family), user: nfc, app: Self.app).reason == .notMatched)
    #expect(service.decide(mail(.family), user: nfd, app: Self.app).reason == .unknownUser)
    try await second.activate("Personal")
    #expect(service.userCount == 2)
    #expect(service.decide(mail(.family), user: nfd, app: Self.app).reason == .noFilter)
    guard database else { return }
    // SQLite and the restart loader: still two users.
    #expect(try service.database!.users().count == 2)
    let restarted = try FocusService(database: FocusDatabase(path: path))
    #expect(restarted.userCount == 2)
    #expect(restarted.decide(mail(.family), user: nfc, app: Self.app).reason == .notMatched)
    #expect(restarted.decide(mail(.family), user: nfd, app: Self.app).reason == .noFilter)
  }

  /// The decision table alone, for every kind of id: short (small-string words), short
  /// with spare capacity, long (hash and arena bytes), with NULs and both Unicode forms.
  @Test func theDecisionTableComparesBytes() throws {
    var table = DecisionTable()
    var spare = "ab"
    spare.reserveCapacity(64)
    let ids = [
      "a", "a\0", "\0a", "caf\u{E9}", "cafe\u{301}", String(repeating: "x", count: 15),
      String(repeating: "x", count: 16),
      "a-long-user-id-caf\u{E9}", "a-long-user-id-cafe\u{301}", "a-long-user-id\0with-a-nul", "a-long-user-id", "",
      spare,
    ]
    let filter = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["acct"]))
    for (k, id) in ids.enumerated() {
      let row = table.slot(for: id)
      table.setMode(k % 2 == 0 ? "Work" : "Personal", policy: .default(forFocus: "Work"), row: row)
      table.setFilters([AppFilter(app: "chat", filter: filter)], row: row)
    }
    #expect(table.count == ids.count)
    for (k, id) in ids.enumerated() {
      let row = try #require(table.find(id), "\(id.debugDescription)")
      #expect(table.mode(row: row)?.name == (k % 2 == 0 ? "Work" : "Personal"), "\(id.debugDescription)")
    }
    // "ab" built without spare capacity is the same id as the one built with it.
    #expect(table.find("ab") != nil)
    #expect(table.find("a-long-user-id-caf") == nil && table.find("b") == nil)
  }

  /// App ids and Focus names follow the same rule: a spelling with other bytes but the
  /// same text is refused where it would share an entry of a configuration.
  @Test func canonicallyEquivalentAppIdsAndFocusNamesAreRefused() async throws {
    let system = FocusSystem()
    try await system.register(MailFocusFilter.self, app: "caf\u{E9}")
    await #expect(throws: FocusSystemError.self) {
      try await system.register(MailFocusFilter.self, app: "cafe\u{301}")
    }
    try await system.addFocus(FocusMode(name: "Caf\u{E9}"))
    await #expect(throws: FocusSystemError.self) { try await system.addFocus(FocusMode(name: "Cafe\u{301}")) }
    #expect(await system.configuration.modes.count == FocusMode.builtIn.count + 1)
    // The other spelling is not registered: no save, no delivery, no badge through it.
    await #expect(throws: FocusSystemError.self) {
      try await system.save(MailFocusFilter(), for: "cafe\u{301}", in: "Work")
    }
    // In a service's table, a filter of one spelling does not decide for the other.
    let service = FocusService()
    let only = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["x"]))
    try await service.setFilter(only, user: "u", app: "caf\u{E9}", focus: "Work")
    #expect(service.decide(NotificationContent(filterCriteria: "y"), user: "u", app: "caf\u{E9}").reason == .notMatched)
    #expect(service.decide(NotificationContent(filterCriteria: "y"), user: "u", app: "cafe\u{301}").reason == .noFilter)
  }

  /// `setFilters` follows the rule too: an app id or a Focus name with the text of one the
  /// user already has and other bytes is refused, whether the user's system is live or
  /// not, within one batch too, and nothing of a refused batch is installed. (Before, the
  /// table kept both spellings as two apps while the user's configuration, loaded from it
  /// or from SQLite, kept one, so the user's system and the decisions disagreed.)
  @Test(arguments: [false, true])
  func setFiltersRefusesASecondSpelling(database: Bool) async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let service = database ? try FocusService(database: FocusDatabase(path: path)) : FocusService()
    let only = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["x"]))
    func refused(_ error: any Error, _ kind: String) -> Bool {
      "\(error)".contains("the \(kind) ") && "\(error)".contains("has other bytes than the existing")
    }
    try await service.setFilter(only, user: "u", app: "caf\u{E9}", focus: "Work")
    await #expect {
      try await service.setFilter(only, user: "u", app: "cafe\u{301}", focus: "Work")
    } throws: { refused($0, "app id") }
    await #expect {
      try await service.setFilters([("v", "Work", "caf\u{E9}", only), ("v", "Work", "cafe\u{301}", only)])
    } throws: { refused($0, "app id") }
    #expect(service.decide(NotificationContent(filterCriteria: "y"), user: "v", app: "caf\u{E9}") == .unknownUser)
    try await service.setFilter(only, user: "w", app: "chat", focus: "Caf\u{E9}")
    await #expect {
      try await service.setFilter(only, user: "w", app: "chat", focus: "Cafe\u{301}")
    } throws: { refused($0, "Focus name") }
    // Through a live system.
    let live = try await service.system(for: "x")
    try await service.setFilter(only, user: "x", app: "caf\u{E9}", focus: "Work")
    await #expect {
      try await service.setFilter(only, user: "x", app: "cafe\u{301}", focus: "Work")
    } throws: { refused($0, "app id") }
    #expect(await live.configuration.inForce.count == 1)
    // The spelling of a registered app.
    try service.register(MailFocusFilter.self, app: "r\u{E9}sum\u{E9}")
    await #expect {
      try await service.setFilter(only, user: "u", app: "re\u{301}sume\u{301}", focus: "Work")
    } throws: { refused($0, "app id") }
    #expect(
      service.decide(NotificationContent(filterCriteria: "y"), user: "u", app: "cafe\u{301}").reason == .noFilter)
    guard database else { return }
    // A Focus the user has besides the active one: the database checks it where it adds
    // the mode.
    try await service.setFilter(only, user: "w", app: "chat", focus: "Work")
    await #expect {
      try await service.setFilter(only, user: "w", app: "chat", focus: "Cafe\u{301}")
    } throws: { refused($0, "Focus name") }
    let restarted = try FocusService(database: FocusDatabase(path: path))
    #expect(try await restarted.system(for: "u").configuration.inForce.count == 1)
    #expect(
      restarted.decide(NotificationContent(filterCriteria: "y"), user: "u", app: "caf\u{E9}").reason == .notMatched)
    #expect(try await restarted.system(for: "w").configuration.modes.filter { $0.name == "Caf\u{E9}" }.count == 1)
  }

  /// An import follows the rule too: a configuration with two spellings of one Focus name
  /// or app id, or an app id spelled otherwise than the registered app, is refused and the
  /// user's state stays as it was. (Before, the system installed it: the filter saved under
  /// `cafe\u{301}` never reached the app registered as `caf\u{E9}`, whose mail was then
  /// delivered with `noFilter` under the imported Focus.)
  @Test func anImportWithASecondSpellingIsRefused() async throws {
    let service = try await Self.service(nil)
    let registered = "caf\u{E9}"
    try service.register(MailFocusFilter.self, app: registered)
    let values = MailFocusFilter.configured([.work]).parameterValues
    func refused(_ error: any Error, _ kind: String) -> Bool {
      "\(error)".contains("cannot import the configuration: the \(kind) ")
        && "\(error)".contains("has other bytes than the existing")
    }
    // Written before the filters in force were saved: the import builds them.
    var otherApp = FocusConfiguration(activeFocus: "Work", savedParameters: ["Work": ["cafe\u{301}": values]])
    otherApp.filtersInForceUnknown = true
    let twoApps = FocusConfiguration(
      activeFocus: "Work", savedParameters: ["Work": ["x\u{E9}": values], "Personal": ["xe\u{301}": values]])
    let twoModes = FocusConfiguration(
      modes: FocusMode.builtIn + [FocusMode(name: "Caf\u{E9}"), FocusMode(name: "Cafe\u{301}")])
    for (configuration, kind) in [(otherApp, "app id"), (twoApps, "app id"), (twoModes, "Focus name")] {
      await #expect {
        try await service.importConfiguration(configuration, for: "alice")
      } throws: { refused($0, kind) }
      #expect(service.decide(mail(.family), user: "alice", app: Self.app).reason == .notMatched)
      #expect(try await service.system(for: "alice").configuration.modes.count == FocusMode.builtIn.count)
    }
    // The registered spelling imports, and decides.
    var same = FocusConfiguration(activeFocus: "Work", savedParameters: ["Work": [registered: values]])
    same.filtersInForceUnknown = true
    try await service.importConfiguration(same, for: "alice")
    #expect(service.decide(mail(.family), user: "alice", app: registered).reason == .notMatched)
    // Straight into a database no service runs over.
    let database = try FocusDatabase(path: try FocusDatabaseTests.temporaryPath())
    #expect {
      try database.importConfiguration(twoModes, for: "bob")
    } throws: { refused($0, "Focus name") }
    #expect(try database.users().isEmpty)
  }
}
