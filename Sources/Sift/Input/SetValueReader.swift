/// A ``SiftValue`` as the input of a predicate set's shared code, compiled for the set's
/// schema (``PredicateIndex``): slot k is the set's k-th key, looked up in the value at
/// most once per match, however many candidates read it. A value that is not a
/// dictionary is read through the key-path rules by the general path (a key mapped over
/// an array, an error on a number).
struct SetValueReader: InputReader {
  let root: UnsafePointer<SiftValue>
  let keys: UnsafeBufferPointer<String>
  /// The values looked up so far (initialised where `read` says so).
  let cache: UnsafeMutablePointer<SiftValue>
  let read: UnsafeMutablePointer<Bool>

  /// Calls `body` with a reader of `root` for `keys`, its cache on the stack.
  static func with<T>(_ root: UnsafePointer<SiftValue>, _ keys: UnsafeBufferPointer<String>, _ body: (Self) -> T)
    -> T
  {
    let n = max(keys.count, 1)
    return withUnsafeTemporaryAllocation(of: SiftValue.self, capacity: n) { cache in
      withUnsafeTemporaryAllocation(of: Bool.self, capacity: n) { read in
        read.initialize(repeating: false)
        let reader = SetValueReader(
          root: root, keys: keys, cache: cache.baseAddress!, read: read.baseAddress!)
        defer {
          for k in 0..<keys.count where read[k] { (cache.baseAddress! + k).deinitialize(count: 1) }
        }
        return body(reader)
      }
    }
  }

  /// The entry for slot `k` of a dictionary root, looked up once.
  @inline(__always)
  private func entry(_ k: Int) -> UnsafePointer<SiftValue>? {
    guard case .dictionary(let d) = root.pointee else { return nil }
    if !read[k] {
      (cache + k).initialize(to: d.literalValue(forKey: keys[k]) ?? .null)
      read[k] = true
    }
    return UnsafePointer(cache + k)
  }

  @inline(__always)
  func withView<T>(_ i: Instruction, _ program: Executable, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T
  {
    switch i.source {
    case .evaluatedObject: return try body(.value(root))
    case .slot:
      guard i.a < keys.count, let p = entry(i.a) else { return try body(.general) }
      return try body(.value(p))
    case .root, .register: return try body(.general)
    }
  }

  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    if case .dictionary(let d) = root.pointee { return d.literalValue(forKey: key) ?? .null }
    return try Semantics.value(forKey: key, in: root.pointee, steps: &steps)
  }

  func slot(_ slot: Int, steps: inout Int) throws(EvaluationError) -> SiftValue {
    guard slot < keys.count else { throw Self.notARecord() }
    if let p = entry(slot) { return p.pointee }
    return try Semantics.value(forKey: keys[slot], in: root.pointee, steps: &steps)
  }

  func selfValue(steps: inout Int) throws(EvaluationError) -> SiftValue { root.pointee }
}
