import CSQLite
import Foundation
import Synchronization

/// The durable state of a service with many users, in one SQLite database (WAL mode):
/// the users, each user's Focus modes and active Focus, the parameters saved per Focus and
/// app, the filters in force, the badge counts and a bounded delivery history.
///
/// Every change a ``FocusSystem`` makes is one transaction, committed (and so durable
/// under WAL with `synchronous=FULL`) before the call returns: a change that was
/// acknowledged survives a crash of the process, and a change that failed to commit
/// changes nothing, in the file or in memory. Several connections (in one process or in
/// several) may write one file: every statement is reset after use, so no connection keeps
/// a stale read transaction that would block checkpoints or fail its next write.
///
/// Ids are byte strings: every text is bound with its byte count (a NUL is an ordinary
/// byte) and compared by bytes, as ``IDKey`` has it.
///
/// Opening checks the file: a file that is not a database, a database that fails SQLite's
/// integrity check, another application's database (its own `application_id`, or tables
/// and no Sift schema version), a schema version this code does not know, or a Sift
/// database missing one of its tables or columns is an error naming the file, and the file
/// is left as it was. A new file is created with mode 0600 (the `-wal` and `-shm` files get
/// the same), an existing one keeps its mode; the schema is created, or migrated from
/// version 1, in one transaction. ``FocusStore`` (one JSON file) stays the format for one
/// app's import and export.
public final class FocusDatabase: Sendable {
  /// The database file.
  public let path: String
  private let connection: Mutex<SQLiteConnection>
  /// Whether a ``FocusService`` runs over this database: its users then change only
  /// through the service, which keeps its decisions and their systems in step.
  private let claimed = Mutex(false)

  /// The schema version this code writes (`PRAGMA user_version`).
  static let schemaVersion = 2
  /// Sift's `PRAGMA application_id` ("SIFT").
  static let applicationID: Int = 0x5349_4654

  /// Opens the database at `path`, creating it (and its tables) when the file does not
  /// exist, and migrating a version-1 database.
  ///
  /// - Throws: ``FocusStoreError`` when the path is a directory, the file cannot be opened
  ///   or written, is not a database, fails the integrity check, belongs to another
  ///   application, lacks a table or column of its version, or was written by a newer
  ///   schema.
  public convenience init(path: String) throws(FocusStoreError) {
    try self.init(path: path, schema: Self.schema)
  }

  /// Opens the database, creating a new one with `schema` (the tests give one that fails
  /// halfway, to check that creation is one transaction).
  init(path: String, schema: String) throws(FocusStoreError) {
    self.path = path
    let db = try SQLiteConnection(path: path)
    do throws(FocusStoreError) {
      // quick_check reads every page, so a damaged file is caught here rather than on
      // some later read.
      let problems = try db.withStatement("PRAGMA quick_check") { (check) throws(FocusStoreError) -> [String] in
        var problems: [String] = []
        while try check.step() { if let line = check.text(0), line != "ok" { problems.append(line) } }
        return problems
      }
      guard problems.isEmpty else {
        throw FocusStoreError(path: path, message: "is damaged: \(problems.prefix(3).joined(separator: "; "))")
      }
      try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON")
      try db.transaction { () throws(FocusStoreError) in try Self.prepareSchema(db, path: path, schema: schema) }
    } catch {
      throw FocusStoreError(path: path, message: Self.explain(error.message))
    }
    connection = Mutex(db)
  }

  /// SQLite's "file is not a database" is the usual sign of a file that is something else.
  private static func explain(_ message: String) -> String {
    message.contains("not a database") ? "is not a SQLite database (\(message))" : message
  }

