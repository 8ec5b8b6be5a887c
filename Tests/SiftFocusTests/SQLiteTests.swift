import Foundation
import Testing

@testable import SiftFocus

#if canImport(Glibc)
  import Glibc
#endif

/// The SQLite layer: statements reset after use (a bounded WAL, a second writer), a schema
/// made in one transaction, files that are not Sift's refused, version 1 migrated or
/// refused when incomplete, one unreadable row failing one user, file modes, clear errors.
@Suite struct SQLiteTests {
  static let app = "com.example.mail"

  /// Opens `path` with a bare connection (to build or inspect a file the way another
  /// program would).
  static func raw(_ path: String, _ sql: String) throws {
    try SQLiteConnection(path: path).execute(sql)
  }

  static func texts(_ path: String, _ sql: String) throws -> [String] {
    let db = try SQLiteConnection(path: path)
    return try db.withStatement(sql) { (s) throws(FocusStoreError) -> [String] in
      var rows: [String] = []
      while try s.step() { rows.append(s.text(0) ?? "NULL") }
      return rows
    }
  }

  /// No call leaves a statement stepped and not reset (which held a read transaction:
  /// `PRAGMA user_version` at open, `SELECT active_focus` in every load).
  @Test func noStatementIsLeftOpen() async throws {
    let database = try FocusDatabase(path: try FocusDatabaseTests.temporaryPath())
    #expect(!database.hasActiveStatement)
    let system = try FocusSystem(database: database, user: "u", badges: .unreadCount)
    #expect(!database.hasActiveStatement)
    try await system.register(MailFocusFilter.self, app: Self.app)
    try await system.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Work")
    try await system.activate("Work")
    try await system.deliver(mail(.work), to: Self.app)
    _ = try await system.history()
    _ = try database.users()
    _ = try database.configuration(of: "u")
    #expect(!database.hasActiveStatement)
    _ = try FocusService(database: FocusDatabase(path: database.path))
    #expect(!database.hasActiveStatement)
  }

  /// The issue's test: 20,000 deliveries keep the `-wal` file under a bound (before, the
  /// open read transaction stopped every checkpoint and it grew by every write: 333 MB).
  @Test func twentyThousandDeliveriesKeepTheWALBounded() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let system = try FocusSystem(database: FocusDatabase(path: path), user: "u", historyLimit: 100)
    try await system.register(MailFocusFilter.self, app: Self.app)
    var largest = 0
    for k in 0..<20_000 {
      try await system.deliver(NotificationContent(filterCriteria: "account-\(k)"), to: Self.app)
      if k % 1_000 == 999 {
        let size = (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        largest = max(largest, size)
      }
    }
    // SQLite checkpoints at 1,000 pages (4 MiB) and then reuses the file from its start.
    #expect(largest > 0 && largest < 8 << 20, "largest -wal file: \(largest) bytes")
    #expect(try await system.history().count == 100)
  }

