/// The checks every buffer argument of sift.h gets before it is read: NULL, a length above
/// `SIFT_MAX_LENGTH`, a range that would wrap around the address space.
enum Buffers {
  /// `SIFT_MAX_LENGTH`: 1 TiB.
  static let maxLength = 1 << 40

  /// `pointer[0..<length]` as a buffer. With `optional`, a NULL pointer or a length of 0 is
  /// nil (no value given); otherwise NULL is an error (a length of 0 is an empty buffer).
  static func view(_ pointer: UnsafeRawPointer?, _ length: Int, what: String, optional: Bool = false)
    throws(Failure) -> UnsafeRawBufferPointer?
  {
    if optional && (pointer == nil || length == 0) { return nil }
    guard let pointer else { throw Failure(.null, "\(what) is NULL") }
    guard length >= 0, length <= maxLength else {
      throw Failure(.tooLarge, "\(what): the length is above SIFT_MAX_LENGTH")
    }
    guard UInt(bitPattern: pointer).addingReportingOverflow(UInt(length)).overflow == false else {
      throw Failure(.tooLarge, "\(what): the length runs past the end of the address space")
    }
    return UnsafeRawBufferPointer(start: pointer, count: length)
  }

  /// A required buffer (never nil).
  static func required(_ pointer: UnsafeRawPointer?, _ length: Int, what: String) throws(Failure)
    -> UnsafeRawBufferPointer
  {
    // `view` returns nil only when optional.
    guard let buffer = try view(pointer, length, what: what) else { throw Failure(.null, "\(what) is NULL") }
    return buffer
  }

  /// Writes `bytes` as sift.h's text outputs are written: min(capacity, n) bytes, the whole
  /// length in `length`, a NUL when it fits, `buffer` status when it does not.
  static func write(
    _ bytes: [UInt8], to buffer: UnsafeMutablePointer<CChar>?, capacity: Int, length: UnsafeMutablePointer<Int>?
  )
    -> Int32
  {
    guard let length else { return Status.null.rawValue }
    guard capacity >= 0 else { return Status.tooLarge.rawValue }
    if capacity > 0 && buffer == nil { return Status.null.rawValue }
    length.pointee = bytes.count
    let n = min(capacity, bytes.count)
    if n > 0, let buffer {
      bytes.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: n) }
    }
    if bytes.count < capacity, let buffer { buffer[bytes.count] = 0 }
    return bytes.count > capacity ? Status.buffer.rawValue : Status.ok.rawValue
  }
}

extension UnsafeRawBufferPointer {
  /// The bytes as `UInt8` (caller memory of `char`, which `UInt8` may alias).
  var uint8: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
  }
}

/// UTF-8 validation with the offset of the first bad byte.
enum UTF8Check {
  static func firstInvalidByte(_ bytes: UnsafeRawBufferPointer) -> Int? {
    var offset = 0
    var decoder = UTF8()
    var iterator = bytes.uint8.makeIterator()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }
}
