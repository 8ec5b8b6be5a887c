/// A Foundation dictionary (`[String: Any]`) as the input, read lazily: a key is looked up
/// when the predicate reads it, and a value that is exactly a Swift `String`, `Int` or
/// `[String]` is viewed in place; anything else is converted (``FoundationValue``), and
/// charged as it is.
struct FoundationReader: InputReader {
  let dictionary: UnsafePointer<[String: Any]>

  @inline(__always)
  func withView<T>(_ i: Instruction, _ program: Executable, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T
  {
    guard i.source == .root else { return try body(.general) }
    let key = program.names[i.a]
    // An ASCII key matches byte for byte exactly when Swift's lookup finds it.
    guard
      let value = program.asciiNames[i.a] ? dictionary.pointee[key] : FoundationValue.lookup(dictionary.pointee, key)
    else { return try body(.absent) }
    return try Self.view(value, body)
  }

  @inline(never)
  private static func view<T>(_ value: Any, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T
  {
    let type = ExistentialPayload.typeID(value) ?? ObjectIdentifier(Swift.type(of: value))
    switch type {
    case ObjectIdentifier(String.self):
      let s = ExistentialPayload.load(value, as: String.self)
      return try withUnsafePointer(to: s) { (p) throws(EvaluationError) in try body(.string(p)) }
    case ObjectIdentifier(Int.self): return try body(.int(ExistentialPayload.load(value, as: Int.self)))
    case ObjectIdentifier([String].self):
      let strings = ExistentialPayload.load(value, as: [String].self)
      return try withUnsafePointer(to: strings) { (p) throws(EvaluationError) in try body(.strings(p)) }
    default: return try body(.general)
    }
  }

  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    guard let value = FoundationValue.lookup(dictionary.pointee, key) else { return .null }
    // Collections are charged as they are converted.
    let v = try Self.read(value, at: "'\(key)'", steps: &steps)
    // An NSString is copied into a Swift string on each read.
    if case .string(let s) = v, ObjectIdentifier(type(of: value)) != ObjectIdentifier(String.self) {
      try Semantics.charge(Cost.string(s.utf8.count, folding: false), &steps)
    }
    return v
  }

  func slot(_ slot: Int, steps: inout Int) throws(EvaluationError) -> SiftValue { throw Self.notARecord() }

  func selfValue(steps: inout Int) throws(EvaluationError) -> SiftValue {
    do throws(FoundationValue.Unreadable) {
      return try FoundationValue.dictionary(dictionary.pointee, steps: &steps)
    } catch {
      throw error.error(at: "SELF")
    }
  }

  @inline(never)
  static func read(_ value: Any, at place: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    do throws(FoundationValue.Unreadable) {
      return try FoundationValue.read(value, steps: &steps)
    } catch {
      throw error.error(at: place)
    }
  }
}