  /// Two connections on one file, as two processes: the writer process adds its users'
  /// changes while this process writes its own; both finish and every acknowledged change
  /// of both is there. (Before, this connection's stale read transaction made every write
  /// after the other process's first one fail at `BEGIN IMMEDIATE`.)
  @Test func twoProcessesWriteOneFile() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let database = try FocusDatabase(path: path)
    var systems: [FocusSystem] = []
    for u in 0..<10 {
      let system = try FocusSystem(database: database, user: "here\(u)")
      try await system.register(MailFocusFilter.self, app: "mail")
      systems.append(system)
    }
    let writer = Process()
    writer.executableURL = try FocusDatabaseTests.writerBinary()
    writer.arguments = [path, "300", "there"]
    let output = Pipe()
    writer.standardOutput = output
    writer.standardError = FileHandle.nullDevice
    try writer.run()
    // The other process has written before this one writes: the case that failed.
    let handle = output.fileHandleForReading
    var text = String(decoding: handle.availableData, as: UTF8.self)
    var mine: [Int] = []
    for k in 0..<300 {
      let system = systems[k % 10]
      if k % 2 == 0 {
        try await system.setBadgeCount(k, for: "mail")
      } else {
        try await system.addFocus(FocusMode(name: "Focus \(k)"))
      }
      mine.append(k)
    }
    text += String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    writer.waitUntilExit()
    #expect(writer.terminationStatus == 0)
    let theirs = text.split(separator: "\n").compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }
    #expect(theirs == Array(0..<300))
    let reopened = try FocusDatabase(path: path)
    #expect(try await FocusDatabaseTests.missingChanges(mine, in: reopened, prefix: "here").isEmpty)
    #expect(try await FocusDatabaseTests.missingChanges(theirs, in: reopened, prefix: "there").isEmpty)
    #expect(try reopened.users().count == 20)
  }

  /// Creating the schema is one transaction: a creation that fails halfway leaves an empty
  /// file, which then opens (before, the tables made so far stayed, and every later open
  /// failed on "table users already exists").
  @Test func aSchemaThatFailsHalfwayLeavesNothing() throws {
    let path = try FocusDatabaseTests.temporaryPath()
    #expect(throws: FocusStoreError.self) {
      _ = try FocusDatabase(path: path, schema: FocusDatabase.schema + "CREATE TABLE users (again TEXT);")
    }
    #expect(try Self.texts(path, "SELECT name FROM sqlite_master").isEmpty)
    #expect(try Self.texts(path, "PRAGMA user_version") == ["0"])
    let database = try FocusDatabase(path: path)
    #expect(try database.users().isEmpty)
    #expect(try Self.texts(path, "PRAGMA user_version") == ["\(FocusDatabase.schemaVersion)"])
    #expect(try Self.texts(path, "PRAGMA application_id") == ["\(FocusDatabase.applicationID)"])
  }

  /// Another application's SQLite file is refused and left as it was: tables and no Sift
  /// version, or an application id that is not Sift's.
  @Test func anotherApplicationsDatabaseIsRefused() throws {
    let tables = try FocusDatabaseTests.temporaryPath()
    try Self.raw(tables, "CREATE TABLE accounts (id TEXT); INSERT INTO accounts VALUES ('x')")
    #expect {
      _ = try FocusDatabase(path: tables)
    } throws: { error in
      "\(error)".contains("another application's SQLite database") && "\(error)".contains("accounts")
    }
    #expect(try Self.texts(tables, "SELECT name FROM sqlite_master") == ["accounts"])

    let identified = try FocusDatabaseTests.temporaryPath()
    try Self.raw(identified, "PRAGMA application_id=1234; PRAGMA user_version=1")
    #expect {
      _ = try FocusDatabase(path: identified)
    } throws: { error in
      "\(error)".contains("belongs to another application (application_id 1234")
    }
  }

  /// A version-1 database (the previous schema) is migrated in place, and decides as it
  /// did; one that lacks a table fails when it is opened, naming the table, not later.
  @Test func versionOneIsMigratedOrRefusedAtOpen() async throws {
    let v1 = """
      CREATE TABLE users (id TEXT PRIMARY KEY, active_focus TEXT) WITHOUT ROWID;
      CREATE TABLE modes (
        user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, position INTEGER NOT NULL,
        name TEXT NOT NULL, built_in INTEGER NOT NULL, allows_time_sensitive INTEGER NOT NULL,
        PRIMARY KEY (user, position)) WITHOUT ROWID;
      CREATE TABLE saved (
        user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, focus TEXT NOT NULL, app TEXT NOT NULL,
        parameters TEXT NOT NULL, PRIMARY KEY (user, focus, app)) WITHOUT ROWID;
      CREATE TABLE in_force (
        user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, app TEXT NOT NULL,
        parameters TEXT, filter TEXT NOT NULL, allow_list TEXT, hides_badges INTEGER NOT NULL,
        allows_time_sensitive INTEGER NOT NULL, prefix TEXT, failure TEXT,
        PRIMARY KEY (user, app)) WITHOUT ROWID;
      CREATE TABLE badges (
        user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, app TEXT NOT NULL, count INTEGER NOT NULL,
        PRIMARY KEY (user, app)) WITHOUT ROWID;
      """
    let history = """
      CREATE TABLE history (
        user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, sequence INTEGER NOT NULL,
        app TEXT NOT NULL, record TEXT NOT NULL, is_read INTEGER NOT NULL,
        PRIMARY KEY (user, sequence)) WITHOUT ROWID;
      """
    let incomplete = try FocusDatabaseTests.temporaryPath()
    try Self.raw(incomplete, v1 + "PRAGMA user_version=1;")
    #expect {
      _ = try FocusDatabase(path: incomplete)
    } throws: { error in
      "\(error)".contains("without its history table")
    }

    let path = try FocusDatabaseTests.temporaryPath()
    let record =
      #"{"app":"com.example.mail","content":{"body":"a long body","filterCriteria":"work-mail","title":"t"},"#
      + #""decision":{"outcome":"delivered","reason":"matched"},"focus":"Work","isRead":false,"opensFocusScene":false,"sequence":1}"#
    try Self.raw(
      path,
      v1 + history + """
        INSERT INTO users VALUES ('alice', 'Work');
        INSERT INTO modes VALUES ('alice', 0, 'Do Not Disturb', 1, 1), ('alice', 1, 'Work', 1, 1);
        INSERT INTO in_force VALUES ('alice', 'com.example.mail', NULL,
          '{"predicate":{"arguments":[],"format":"SELF IN {\\"work-mail\\"}"}}', 'work-mail' || char(31), 0, 1,
          NULL, NULL);
        INSERT INTO badges VALUES ('alice', 'com.example.mail', 3);
        INSERT INTO history VALUES ('alice', 1, 'com.example.mail', '\(record)', 0);
        PRAGMA user_version=1;
        """)
    let service = try FocusService(database: FocusDatabase(path: path))
    #expect(service.loadProblems.isEmpty)
    #expect(service.decide(mail(.work), user: "alice", app: Self.app).reason == .matched)
    #expect(service.decide(mail(.family), user: "alice", app: Self.app).reason == .notMatched)
    let alice = try await service.system(for: "alice")
    #expect(await alice.badgeCount(of: Self.app) == 3)
    let records = try await alice.history()
    #expect(records.map(\.content.filterCriteria) == ["work-mail"])
    #expect(records.first?.content.body == "")  // read back with what the history keeps
    // The version-1 Do Not Disturb is the built-in one: it silences every app.
    #expect(await alice.configuration.mode(named: "Do Not Disturb")?.allowedApps == .only([]))
    #expect(try Self.texts(path, "PRAGMA user_version") == ["2"])
  }

  /// One unreadable `in_force` row stopped `FocusService.init` for every user. Now that
  /// user is reported and fails closed, and the others are served.
  @Test func oneUnreadableRowFailsOneUser() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    do {
      let service = try FocusService(database: FocusDatabase(path: path))
      let broken = NotificationFilter(predicate: try SiftPredicate(format: "SELF BEGINSWITH 'team-'"))
      let fine = NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", ["a"]))
      try await service.setFilters([("bad", "Work", "chat", broken), ("good", "Work", "chat", fine)])
    }
    try Self.raw(path, "UPDATE in_force SET filter = '{\"predicate\": 12' WHERE user = 'bad'")
    let service = try FocusService(database: FocusDatabase(path: path))
    #expect(service.loadProblems.keys.sorted() == ["bad"])
    #expect(service.loadProblems["bad"]?.contains("unreadable filter in force") == true)
    let decision = service.decide(NotificationContent(filterCriteria: "team-x"), user: "bad", app: "chat")
    #expect(decision.outcome == .muted && decision.reason.code == "filterUnavailable")
    #expect(service.decide(NotificationContent(filterCriteria: "a"), user: "good", app: "chat").reason == .matched)
  }

  /// A new database and its `-wal` and `-shm` files are 0600, as is a new JSON store; an
  /// existing file keeps its mode (the store forced 0644 over 0600 before).
  @Test func filesAreCreatedPrivateAndKeepTheirMode() async throws {
    func mode(_ path: String) -> mode_t {
      var info = stat()
      return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }
    let path = try FocusDatabaseTests.temporaryPath()
    let system = try FocusSystem(database: FocusDatabase(path: path), user: "u")
    try await system.addFocus(FocusMode(name: "Reading"))
    #expect(mode(path) == 0o600 && mode(path + "-wal") == 0o600 && mode(path + "-shm") == 0o600)

    let shared = try FocusDatabaseTests.temporaryPath()
    _ = try FocusDatabase(path: shared)
    chmod(shared, 0o640)
    _ = try FocusDatabase(path: shared)
    #expect(mode(shared) == 0o640)

    let store = try FocusStoreTests.temporaryStore()
    try store.save(FocusConfiguration())
    #expect(mode(store.url.path) == 0o600)
    chmod(store.url.path, 0o640)
    try store.save(FocusConfiguration(activeFocus: "Work"))
    #expect(mode(store.url.path) == 0o640)
  }
}
