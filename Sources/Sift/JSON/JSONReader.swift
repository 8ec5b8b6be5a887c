/// A JSON text that could not be read, with the byte offset of the problem.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public var message: String
  /// UTF-8 byte offset into the JSON text.
  public var offset: Int

  /// `message at offset N`.
  public var description: String { "\(message) at offset \(offset)" }
}

extension SiftValue {
  /// Reads one JSON value (RFC 8259) from UTF-8 bytes. Objects become ``dictionary``,
  /// integers that fit in `Int` become ``int``, other numbers ``double``.
  ///
  /// Nesting deeper than `maxDepth` is an error rather than a stack overflow.
  public init(json bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 512) throws(JSONError) {
    var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
    self = try reader.readDocument()
  }

  /// Reads one JSON value like ``init(json:maxDepth:)-(UnsafeBufferPointer<UInt8>,_)`` and,
  /// if it is an object, the byte range of each of its members' value text (the last one
  /// for a repeated key), so a caller can echo a member exactly as it was written.
  package static func readWithMemberRanges(json bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 512)
    throws(JSONError) -> (value: SiftValue, memberRanges: [String: Range<Int>])
  {
    var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
    reader.memberRanges = [:]
    let value = try reader.readDocument()
    return (value, reader.memberRanges ?? [:])
  }

  /// Reads one JSON value from a string (see ``init(json:maxDepth:)-(UnsafeBufferPointer<UInt8>,_)``).
  public init(json text: String, maxDepth: Int = 512) throws(JSONError) {
    var text = text
    let result = text.withUTF8 { bytes in
      Result { () throws(JSONError) in try SiftValue(json: bytes, maxDepth: maxDepth) }
    }
    self = try result.get()
  }
}

/// A byte cursor over JSON text. String bytes are validated as UTF-8 as they are scanned.
struct JSONReader {
  let bytes: UnsafeBufferPointer<UInt8>
  let maxDepth: Int
  var position = 0
  /// When not nil, collects the value ranges of the top-level object's members.
  var memberRanges: [String: Range<Int>]? = nil

  init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  private func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

  /// One value with optional whitespace around it, and nothing else.
  mutating func readDocument() throws(JSONError) -> SiftValue {
    skipWhitespace()
    let value = try readValue(depth: 0)
    skipWhitespace()
    guard position == bytes.count else {
      throw JSONError(message: "unexpected text after the JSON value", offset: position)
    }
    return value
  }

  mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  private func fail(_ message: String) -> JSONError { JSONError(message: message, offset: position) }

  mutating func readValue(depth: Int) throws(JSONError) -> SiftValue {
    guard position < bytes.count else { throw fail("expected a JSON value, found end of input") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
    case UInt8(ascii: "["): return try readArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try readString())
    case UInt8(ascii: "t"): return try readWord("true", .bool(true))
    case UInt8(ascii: "f"): return try readWord("false", .bool(false))
    case UInt8(ascii: "n"): return try readWord("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
    default: throw fail("expected a JSON value")
    }
  }

  private mutating func readWord(_ word: StaticString, _ value: SiftValue) throws(JSONError) -> SiftValue {
    let n = word.utf8CodeUnitCount
    guard position + n <= bytes.count,
      memcmpEqual(bytes.baseAddress! + position, word.utf8Start, n)
    else { throw fail("expected \(word)") }
    position += n
    return value
  }

