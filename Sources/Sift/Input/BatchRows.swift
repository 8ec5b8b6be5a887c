import CSiftPrefetch

/// A contiguous buffer of ``SiftTyped`` values of the layout's type, read in place.
struct TypedRows: BatchRows {
  let base: UnsafeRawPointer
  let stride: Int
  let layout: Unmanaged<FieldLayout>

  @inline(__always) func admits(_ row: Int) -> Bool { true }

  @inline(__always)
  func withReader<T>(_ row: Int, _ body: (TypedReader) throws(EvaluationError) -> T) throws(EvaluationError) -> T {
    try body(TypedReader(base: base + row &* stride, layout: layout))
  }

  @inline(__always)
  func prefetch(_ row: Int, _ i: Instruction) {
    guard i.source == .slot else { return }
    let access = layout._withUnsafeGuaranteedRef { $0.access[i.a] }
    let field = base + row &* stride + access.offset
    switch access.kind {
    case .string?, .optionalString?: OutOfLine.prefetch(string: field)
    case .strings?: OutOfLine.prefetch(array: field)
    case .int?, .optionalInt?, .double?, .bool?, .date?, .optionalDouble?, .optionalBool?, nil: break
    }
  }
}

/// A contiguous buffer of ``SiftRecord``s; one of another schema than the predicate's is
/// an error, so it is not admitted.
struct RecordRows: BatchRows {
  let records: UnsafeBufferPointer<SiftRecord>
  let schema: SiftSchema?
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
  func prefetch(_ row: Int, _ i: Instruction) {
    // The record's values array, then (for a string slot) the string's bytes once the
    // array is in: only the array can be asked for without waiting.
    let record = UnsafeRawPointer(records.baseAddress! + row)
    OutOfLine.prefetch(array: record + Self.valuesOffset)
  }
}

/// A contiguous buffer of ``SiftValue``s, each the predicate's `SELF`.
struct ValueRows: BatchRows {
  let values: UnsafeBufferPointer<SiftValue>

  @inline(__always) func admits(_ row: Int) -> Bool { true }

  @inline(__always)
  func withReader<T>(_ row: Int, _ body: (ValueReader) throws(EvaluationError) -> T) throws(EvaluationError) -> T {
    try body(ValueReader(root: values.baseAddress! + row))
  }

  @inline(__always) func prefetch(_ row: Int, _ i: Instruction) {}
}
