/// A string's UTF-8 bytes and a NUL after them, in memory that stays put for the life of the
/// object holding it: sift.h hands out pointers to it until that object is freed.
final class CText: @unchecked Sendable {
  // @unchecked: written once in init, then only read.
  let pointer: UnsafeMutablePointer<CChar>
  let count: Int

  init(_ text: String) {
    var text = text
    count = text.utf8.count
    pointer = .allocate(capacity: count + 1)
    text.withUTF8 { bytes in
      if let base = bytes.baseAddress {
        UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: bytes.count)
      }
    }
    pointer[count] = 0
  }

  deinit { pointer.deallocate() }
}

/// An error object (`sift_error`): immutable once made.
final class ErrorObject: HandleObject {
  static let kind = HandleKind.error
  let status: Status
  let word: StaticString
  let message: CText
  let rendered: CText
  let offset: Int64

  init(_ failure: Failure) {
    status = failure.status
    word = failure.kind
    message = CText(failure.message)
    rendered = CText(failure.render?() ?? failure.message)
    offset = failure.offset.map(Int64.init) ?? -1
  }
}