  /// Creates the schema in an empty file, migrates version 1, or checks that the file is
  /// this code's: inside the caller's transaction, so a crash leaves the file as it was.
  private static func prepareSchema(_ db: SQLiteConnection, path: String, schema: String) throws(FocusStoreError) {
    let application = try db.withStatement("PRAGMA application_id") { (s) throws(FocusStoreError) in
      try s.step() ? s.int(0) : 0
    }
    let version = try db.withStatement("PRAGMA user_version") { (s) throws(FocusStoreError) in
      try s.step() ? s.int(0) : 0
    }
    let tables = try db.withStatement(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ) { (s) throws(FocusStoreError) -> [String] in
      var names: [String] = []
      while try s.step() { names.append(s.text(0) ?? "") }
      return names
    }
    if application != 0 && application != applicationID {
      throw FocusStoreError(
        path: path,
        message: "belongs to another application (application_id \(application), not Sift's \(applicationID))")
    }
    if version == 0 {
      guard tables.isEmpty else {
        throw FocusStoreError(
          path: path,
          message:
            "is another application's SQLite database (it has the tables \(tables.joined(separator: ", ")) "
            + "and no Sift schema version); Sift does not add its tables to it")
      }
      try db.execute(schema)
      try db.execute("PRAGMA application_id=\(applicationID); PRAGMA user_version=\(schemaVersion)")
      return
    }
    guard version <= schemaVersion else {
      throw FocusStoreError(path: path, message: "has schema version \(version), newer than \(schemaVersion)")
    }
    let expected = version == 1 ? columnsVersion1 : columns
    for (table, wanted) in expected.sorted(by: { $0.key < $1.key }) {
      guard tables.contains(table) else {
        throw FocusStoreError(path: path, message: "is a Sift database (version \(version)) without its \(table) table")
      }
      let found = try db.withStatement("PRAGMA table_info(\(table))") { (s) throws(FocusStoreError) -> [String] in
        var names: [String] = []
        while try s.step() { names.append(s.text(1) ?? "") }
        return names
      }
      if let missing = wanted.first(where: { !found.contains($0) }) {
        throw FocusStoreError(
          path: path, message: "is a Sift database (version \(version)) whose \(table) table has no \(missing) column")
      }
    }
    if version == 1 {
      try db.execute(migration1To2)
      try db.execute("PRAGMA application_id=\(applicationID); PRAGMA user_version=\(schemaVersion)")
    }
  }

  static let schema = """
    CREATE TABLE users (
      id TEXT PRIMARY KEY, active_focus TEXT, focus_policy TEXT, builtin_modes INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE TABLE modes (
      user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, position INTEGER NOT NULL,
      name TEXT NOT NULL, built_in INTEGER NOT NULL, allows_time_sensitive INTEGER NOT NULL,
      allowed_apps TEXT, allowed_senders TEXT,
      PRIMARY KEY (user, position)) WITHOUT ROWID;
    CREATE TABLE saved (
      user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, focus TEXT NOT NULL, app TEXT NOT NULL,
      parameters TEXT NOT NULL, PRIMARY KEY (user, focus, app)) WITHOUT ROWID;
    CREATE TABLE in_force (
      user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, app TEXT NOT NULL,
      parameters TEXT, filter TEXT NOT NULL, allow_list TEXT, hides_badges INTEGER NOT NULL,
      allows_time_sensitive INTEGER NOT NULL, prefix TEXT, failure TEXT,
      allows_critical INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (user, app)) WITHOUT ROWID;
    CREATE TABLE badges (
      user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, app TEXT NOT NULL, count INTEGER NOT NULL,
      PRIMARY KEY (user, app)) WITHOUT ROWID;
    CREATE TABLE history (
      user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, sequence INTEGER NOT NULL,
      app TEXT NOT NULL, record TEXT NOT NULL, is_read INTEGER NOT NULL, bytes INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (user, sequence)) WITHOUT ROWID;
    """

  /// Version 2 adds the Focus modes' allowed apps and senders, the active mode's policy
  /// (NULL when it is the default for the Focus's name), whether a user's modes are the
  /// built-in ones (then no `modes` rows are stored: most users of a service), the
  /// critical-alert permission of a filter in force and each history record's size.
  /// Version-1 users keep their mode rows; version-1 history records keep their whole
  /// content, and their size is their stored length.
  static let migration1To2 = """
    ALTER TABLE users ADD COLUMN focus_policy TEXT;
    ALTER TABLE users ADD COLUMN builtin_modes INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE modes ADD COLUMN allowed_apps TEXT;
    ALTER TABLE modes ADD COLUMN allowed_senders TEXT;
    ALTER TABLE in_force ADD COLUMN allows_critical INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE history ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
    UPDATE history SET bytes = length(CAST(record AS BLOB));
    """

  /// The columns each table of version 1 has.
  static let columnsVersion1: [String: [String]] = [
    "users": ["id", "active_focus"],
    "modes": ["user", "position", "name", "built_in", "allows_time_sensitive"],
    "saved": ["user", "focus", "app", "parameters"],
    "in_force": [
      "user", "app", "parameters", "filter", "allow_list", "hides_badges", "allows_time_sensitive", "prefix", "failure",
    ],
    "badges": ["user", "app", "count"],
    "history": ["user", "sequence", "app", "record", "is_read"],
  ]

  /// The columns each table of the current version has.
  static let columns: [String: [String]] = {
    var columns = columnsVersion1
    columns["users"]! += ["focus_policy", "builtin_modes"]
    columns["modes"]! += ["allowed_apps", "allowed_senders"]
    columns["in_force"]! += ["allows_critical"]
    columns["history"]! += ["bytes"]
    return columns
  }()

