import Foundation
import Synchronization
import Testing

@testable import SiftFocus

#if canImport(Glibc)
  import Glibc
#endif

/// A filter whose `perform()` logs the user it runs for.
struct UserProbeFilter: FocusFilter {
  static let title = "User probe"
  var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: Self.title) }
  func perform() async throws { MailLog.current?.append("perform for \(Self.currentUser ?? "nobody")") }
}

/// Apple's semantics and the API a server developer expects: Focus modes that silence
/// apps (with allowed apps and senders), Apple's badge rule by default, critical alerts
/// behind a permission, one `isRunning` default, `perform()` that knows its user, a reason
/// of its own for unknown users, mistyped app ids refused, `[String]` arguments, messages
/// that say what is wrong, and the crash writer as a product.
@Suite struct AppleSemanticsTests {
  static let mailApp = "com.example.mail"
  static let pager = "com.example.pager"

  /// Do Not Disturb with one allowed app and one allowed sender.
  static var modes: [FocusMode] {
    var modes = FocusMode.builtIn
    let k = modes.firstIndex { $0.name == "Do Not Disturb" }!
    modes[k].allowedApps = .only(["com.example.chat"])
    modes[k].allowedSenders = ["mom"]
    return modes
  }

  /// The table of decisions under Do Not Disturb: what the issue found delivered
  /// (`noFilter`) is silenced, except what Apple lets through.
  static let silencing: [(app: String, content: NotificationContent, reason: NotificationDecision.Reason)] = [
    (mailApp, NotificationContent(filterCriteria: "work-mail"), .silencedByFocus),
    (mailApp, NotificationContent(), .silencedByFocus),
    (mailApp, NotificationContent(interruptionLevel: .passive), .silencedByFocus),
    (mailApp, NotificationContent(interruptionLevel: .timeSensitive), .timeSensitive),
    (mailApp, NotificationContent(interruptionLevel: .critical), .silencedByFocus),  // no permission
    (pager, NotificationContent(interruptionLevel: .critical), .critical),  // permitted
    (pager, NotificationContent(), .silencedByFocus),
    (mailApp, NotificationContent(senderIdentifier: "mom"), .allowedSender),
    (mailApp, NotificationContent(senderIdentifier: "mom\0"), .silencedByFocus),
    ("com.example.chat", NotificationContent(filterCriteria: "x"), .noFilter),  // allowed: its filter decides
  ]