  private func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    for i in 0..<n where a[i] != b[i] { return false }
    return true
  }

  private mutating func readObject(depth: Int) throws(JSONError) -> SiftValue {
    guard depth <= maxDepth else { throw fail("JSON nesting is deeper than \(maxDepth)") }
    position += 1
    var result: [String: SiftValue] = [:]
    skipWhitespace()
    if byte(position) == UInt8(ascii: "}") {
      position += 1
      return .dictionary(result)
    }
    while true {
      skipWhitespace()
      guard byte(position) == UInt8(ascii: "\"") else { throw fail("expected a string key") }
      let key = try readString()
      skipWhitespace()
      guard byte(position) == UInt8(ascii: ":") else { throw fail("expected ':'") }
      position += 1
      skipWhitespace()
      let valueStart = position
      result[key] = try readValue(depth: depth)
      if depth == 1, memberRanges != nil { memberRanges![key] = valueStart..<position }
      skipWhitespace()
      switch byte(position) {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "}"):
        position += 1
        return .dictionary(result)
      default: throw fail("expected ',' or '}'")
      }
    }
  }

  private mutating func readArray(depth: Int) throws(JSONError) -> SiftValue {
    guard depth <= maxDepth else { throw fail("JSON nesting is deeper than \(maxDepth)") }
    position += 1
    var result: [SiftValue] = []
    skipWhitespace()
    if byte(position) == UInt8(ascii: "]") {
      position += 1
      return .array(result)
    }
    while true {
      skipWhitespace()
      result.append(try readValue(depth: depth))
      skipWhitespace()
      switch byte(position) {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "]"):
        position += 1
        return .array(result)
      default: throw fail("expected ',' or ']'")
      }
    }
  }

  private mutating func readNumber() throws(JSONError) -> SiftValue {
    let start = position
    var isInteger = true
    if byte(position) == UInt8(ascii: "-") { position += 1 }
    func digits(_ r: inout JSONReader) -> Int {
      let s = r.position
      while r.byte(r.position) >= UInt8(ascii: "0") && r.byte(r.position) <= UInt8(ascii: "9") {
        r.position += 1
      }
      return r.position - s
    }
    let intDigits = digits(&self)
    guard intDigits > 0 else { throw fail("expected digits") }
    if intDigits > 1, bytes[position - intDigits] == UInt8(ascii: "0") {
      throw JSONError(message: "leading zeros are not allowed", offset: position - intDigits)
    }
    if byte(position) == UInt8(ascii: ".") {
      position += 1
      isInteger = false
      guard digits(&self) > 0 else { throw fail("expected digits after '.'") }
    }
    if byte(position) | 0x20 == UInt8(ascii: "e") {
      position += 1
      isInteger = false
      if byte(position) == UInt8(ascii: "+") || byte(position) == UInt8(ascii: "-") { position += 1 }
      guard digits(&self) > 0 else { throw fail("expected digits in the exponent") }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    if isInteger, let value = Int(text) { return .int(value) }
    guard let value = Double(text), value.isFinite else {
      throw JSONError(message: "number is out of range", offset: start)
    }
    return .double(value)
  }

  mutating func readString() throws(JSONError) -> String {
    let quote = position
    position += 1
    var out: [UInt8] = []
    var runStart = position
    while true {
      guard position < bytes.count else {
        throw JSONError(message: "unterminated string", offset: quote)
      }
      let b = bytes[position]
      if b == UInt8(ascii: "\"") { break }
      if b < 0x20 { throw fail("control character in string") }
      if b >= 0x80 {
        // Raw runs are checked here, so the error points at the first bad byte; an escape
        // starts with an ASCII backslash and cannot split a valid sequence.
        guard let width = utf8SequenceWidth(at: position) else { throw fail("string is not valid UTF-8") }
        position += width
        continue
      }
      if b != UInt8(ascii: "\\") {
        position += 1
        continue
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
      let escape = position
      position += 1
      guard position < bytes.count else {
        throw JSONError(message: "unterminated string", offset: quote)
      }
      let e = bytes[position]
      position += 1
      switch e {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try readHex4()
        if scalar >= 0xD800 && scalar < 0xDC00 {
          guard byte(position) == UInt8(ascii: "\\"), byte(position + 1) == UInt8(ascii: "u") else {
            throw JSONError(message: "unpaired surrogate in \\u escape", offset: escape)
          }
          position += 2
          let low = try readHex4()
          guard low >= 0xDC00 && low < 0xE000 else {
            throw JSONError(message: "unpaired surrogate in \\u escape", offset: escape)
          }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let s = Unicode.Scalar(scalar) else {
          throw JSONError(message: "unpaired surrogate in \\u escape", offset: escape)
        }
        out.append(contentsOf: String(Character(s)).utf8)
      default:
        throw JSONError(message: "invalid escape in string", offset: escape)
      }
      runStart = position
    }
    let raw = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
    position += 1
    // Every raw byte was validated above and escapes produce valid UTF-8.
    if out.isEmpty { return String(decoding: raw, as: UTF8.self) }
    out.append(contentsOf: raw)
    return String(decoding: out, as: UTF8.self)
  }

  /// The length of the well-formed UTF-8 sequence (Unicode Table 3-7) starting with the
  /// non-ASCII byte at `i`, or nil if it is ill-formed or cut off.
  private func utf8SequenceWidth(at i: Int) -> Int? {
    let lead = bytes[i]
    let width: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: width = 2
    case 0xE0:
      width = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: width = 3
    case 0xED:
      width = 3
      high = 0x9F
    case 0xF0:
      width = 4
      low = 0x90
    case 0xF1...0xF3: width = 4
    case 0xF4:
      width = 4
      high = 0x8F
    default: return nil
    }
    guard i + width <= bytes.count else { return nil }
    let second = bytes[i + 1]
    guard second >= low && second <= high else { return nil }
    for k in 2..<width where bytes[i + k] & 0xC0 != 0x80 { return nil }
    return width
  }

  private mutating func readHex4() throws(JSONError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      let b = byte(position)
      let d: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
      default: throw fail("expected four hex digits after \\u")
      }
      value = value * 16 + d
      position += 1
    }
    return value
  }
}
