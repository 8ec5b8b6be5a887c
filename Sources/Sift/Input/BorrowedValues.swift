import SiftSyntax

/// A record's values read where they lie, for the batch tier's sweeps over records: the
/// elements of a `[SiftValue]` (or of a typed `[String]` field) and the string of a
/// `.string` value, borrowed, with nothing copied. Binding a value out of memory the
/// compiler cannot prove unchanged (`case .string(let s) = pointer.pointee`,
/// `record.values` through a pointer) copies it, a
/// retain and a release of its storage: measured, the copies were most of a sweep's time
/// over records (W2 hot, 58 ns a row against 17 over structs).
///
/// This reads two layouts of the standard library's ABI on 64-bit platforms: an array is
/// one reference to a buffer whose count is the word at offset 16 and whose elements start
/// at offset 32; a multi-payload enum keeps its payload at offset 0, so a `.string` value
/// begins with the string's two words. ``isAvailable`` checks both once, on known values;
/// when it fails every read takes the copying path.
enum BorrowedValues {
  static let isAvailable: Bool = {
    #if _pointerBitWidth(_64)
      let strings = ["", "abc", String(repeating: "long ", count: 9), String(decoding: Array("é".utf8), as: UTF8.self)]
      let values: [SiftValue] = strings.map { .string($0) } + [.int(7), .null]
      let elementsAgree = withUnsafePointer(to: values) { p in
        let e = raw(p)
        return e.count == values.count
          && e.baseAddress.map { UnsafeRawPointer($0) }
            == values.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
      }
      let empty: [SiftValue] = []
      let emptyAgrees = withUnsafePointer(to: empty) { raw($0).count == 0 }
      // Typed `[String]` fields are read the same way.
      let stringsInPlace = withUnsafePointer(to: strings) { p in
        let e = raw(p)
        return e.count == strings.count
          && e.baseAddress.map { UnsafeRawPointer($0) }
            == strings.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
      }
      let stringsAgree = values.withUnsafeBufferPointer { e in
        zip(strings, e).allSatisfy { s, v in
          withUnsafePointer(to: v) { p in
            UnsafeRawPointer(p).load(as: UInt64.self) == SmallStringBits.bits(s).0
              && UnsafeRawPointer(p).load(fromByteOffset: 8, as: UInt64.self) == SmallStringBits.bits(s).1
          }
        }
      }
      let array = SiftValue.array(values)
      let arrayAgrees = withUnsafePointer(to: array) { p in
        UnsafeRawPointer(p).load(as: UInt.self)
          == withUnsafePointer(to: values) { UnsafeRawPointer($0).load(as: UInt.self) }
      }
      // The sweeps that borrow values read their strings' bytes in place too.
      return StringBytes.isAvailable && elementsAgree && emptyAgrees && stringsInPlace && stringsAgree && arrayAgrees
    #else
      return false
    #endif
  }()

  /// The elements of the array at `p`, valid while the array is. `borrows` is
  /// ``isAvailable``, read once by a caller that loops; `Element` is `SiftValue` or
  /// `String`, the arrays ``isAvailable`` checks.
  @inline(__always)
  static func withElements<Element, T>(
    borrows: Bool = isAvailable, _ p: UnsafePointer<[Element]>, _ body: (UnsafeBufferPointer<Element>) -> T
  ) -> T {
    if borrows { return body(raw(p)) }
    return p.pointee.withUnsafeBufferPointer(body)
  }

  @inline(__always)
  private static func raw<Element>(_ p: UnsafePointer<[Element]>) -> UnsafeBufferPointer<Element> {
    let buffer = UnsafeRawPointer(p).load(as: UnsafeRawPointer.self)
    let count = buffer.load(fromByteOffset: 16, as: Int.self)
    return UnsafeBufferPointer(start: (buffer + 32).assumingMemoryBound(to: Element.self), count: count)
  }

  /// The elements of an `.array` value in place; nil for any other value. Only where
  /// ``isAvailable``.
  @inline(__always)
  static func array(_ v: UnsafePointer<SiftValue>) -> UnsafeBufferPointer<SiftValue>? {
    guard case .array = v.pointee else { return nil }
    return raw(UnsafeRawPointer(v).assumingMemoryBound(to: [SiftValue].self))
  }

  /// The string of a `.string` value in place; nil for any other value. Only where
  /// ``isAvailable``.
  @inline(__always)
  static func string(_ v: UnsafePointer<SiftValue>) -> UnsafePointer<String>? {
    guard case .string = v.pointee else { return nil }
    return UnsafeRawPointer(v).assumingMemoryBound(to: String.self)
  }
}
