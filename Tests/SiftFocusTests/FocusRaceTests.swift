import Foundation
import Testing

@testable import SiftFocus

/// The races a service hits, each with its interleaving injected by a ``Gate`` (no sleeps):
/// the gated call waits inside its entity lookup, the test makes the competing change, then
/// opens the gate.
@Suite struct FocusRaceTests {
  static let app = "com.example.mail"

  static func system() async throws -> FocusSystem {
    let system = FocusSystem()
    try await system.register(MailFocusFilter.self, app: app)
    try await system.save(MailFocusFilter.configured([.work]), for: app, in: "Work")
    try await system.save(MailFocusFilter.configured([.family]), for: app, in: "Personal")
    return system
  }

  /// A slow app-context re-read that finishes after a switch from Work to Personal is
  /// discarded: Personal's filter stays (family mail delivered, work mail muted).
  @Test func aSlowReloadDoesNotOverwriteTheNewFocus() async throws {
    let system = try await Self.system()
    try await system.activate("Work")
    let gate = Gate()
    let reload = Task { try await Gate.$current.withValue(gate) { try await system.reloadAppContext(for: Self.app) } }
    await gate.entered()
    try await system.activate("Personal")
    await gate.open()
    try await reload.value
    #expect(await system.activeFocus == "Personal")
    #expect(try await system.deliver(mail(.family), to: Self.app).decision.reason == .matched)
    #expect(try await system.deliver(mail(.work), to: Self.app).decision.reason == .notMatched)
    let current = try await system.withApp(Self.app) { try await MailFocusFilter.current }
    #expect(current.mailboxes == [.family])
  }

  /// `activate("Work")` then `activate("Personal")`: Work is held at its await while
  /// Personal is requested; activations are serialised, so Personal wins.
  @Test func activationsRunInTheOrderRequested() async throws {
    let system = try await Self.system()
    let gate = Gate()
    let work = Task { try await Gate.$current.withValue(gate) { try await system.activate("Work") } }
    await gate.entered()
    let personal = Task { try await system.activate("Personal") }
    while await system.activationRequests < 2 { await Task.yield() }
    await gate.open()
    _ = try await work.value
    _ = try await personal.value
    #expect(await system.activeFocus == "Personal")
    #expect(try await system.deliver(mail(.family), to: Self.app).decision.reason == .matched)
    #expect(try await system.deliver(mail(.work), to: Self.app).decision.reason == .notMatched)
  }

  /// Two re-reads of one app: the one started last wins even when it finishes first.
  @Test func theLatestReloadWins() async throws {
    let system = try await Self.system()
    try await system.activate("Work")
    let gate = Gate()
    let first = Task { try await Gate.$current.withValue(gate) { try await system.reloadAppContext(for: Self.app) } }
    await gate.entered()
    try await system.reloadAppContext(for: Self.app)
    await gate.open()
    try await first.value
    #expect(try await system.deliver(mail(.work), to: Self.app).decision.reason == .matched)
  }

  /// A restart restores exactly the filters in force: decisions right away (never
  /// `noFilter`), and `current` rebuilt from the values in force, not the saved ones.
  @Test(arguments: [false, true])
  func aRestartRestoresTheFiltersInForce(database: Bool) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-restart-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func open() throws -> FocusSystem {
      database
        ? try FocusSystem(
          database: FocusDatabase(path: directory.appendingPathComponent("focus.sqlite").path), user: "u")
        : try FocusSystem(store: FocusStore(url: directory.appendingPathComponent("focus.json")))
    }
    do {
      let system = try open()
      try await system.register(MailFocusFilter.self, app: Self.app)
      try await system.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
      try await system.activate("Work")
      // Saved after the activation: not in force, so not what a restart restores.
      try await system.save(MailFocusFilter.configured([.news]), for: Self.app, in: "Work")
    }
    let restarted = try open()
    // Nothing activated since the restart: the restored filter decides (registering builds
    // nothing; the next activation would).
    try await restarted.register(MailFocusFilter.self, app: Self.app)
    #expect(try await restarted.deliver(mail(.work), to: Self.app).decision.reason == .matched)
    #expect(try await restarted.deliver(mail(.news), to: Self.app).decision.reason == .notMatched)
    let current = try await restarted.withApp(Self.app) { try await MailFocusFilter.current }
    #expect(current.mailboxes == [.work])
  }

  /// 200 concurrent saves of one JSON store all succeed, and the file holds one of them.
  @Test func concurrentSavesNeverCollide() async throws {
    let store = try FocusStoreTests.temporaryStore()
    let failures = await withTaskGroup(of: Int.self) { group in
      for k in 0..<200 {
        group.addTask {
          var configuration = FocusConfiguration()
          configuration.activeFocus = k % 2 == 0 ? "Work" : "Personal"
          do {
            try store.save(configuration)
            return 0
          } catch {
            return 1
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(failures == 0)
    #expect(try ["Work", "Personal"].contains(store.load().activeFocus))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.url.deletingLastPathComponent().path)
      .filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty)
  }
}
