/// An object that answers keys itself (``SiftKeyValueCoding``) as the input: its address
/// and its type, so no existential box is made (a large struct would need a heap
/// allocation per evaluation). Every read goes through the conformance.
struct ObjectReader: InputReader {
  let object: UnsafeRawPointer
  let type: any SiftKeyValueCoding.Type

  func withView<T>(_ i: Instruction, _ program: Executable, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T
  {
    try body(.general)
  }

  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    type.siftValue(at: object, forKey: key) ?? .null
  }

  func slot(_ slot: Int, steps: inout Int) throws(EvaluationError) -> SiftValue { throw Self.notARecord() }

  func selfValue(steps: inout Int) throws(EvaluationError) -> SiftValue { type.siftSelfValue(at: object) }
}

extension SiftKeyValueCoding {
  /// `siftValue(forKey:)` of the `Self` at `address`.
  static func siftValue(at address: UnsafeRawPointer, forKey key: String) -> SiftValue? {
    address.assumingMemoryBound(to: Self.self).pointee.siftValue(forKey: key)
  }

  /// `siftSelfValue` of the `Self` at `address`.
  static func siftSelfValue(at address: UnsafeRawPointer) -> SiftValue {
    address.assumingMemoryBound(to: Self.self).pointee.siftSelfValue
  }
}
