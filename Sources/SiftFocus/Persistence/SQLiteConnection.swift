import CSQLite

#if canImport(Glibc)
  import Glibc
#endif

/// A thin owner of one SQLite connection and its prepared statements; only ever used under
/// ``FocusDatabase``'s lock, so it needs no locking of its own.
///
/// Every statement is used inside ``withStatement(_:_:)``, which resets it when the body
/// returns: a statement left on a row keeps the connection in a read transaction, which
/// stops checkpoints from recycling the WAL and makes this connection's next write fail
/// once another connection has written.
final class SQLiteConnection {
  let handle: OpaquePointer
  let path: String
  private var statements: [String: OpaquePointer] = [:]

  /// Opens (or creates) the database at `path`. A new file is created with mode 0600
  /// before SQLite opens it, so the `-wal` and `-shm` files SQLite makes next to it get the
  /// same mode (it copies the database file's); an existing file keeps its mode.
  init(path: String) throws(FocusStoreError) {
    var info = stat()
    if stat(path, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFDIR {
        throw FocusStoreError(path: path, message: "is a directory, not a database file")
      }
    } else if errno == ENOENT {
      let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if fd >= 0 {
        close(fd)
      } else if errno != EEXIST {
        throw FocusStoreError(path: path, message: "cannot be created: \(String(cString: strerror(errno)))")
      }
    } else {
      throw FocusStoreError(path: path, message: "cannot be opened: \(String(cString: strerror(errno)))")
    }
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
    let rc = sqlite3_open_v2(path, &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(db)
      throw FocusStoreError(path: path, message: "cannot be opened: \(message)")
    }
    handle = db
    self.path = path
    sqlite3_extended_result_codes(db, 1)
    // A writer that holds the lock briefly must not fail another connection at once.
    sqlite3_busy_timeout(db, 5_000)
    if sqlite3_db_readonly(db, "main") == 1 {
      sqlite3_close(db)
      throw FocusStoreError(path: path, message: Self.readOnlyMessage)
    }
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close(handle)
  }

  /// What a failed write on a file SQLite may not write means, in words that name the fix.
  static let readOnlyMessage =
    "cannot be written: SQLite needs write access to the file and to its directory "
    + "(where it keeps the -wal and -shm files next to it)"

  func error(_ what: String) -> FocusStoreError {
    let code = sqlite3_extended_errcode(handle)
    let message = String(cString: sqlite3_errmsg(handle))
    if code & 0xFF == SQLITE_READONLY || code & 0xFF == SQLITE_CANTOPEN {
      // SQLite's own words, without the statement: which statement met the read-only file
      // says nothing about the fix.
      return FocusStoreError(path: path, message: "\(Self.readOnlyMessage) (SQLite: \(message))")
    }
    return FocusStoreError(path: path, message: "\(what): \(message)")
  }

  /// Runs SQL without results (several statements allowed).
  func execute(_ sql: String) throws(FocusStoreError) {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      let code = sqlite3_extended_errcode(handle)
      if code & 0xFF == SQLITE_READONLY || code & 0xFF == SQLITE_CANTOPEN {
        throw FocusStoreError(path: path, message: "\(Self.readOnlyMessage) (\(text))")
      }
      throw FocusStoreError(path: path, message: text)
    }
  }

  /// Runs `body` with the prepared statement for `sql` (prepared once, cached for the
  /// connection's life), then resets it and clears its bindings, whatever `body` did.
  func withStatement<T>(_ sql: String, _ body: (Statement) throws(FocusStoreError) -> T) throws(FocusStoreError) -> T {
    let statement = try prepared(sql)
    defer { statement.reset() }
    return try body(statement)
  }

  /// The prepared statement for `sql`, cached; the caller resets it (``Statement/reset()``)
  /// when done, with a `defer` (``withStatement(_:_:)`` does it for most callers).
  func prepared(_ sql: String) throws(FocusStoreError) -> Statement {
    if let cached = statements[sql] { return Statement(handle: cached, connection: self) }
    var made: OpaquePointer?
    guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &made, nil) == SQLITE_OK, let made
    else { throw error("cannot prepare \(sql)") }
    statements[sql] = made
    return Statement(handle: made, connection: self)
  }

  /// Runs a statement that returns no rows, with `values` bound to ?1, ?2, … in order.
  func run(_ sql: String, _ values: SQLiteValue...) throws(FocusStoreError) {
    try withStatement(sql) { (s) throws(FocusStoreError) in
      for (k, value) in values.enumerated() { try s.bind(Int32(k + 1), value) }
      try s.run()
    }
  }

  /// Whether this connection has a statement that was stepped and not reset (which holds a
  /// read transaction open); what the tests check after each call.
  var hasActiveStatement: Bool {
    var statement = sqlite3_next_stmt(handle, nil)
    while let s = statement {
      if sqlite3_stmt_busy(s) != 0 { return true }
      statement = sqlite3_next_stmt(handle, s)
    }
    return false
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

/// A value bound to a statement's parameter.
enum SQLiteValue {
  case text(String?)
  case int(Int)
}

/// One prepared statement: bind, step, read columns.
struct Statement {
  let handle: OpaquePointer
  let connection: SQLiteConnection

  /// Binds `text` with its byte count, so every byte reaches SQLite (a NUL included: ids
  /// are byte strings, and a C string would end at the first NUL).
  func bind(_ index: Int32, _ text: String?) throws(FocusStoreError) {
    let rc: Int32
    if var text {
      rc = text.withUTF8 { bytes in
        // An empty buffer may have no address, and a null pointer would bind NULL.
        let base = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
        return withUnsafePointer(to: CChar(0)) { empty in
          sqlite3_bind_text64(
            handle, index, base ?? empty, sqlite3_uint64(bytes.count), sift_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
      }
    } else {
      rc = sqlite3_bind_null(handle, index)
    }
    guard rc == SQLITE_OK else { throw connection.error("cannot bind") }
  }

  func bind(_ index: Int32, _ value: Int) throws(FocusStoreError) {
    guard sqlite3_bind_int64(handle, index, Int64(value)) == SQLITE_OK else { throw connection.error("cannot bind") }
  }

  func bind(_ index: Int32, _ value: SQLiteValue) throws(FocusStoreError) {
    switch value {
    case .text(let text): try bind(index, text)
    case .int(let number): try bind(index, number)
    }
  }

  /// Ends the statement's run and clears its bindings, so it holds no read transaction.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
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

  /// A text column, every byte of it (NULs included); nil for SQL NULL.
  func text(_ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
}
