/// A schema-bound ``SiftRecord`` as the input, its values borrowed in place: a slot read
/// is one bounds check and a load, with no copy of the record's array and no retain of a
/// string it holds.
struct RecordReader: InputReader {
  let record: UnsafePointer<SiftRecord>
  let values: UnsafeBufferPointer<SiftValue>

  @inline(__always)
  func withView<T>(_ i: Instruction, _ program: Executable, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T
  {
    guard i.source == .slot, i.a < values.count else { return try body(.general) }
    return try body(.value(values.baseAddress! + i.a))
  }

  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue { record.pointee[key] ?? .null }

  @inline(__always)
  func slot(_ slot: Int, steps: inout Int) throws(EvaluationError) -> SiftValue {
    guard slot < values.count else { throw Self.notARecord() }
    return values[slot]
  }

  func selfValue(steps: inout Int) throws(EvaluationError) -> SiftValue {
    let built = record.pointee.dictionaryValue
    try Cost.built(built, steps: &steps)
    return built
  }
}
