/// One column of ``SiftColumns``: one value per row, of one kind.
public enum SiftColumn: Sendable {
  /// Integers.
  case integers([Int])
  /// Floating-point numbers.
  case doubles([Double])
  /// Booleans.
  case booleans([Bool])
  /// Strings, kept as one UTF-8 buffer with an end offset per row.
  case strings([String])
  /// Strings, dictionary-encoded: each distinct string (byte for byte) is kept once and
  /// each row holds its code. A string test on the column (`IN`, `BEGINSWITH`, `MATCHES`,
  /// …) is decided once per distinct string and then read per row from a table.
  case dictionary([String])
  /// Rows already encoded: each row's index into `dictionary`; an index out of range is
  /// a null row.
  case encoded(codes: [UInt32], dictionary: [String])
  /// An array of strings per row (tags, recipients).
  case stringArrays([[String]])
  /// Any values (optionals as `.null`, nested arrays and dictionaries).
  case values([SiftValue])

  var count: Int {
    switch self {
    case .integers(let x): x.count
    case .doubles(let x): x.count
    case .booleans(let x): x.count
    case .strings(let x): x.count
    case .dictionary(let x): x.count
    case .encoded(let codes, _): codes.count
    case .stringArrays(let x): x.count
    case .values(let x): x.count
    }
  }
}

/// Records held as columns, one array per field, as an analytics store or a columnar
/// file holds them: evaluated in place by ``SiftPredicate/indices(matching:)-(SiftColumns)``
/// in the batch tier, with no record built.
///
/// ```swift
/// let columns = SiftColumns([
///   ("account", .dictionary(accounts)), ("priority", .integers(priorities)),
///   ("tags", .stringArrays(tags)),
/// ])
/// let urgent = try SiftPredicate(
///   format: "account IN %@ AND priority >= 3", arguments: [.array(allowed)],
///   options: CompileOptions(schema: columns.schema))
/// let rows = urgent.indices(matching: columns)
/// ```
///
/// Compile the predicate with ``schema`` so key paths resolve to columns once; a predicate
/// compiled without a schema finds each column by name on every read. A key no column has
/// is absent (`nil`). The row count is the longest column's; a shorter column reads `nil`
/// past its end.
public struct SiftColumns: Sendable {
  let storage: ColumnStorage

  /// Columns by name, in order (the schema's slots); a repeated name keeps its first
  /// column.
  public init(_ columns: [(name: String, column: SiftColumn)]) {
    storage = ColumnStorage(columns)
  }

  /// The fields, one per column: compile predicates with `CompileOptions(schema:)`.
  public var schema: SiftSchema { storage.schema }

  /// The number of rows.
  public var count: Int { storage.count }

  /// Row `row` as a record of ``schema`` (for `matches` and for checking): each column's
  /// value, `nil` where a column is shorter.
  public func record(_ row: Int) -> SiftRecord {
    SiftRecord(schema: schema, values: (0..<storage.columns.count).map { storage.value(column: $0, row: row) })
  }
}

/// The columns in memory they own, read through pointers with nothing retained.
final class ColumnStorage: @unchecked Sendable {
  // Immutable after init; the buffers are freed in deinit.

  /// A column as the readers see it.
  enum Column {
    case integers(UnsafeBufferPointer<Int>)
    case doubles(UnsafeBufferPointer<Double>)
    case booleans(UnsafeBufferPointer<Bool>)
    /// Row `r`'s bytes are `bytes[ends[r - 1] ..< ends[r]]` (from 0 for row 0).
    case strings(Strings)
    /// Row `r` is entry `codes[r]` of `entries`.
    case dictionary(codes: UnsafeBufferPointer<UInt32>, entries: Strings)
    case stringArrays(UnsafeBufferPointer<[String]>)
    case values(UnsafeBufferPointer<SiftValue>)
  }

  /// Strings back to back in one UTF-8 buffer.
  struct Strings {
    let bytes: UnsafeBufferPointer<UInt8>
    let ends: UnsafeBufferPointer<Int>

    init(_ strings: [String]) {
      var bytes: [UInt8] = []
      var ends: [Int] = []
      ends.reserveCapacity(strings.count)
      for s in strings {
        bytes.append(contentsOf: s.utf8)
        ends.append(bytes.count)
      }
      self.bytes = UnsafeBufferPointer(frozenCopyOf: bytes) { $0 }
      self.ends = UnsafeBufferPointer(frozenCopyOf: ends) { $0 }
    }

