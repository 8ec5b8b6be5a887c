import CSQLite
import Foundation
import Synchronization

/// The durable state of a service with many users, in one SQLite database (WAL mode):
/// the users, each user's Focus modes and active Focus, the parameters saved per Focus and
/// app, the filters in force, the badge counts and a bounded delivery history.
///
/// Every change a ``FocusSystem`` makes is one transaction, committed (and so durable
/// under WAL with `synchronous=FULL`) before the call returns: a change that was
/// acknowledged survives a crash of the process. A file that is not a Sift database, or a
/// database that fails SQLite's integrity check, is an error when it is opened, never a
/// reset. ``FocusStore`` (one JSON file) stays the format for one app's import and export.
public final class FocusDatabase: Sendable {
  /// The database file.
  public let path: String
  private let connection: Mutex<SQLiteConnection>

  /// The schema version this code writes (`PRAGMA user_version`).
  static let schemaVersion = 1

  /// Opens the database at `path`, creating it (and its tables) when the file does not
  /// exist.
  ///
  /// - Throws: ``FocusStoreError`` when the file cannot be opened, is not a database, fails
  ///   the integrity check or was written by a newer schema.
  public init(path: String) throws(FocusStoreError) {
    self.path = path
    let db = try SQLiteConnection(path: path)
    do throws(FocusStoreError) {
      // quick_check reads every page, so a damaged file is caught here rather than on
      // some later read.
      let check = try db.statement("PRAGMA quick_check")
      var problems: [String] = []
      while try check.step() { if let line = check.text(0), line != "ok" { problems.append(line) } }
      guard problems.isEmpty else {
        throw FocusStoreError(path: path, message: "is damaged: \(problems.prefix(3).joined(separator: "; "))")
      }
      try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON")
      let version = try db.statement("PRAGMA user_version")
      let found = try version.step() ? version.int(0) : 0
      if found > Self.schemaVersion {
        throw FocusStoreError(path: path, message: "has schema version \(found), newer than \(Self.schemaVersion)")
      }
      if found == 0 {
        try db.execute(Self.schema)
        try db.execute("PRAGMA user_version=\(Self.schemaVersion)")
      }
    } catch {
      throw FocusStoreError(path: path, message: Self.explain(error.message))
    }
    connection = Mutex(db)
  }

  /// SQLite's "file is not a database" is the usual sign of a file that is something else.
  private static func explain(_ message: String) -> String {
    message.contains("not a database") ? "is not a SQLite database (\(message))" : message
  }

  static let schema = """
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
    CREATE TABLE history (
      user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, sequence INTEGER NOT NULL,
      app TEXT NOT NULL, record TEXT NOT NULL, is_read INTEGER NOT NULL,
      PRIMARY KEY (user, sequence)) WITHOUT ROWID;
    """

  /// Everything stored for one user.
  struct UserState {
    var configuration: FocusConfiguration
    var badges: [String: Int]
    var history: [DeliveryRecord]
  }

  /// The identifiers of every user, sorted.
  public func users() throws(FocusStoreError) -> [String] {
    try connection.withLock { (db) throws(FocusStoreError) -> [String] in
      let s = try db.statement("SELECT id FROM users ORDER BY id")
      var ids: [String] = []
      while try s.step() { ids.append(s.text(0) ?? "") }
      return ids
    }
  }

  /// One user's configuration (the default one for a user not stored yet), as
  /// ``FocusStore`` would hold it: what a single app exports.
  public func configuration(of user: String) throws(FocusStoreError) -> FocusConfiguration {
    try loadUser(user).configuration
  }

  /// Replaces one user's configuration (modes, active Focus, saved parameters, filters in
  /// force) with `configuration`, for instance one imported from a ``FocusStore`` file.
  public func importConfiguration(_ configuration: FocusConfiguration, for user: String) throws(FocusStoreError) {
    let badges = try loadUser(user).badges
    try saveUser(user, configuration: configuration, badges: badges)
  }