  // MARK: Ownership by a service

  /// Marks the database as run by a service; a second service over the same object is an
  /// error (the two would not see each other's changes).
  func claim() throws(FocusStoreError) {
    let taken = claimed.withLock { (taken: inout Bool) -> Bool in
      defer { taken = true }
      return taken
    }
    if taken { throw FocusStoreError(path: path, message: "already has a FocusService running over it") }
  }

  /// Ends a service's claim (when it goes away).
  func release() { claimed.withLock { $0 = false } }

  var isClaimed: Bool { claimed.withLock { $0 } }

  /// The error for a direct change to a database a service runs over.
  func claimedError(_ what: String) -> FocusStoreError {
    FocusStoreError(
      path: path,
      message:
        "has a FocusService running over it: \(what) through the service, so its decisions and the user's system see it"
    )
  }

  // MARK: Users

  /// Everything stored for one user that a system keeps in memory.
  struct UserState {
    var configuration: FocusConfiguration
    var badges: [String: Int]
    var nextSequence: Int
  }

  /// The identifiers of every user, sorted by their bytes.
  public func users() throws(FocusStoreError) -> [String] {
    try connection.withLock { (db) throws(FocusStoreError) -> [String] in
      try db.withStatement("SELECT id FROM users ORDER BY id") { (s) throws(FocusStoreError) -> [String] in
        var ids: [String] = []
        while try s.step() { ids.append(s.text(0) ?? "") }
        return ids
      }
    }
  }

  /// The bytes SQLite has allocated in this process (every connection's page cache and
  /// statements): what the scale benchmark leaves out of its bytes per user.
  package static var sqliteMemoryInUse: Int { Int(sqlite3_memory_used()) }

  /// The number of users stored.
  func userCount() throws(FocusStoreError) -> Int {
    try connection.withLock { (db) throws(FocusStoreError) -> Int in
      try db.withStatement("SELECT COUNT(*) FROM users") { (s) throws(FocusStoreError) in try s.step() ? s.int(0) : 0 }
    }
  }

  /// One user's configuration (the default one for a user not stored yet), as
  /// ``FocusStore`` would hold it: what a single app exports.
  public func configuration(of user: String) throws(FocusStoreError) -> FocusConfiguration {
    try loadUser(user).configuration
  }

  /// Replaces one user's configuration (modes, active Focus, saved parameters, filters in
  /// force) with `configuration`, for instance one imported from a ``FocusStore`` file.
  ///
  /// - Throws: ``FocusStoreError`` when a ``FocusService`` runs over this database (import
  ///   with ``FocusService/importConfiguration(_:for:)`` then, so the service's decisions
  ///   and the user's system see it), or when the configuration's filters in force are
  ///   unknown (a JSON file written before they were saved: import it through a service,
  ///   which builds them, or activate its Focus in a ``FocusSystem`` first), or when two
  ///   of its Focus names or two of its app ids have one text and other bytes.
  public func importConfiguration(_ configuration: FocusConfiguration, for user: String) throws(FocusStoreError) {
    guard !isClaimed else { throw claimedError("import a configuration") }
    if let problem = FocusSpelling.problem(in: configuration, registry: nil) {
      throw FocusStoreError(path: path, message: "cannot import the configuration: \(problem)")
    }
    let badges = try loadUser(user).badges
    try saveUser(user, configuration: configuration, badges: badges)
  }