    var count: Int { ends.count }

    @inline(__always)
    func utf8(_ r: Int) -> UnsafeBufferPointer<UInt8> {
      let start = r == 0 ? 0 : ends[r &- 1]
      return UnsafeBufferPointer(rebasing: bytes[start..<ends[r]])
    }

    func string(_ r: Int) -> String { String(decoding: utf8(r), as: UTF8.self) }

    func deallocate() {
      bytes.deallocate()
      ends.deallocate()
    }
  }

  let schema: SiftSchema
  let count: Int
  let columns: UnsafeBufferPointer<Column>
  /// Rows per column (shorter columns read null past their end).
  let lengths: UnsafeBufferPointer<Int>

  init(_ given: [(name: String, column: SiftColumn)]) {
    var names: [String] = []
    var kept: [SiftColumn] = []
    for (name, column) in given where !names.contains(name) {
      names.append(name)
      kept.append(column)
    }
    schema = SiftSchema(fields: names)
    count = kept.map(\.count).max() ?? 0
    lengths = UnsafeBufferPointer(frozenCopyOf: kept) { $0.count }
    columns = UnsafeBufferPointer(frozenCopyOf: kept) { Self.column($0) }
  }

  private static func column(_ c: SiftColumn) -> Column {
    switch c {
    case .integers(let x): return .integers(UnsafeBufferPointer(frozenCopyOf: x) { $0 })
    case .doubles(let x): return .doubles(UnsafeBufferPointer(frozenCopyOf: x) { $0 })
    case .booleans(let x): return .booleans(UnsafeBufferPointer(frozenCopyOf: x) { $0 })
    case .strings(let x): return .strings(Strings(x))
    case .dictionary(let strings):
      // Distinct by bytes: NSPredicate's `==` is literal, so two spellings of one
      // canonical string are two entries.
      var index: [[UInt8]: UInt32] = [:]
      var entries: [String] = []
      var codes: [UInt32] = []
      codes.reserveCapacity(strings.count)
      for s in strings {
        let key = Array(s.utf8)
        if let code = index[key] {
          codes.append(code)
        } else {
          let code = UInt32(entries.count)
          index[key] = code
          entries.append(s)
          codes.append(code)
        }
      }
      return .dictionary(codes: UnsafeBufferPointer(frozenCopyOf: codes) { $0 }, entries: Strings(entries))
    case .encoded(let codes, let dictionary):
      return .dictionary(codes: UnsafeBufferPointer(frozenCopyOf: codes) { $0 }, entries: Strings(dictionary))
    case .stringArrays(let x): return .stringArrays(UnsafeBufferPointer(frozenCopyOf: x) { $0 })
    case .values(let x): return .values(UnsafeBufferPointer(frozenCopyOf: x) { $0 })
    }
  }

  deinit {
    for column in columns {
      switch column {
      case .integers(let x): x.deallocate()
      case .doubles(let x): x.deallocate()
      case .booleans(let x): x.deallocate()
      case .strings(let s): s.deallocate()
      case .dictionary(let codes, let entries):
        codes.deallocate()
        entries.deallocate()
      case .stringArrays(let x):
        UnsafeMutableBufferPointer(mutating: x).deinitialize()
        x.deallocate()
      case .values(let x):
        UnsafeMutableBufferPointer(mutating: x).deinitialize()
        x.deallocate()
      }
    }
    columns.deallocate()
    lengths.deallocate()
  }

  /// The value of column `c` at `row`, built (the general path's read).
  func value(column c: Int, row: Int) -> SiftValue {
    guard c < columns.count, row >= 0, row < lengths[c] else { return .null }
    switch columns[c] {
    case .integers(let x): return .int(x[row])
    case .doubles(let x): return .double(x[row])
    case .booleans(let x): return .bool(x[row])
    case .strings(let s): return .string(s.string(row))
    case .dictionary(let codes, let entries):
      let code = Int(codes[row])
      return code < entries.count ? .string(entries.string(code)) : .null
    case .stringArrays(let x): return .array(x[row].map(SiftValue.string))
    case .values(let x): return x[row]
    }
  }
}