  func loadUser(_ user: String) throws(FocusStoreError) -> UserState {
    try connection.withLock { (db) throws(FocusStoreError) -> UserState in
      let u = try db.statement("SELECT active_focus FROM users WHERE id = ?1")
      try u.bind(1, user)
      guard try u.step() else {
        return UserState(configuration: FocusConfiguration(), badges: [:], history: [])
      }
      var configuration = FocusConfiguration(modes: [], activeFocus: u.text(0))
      let m = try db.statement(
        "SELECT name, built_in, allows_time_sensitive FROM modes WHERE user = ?1 ORDER BY position")
      try m.bind(1, user)
      while try m.step() {
        configuration.modes.append(
          FocusMode(name: m.text(0) ?? "", isBuiltIn: m.int(1) != 0, allowsTimeSensitive: m.int(2) != 0))
      }
      let s = try db.statement("SELECT focus, app, parameters FROM saved WHERE user = ?1")
      try s.bind(1, user)
      while try s.step() {
        let values = try decode(path: path, [String: FocusParameterValue].self, s.text(2), what: "saved parameters")
        configuration.savedParameters[s.text(0) ?? "", default: [:]][s.text(1) ?? ""] = values
      }
      let f = try db.statement("SELECT app, parameters, filter FROM in_force WHERE user = ?1")
      try f.bind(1, user)
      while try f.step() {
        let values =
          f.isNull(1) ? nil : try decode(path: path, [String: FocusParameterValue].self, f.text(1), what: "parameters")
        let filter = try decode(path: path, NotificationFilter.self, f.text(2), what: "filter in force")
        configuration.inForce[f.text(0) ?? ""] = AppliedFilter(parameterValues: values, notificationFilter: filter)
      }
      var badges: [String: Int] = [:]
      let b = try db.statement("SELECT app, count FROM badges WHERE user = ?1")
      try b.bind(1, user)
      while try b.step() { badges[b.text(0) ?? ""] = b.int(1) }
      var history: [DeliveryRecord] = []
      let h = try db.statement("SELECT record, is_read FROM history WHERE user = ?1 ORDER BY sequence")
      try h.bind(1, user)
      while try h.step() {
        var record = try decode(path: path, DeliveryRecord.self, h.text(0), what: "history record")
        record.isRead = h.int(1) != 0
        history.append(record)
      }
      return UserState(configuration: configuration, badges: badges, history: history)
    }
  }

  func saveUser(_ user: String, configuration: FocusConfiguration, badges: [String: Int]) throws(FocusStoreError) {
    let encoder = Self.encoder()
    try connection.withLock { (db) throws(FocusStoreError) in
      try db.transaction { () throws(FocusStoreError) in
        let u = try db.statement(
          "INSERT INTO users (id, active_focus) VALUES (?1, ?2) ON CONFLICT(id) DO UPDATE SET active_focus = ?2")
        try u.bind(1, user)
        try u.bind(2, configuration.activeFocus)
        try u.run()
        for table in ["modes", "saved", "in_force"] {
          let d = try db.statement("DELETE FROM \(table) WHERE user = ?1")
          try d.bind(1, user)
          try d.run()
        }
        for (position, mode) in configuration.modes.enumerated() {
          let m = try db.statement(
            "INSERT INTO modes (user, position, name, built_in, allows_time_sensitive) VALUES (?1, ?2, ?3, ?4, ?5)")
          try m.bind(1, user)
          try m.bind(2, position)
          try m.bind(3, mode.name)
          try m.bind(4, mode.isBuiltIn ? 1 : 0)
          try m.bind(5, mode.allowsTimeSensitive ? 1 : 0)
          try m.run()
        }
        for (focus, apps) in configuration.savedParameters {
          for (app, values) in apps {
            let s = try db.statement("INSERT INTO saved (user, focus, app, parameters) VALUES (?1, ?2, ?3, ?4)")
            try s.bind(1, user)
            try s.bind(2, focus)
            try s.bind(3, app)
            try s.bind(4, try encode(path: path, values, encoder))
            try s.run()
          }
        }
        for (app, applied) in configuration.inForce {
          try Self.insertInForce(db, path: path, user: user, app: app, applied, encoder)
        }
        try Self.writeBadges(db, badges, user: user)
      }
    }
  }

  private static func insertInForce(
    _ db: SQLiteConnection, path: String, user: String, app: String, _ applied: AppliedFilter, _ encoder: JSONEncoder
  ) throws(FocusStoreError) {
    let filter = applied.notificationFilter
    let s = try db.statement(
      """
      INSERT INTO in_force (user, app, parameters, filter, allow_list, hides_badges, allows_time_sensitive, prefix, failure)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
      """)
    try s.bind(1, user)
    try s.bind(2, app)
    try s.bind(3, try applied.parameterValues.map { (v) throws(FocusStoreError) in try encode(path: path, v, encoder) })
    try s.bind(4, try encode(path: path, filter, encoder))
    try s.bind(5, FocusService.allowListColumn(filter))
    try s.bind(6, filter.hidesBadges ? 1 : 0)
    try s.bind(7, filter.allowsTimeSensitive ? 1 : 0)
    try s.bind(8, filter.targetContentIdentifierPrefix)
    try s.bind(9, filter.failure)
    try s.run()
  }

  private static func writeBadges(_ db: SQLiteConnection, _ badges: [String: Int], user: String)
    throws(FocusStoreError)
  {
    let d = try db.statement("DELETE FROM badges WHERE user = ?1")
    try d.bind(1, user)
    try d.run()
    for (app, count) in badges {
      let b = try db.statement("INSERT INTO badges (user, app, count) VALUES (?1, ?2, ?3)")
      try b.bind(1, user)
      try b.bind(2, app)
      try b.bind(3, count)
      try b.run()
    }
  }

