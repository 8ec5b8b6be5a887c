import CSQLite

/// A thin owner of one SQLite connection and its prepared statements; only ever used under
/// ``FocusDatabase``'s lock, so it needs no locking of its own.
final class SQLiteConnection {
  let handle: OpaquePointer
  let path: String
  private var statements: [String: OpaquePointer] = [:]

  /// Opens (or creates) the database at `path`.
  init(path: String) throws(FocusStoreError) {
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let rc = sqlite3_open_v2(path, &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(db)
      throw FocusStoreError(path: path, message: "cannot be opened: \(message)")
    }
    handle = db
    self.path = path
    // A writer that holds the lock briefly must not fail another connection at once.
    sqlite3_busy_timeout(db, 5_000)
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close(handle)
  }

  func error(_ what: String) -> FocusStoreError {
    FocusStoreError(path: path, message: "\(what): \(String(cString: sqlite3_errmsg(handle)))")
  }

  /// Runs SQL without results (several statements allowed).
  func execute(_ sql: String) throws(FocusStoreError) {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      throw FocusStoreError(path: path, message: text)
    }
  }

  /// A prepared statement for `sql`, reset and cleared, cached for the connection's life.
  func statement(_ sql: String) throws(FocusStoreError) -> Statement {
    if let cached = statements[sql] {
      sqlite3_reset(cached)
      sqlite3_clear_bindings(cached)
      return Statement(handle: cached, connection: self)
    }
    var prepared: OpaquePointer?
    guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK,
      let prepared
    else { throw error("cannot prepare \(sql)") }
    statements[sql] = prepared
    return Statement(handle: prepared, connection: self)
  }

  /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
  func transaction<T>(_ body: () throws(FocusStoreError) -> T) throws(FocusStoreError) -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }
}

/// One prepared statement: bind, step, read columns.
struct Statement {
  let handle: OpaquePointer
  let connection: SQLiteConnection

  func bind(_ index: Int32, _ text: String?) throws(FocusStoreError) {
    let rc: Int32
    if let text {
      rc = sqlite3_bind_text(handle, index, text, -1, sift_sqlite_transient())
    } else {
      rc = sqlite3_bind_null(handle, index)
    }
    guard rc == SQLITE_OK else { throw connection.error("cannot bind") }
  }

  func bind(_ index: Int32, _ value: Int) throws(FocusStoreError) {
    guard sqlite3_bind_int64(handle, index, Int64(value)) == SQLITE_OK else { throw connection.error("cannot bind") }
  }

  /// Steps once: true when a row is ready, false when done.
  func step() throws(FocusStoreError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw connection.error("statement failed")
    }
  }

  /// Steps to the end of a statement that returns no rows.
  func run() throws(FocusStoreError) {
    while try step() {}
  }

  func text(_ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
}
