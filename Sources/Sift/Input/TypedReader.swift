/// A ``SiftTyped`` value as the input, through the layout the predicate was compiled for
/// (the caller checked the value is of the layout's type): stored properties are viewed in
/// place at their offsets, computed strings read once per test, other fields converted.
struct TypedReader: InputReader {
  let base: UnsafeRawPointer
  let layout: Unmanaged<FieldLayout>

  @inline(__always)
  func withView<T>(_ i: Instruction, _ program: Executable, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T
  {
    guard i.source == .slot else { return try body(.general) }
    let access = layout._withUnsafeGuaranteedRef { $0.access[i.a] }
    guard let kind = access.kind else { return try computed(i, body) }
    let field = base + access.offset
    switch kind {
    case .string: return try body(.string(field.assumingMemoryBound(to: String.self)))
    case .optionalString:
      let p = field.assumingMemoryBound(to: String?.self)
      guard p.pointee != nil else { return try body(.general) }
      // `String?` has the layout of `String` when it holds one.
      return try body(.string(UnsafeRawPointer(p).assumingMemoryBound(to: String.self)))
    case .int: return try body(.int(field.load(as: Int.self)))
    case .optionalInt:
      guard let x = field.assumingMemoryBound(to: Int?.self).pointee else { return try body(.general) }
      return try body(.int(x))
    case .strings: return try body(.strings(field.assumingMemoryBound(to: [String].self)))
    case .double, .bool, .date, .optionalDouble, .optionalBool: return try body(.general)
    }
  }

  /// A computed string field, read once for the test.
  @inline(never)
  private func computed<T>(_ i: Instruction, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T
  {
    guard case .computed(_, let string?, _) = layout._withUnsafeGuaranteedRef({ $0.flat[i.a].read.storage }) else {
      return try body(.general)
    }
    let s = string(base)
    return try withUnsafePointer(to: s) { (p) throws(EvaluationError) in try body(.string(p)) }
  }

  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    let v =
      layout._withUnsafeGuaranteedRef { l in l.resolve([key][...]).map { l.flat[$0.slot].read.value(base) } } ?? .null
    try Cost.built(v, steps: &steps)
    return v
  }

  @inline(__always)
  func slot(_ slot: Int, steps: inout Int) throws(EvaluationError) -> SiftValue {
    let v = layout._withUnsafeGuaranteedRef { $0.flat[slot].read.value(base) }
    try Cost.built(v, steps: &steps)
    return v
  }

  func selfValue(steps: inout Int) throws(EvaluationError) -> SiftValue {
    let built = layout._withUnsafeGuaranteedRef { $0.dictionary(base) }
    try Cost.built(built, steps: &steps)
    return built
  }
}
