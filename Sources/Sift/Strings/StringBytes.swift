/// A Swift string's UTF-8 bytes read where they lie, for a string in memory the caller
/// borrows (a typed value's field): a small string's bytes from its two words, a native
/// or literal string's from its storage, with no copy of the string and so no retain and
/// release of its storage per test. Passing `pointer.pointee` to a test that is not
/// inlined copies the string out of memory the compiler cannot prove unchanged: measured,
/// that retain and release were a fifth of a batch's time over a struct's long strings.
///
/// This reads the standard library's string layout (ABI-stable on 64-bit platforms: a
/// small string's count is in bits 56–59 of its second word and its flag is bit 61; a
/// large string whose bytes are tail-allocated says so in bit 60 of its first word, its
/// count is the low 48 bits, and the bytes start 32 bytes past the address in the second
/// word's low 60 bits). ``isAvailable`` checks that reading once, on strings of each
/// form; every other string (shared, foreign), and every string when the check fails,
/// takes `String.withUTF8` on a copy.
enum StringBytes {
  /// Whether the layout is the one assumed, checked on a small, a native and a literal string.
  static let isAvailable: Bool = {
    guard SmallStringBits.isAvailable else { return false }
    // Small and native strings must be read, and right; a form the reading does not
    // cover (nil) is right too: it takes the copy.
    func agrees(_ s: String, covered: Bool = true) -> Bool {
      withUnsafePointer(to: s) { p in
        guard let bytes = fast(p, { Array($0) }) else { return !covered }
        return bytes == Array(s.utf8)
      }
    }
    return agrees("") && agrees("abc") && agrees("é") && agrees("fifteen bytes!!")
      && agrees(String(repeating: "x€", count: 20))
      && agrees(String(decoding: Array("résumé résumé".utf8), as: UTF8.self))
      && agrees("a literal longer than fifteen bytes", covered: false)
  }()

  /// `body` over the bytes of the string at `p`, valid for the call. `layout` is
  /// ``isAvailable``, read once by a caller that loops (each read of a lazy static is a
  /// call).
  @inline(__always)
  static func withUTF8<T>(
    _ p: UnsafePointer<String>, layout: Bool = isAvailable, _ body: (UnsafeBufferPointer<UInt8>) -> T
  ) -> T {
    if layout, let result = fast(p, body) { return result }
    return slow(p, body)
  }

  /// The layout's reading, nil for a string it does not cover.
  @inline(__always)
  private static func fast<T>(_ p: UnsafePointer<String>, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
    let raw = UnsafeRawPointer(p)
    let flags = raw.load(as: UInt64.self)
    let object = raw.load(fromByteOffset: 8, as: UInt64.self)
    if object & (1 << 61) != 0 {
      var words = (flags, object)
      let count = Int(truncatingIfNeeded: (object >> 56) & 0xF)
      return withUnsafeBytes(of: &words) { w in
        body(UnsafeBufferPointer(start: w.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
      }
    }
    // Tail-allocated and not foreign: the bytes follow the storage's header.
    guard flags & (1 << 60) != 0, object & (1 << 60) == 0 else { return nil }
    let start = UnsafePointer<UInt8>(bitPattern: UInt(truncatingIfNeeded: object & 0x0FFF_FFFF_FFFF_FFFF) &+ 32)
    return body(UnsafeBufferPointer(start: start, count: Int(truncatingIfNeeded: flags & 0x0000_FFFF_FFFF_FFFF)))
  }

  @inline(never)
  private static func slow<T>(_ p: UnsafePointer<String>, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    var copy = p.pointee
    return copy.withUTF8(body)
  }
}