  func loadUser(_ user: String) throws(FocusStoreError) -> UserState {
    try connection.withLock { (db) throws(FocusStoreError) -> UserState in
      let found = try db.withStatement("SELECT active_focus, builtin_modes FROM users WHERE id = ?1") {
        (u) throws(FocusStoreError) -> (focus: String?, builtIn: Bool)? in
        try u.bind(1, user)
        return try u.step() ? (u.text(0), u.int(1) != 0) : nil
      }
      guard let found else {
        return UserState(configuration: FocusConfiguration(), badges: [:], nextSequence: 1)
      }
      var configuration = FocusConfiguration(modes: found.builtIn ? FocusMode.builtIn : [], activeFocus: found.focus)
      if !found.builtIn {
        try db.withStatement(
          """
          SELECT name, built_in, allows_time_sensitive, allowed_apps, allowed_senders FROM modes WHERE user = ?1
          ORDER BY position
          """
        ) { (m) throws(FocusStoreError) in
          try m.bind(1, user)
          while try m.step() {
            let name = m.text(0) ?? ""
            let builtIn = m.int(1) != 0
            let apps =
              try m.text(3).map { (text) throws(FocusStoreError) in
                try decode(path: path, AllowedApps.self, text, what: "Focus mode's allowed apps")
              } ?? FocusMode.defaultAllowedApps(name: name, isBuiltIn: builtIn)
            let senders =
              try m.text(4).map { (text) throws(FocusStoreError) in
                try decode(path: path, [String].self, text, what: "Focus mode's allowed senders")
              } ?? []
            configuration.modes.append(
              FocusMode(
                name: name, isBuiltIn: builtIn, allowsTimeSensitive: m.int(2) != 0, allowedApps: apps,
                allowedSenders: senders))
          }
        }
      }
      try db.withStatement("SELECT focus, app, parameters FROM saved WHERE user = ?1") { (s) throws(FocusStoreError) in
        try s.bind(1, user)
        while try s.step() {
          let values = try decode(path: path, [String: FocusParameterValue].self, s.text(2), what: "saved parameters")
          configuration.savedParameters[s.text(0) ?? "", default: [:]][s.text(1) ?? ""] = values
        }
      }
      try db.withStatement("SELECT app, parameters, filter, allows_critical FROM in_force WHERE user = ?1") {
        (f) throws(FocusStoreError) in
        try f.bind(1, user)
        while try f.step() {
          let values =
            f.isNull(1)
            ? nil : try decode(path: path, [String: FocusParameterValue].self, f.text(1), what: "parameters")
          var filter = try decode(path: path, NotificationFilter.self, f.text(2), what: "filter in force")
          if f.int(3) != 0 { filter.allowsCriticalAlerts = true }
          configuration.inForce[f.text(0) ?? ""] = AppliedFilter(parameterValues: values, notificationFilter: filter)
        }
      }
      var badges: [String: Int] = [:]
      try db.withStatement("SELECT app, count FROM badges WHERE user = ?1") { (b) throws(FocusStoreError) in
        try b.bind(1, user)
        while try b.step() { badges[b.text(0) ?? ""] = NotificationContent.clampedBadge(b.int(1)) }
      }
      let last = try db.withStatement("SELECT MAX(sequence) FROM history WHERE user = ?1") {
        (h) throws(FocusStoreError) -> Int in
        try h.bind(1, user)
        return try h.step() ? h.int(0) : 0
      }
      return UserState(configuration: configuration, badges: badges, nextSequence: last + 1)
    }
  }

  /// Writes a user's whole configuration and badges in one transaction.
  func saveUser(
    _ user: String, configuration: FocusConfiguration, badges: [String: Int], alive: SystemLifetime? = nil
  ) throws(FocusStoreError) {
    guard !configuration.filtersInForceUnknown else {
      throw FocusStoreError(
        path: path,
        message:
          "cannot store the configuration of '\(user)': its filters in force are unknown (it was written before "
          + "they were saved); build them first (FocusService.importConfiguration, or activate its Focus)")
    }
    let encoder = Self.encoder()
    try connection.withLock { (db) throws(FocusStoreError) in
      try checkAlive(alive, user)
      try db.transaction { () throws(FocusStoreError) in
        let policy = try configuration.activeFocus.flatMap { configuration.mode(named: $0) }.map {
          (mode) throws(FocusStoreError) in try Self.policyColumn(mode, path: path, encoder)
        }
        let builtIn = configuration.modes == FocusMode.builtIn
        try db.run(
          """
          INSERT INTO users (id, active_focus, focus_policy, builtin_modes) VALUES (?1, ?2, ?3, ?4)
          ON CONFLICT(id) DO UPDATE SET active_focus = ?2, focus_policy = ?3, builtin_modes = ?4
          """, .text(user), .text(configuration.activeFocus), .text(policy ?? nil), .int(builtIn ? 1 : 0))
        for table in ["modes", "saved", "in_force"] {
          try db.run("DELETE FROM \(table) WHERE user = ?1", .text(user))
        }
        if !builtIn {
          for (position, mode) in configuration.modes.enumerated() {
            try Self.insertMode(db, path: path, user: user, position: position, mode, encoder)
          }
        }
        for (focus, apps) in configuration.savedParameters {
          for (app, values) in apps {
            try db.run(
              "INSERT INTO saved (user, focus, app, parameters) VALUES (?1, ?2, ?3, ?4)", .text(user), .text(focus),
              .text(app), .text(try encode(path: path, values, encoder)))
          }
        }
        for (app, applied) in configuration.inForce {
          try Self.insertInForce(db, path: path, user: user, app: app, applied, encoder)
        }
        try db.run("DELETE FROM badges WHERE user = ?1", .text(user))
        for (app, count) in badges {
          try db.run("INSERT INTO badges (user, app, count) VALUES (?1, ?2, ?3)", .text(user), .text(app), .int(count))
        }
      }
    }
  }

