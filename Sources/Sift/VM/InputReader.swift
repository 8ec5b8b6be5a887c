import CSiftJSON

/// What a predicate is evaluated against, as the VM reads it: one interface that every
/// input kind provides (a value tree, a schema-bound record, a typed value's fields,
/// Foundation values, an object answering keys, simdjson's parsed JSON).
///
/// A test instruction reads its subject through ``withView(_:_:_:)``: a *view* of the
/// value where it lies (a string's UTF-8 bytes, an integer, an array's elements), valid
/// for the call, with nothing built, copied or retained. A view the test cannot take
/// (``FieldView/general``) sends it to the general path, which reads the subject as a
/// ``SiftValue`` through ``slot(_:steps:)``, ``root(_:steps:)`` or ``selfValue(steps:)``
/// and applies the full rules; that path also reports every error.
///
/// The VM is generic over the reader, so each input kind runs a loop specialised for it:
/// no existential or enum switch per read.
protocol InputReader {
  /// Calls `body` with a view of the subject of test instruction `i` (SELF, a record slot
  /// or the input's key, as ``SubjectSource`` says; never a register).
  func withView<T>(_ i: Instruction, _ program: Executable, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T

  /// The value of a key path's first key. A value built to be read is charged for what
  /// was built (``Cost/built(_:steps:)``); values read in place cost nothing.
  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue
  /// Record slot `slot`, for inputs whose key paths resolved to slots at compile time.
  func slot(_ slot: Int, steps: inout Int) throws(EvaluationError) -> SiftValue
  /// `SELF` as a value.
  func selfValue(steps: inout Int) throws(EvaluationError) -> SiftValue
  /// `body` of the UTF-8 bytes of record slot `slot` when the reader holds that slot as a
  /// string in place; nil otherwise (read it with ``slot(_:steps:)``). For the predicate
  /// index, which hashes a key's bytes and needs no `String` for it.
  func withSlotUTF8<T>(_ slot: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T?
}

extension InputReader {
  func withSlotUTF8<T>(_ slot: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? { nil }
}

/// A value read in place for one test. Pointers are valid for the ``InputReader/withView(_:_:_:)``
/// call that made the view.
enum FieldView {
  /// The key is absent: `nil` to every rule.
  case absent
  /// A value in the reader's memory (a record slot, an entry of a value tree).
  case value(UnsafePointer<SiftValue>)
  /// A Swift string in the reader's memory (a typed field, a Foundation `String`).
  case string(UnsafePointer<String>)
  /// A string's UTF-8 bytes, validated (a JSON string simdjson unescaped).
  case utf8(UnsafeBufferPointer<UInt8>)
  /// An integer.
  case int(Int)
  /// An array of Swift strings in the reader's memory (a typed `[String]` field).
  case strings(UnsafePointer<[String]>)
  /// A JSON array in simdjson's DOM: a record plan's field `slot`, iterated in place.
  case jsonArray(OpaquePointer, Int)
  /// Anything else: only the general path reads it.
  case general
}

extension InputReader {
  /// Record slot `slot` when the input has none: the predicate was compiled for a schema.
  static func notARecord() -> EvaluationError {
    EvaluationError(.typeMismatch, "this predicate was compiled for a schema; evaluate it with a SiftRecord")
  }
}
