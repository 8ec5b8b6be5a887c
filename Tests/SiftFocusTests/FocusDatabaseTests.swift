import Foundation
import Testing

@testable import SiftFocus

#if canImport(Glibc)
  import Glibc
#endif

/// The SQLite state of a service: every user's state round-trips, an acknowledged change
/// survives SIGKILL, and a damaged file is an error, never a reset.
@Suite struct FocusDatabaseTests {
  static func temporaryPath() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-db-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("focus.sqlite").path
  }

  /// Modes, active Focus, saved parameters, filters in force, badges and history of two
  /// users come back as they were, and neither sees the other's.
  @Test func everyUsersStateRoundTrips() async throws {
    let path = try Self.temporaryPath()
    do {
      let database = try FocusDatabase(path: path)
      for (user, mailbox) in [("alice", MailboxEntity.work), ("bob", .family)] {
        let system = try FocusSystem(database: database, user: user, badges: .unreadCount)
        try await system.register(MailFocusFilter.self, app: "mail")
        try await system.addFocus(FocusMode(name: "Exam", allowsTimeSensitive: false))
        try await system.save(MailFocusFilter.configured([mailbox]), for: "mail", in: "Exam")
        try await system.activate("Exam")
        try await system.deliver(mail(.work), to: "mail")
        try await system.deliver(mail(.family, badge: 4), to: "mail")
      }
    }
    let database = try FocusDatabase(path: path)
    #expect(try database.users() == ["alice", "bob"])
    let alice = try FocusSystem(database: database, user: "alice")
    let bob = try FocusSystem(database: database, user: "bob")
    try await alice.register(MailFocusFilter.self, app: "mail")
    #expect(await alice.activeFocus == "Exam")
    #expect(await alice.configuration.mode(named: "Exam")?.allowsTimeSensitive == false)
    #expect(try await alice.history().map(\.decision.reason) == [.matched, .notMatched])
    #expect(try await bob.history().map(\.decision.reason) == [.notMatched, .matched])
    #expect(await alice.badgeCount(of: "mail") == 1)  // the recount of an unread-count system
    #expect(await bob.badgeCount(of: "mail") == 4)
    #expect(try await alice.deliver(mail(.work), to: "mail").sequence == 3)
    // The JSON file stays the import and export format of one app's configuration.
    let exported = try database.configuration(of: "bob")
    #expect(exported.savedParameters["Exam"]?["mail"]?["mailboxes"] == .array([.entity("family-mail")]))
    try database.importConfiguration(exported, for: "carol")
    #expect(try database.configuration(of: "carol") == exported)
  }

  /// The history is bounded per user: the oldest go first, in memory and on disk.
  @Test func theHistoryIsBounded() async throws {
    let database = try FocusDatabase(path: try Self.temporaryPath())
    let system = try FocusSystem(database: database, user: "u", historyLimit: 5)
    try await system.register(MailFocusFilter.self, app: "app")
    for k in 0..<12 { try await system.deliver(NotificationContent(filterCriteria: "\(k)"), to: "app") }
    #expect(try await system.history().map(\.content.filterCriteria) == ["7", "8", "9", "10", "11"])
    let reopened = try FocusSystem(database: database, user: "u", historyLimit: 5)
    #expect(try await reopened.history().map(\.content.filterCriteria) == ["7", "8", "9", "10", "11"])
  }

  /// A file that is not a database, and a database whose pages were damaged, are errors
  /// that name the file; the file is left as it was.
  @Test func aDamagedDatabaseIsAnErrorNotAReset() async throws {
    let garbage = try Self.temporaryPath()
    try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: garbage))
    #expect {
      _ = try FocusDatabase(path: garbage)
    } throws: { error in
      "\(error)".contains(garbage) && "\(error)".contains("not a SQLite database")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: garbage)) == Data(repeating: 0x41, count: 8192))

    let damaged = try Self.temporaryPath()
    do {
      let database = try FocusDatabase(path: damaged)
      let system = try FocusSystem(database: database, user: "u")
      try await system.register(MailFocusFilter.self, app: "a")
      for k in 0..<400 {
        try await system.deliver(NotificationContent(filterCriteria: String(repeating: "x", count: k)), to: "a")
      }
    }
    // Checkpointed into the main file by the close above; scribble over its middle pages.
    let url = URL(fileURLWithPath: damaged)
    var bytes = try Data(contentsOf: url)
    #expect(bytes.count > 16 * 4096)
    for k in (4096 * 3)..<(4096 * 12) { bytes[k] = UInt8(truncatingIfNeeded: k &* 31) }
    try bytes.write(to: url)
    #expect(throws: FocusStoreError.self) { _ = try FocusDatabase(path: damaged) }
    #expect(try Data(contentsOf: url) == bytes)
  }

  /// A writer process acknowledges each change after its call returned; SIGKILL mid-burst.
  /// Every acknowledged change is in the database, which opens cleanly.
  @Test func everyAcknowledgedChangeSurvivesSIGKILL() async throws {
    let path = try Self.temporaryPath()
    let writer = Process()
    writer.executableURL = try Self.writerBinary()
    writer.arguments = [path, "100000"]
    let output = Pipe()
    writer.standardOutput = output
    try writer.run()
    var text = ""
    let handle = output.fileHandleForReading
    while text.components(separatedBy: "\n").count < 300 {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    kill(writer.processIdentifier, SIGKILL)
    writer.waitUntilExit()
    text += String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    #expect(writer.terminationReason == .uncaughtSignal)
    let acknowledged = text.split(separator: "\n").compactMap { line in
      line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
    }
    #expect(acknowledged.count >= 299)
    #expect(acknowledged == Array(0..<acknowledged.count))

    let missing = try await Self.missingChanges(acknowledged, in: FocusDatabase(path: path), prefix: "user")
    #expect(missing.isEmpty)
  }

  /// The acknowledged changes of a FocusCrashWriter run that are not in the database: each
  /// odd change is a Focus of its own; the even ones set a user's badge, which must be at
  /// least the last acknowledged one (a later, unacknowledged write may have landed too).
  static func missingChanges(_ acknowledged: [Int], in database: FocusDatabase, prefix: String) async throws -> [Int] {
    var missing: [Int] = []
    for u in 0..<10 {
      let system = try FocusSystem(database: database, user: "\(prefix)\(u)")
      let mine = acknowledged.filter { $0 % 10 == u }
      let configuration = await system.configuration
      for k in mine where k % 2 == 1 && configuration.mode(named: "Focus \(k)") == nil { missing.append(k) }
      if let last = mine.last(where: { $0 % 2 == 0 }), await system.badgeCount(of: "mail") < last {
        missing.append(last)
      }
    }
    return missing
  }

  /// The writer from the same build as this test bundle.
  static func writerBinary() throws -> URL {
    var directories: [URL] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      directories.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
    }
    directories.append(
      URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    for directory in directories {
      let candidate = directory.appendingPathComponent("FocusCrashWriter")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw FocusSystemError(message: "FocusCrashWriter not found in \(directories.map(\.path))")
  }
}
