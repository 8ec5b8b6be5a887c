import CSiftPrefetch

/// A contiguous buffer of ``SiftTyped`` values of the layout's type, read in place.
struct TypedRows: BatchRows {
  let base: UnsafeRawPointer
  let stride: Int
  let layout: Unmanaged<FieldLayout>

  /// Where a test's field lies, resolved once per call rather than per row: a test loop
  /// then views each row's field at a fixed offset, with no layout lookup.
  struct Plan {
    enum Kind { case reader, string, int, strings }
    var kind: Kind
    var offset: Int
  }

  static var fusesTests: Bool { true }

  @inline(__always) func admits(_ row: Int) -> Bool { true }

  @inline(__always)
  func withReader<T>(_ row: Int, _ body: (TypedReader) throws(EvaluationError) -> T) throws(EvaluationError) -> T {
    try body(TypedReader(base: base + row &* stride, layout: layout))
  }

  func plan(_ i: Instruction, _ program: Executable, rows count: Int) -> Plan {
    guard i.source == .slot else { return Plan(kind: .reader, offset: 0) }
    let access = layout._withUnsafeGuaranteedRef { $0.access[i.a] }
    switch access.kind {
    case .string?: return Plan(kind: .string, offset: access.offset)
    case .int?: return Plan(kind: .int, offset: access.offset)
    case .strings?: return Plan(kind: .strings, offset: access.offset)
    // Optionals and the rest: the reader decides what each row holds.
    case .optionalString?, .optionalInt?, .double?, .bool?, .date?, .optionalDouble?, .optionalBool?, nil:
      return Plan(kind: .reader, offset: access.offset)
    }
  }

  /// The view ``TypedReader`` gives for these kinds, without asking the layout per row;
  /// the reader's own path where the view test cannot answer.
  @inline(__always)
  func test(_ plan: Plan, _ i: Instruction, _ program: Executable, _ row: Int, _ env: inout Environment)
    throws(EvaluationError) -> Bool
  {
    let field = base + (row &* stride &+ plan.offset)
    let answer: Bool?
    switch plan.kind {
    case .string: answer = try Machine.test(.string(field.assumingMemoryBound(to: String.self)), i, program, &env)
    case .int: answer = try Machine.test(.int(field.load(as: Int.self)), i, program, &env)
    case .strings: answer = try Machine.test(.strings(field.assumingMemoryBound(to: [String].self)), i, program, &env)
    case .reader: answer = nil
    }
    if let answer { return answer }
    return try runTest(i, program, row, &env)
  }

  @inline(__always)
  func prefetch(_ plan: Plan, _ row: Int, _ i: Instruction) {
    let field = base + (row &* stride &+ plan.offset)
    switch plan.kind {
    case .string: OutOfLine.prefetch(string: field)
    case .strings: OutOfLine.prefetch(array: field)
    case .int, .reader: break
    }
  }
}

/// A contiguous buffer of ``SiftRecord``s; one of another schema than the predicate's is
/// an error, so it is not admitted.
struct RecordRows: BatchRows {
  let records: UnsafeBufferPointer<SiftRecord>
  let schema: SiftSchema?
  static var fusesTests: Bool { true }
  private static let valuesOffset = MemoryLayout<SiftRecord>.offset(of: \SiftRecord.values)!

  @inline(__always) func admits(_ row: Int) -> Bool { schema.map { $0 == records[row].schema } ?? true }

  @inline(__always)
  func withReader<T>(_ row: Int, _ body: (RecordReader) throws(EvaluationError) -> T) throws(EvaluationError) -> T {
    let record = records.baseAddress! + row
    return try record.pointee.values.withUnsafeBufferPointer { (values) throws(EvaluationError) in
      try body(RecordReader(record: record, values: values))
    }
  }

  @inline(__always)
  func prefetch(_ plan: Void, _ row: Int, _ i: Instruction) {
    // The record's values array, then (for a string slot) the string's bytes once the
    // array is in: only the array can be asked for without waiting.
    let record = UnsafeRawPointer(records.baseAddress! + row)
    OutOfLine.prefetch(array: record + Self.valuesOffset)
  }
}

/// A contiguous buffer of ``SiftValue``s, each the predicate's `SELF`.
struct ValueRows: BatchRows {
  let values: UnsafeBufferPointer<SiftValue>

  static var fusesTests: Bool { true }

  @inline(__always) func admits(_ row: Int) -> Bool { true }

  @inline(__always)
  func withReader<T>(_ row: Int, _ body: (ValueReader) throws(EvaluationError) -> T) throws(EvaluationError) -> T {
    try body(ValueReader(root: values.baseAddress! + row))
  }

  @inline(__always) func prefetch(_ plan: Void, _ row: Int, _ i: Instruction) {}
}