  /// The `focus_policy` column for the active mode: nil when it is the default for the
  /// Focus's name (what the loader assumes for NULL), so most users store and load no text.
  private static func policyColumn(_ mode: FocusMode, path: String, _ encoder: JSONEncoder)
    throws(FocusStoreError) -> String?
  {
    let policy = mode.policy
    return policy == FocusPolicy.default(forFocus: mode.name) ? nil : try encode(path: path, policy, encoder)
  }

  private static func insertMode(
    _ db: SQLiteConnection, path: String, user: String, position: Int, _ mode: FocusMode, _ encoder: JSONEncoder
  ) throws(FocusStoreError) {
    let isDefault = mode.allowedApps == FocusMode.defaultAllowedApps(name: mode.name, isBuiltIn: mode.isBuiltIn)
    try db.run(
      """
      INSERT INTO modes (user, position, name, built_in, allows_time_sensitive, allowed_apps, allowed_senders)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
      """, .text(user), .int(position), .text(mode.name), .int(mode.isBuiltIn ? 1 : 0),
      .int(mode.allowsTimeSensitive ? 1 : 0),
      .text(isDefault ? nil : try encode(path: path, mode.allowedApps, encoder)),
      .text(mode.allowedSenders.isEmpty ? nil : try encode(path: path, mode.allowedSenders, encoder)))
  }

  private static func insertInForce(
    _ db: SQLiteConnection, path: String, user: String, app: String, _ applied: AppliedFilter, _ encoder: JSONEncoder
  ) throws(FocusStoreError) {
    let filter = applied.notificationFilter
    try db.run(
      """
      INSERT INTO in_force (user, app, parameters, filter, allow_list, hides_badges, allows_time_sensitive, prefix,
        failure, allows_critical)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
      """, .text(user), .text(app),
      .text(try applied.parameterValues.map { (v) throws(FocusStoreError) in try encode(path: path, v, encoder) }),
      .text(try encode(path: path, filter, encoder)), .text(FocusService.allowListColumn(filter)),
      .int(filter.hidesBadges ? 1 : 0), .int(filter.allowsTimeSensitive ? 1 : 0),
      .text(filter.targetContentIdentifierPrefix), .text(filter.failure), .int(filter.allowsCriticalAlerts ? 1 : 0))
  }

  /// Makes sure the user's row exists (history and badges refer to it); a new user has
  /// the built-in Focus modes, as a new configuration has (`builtin_modes`, no rows). True
  /// when the user is new.
  @discardableResult
  private static func ensureUser(_ db: SQLiteConnection, path: String, _ user: String, _ encoder: JSONEncoder)
    throws(FocusStoreError) -> Bool
  {
    try db.run(
      "INSERT INTO users (id, active_focus, builtin_modes) VALUES (?1, NULL, 1) ON CONFLICT(id) DO NOTHING",
      .text(user))
    return sqlite3_changes(db.handle) > 0
  }

  /// Sets one app's badge.
  func saveBadge(_ count: Int, app: String, user: String, alive: SystemLifetime? = nil) throws(FocusStoreError) {
    let encoder = Self.encoder()
    try connection.withLock { (db) throws(FocusStoreError) in
      try checkAlive(alive, user)
      try db.transaction { () throws(FocusStoreError) in
        try Self.ensureUser(db, path: path, user, encoder)
        try Self.upsertBadge(db, count, app: app, user: user)
      }
    }
  }

  private static func upsertBadge(_ db: SQLiteConnection, _ count: Int, app: String, user: String)
    throws(FocusStoreError)
  {
    try db.run(
      "INSERT INTO badges (user, app, count) VALUES (?1, ?2, ?3) ON CONFLICT(user, app) DO UPDATE SET count = ?3",
      .text(user), .text(app), .int(count))
  }

  /// Deletes a user and everything stored for them, and marks the user's live system
  /// deleted under the same lock, so no write of it lands after the deletion.
  func deleteUser(_ user: String, marking lifetime: SystemLifetime?) throws(FocusStoreError) {
    try connection.withLock { (db) throws(FocusStoreError) in
      try db.transaction { () throws(FocusStoreError) in try db.run("DELETE FROM users WHERE id = ?1", .text(user)) }
      lifetime?.markDeleted()
    }
  }