  /// Makes sure the user's row exists (history and badges refer to it); a new user gets
  /// the built-in Focus modes, as a new configuration has.
  private static func ensureUser(_ db: SQLiteConnection, _ user: String) throws(FocusStoreError) {
    let u = try db.statement("INSERT INTO users (id, active_focus) VALUES (?1, NULL) ON CONFLICT(id) DO NOTHING")
    try u.bind(1, user)
    try u.run()
    guard sqlite3_changes(db.handle) > 0 else { return }
    for (position, mode) in FocusMode.builtIn.enumerated() {
      let m = try db.statement(
        "INSERT INTO modes (user, position, name, built_in, allows_time_sensitive) VALUES (?1, ?2, ?3, ?4, ?5)")
      try m.bind(1, user)
      try m.bind(2, position)
      try m.bind(3, mode.name)
      try m.bind(4, mode.isBuiltIn ? 1 : 0)
      try m.bind(5, mode.allowsTimeSensitive ? 1 : 0)
      try m.run()
    }
  }

  func saveBadges(_ badges: [String: Int], user: String) throws(FocusStoreError) {
    try connection.withLock { (db) throws(FocusStoreError) in
      try db.transaction { () throws(FocusStoreError) in
        try Self.ensureUser(db, user)
        try Self.writeBadges(db, badges, user: user)
      }
    }
  }

  /// Appends one delivery, drops what is beyond `limit` for the user, and stores the badges.
  func appendHistory(_ record: DeliveryRecord, user: String, limit: Int, badges: [String: Int])
    throws(FocusStoreError)
  {
    let encoder = Self.encoder()
    try connection.withLock { (db) throws(FocusStoreError) in
      try db.transaction { () throws(FocusStoreError) in
        try Self.ensureUser(db, user)
        let h = try db.statement(
          "INSERT INTO history (user, sequence, app, record, is_read) VALUES (?1, ?2, ?3, ?4, ?5)")
        try h.bind(1, user)
        try h.bind(2, record.sequence)
        try h.bind(3, record.app)
        try h.bind(4, try encode(path: path, record, encoder))
        try h.bind(5, record.isRead ? 1 : 0)
        try h.run()
        let trim = try db.statement("DELETE FROM history WHERE user = ?1 AND sequence <= ?2")
        try trim.bind(1, user)
        try trim.bind(2, record.sequence - limit)
        try trim.run()
        if let count = badges[record.app] {
          let b = try db.statement(
            "INSERT INTO badges (user, app, count) VALUES (?1, ?2, ?3) ON CONFLICT(user, app) DO UPDATE SET count = ?3")
          try b.bind(1, user)
          try b.bind(2, record.app)
          try b.bind(3, count)
          try b.run()
        }
      }
    }
  }

  func markRead(user: String, app: String) throws(FocusStoreError) {
    try connection.withLock { (db) throws(FocusStoreError) in
      let s = try db.statement("UPDATE history SET is_read = 1 WHERE user = ?1 AND app = ?2")
      try s.bind(1, user)
      try s.bind(2, app)
      try s.run()
    }
  }

  /// Calls `body` with every user's active Focus and each filter in force, in user order:
  /// what ``FocusService`` loads. The allow-list column spares the common shape a JSON
  /// decode and a compile.
  func forEachFilterInForce(
    _ body: (
      _ user: String, _ focus: String?, _ app: String?, _ filter: () throws(FocusStoreError) -> NotificationFilter
    ) throws(FocusStoreError) -> Void
  ) throws(FocusStoreError) {
    try connection.withLock { (db) throws(FocusStoreError) in
      let s = try db.statement(
        """
        SELECT u.id, u.active_focus, f.app, f.filter, f.allow_list, f.hides_badges, f.allows_time_sensitive, f.prefix
        FROM users u LEFT JOIN in_force f ON f.user = u.id ORDER BY u.id
        """)
      while try s.step() {
        let user = s.text(0) ?? ""
        let focus = s.text(1)
        let app = s.text(2)
        try body(user, focus, app) { () throws(FocusStoreError) -> NotificationFilter in
          if let list = s.text(4) {
            return NotificationFilter(
              allowList: FocusService.members(ofAllowListColumn: list), targetContentIdentifierPrefix: s.text(7),
              hidesBadges: s.int(5) != 0, allowsTimeSensitive: s.int(6) != 0)
          }
          return try decode(path: path, NotificationFilter.self, s.text(3), what: "filter in force")
        }
      }
    }
  }

  /// Writes many users' filters in force in one transaction (a service's bulk load, and the
  /// benchmark's setup): for each user the active Focus and one app's filter.
  public func storeFilters(_ entries: [(user: String, focus: String, app: String, filter: NotificationFilter)])
    throws(FocusStoreError)
  {
    let encoder = Self.encoder()
    try connection.withLock { (db) throws(FocusStoreError) in
      try db.transaction { () throws(FocusStoreError) in
        for entry in entries {
          let u = try db.statement(
            "INSERT INTO users (id, active_focus) VALUES (?1, ?2) ON CONFLICT(id) DO UPDATE SET active_focus = ?2")
          try u.bind(1, entry.user)
          try u.bind(2, entry.focus)
          try u.run()
          let d = try db.statement("DELETE FROM in_force WHERE user = ?1 AND app = ?2")
          try d.bind(1, entry.user)
          try d.bind(2, entry.app)
          try d.run()
          try Self.insertInForce(
            db, path: path, user: entry.user, app: entry.app,
            AppliedFilter(parameterValues: [:], notificationFilter: entry.filter),
            encoder)
        }
      }
    }
  }

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
