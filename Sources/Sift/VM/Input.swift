/// What a predicate is evaluated against: the VM's view of `SELF`. The caller's value is
/// borrowed through a pointer that is valid for one evaluation, so passing and copying an
/// `Input` costs nothing (an existential or a record in the enum made every copy a
/// value-witness call).
enum Input {
  case value(UnsafePointer<SiftValue>)
  /// The object's address and its type: no existential box (a large struct would need a
  /// heap allocation per evaluation).
  case object(UnsafeRawPointer, any SiftKeyValueCoding.Type)
  case record(UnsafePointer<SiftRecord>)

  /// The value of a key path's first key. On a `SELF` that is not a dictionary the key-path
  /// rules apply: mapped over an array (taking steps from `steps`), `typeMismatch` on a
  /// number (found by fuzzing: this path used to answer nil, so `a == 1` on `[1]` was false).
  @inline(__always)
  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    switch self {
    case .value(let v):
      if case .dictionary(let d) = v.pointee { return d.literalValue(forKey: key) ?? .null }
      return try Self.root(key, ofNonDictionary: v.pointee, steps: &steps)
    case .object(let o, let type): return type.siftValue(at: o, forKey: key) ?? .null
    case .record(let r): return r.pointee[key] ?? .null
    }
  }

  @inline(never)
  private static func root(_ key: String, ofNonDictionary value: SiftValue, steps: inout Int)
    throws(EvaluationError) -> SiftValue
  {
    try Semantics.value(forKey: key, in: value, steps: &steps)
  }

  /// Record slot `slot` of a schema-bound input, or nil for other inputs and slots out of
  /// range (the caller then takes the general path, which reports the error).
  @inline(__always)
  func slotValue(_ slot: Int) -> SiftValue? {
    guard case .record(let r) = self, slot < r.pointee.values.count else { return nil }
    return r.pointee.values[slot]
  }

  /// Record slot `slot` of a schema-bound input.
  @inline(__always)
  func slot(_ slot: Int) throws(EvaluationError) -> SiftValue {
    guard case .record(let record) = self, slot < record.pointee.values.count else { throw Self.notARecord() }
    return record.pointee.values[slot]
  }

  private static func notARecord() -> EvaluationError {
    EvaluationError(.typeMismatch, "this predicate was compiled for a schema; evaluate it with a SiftRecord")
  }

  var selfValue: SiftValue {
    switch self {
    case .value(let v): return v.pointee
    case .object(let o, let type): return type.siftSelfValue(at: o)
    case .record(let r): return r.pointee.dictionaryValue
    }
  }
}

/// Per-evaluation state outside the registers: variables and the step budget. (Custom
/// functions are fixed at compile time and live in the ``Program``.)
struct Environment {
  /// nil for programs that touch no variables, so the caller's dictionary is not copied.
  var variables: [String: SiftValue]?
  var stepsLeft: Int

  /// Binds (or, with nil, unbinds) a variable.
  mutating func bind(_ name: String, _ value: SiftValue?) {
    if variables == nil { variables = [:] }
    variables![name] = value
  }
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
