/// What a predicate is evaluated against: the VM's view of `SELF`. The caller's value is
/// borrowed through a pointer that is valid for one evaluation, so passing and copying an
/// `Input` costs nothing (an existential or a record in the enum made every copy a
/// value-witness call).
enum Input {
  case value(UnsafePointer<SiftValue>)
  /// The object's address and its type: no existential box (a large struct would need a
  /// heap allocation per evaluation).
  case object(UnsafeRawPointer, any SiftKeyValueCoding.Type)
  /// The record, and its values borrowed in place: a slot read is one bounds check and a
  /// load, with no copy of the record's array (and no retain of a string it holds).
  case record(UnsafePointer<SiftRecord>, UnsafeBufferPointer<SiftValue>)
  /// A ``SiftTyped`` value's address and the layout the predicate was compiled for (the
  /// caller checked that the value is of the layout's type); slots are its fields.
  case typed(UnsafeRawPointer, Unmanaged<FieldLayout>)
  /// A Foundation dictionary, read lazily: a key is looked up and its value converted
  /// when the predicate reads it (``FoundationValue``).
  case foundation(UnsafePointer<[String: Any]>)

  /// The value of a key path's first key. On a `SELF` that is not a dictionary the key-path
  /// rules apply: mapped over an array (taking steps from `steps`), `typeMismatch` on a
  /// number (found by fuzzing: this path used to answer nil, so `a == 1` on `[1]` was false).
  /// A value built to be read (a typed field's array, a Foundation value converted) is
  /// charged for what was built (``Cost/built(_:steps:)``); values read in place cost nothing.
  @inline(__always)
  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    switch self {
    case .value(let v):
      if case .dictionary(let d) = v.pointee { return d.literalValue(forKey: key) ?? .null }
      return try Self.root(key, ofNonDictionary: v.pointee, steps: &steps)
    case .object(let o, let type): return type.siftValue(at: o, forKey: key) ?? .null
    case .record(let r, _): return r.pointee[key] ?? .null
    case .typed(let base, let layout):
      let v =
        layout._withUnsafeGuaranteedRef { l in l.resolve([key][...]).map { l.flat[$0.slot].read.value(base) } }
        ?? .null
      try Cost.built(v, steps: &steps)
      return v
    case .foundation(let d):
      guard let value = FoundationValue.lookup(d.pointee, key) else { return .null }
      // Collections are charged as they are converted.
      let v = try Self.foundation(value, key, steps: &steps)
      // An NSString is copied into a Swift string on each read.
      if case .string(let s) = v, ObjectIdentifier(type(of: value)) != ObjectIdentifier(String.self) {
        try Semantics.charge(Cost.string(s.utf8.count, folding: false), &steps)
      }
      return v
    }
  }

  @inline(never)
  static func foundation(_ value: Any, _ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    do throws(FoundationValue.Unreadable) {
      return try FoundationValue.read(value, steps: &steps)
    } catch {
      throw error.error(at: "'\(key)'")
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
    guard case .record(_, let values) = self, slot < values.count else { return nil }
    return values[slot]
  }

  /// The record values of a schema-bound input, borrowed, or nil for other inputs.
  @inline(__always)
  var recordValues: UnsafeBufferPointer<SiftValue>? {
    guard case .record(_, let values) = self else { return nil }
    return values
  }

  /// Record slot `slot` of a schema-bound input; a typed field's collection, built to be
  /// read, is charged for what was built.
  @inline(__always)
  func slot(_ slot: Int, steps: inout Int) throws(EvaluationError) -> SiftValue {
    switch self {
    case .record(_, let values) where slot < values.count: return values[slot]
    case .typed(let base, let layout):
      let v = layout._withUnsafeGuaranteedRef { $0.flat[slot].read.value(base) }
      try Cost.built(v, steps: &steps)
      return v
    default: throw Self.notARecord()
    }
  }

  private static func notARecord() -> EvaluationError {
    EvaluationError(.typeMismatch, "this predicate was compiled for a schema; evaluate it with a SiftRecord")
  }

  /// `SELF` as a value: in place for a value, built for the other inputs (and then
  /// charged for what was built, as ``root(_:steps:)`` is).
  func selfValue(steps: inout Int) throws(EvaluationError) -> SiftValue {
    let built: SiftValue
    switch self {
    case .value(let v): return v.pointee
    case .object(let o, let type): return type.siftSelfValue(at: o)
    case .record(let r, _): built = r.pointee.dictionaryValue
    case .typed(let base, let layout): built = layout._withUnsafeGuaranteedRef { $0.dictionary(base) }
    case .foundation(let d):
      do throws(FoundationValue.Unreadable) {
        // Charged as it is converted.
        return try FoundationValue.dictionary(d.pointee, steps: &steps)
      } catch {
        throw error.error(at: "SELF")
      }
    }
    try Cost.built(built, steps: &steps)
    return built
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