  @Test(arguments: [false, true])
  func doNotDisturbSilencesEverythingElse(database: Bool) async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let service = database ? try FocusService(database: FocusDatabase(path: path)) : FocusService()
    try service.register(MailFocusFilter.self, app: Self.mailApp)
    try service.register(MailFocusFilter.self, app: Self.pager, allowsCriticalAlerts: true)
    try service.register(MailFocusFilter.self, app: "com.example.chat")
    let system = try await service.system(for: "u")
    try await service.importConfiguration(FocusConfiguration(modes: Self.modes), for: "u")
    try await system.save(MailFocusFilter.configured([.work]), for: Self.mailApp, in: "Do Not Disturb")
    try await system.activate("Do Not Disturb")
    for row in Self.silencing {
      #expect(await system.decision(for: row.content, app: row.app).reason == row.reason, "\(row)")
      #expect(service.decide(row.content, user: "u", app: row.app).reason == row.reason, "\(row)")
    }
    let record = try await system.deliver(NotificationContent(filterCriteria: "work-mail"), to: Self.mailApp)
    #expect(record.decision == NotificationDecision(outcome: .muted, reason: .silencedByFocus))
    guard database else { return }
    // A restart loads the active mode's policy with the filters.
    let restarted = try FocusService(database: FocusDatabase(path: path))
    try restarted.register(MailFocusFilter.self, app: Self.pager, allowsCriticalAlerts: true)
    for row in Self.silencing {
      #expect(restarted.decide(row.content, user: "u", app: row.app).reason == row.reason, "\(row)")
    }
  }

  /// The built-in Sleep and Do Not Disturb allow no app; Work and Personal every app; a
  /// mode can allow every app but some.
  @Test func theBuiltInModesAndAllowedApps() async throws {
    #expect(FocusMode.sleep.allowedApps == .only([]) && FocusMode.doNotDisturb.allowedApps == .only([]))
    #expect(FocusMode.work.allowedApps == .all && FocusMode.personal.allowedApps == .all)
    let system = FocusSystem()
    try await system.register(MailFocusFilter.self, app: Self.mailApp)
    try await system.register(MailFocusFilter.self, app: "com.example.games")
    try await system.activate("Sleep")
    #expect(try await system.deliver(mail(.work), to: Self.mailApp).decision.reason == .silencedByFocus)
    try await system.addFocus(FocusMode(name: "Study", allowedApps: .allExcept(["com.example.games"])))
    try await system.activate("Study")
    #expect(try await system.deliver(mail(.work), to: Self.mailApp).decision.reason == .noFilter)
    #expect(try await system.deliver(mail(.work), to: "com.example.games").decision.reason == .silencedByFocus)
    // The modes round-trip through JSON, and a file without allowedApps reads the default.
    let data = try JSONEncoder().encode(FocusMode.builtIn + [FocusMode(name: "X", allowedApps: .only(["a"]))])
    #expect(
      try JSONDecoder().decode([FocusMode].self, from: data).map(\.allowedApps) == [
        .only([]), .all, .only([]), .all, .only(["a"]),
      ])
    let old = #"[{"name": "Sleep", "isBuiltIn": true}, {"name": "Sleep", "isBuiltIn": false}]"#
    #expect(try JSONDecoder().decode([FocusMode].self, from: Data(old.utf8)).map(\.allowedApps) == [.only([]), .all])
  }

  /// Apple's badge rule is the default: `aps.badge` sets the badge, a notification without
  /// it leaves the badge alone, and a Focus change does not recount. The unread count is
  /// an option a service turns on.
  @Test func badgesFollowApplesRuleByDefault() async throws {
    let system = FocusSystem()
    try await system.register(MailFocusFilter.self, app: Self.mailApp)
    try await system.deliver(mail(.work), to: Self.mailApp)
    #expect(await system.badgeCount(of: Self.mailApp) == 0)
    try await system.deliver(mail(.work, badge: 5), to: Self.mailApp)
    try await system.deliver(mail(.work), to: Self.mailApp)
    #expect(await system.badgeCount(of: Self.mailApp) == 5)
    try await system.save(MailFocusFilter.configured([.family]), for: Self.mailApp, in: "Work")
    try await system.activate("Work")
    #expect(await system.badgeCount(of: Self.mailApp) == 5)
    try await system.deliver(mail(.work, badge: 9), to: Self.mailApp)  // muted
    #expect(await system.badgeCount(of: Self.mailApp) == 5)

    let counting = FocusService(badges: .unreadCount)
    try counting.register(MailFocusFilter.self, app: Self.mailApp)
    let user = try await counting.system(for: "u")
    #expect(user.badgeRule == .unreadCount)
    try await user.deliver(mail(.work), to: Self.mailApp)
    try await user.deliver(mail(.work), to: Self.mailApp)
    #expect(await user.badgeCount(of: Self.mailApp) == 2)
  }

  /// `critical` breaks through only for an app allowed critical alerts; otherwise the
  /// notification is decided as an `active` one. In a system and in a service.
  @Test func criticalNeedsThePermission() async throws {
    let service = FocusService()
    try service.register(MailFocusFilter.self, app: Self.mailApp)
    try service.register(MailFocusFilter.self, app: Self.pager, allowsCriticalAlerts: true)
    let system = try await service.system(for: "u")
    for app in [Self.mailApp, Self.pager] {
      try await system.save(MailFocusFilter.configured([.work]), for: app, in: "Work")
    }
    try await system.activate("Work")
    let critical = mail(.family, level: .critical)
    #expect(await system.decision(for: critical, app: Self.mailApp).reason == .notMatched)
    #expect(await system.decision(for: critical, app: Self.pager).reason == .critical)
    #expect(service.decide(critical, user: "u", app: Self.mailApp).reason == .notMatched)
    #expect(service.decide(critical, user: "u", app: Self.pager).reason == .critical)
  }

  /// `FocusService.register` and `FocusSystem.register` share the default `isRunning: true`
  /// (before, the service's was false and `perform()` never ran, silently), and
  /// `perform()` knows the user it runs for.
  @Test func performRunsByDefaultAndKnowsItsUser() async throws {
    let service = FocusService()
    try service.register(UserProbeFilter.self, app: "probe")
    let seen = Mutex<[String?]>([])
    try service.register(UserProbeFilter.self, app: "extension", isRunning: false) { change in
      seen.withLock { $0.append(change.user) }
      try await change.perform()
    }
    let log = MailLog()
    try await MailLog.$current.withValue(log) {
      try await service.system(for: "alice").activate("Work")
      try await service.system(for: "bob").activate("Work")
    }
    #expect(log.all == ["perform for alice", "perform for alice", "perform for bob", "perform for bob"])
    #expect(seen.withLock { $0 } == ["alice", "bob"])
    // Outside any scope, and for a standalone system, there is no user.
    #expect(UserProbeFilter.currentUser == nil)
    let standalone = FocusSystem()
    try await standalone.register(UserProbeFilter.self, app: "probe")
    #expect(try await standalone.withApp("probe") { UserProbeFilter.currentUser } == nil)
    #expect(try await service.system(for: "carol").withApp("probe") { UserProbeFilter.currentUser } == "carol")
  }

  /// An unknown user has a reason of their own; a known user with no Focus has
  /// `noActiveFocus`; the batch call agrees.
  @Test func unknownUsersHaveTheirOwnReason() async throws {
    let service = FocusService()
    try service.register(MailFocusFilter.self, app: Self.mailApp)
    try await service.system(for: "known").activate(nil)
    #expect(service.decide(mail(.work), user: "known", app: Self.mailApp) == .noActiveFocus)
    #expect(service.decide(mail(.work), user: "stranger", app: Self.mailApp) == .unknownUser)
    let batch = ["known", "stranger"].map { FocusService.Addressed(user: $0, app: Self.mailApp, content: mail(.work)) }
    #expect(service.decide(batch[...]) == [.noActiveFocus, .unknownUser])
    let data = try JSONEncoder().encode(NotificationDecision.unknownUser)
    #expect(try JSONDecoder().decode(NotificationDecision.self, from: data) == .unknownUser)
  }

  /// A mistyped app id is refused by `save`, `withApp`, `setBadgeCount` and `deliver`, with
  /// the ids that are registered (before, each was accepted and reached nothing).
  @Test func mistypedAppIdsAreRefused() async throws {
    let system = FocusSystem()
    try await system.register(MailFocusFilter.self, app: Self.mailApp)
    let typo = "com.example.mial"
    func refused(_ error: any Error) -> Bool {
      "\(error)" == "no app '\(typo)' is registered (registered: '\(Self.mailApp)')"
    }
    await #expect { try await system.save(MailFocusFilter(), for: typo, in: "Work") } throws: { refused($0) }
    await #expect { try await system.withApp(typo) { 1 } } throws: { refused($0) }
    await #expect { try await system.setBadgeCount(1, for: typo) } throws: { refused($0) }
    await #expect { try await system.deliver(mail(.work), to: typo) } throws: { refused($0) }
    await #expect(throws: FocusSystemError.self) {
      try await system.save(SystemChatFilter(), for: Self.mailApp, in: "Work")
    }
    #expect(await system.badgeCount(of: typo) == 0)
  }

  /// `[String]` arguments go straight into an app context, as the talk writes it.
  @Test func stringArraysNeedNoMapping() throws {
    let allowedAccountList = ["work-account-identifier", "shared-account-identifier"]
    let context = try FocusFilterAppContext(predicateFormat: "SELF IN %@", allowedAccountList)
    let filter = NotificationFilter(predicate: context.notificationFilterPredicate)
    #expect(filter.decide(NotificationContent(filterCriteria: "shared-account-identifier")).reason == .matched)
    #expect(filter.decide(NotificationContent(filterCriteria: "other")).reason == .notMatched)
    #expect(filter.allowListMembers == allowedAccountList)  // the compact form, as with SiftValue
    #expect(throws: FocusFilterError.self) {
      _ = try FocusFilterAppContext(predicateFormat: "SELF IN %@", NSObject())
    }
  }

  /// Messages that say what is wrong: a directory is a directory (not "NSCocoaErrorDomain
  /// error 256"), and a database SQLite may not write says so (not "cannot prepare PRAGMA
  /// quick_check: attempt to write a readonly database").
  @Test func errorsSayWhatIsWrong() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-dir-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    #expect {
      _ = try FocusDatabase(path: directory.path)
    } throws: { error in
      "\(error)" == "\(directory.path): is a directory, not a database file"
    }
    #expect {
      _ = try FocusStore(url: directory).load()
    } throws: { error in
      "\(error)" == "\(directory.path): is a directory, not a configuration file"
    }
    // A database in a directory this user may not write, and one it may not write at all,
    // opened as an unprivileged user (root may write anything).
    let shared = FileManager.default.temporaryDirectory.appendingPathComponent("sift-ro-\(UUID())")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    chmod(shared.path, 0o755)
    for mode: mode_t in [0o666, 0o644] {
      let path = shared.appendingPathComponent("focus-\(mode).sqlite").path
      _ = try FocusDatabase(path: path)
      chmod(path, mode)
      let message = try Self.openAsAnotherUser(path)
      #expect(message.contains("\(path): cannot be written: SQLite needs write access"), "\(message)")
      #expect(!message.contains("PRAGMA") && !message.contains("NSCocoaErrorDomain"), "\(message)")
    }
  }

  /// Runs the crash writer on `path` as an unprivileged user (`setpriv` when this process
  /// is root) and returns what it printed on standard error.
  static func openAsAnotherUser(_ path: String) throws -> String {
    let process = Process()
    let writer = try FocusDatabaseTests.writerBinary().path
    if geteuid() == 0 {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", writer, path, "1"]
    } else {
      process.executableURL = URL(fileURLWithPath: writer)
      process.arguments = [path, "1"]
    }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text
  }

  /// `FocusCrashWriter` is a product of the package, so a service's own crash test can
  /// depend on it.
  @Test func theCrashWriterIsAProduct() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // Its own scratch path, so it never waits for the lock of the build running this test.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sift-dump-\(UUID())").path
    process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch, "dump-package"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let package = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let products = try #require(package["products"] as? [[String: Any]])
    let writer = try #require(products.first { $0["name"] as? String == "FocusCrashWriter" })
    #expect(writer["targets"] as? [String] == ["FocusCrashWriter"])
    #expect((writer["type"] as? [String: Any])?["executable"] != nil)
  }
}