  /// Refuses a write of a system whose user was deleted.
  private func checkAlive(_ alive: SystemLifetime?, _ user: String) throws(FocusStoreError) {
    if alive?.isDeleted == true {
      throw FocusStoreError(path: path, message: "the user \(AppRegistry.quoted(user)) was deleted")
    }
  }

  // MARK: History

  /// Appends one delivery (unless it alone is larger than `byteLimit`), drops the oldest
  /// records beyond `limit` records or `byteLimit` bytes for the user, and stores the app's
  /// badge when it changed: one transaction.
  func appendHistory(
    _ record: DeliveryRecord, user: String, limit: Int, byteLimit: Int, badge: Int?, alive: SystemLifetime? = nil
  ) throws(FocusStoreError) {
    let encoder = Self.encoder()
    let text = try encode(path: path, record, encoder)
    let bytes = record.retainedBytes
    try connection.withLock { (db) throws(FocusStoreError) in
      try checkAlive(alive, user)
      try db.transaction { () throws(FocusStoreError) in
        try Self.ensureUser(db, path: path, user, encoder)
        if limit > 0 && bytes <= byteLimit {
          try db.run(
            "INSERT INTO history (user, sequence, app, record, is_read, bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            .text(user), .int(record.sequence), .text(record.app), .text(text), .int(record.isRead ? 1 : 0),
            .int(bytes))
          try db.run(
            "DELETE FROM history WHERE user = ?1 AND sequence <= ?2", .text(user), .int(record.sequence - limit))
          try db.run(
            """
            DELETE FROM history WHERE user = ?1 AND sequence IN (
              SELECT sequence FROM (
                SELECT sequence, SUM(bytes) OVER (ORDER BY sequence DESC) AS total FROM history WHERE user = ?1)
              WHERE total > ?2)
            """, .text(user), .int(byteLimit))
        }
        if let badge { try Self.upsertBadge(db, badge, app: record.app, user: user) }
      }
    }
  }

  /// The user's history, oldest first (one app's, or every app's); `unreadOnly` for the
  /// records that still count toward a badge.
  func history(user: String, app: String?, unreadOnly: Bool = false) throws(FocusStoreError) -> [DeliveryRecord] {
    try connection.withLock { (db) throws(FocusStoreError) -> [DeliveryRecord] in
      let sql =
        "SELECT record, is_read, app FROM history WHERE user = ?1"
        + (unreadOnly ? " AND is_read = 0" : "") + " ORDER BY sequence"
      return try db.withStatement(sql) { (h) throws(FocusStoreError) -> [DeliveryRecord] in
        try h.bind(1, user)
        var history: [DeliveryRecord] = []
        while try h.step() {
          if let app, let stored = h.text(2), !stored.sameBytes(as: app) { continue }
          var record = try decode(path: path, DeliveryRecord.self, h.text(0), what: "history record")
          record.isRead = h.int(1) != 0
          history.append(record.trimmed())
        }
        return history
      }
    }
  }

  /// The number of records and bytes the user's history holds.
  func historySize(user: String) throws(FocusStoreError) -> (records: Int, bytes: Int) {
    try connection.withLock { (db) throws(FocusStoreError) in
      try db.withStatement("SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM history WHERE user = ?1") {
        (s) throws(FocusStoreError) in
        try s.bind(1, user)
        return try s.step() ? (s.int(0), s.int(1)) : (0, 0)
      }
    }
  }

  /// Marks every notification of `app` read and sets its badge to 0: one transaction.
  func markRead(user: String, app: String, alive: SystemLifetime? = nil) throws(FocusStoreError) {
    let encoder = Self.encoder()
    try connection.withLock { (db) throws(FocusStoreError) in
      try checkAlive(alive, user)
      try db.transaction { () throws(FocusStoreError) in
        try Self.ensureUser(db, path: path, user, encoder)
        try db.run("UPDATE history SET is_read = 1 WHERE user = ?1 AND app = ?2", .text(user), .text(app))
        try Self.upsertBadge(db, 0, app: app, user: user)
      }
    }
  }

  // MARK: The service's table

  /// One row of ``forEachFilterInForce(_:)``.
  struct LoadedRow {
    var user: String
    var focus: String?
    /// The policy of the active Focus as stored (nil: the default for its name).
    var policy: FocusPolicy?
    var app: String?
    /// Why the stored policy could not be read (the user then decides fail-closed).
    var problem: String?
  }

