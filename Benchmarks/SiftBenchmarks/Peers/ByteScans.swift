import Foundation

/// Byte-level string tests the hand-written closures use: what a competent engineer writes
/// for one predicate when the constants are ASCII. Each reads the string's UTF-8 in place
/// (`utf8.withContiguousStorageIfAvailable`: no copy, no retain) and allocates nothing.
enum ByteScans {
  /// The UTF-8 bytes of `text` in place, or a copy for a string without contiguous storage.
  @inline(__always)
  static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = text
    return copy.withUTF8(body)
  }

  /// Whether `text` has a line terminator at or after byte `start`: LF, VT, FF, CR, NEL
  /// (C2 85), LS and PS (E2 80 A8/A9). MATCHES uses ICU's rule that `.` matches none of them.
  @inline(__always)
  static func hasLineTerminator(_ p: UnsafePointer<UInt8>, _ n: Int, from start: Int = 0) -> Bool {
    var i = start
    while i < n {
      let b = p[i]
      if b &- 0x0A < 4 { return true }
      if b == 0xC2 && i &+ 1 < n && p[i &+ 1] == 0x85 { return true }
      if b == 0xE2 && i &+ 2 < n && p[i &+ 1] == 0x80 && p[i &+ 2] &- 0xA8 < 2 { return true }
      i &+= 1
    }
    return false
  }

  /// `text MATCHES '.*invoice [0-9]+.*'`: "invoice " followed by an ASCII digit somewhere, and
  /// no line terminator anywhere (the `.*` on either side cannot cross one). Candidates (bytes
  /// equal to "i") are found eight bytes at a time with the SWAR zero-byte test, then the
  /// eight bytes "invoice " are compared as one word. (1.4 times a byte-at-a-time loop here.)
  @inline(__always)
  static func containsInvoiceNumber(_ text: String) -> Bool {
    withBytes(text) { bytes in
      guard let p = bytes.baseAddress, bytes.count >= 9 else { return false }
      let n = bytes.count
      let raw = UnsafeRawPointer(p)
      let lastStart = n &- 9
      var base = 0
      while base <= lastStart {
        // Words may reach past the last start, never past the string: base + 8 <= n - 1.
        let w = raw.loadUnaligned(fromByteOffset: base, as: UInt64.self) ^ 0x6969_6969_6969_6969
        var candidates = (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080
        while candidates != 0 {
          let i = base &+ candidates.trailingZeroBitCount >> 3
          if i > lastStart { return false }
          if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == invoiceWord, p[i &+ 8] &- 0x30 < 10 {
            return !hasLineTerminator(p, n)
          }
          candidates &= candidates &- 1
        }
        base &+= 8
      }
      return false
    }
  }

  /// "invoice " as a little-endian word.
  static let invoiceWord: UInt64 = Array("invoice ".utf8).reversed().reduce(0) { $0 << 8 | UInt64($1) }

  /// `text MATCHES '.*[0-9]+.*'`: an ASCII digit somewhere and no line terminator.
  @inline(__always)
  static func containsDigit(_ text: String) -> Bool {
    withBytes(text) { bytes in
      guard let p = bytes.baseAddress else { return false }
      var digit = false
      for i in 0..<bytes.count where p[i] &- 0x30 < 10 {
        digit = true
        break
      }
      return digit && !hasLineTerminator(p, bytes.count)
    }
  }

  /// `text BEGINSWITH prefix` (no options): scalars compared exactly, which for UTF-8 is a
  /// byte prefix test (not `hasPrefix`, which compares graphemes).
  @inline(__always)
  static func hasBytePrefix(_ text: String, _ prefix: StaticString) -> Bool {
    withBytes(text) { bytes in
      let m = prefix.utf8CodeUnitCount
      guard bytes.count >= m, let p = bytes.baseAddress else { return false }
      return memcmp(p, prefix.utf8Start, m) == 0
    }
  }
}

/// `text ENDSWITH[c] suffix` for an ASCII suffix of 8 to 16 bytes: the last bytes are loaded
/// as two overlapping words, lowercased with SWAR and compared with the lowercased suffix.
/// When those bytes are not all ASCII, the answer is not a byte matter (a non-ASCII scalar
/// can fold to ASCII: "ſ" to "s"), so that rare case goes to a folding matcher.
final class CaseInsensitiveSuffix {
  private let length: Int
  private let head: UInt64
  private let tail: UInt64
  private let slowPath: FoldedNeedle

  init(_ suffix: String, table: ScalarFoldTable) {
    let bytes = Array(suffix.lowercased().utf8)
    precondition(bytes.allSatisfy { $0 < 0x80 } && (8...16).contains(bytes.count), "ASCII, 8 to 16 bytes")
    length = bytes.count
    head = Self.word(bytes[0..<8])
    tail = Self.word(bytes[(bytes.count - 8)...])
    slowPath = FoldedNeedle(suffix, table: table)
  }

  private static func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// ASCII letters to lowercase in each byte of `w` (bytes must be ASCII).
  @inline(__always)
  private static func lower8(_ w: UInt64) -> UInt64 {
    let upper = (w &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(w &+ 0x2525_2525_2525_2525) & 0x8080_8080_8080_8080
    return w | (upper >> 2)
  }

  @inline(__always)
  func matches(_ text: String) -> Bool {
    let answer: Bool? = ByteScans.withBytes(text) { bytes in
      guard let p = bytes.baseAddress else { return false }
      let n = bytes.count
      guard n >= length else {
        for i in 0..<n where p[i] >= 0x80 { return nil }
        return false
      }
      let raw = UnsafeRawPointer(p)
      let a = raw.loadUnaligned(fromByteOffset: n &- length, as: UInt64.self)
      let b = raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
      if (a | b) & 0x8080_8080_8080_8080 != 0 { return nil }
      return Self.lower8(a) == head && Self.lower8(b) == tail
    }
    return answer ?? slowPath.isSuffix(of: text)
  }
}
