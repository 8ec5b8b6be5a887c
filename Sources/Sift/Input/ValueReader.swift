/// A ``SiftValue`` tree as the input: an entry of a dictionary `SELF` is viewed where it
/// lies (found once by its key, matched byte for byte).
struct ValueReader: InputReader {
  let root: UnsafePointer<SiftValue>

  @inline(__always)
  func withView<T>(_ i: Instruction, _ program: Executable, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T
  {
    switch i.source {
    case .evaluatedObject: return try body(.value(root))
    case .root:
      guard case .dictionary(let d) = root.pointee else { return try body(.general) }
      guard let index = d.index(forKey: program.names[i.a]) else { return try body(.absent) }
      // Keys match byte for byte (Semantics detail 7): an ASCII key does when Swift's does.
      guard program.asciiNames[i.a] || sameBytes(d.keys[index], program.names[i.a]) else { return try body(.general) }
      return try withUnsafePointer(to: d.values[index]) { (p) throws(EvaluationError) in try body(.value(p)) }
    case .slot, .register: return try body(.general)
    }
  }

  /// On a `SELF` that is not a dictionary the key-path rules apply: mapped over an array
  /// (taking steps from `steps`), `typeMismatch` on a number (found by fuzzing: this path
  /// used to answer nil, so `a == 1` on `[1]` was false).
  @inline(__always)
  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    if case .dictionary(let d) = root.pointee { return d.literalValue(forKey: key) ?? .null }
    return try Self.root(key, ofNonDictionary: root.pointee, steps: &steps)
  }

  @inline(never)
  private static func root(_ key: String, ofNonDictionary value: SiftValue, steps: inout Int)
    throws(EvaluationError) -> SiftValue
  {
    try Semantics.value(forKey: key, in: value, steps: &steps)
  }

  func slot(_ slot: Int, steps: inout Int) throws(EvaluationError) -> SiftValue { throw Self.notARecord() }

  func selfValue(steps: inout Int) throws(EvaluationError) -> SiftValue { root.pointee }
}
