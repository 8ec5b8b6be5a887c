/// Equality of short strings by their representation. A Swift string of up to 15 UTF-8
/// bytes is usually stored inline ("small"): its two words hold the bytes, the count and
/// an ASCII flag, all determined by the bytes, so two small strings are equal byte for byte
/// exactly when their two words are. A test against a short constant (`account IN {…}`,
/// `ANY tags == 'urgent'`) then compares two words per member instead of reading the bytes.
/// Strings that are not small (built with extra capacity, bridged, longer) take the byte
/// path.
///
/// This reads the standard library's string layout (ABI-stable on 64-bit platforms: the
/// small flag is bit 61 of the second word). ``isAvailable`` checks that layout once, on
/// known strings, and every use falls back to the bytes when it does not hold. `package`:
/// SiftFocus's allow lists compare account ids the same way.
package enum SmallStringBits {
  package typealias Bits = (UInt64, UInt64)

  /// Whether the layout is the one assumed (verified on known strings), so the words of two
  /// small strings can be compared.
  package static let isAvailable: Bool = {
    #if _endian(little) && _pointerBitWidth(_64)
      guard MemoryLayout<String>.size == 16 else { return false }
      let abc = bits("abc")
      let long = bits(String(repeating: "x", count: 40))
      let accent = bits("é")
      return abc.0 == 0x63_6261 && abc.1 == 0xE300_0000_0000_0000 && accent.0 == 0xA9C3
        && accent.1 == 0xA200_0000_0000_0000 && !isSmall(long) && isSmall(bits(String(decoding: [0x61], as: UTF8.self)))
    #else
      return false
    #endif
  }()

  @inline(__always)
  package static func bits(_ s: String) -> Bits { unsafeBitCast(s, to: Bits.self) }

  @inline(__always)
  package static func isSmall(_ b: Bits) -> Bool { b.1 & (1 << 61) != 0 }

  /// The words of `text` as a small string, or nil when it is longer than 15 bytes (or the
  /// layout is not the one assumed).
  package static func smallBits(of text: String) -> Bits? {
    guard isAvailable, text.utf8.count <= 15 else { return nil }
    let own = bits(text)
    if isSmall(own) { return own }
    // Rebuilt from its bytes: a string made with spare capacity is not small.
    let b = bits(String(decoding: Array(text.utf8), as: UTF8.self))
    return isSmall(b) ? b : nil
  }
}