  /// Calls `body` with every user's active Focus and each filter in force, in user order:
  /// what ``FocusService`` loads. The allow-list column spares the common shape a JSON
  /// decode and a compile; policies are decoded once per distinct text.
  func forEachFilterInForce(
    _ body: (_ row: LoadedRow, _ filter: () throws(FocusStoreError) -> NotificationFilter) throws(FocusStoreError)
      -> Void
  ) throws(FocusStoreError) {
    try connection.withLock { (db) throws(FocusStoreError) in
      var policies: [String: FocusPolicy] = [:]
      // Not withStatement: `body` belongs to the caller's task, so it is not handed to a
      // closure the connection runs.
      let s = try db.prepared(
        """
        SELECT u.id, u.active_focus, u.focus_policy, f.app, f.filter, f.allow_list, f.hides_badges,
          f.allows_time_sensitive, f.prefix, f.allows_critical
        FROM users u LEFT JOIN in_force f ON f.user = u.id ORDER BY u.id
        """)
      defer { s.reset() }
      do {
        while try s.step() {
          var policy: FocusPolicy?
          var problem: String?
          if let text = s.text(2) {
            if let known = policies[text] {
              policy = known
            } else {
              // A policy that cannot be read fails this user closed rather than stopping
              // every user's load: the caller reports it.
              do throws(FocusStoreError) {
                let decoded = try decode(path: path, FocusPolicy.self, text, what: "Focus policy")
                policies[text] = decoded
                policy = decoded
              } catch {
                policy = FocusPolicy(allowsTimeSensitive: false, allowedApps: .only([]), allowedSenders: [])
                problem = error.message
              }
            }
          }
          let row = LoadedRow(
            user: s.text(0) ?? "", focus: s.text(1), policy: policy, app: s.text(3), problem: problem)
          // The columns are read here, so the closure holds values rather than the statement.
          let list = s.text(5)
          let json = list == nil ? s.text(4) : nil
          let prefix = s.text(8)
          let (hidesBadges, timeSensitive, critical) = (s.int(6) != 0, s.int(7) != 0, s.int(9) != 0)
          try body(row) { () throws(FocusStoreError) -> NotificationFilter in
            if let list {
              return NotificationFilter(
                allowList: FocusService.members(ofAllowListColumn: list), targetContentIdentifierPrefix: prefix,
                hidesBadges: hidesBadges, allowsTimeSensitive: timeSensitive, allowsCriticalAlerts: critical)
            }
            var filter = try decode(path: path, NotificationFilter.self, json, what: "filter in force")
            if critical { filter.allowsCriticalAlerts = true }
            return filter
          }
        }
      }
    }
  }

  /// Writes many users' filters in force in one transaction (a service's bulk load, and the
  /// benchmark's setup): for each user the active Focus and one app's filter. A new user
  /// gets the built-in Focus modes, and a Focus the user does not have is added as a
  /// user-defined mode, so the user's system finds what the filters were installed under.
  ///
  /// - Throws: ``FocusStoreError`` when a ``FocusService`` runs over this database (use
  ///   ``FocusService/setFilters(_:)`` then).
  public func storeFilters(_ entries: [(user: String, focus: String, app: String, filter: NotificationFilter)])
    throws(FocusStoreError)
  {
    guard !isClaimed else { throw claimedError("install filters") }
    try writeFilters(entries)
  }

  /// ``storeFilters(_:)`` without the claim check (the service's own path); returns the
  /// policy each user's Focus decides with.
  @discardableResult
  func writeFilters(_ entries: [(user: String, focus: String, app: String, filter: NotificationFilter)])
    throws(FocusStoreError) -> [FocusPolicy]
  {
    let encoder = Self.encoder()
    return try connection.withLock { (db) throws(FocusStoreError) -> [FocusPolicy] in
      try db.transaction { () throws(FocusStoreError) -> [FocusPolicy] in
        var policies: [FocusPolicy] = []
        policies.reserveCapacity(entries.count)
        for entry in entries {
          let isNew = try Self.ensureUser(db, path: path, entry.user, encoder)
          let current = isNew ? (focus: nil, builtIn: true) : try Self.focusAndModes(db, user: entry.user)
          let mode = try Self.ensureMode(
            db, path: path, user: entry.user, focus: entry.focus, builtIn: current.builtIn, encoder)
          try db.run(
            "UPDATE users SET active_focus = ?2, focus_policy = ?3 WHERE id = ?1", .text(entry.user),
            .text(entry.focus), .text(try Self.policyColumn(mode, path: path, encoder)))
          if current.focus?.sameBytes(as: entry.focus) == true {
            try db.run("DELETE FROM in_force WHERE user = ?1 AND app = ?2", .text(entry.user), .text(entry.app))
          } else {
            // Another Focus: the filters in force under the previous one end with it, as
            // they do in the decision table and in a live system.
            try db.run("DELETE FROM in_force WHERE user = ?1", .text(entry.user))
          }
          try Self.insertInForce(
            db, path: path, user: entry.user, app: entry.app,
            AppliedFilter(parameterValues: [:], notificationFilter: entry.filter), encoder)
          policies.append(mode.policy)
        }
        return policies
      }
    }
  }

