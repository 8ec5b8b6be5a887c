import CSiftJSON

/// A JSON document parsed by simdjson, as the values of a record plan's keys
/// (`sift_json_record_fields`): slot k is the document's k-th key, read where the parser
/// keeps it. Strings are viewed as the UTF-8 bytes simdjson unescaped and validated,
/// integers as integers, arrays iterated element by element in the parser's DOM, so a line
/// is decided with no `String`, array or `SiftValue` built; anything else is converted for
/// the general path (``JSONEventValue``).
struct JSONRecordReader: InputReader {
  let parser: OpaquePointer
  let plan: OpaquePointer
  let fields: UnsafePointer<sift_json_field>
  /// The plan's keys, in slot order (for `SELF` as a dictionary).
  let keys: UnsafeBufferPointer<String>

  @inline(__always)
  func withView<T>(_ i: Instruction, _ program: Executable, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T
  {
    guard i.source == .slot, i.a < keys.count else { return try body(.general) }
    let field = fields[i.a]
    switch Int32(bitPattern: field.type) {
    case 0: return try body(.absent)
    case Int32(SIFT_JSON_STRING.rawValue): return try body(.utf8(JSONEventValue.bytes(field)))
    case Int32(SIFT_JSON_INT.rawValue): return try body(.int(Int(field.v.i)))
    case Int32(SIFT_JSON_ARRAY_START.rawValue): return try body(.jsonArray(plan, i.a))
    default: return try body(.general)
    }
  }

  func withSlotUTF8<T>(_ slot: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
    guard slot < keys.count, Int32(bitPattern: fields[slot].type) == Int32(SIFT_JSON_STRING.rawValue) else {
      return nil
    }
    return body(JSONEventValue.bytes(fields[slot]))
  }

  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    guard let slot = keys.firstIndex(where: { sameBytes($0, key) }) else { return .null }
    return try self.slot(slot, steps: &steps)
  }

  @inline(__always)
  func slot(_ slot: Int, steps: inout Int) throws(EvaluationError) -> SiftValue {
    guard slot < keys.count else { throw Self.notARecord() }
    let field = fields[slot]
    let v: SiftValue
    switch Int32(bitPattern: field.type) {
    case 0, Int32(SIFT_JSON_NULL.rawValue): return .null
    case Int32(SIFT_JSON_STRING.rawValue): return .string(String(decoding: JSONEventValue.bytes(field), as: UTF8.self))
    case Int32(SIFT_JSON_INT.rawValue): return .int(Int(field.v.i))
    case Int32(SIFT_JSON_UINT.rawValue): return .double(Double(field.v.u))
    case Int32(SIFT_JSON_DOUBLE.rawValue): return .double(field.v.d)
    case Int32(SIFT_JSON_TRUE.rawValue): return .bool(true)
    case Int32(SIFT_JSON_FALSE.rawValue): return .bool(false)
    default:
      var events: UnsafePointer<sift_json_event>? = nil
      var count = 0
      guard sift_json_field_events(parser, plan, slot, &events, &count) == Int32(SIFT_JSON_OK.rawValue), let events
      else { return .null }
      v = JSONEventValue.value(UnsafeBufferPointer(start: events, count: count))
    }
    try Cost.built(v, steps: &steps)
    return v
  }

  func selfValue(steps: inout Int) throws(EvaluationError) -> SiftValue {
    var d: [String: SiftValue] = [:]
    for (k, key) in keys.enumerated() where fields[k].type != 0 && d[key] == nil {
      d[key] = try slot(k, steps: &steps)
    }
    return .dictionary(d)
  }
}

/// simdjson's flat events for one value as a `SiftValue`, with the number rules of Sift's
/// own JSON reader: an integer that fits `Int` is an int, anything else a double.
package enum JSONEventValue {
  package static func value(_ events: UnsafeBufferPointer<sift_json_event>) -> SiftValue {
    var index = 0
    return value(events, &index)
  }

  /// Recursion depth is bounded by the parser's depth limit.
  private static func value(_ events: UnsafeBufferPointer<sift_json_event>, _ index: inout Int) -> SiftValue {
    let event = events[index]
    index += 1
    switch Int32(bitPattern: event.type) {
    case Int32(SIFT_JSON_STRING.rawValue): return .string(string(event))
    case Int32(SIFT_JSON_INT.rawValue): return .int(Int(event.v.i))
    case Int32(SIFT_JSON_UINT.rawValue): return .double(Double(event.v.u))
    case Int32(SIFT_JSON_DOUBLE.rawValue): return .double(event.v.d)
    case Int32(SIFT_JSON_TRUE.rawValue): return .bool(true)
    case Int32(SIFT_JSON_FALSE.rawValue): return .bool(false)
    case Int32(SIFT_JSON_ARRAY_START.rawValue):
      var elements: [SiftValue] = []
      while Int32(bitPattern: events[index].type) != Int32(SIFT_JSON_ARRAY_END.rawValue) {
        elements.append(value(events, &index))
      }
      index += 1
      return .array(elements)
    case Int32(SIFT_JSON_OBJECT_START.rawValue):
      var fields: [String: SiftValue] = [:]
      while Int32(bitPattern: events[index].type) != Int32(SIFT_JSON_OBJECT_END.rawValue) {
        let key = string(events[index])
        index += 1
        // The last occurrence of a key wins, as in Sift's reader.
        fields[key] = value(events, &index)
      }
      index += 1
      return .dictionary(fields)
    default: return .null
    }
  }

  /// A string or key event's bytes, or a string field's (a field is laid out as an
  /// event): validated UTF-8 in the parser, until its next parse.
  @inline(__always)
  static func bytes(_ event: sift_json_event) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(
      start: UnsafeRawPointer(event.v.ptr)?.assumingMemoryBound(to: UInt8.self), count: Int(event.len))
  }

  @inline(__always)
  private static func string(_ event: sift_json_event) -> String {
    guard event.len > 0 else { return "" }
    return String(decoding: bytes(event), as: UTF8.self)
  }
}
