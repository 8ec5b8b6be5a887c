import CSiftJSON
import Sift

/// Turns simdjson's flat event list for one value into a `SiftValue`, with the same
/// number rules as Sift's own JSON reader: an integer that fits `Int` is an int, anything
/// else a double.
enum JSONEvents {
  static func value(_ events: UnsafeBufferPointer<sift_json_event>) -> SiftValue {
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

  @inline(__always)
  private static func string(_ event: sift_json_event) -> String {
    // simdjson has validated the UTF-8; the bytes live in the parser until its next parse.
    guard event.len > 0, let pointer = event.v.ptr else { return "" }
    let bytes = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
    return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(event.len)), as: UTF8.self)
  }
}