  /// The user's mode named `focus`, added as a user-defined mode when missing (a user
  /// with the built-in modes then gets them as rows, and the new one after them).
  private static func ensureMode(
    _ db: SQLiteConnection, path: String, user: String, focus: String, builtIn: Bool, _ encoder: JSONEncoder
  ) throws(FocusStoreError) -> FocusMode {
    if builtIn, let mode = FocusMode.builtIn.first(where: { $0.name.sameBytes(as: focus) }) { return mode }
    var modes: [FocusMode] = builtIn ? FocusMode.builtIn : []
    if !builtIn {
      try db.withStatement(
        "SELECT name, built_in, allows_time_sensitive, allowed_apps, allowed_senders FROM modes WHERE user = ?1"
          + " ORDER BY position"
      ) { (m) throws(FocusStoreError) in
        try m.bind(1, user)
        while try m.step() {
          let name = m.text(0) ?? ""
          let isBuiltIn = m.int(1) != 0
          modes.append(
            FocusMode(
              name: name, isBuiltIn: isBuiltIn, allowsTimeSensitive: m.int(2) != 0,
              allowedApps: try m.text(3).map { (text) throws(FocusStoreError) in
                try decode(path: path, AllowedApps.self, text, what: "Focus mode's allowed apps")
              } ?? FocusMode.defaultAllowedApps(name: name, isBuiltIn: isBuiltIn),
              allowedSenders: try m.text(4).map { (text) throws(FocusStoreError) in
                try decode(path: path, [String].self, text, what: "Focus mode's allowed senders")
              } ?? []))
        }
      }
      if let mode = modes.first(where: { $0.name.sameBytes(as: focus) }) { return mode }
    }
    if let other = modes.first(where: { $0.name == focus }) {
      throw FocusStoreError(
        path: path,
        message:
          "cannot install a filter for \(AppRegistry.quoted(user)): "
          + FocusSpelling.message("Focus name", focus, other.name))
    }
    let mode = FocusMode(name: focus)
    if builtIn {
      for (position, builtInMode) in modes.enumerated() {
        try insertMode(db, path: path, user: user, position: position, builtInMode, encoder)
      }
      try db.run("UPDATE users SET builtin_modes = 0 WHERE id = ?1", .text(user))
    }
    let position = try db.withStatement("SELECT COALESCE(MAX(position) + 1, 0) FROM modes WHERE user = ?1") {
      (s) throws(FocusStoreError) -> Int in
      try s.bind(1, user)
      return try s.step() ? s.int(0) : 0
    }
    try insertMode(db, path: path, user: user, position: position, mode, encoder)
    return mode
  }

  /// A stored user's active Focus, and whether their modes are the built-in ones.
  private static func focusAndModes(_ db: SQLiteConnection, user: String) throws(FocusStoreError)
    -> (focus: String?, builtIn: Bool)
  {
    try db.withStatement("SELECT active_focus, builtin_modes FROM users WHERE id = ?1") {
      (s) throws(FocusStoreError) in
      try s.bind(1, user)
      return try s.step() ? (s.text(0), s.int(1) != 0) : (nil, false)
    }
  }

  // MARK: Testing

  /// Makes the connection refuse every write (`PRAGMA query_only`), exactly as SQLite
  /// refuses writes to a read-only database: how the tests make a change fail to persist.
  func refuseWrites(_ refuse: Bool) throws(FocusStoreError) {
    try connection.withLock { (db) throws(FocusStoreError) in try db.execute("PRAGMA query_only=\(refuse ? 1 : 0)") }
  }

  /// Whether the connection is left with a statement that was stepped and not reset.
  var hasActiveStatement: Bool { connection.withLock { $0.hasActiveStatement } }

  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }
}

private func encode<T: Encodable>(path: String, _ value: T, _ encoder: JSONEncoder) throws(FocusStoreError) -> String {
  do {
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  } catch {
    throw FocusStoreError(path: path, message: "cannot encode \(T.self): \(error)")
  }
}

private func decode<T: Decodable>(path: String, _ type: T.Type, _ text: String?, what: String) throws(FocusStoreError)
  -> T
{
  do {
    return try JSONDecoder().decode(T.self, from: Data((text ?? "").utf8))
  } catch {
    throw FocusStoreError(path: path, message: "has an unreadable \(what): \(error)")
  }
}
