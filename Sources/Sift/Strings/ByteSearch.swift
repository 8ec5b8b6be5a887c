// Byte-level building blocks for the string operators: borrowed UTF-8 access, ASCII tests,
// SWAR (8 bytes per step) ASCII case folding, comparison and substring search.
//
// Everything here works on borrowed, valid UTF-8 and never allocates.

/// Calls `body` with the string's UTF-8 bytes, borrowed (no copy, no retain for native strings).
@inline(__always)
func withUTF8Bytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
  if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
  var copy = s  // bridged or otherwise non-contiguous storage: never happens for native strings
  return copy.withUTF8(body)
}

/// SWAR helpers over little-endian 64-bit words.
enum SWAR {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Lowercases the ASCII letters of a word. Bytes >= 0x80 come out as garbage that is still >= 0x80;
  /// in valid UTF-8 a carry from a lead byte only lands in a continuation byte, so ASCII bytes are
  /// always lowered correctly even in mixed words.
  @inline(__always)
  static func lower(_ w: UInt64) -> UInt64 {
    let upper = (w &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(w &+ 0x2525_2525_2525_2525) & highs
    return w | (upper &>> 2)
  }

  /// A word with the high bit of exactly the bytes that are zero set. Exact, not the shorter
  /// `(x - ones) & ~x & highs`, which also flags a 0x01 byte above a zero byte: `search`
  /// trusts a candidate's first byte, and the differential fuzz target found 'eDDDll…'
  /// CONTAINS[c] 'ELL' true ('d' ^ 'e' is 0x01). No carry crosses bytes here.
  @inline(__always)
  static func zeroBytes(_ x: UInt64) -> UInt64 {
    let low = 0x7F7F_7F7F_7F7F_7F7F as UInt64
    return ~(((x & low) &+ low) | x | low)
  }

  /// 8 bytes at `p + i`, unaligned.
  @inline(__always)
  static func load(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
  }

  /// `count` (0...8) bytes at `p`, zero-extended. Reads only those bytes.
  @inline(__always)
  static func loadPartial(_ p: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
    let raw = UnsafeRawPointer(p)
    switch count {
    case 8: return UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    case 4...7:
      let lo = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
      let hi = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
      return lo | (hi &<< UInt64((count &- 4) &* 8))
    case 2...3:
      let lo = UInt64(UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)))
      let hi = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)))
      return lo | (hi &<< UInt64((count &- 2) &* 8))
    case 1: return UInt64(p.pointee)
    default: return 0
    }
  }
}

extension SWAR {
  /// `count` (0...8) bytes at offset `o` of the `n`-byte buffer `p` (o + count <= n), zero-extended,
  /// using one full-width load whenever the buffer allows it.
  @inline(__always)
  static func read(_ p: UnsafePointer<UInt8>, _ n: Int, _ o: Int, _ count: Int) -> UInt64 {
    if count == 8 { return load(p, o) }
    if o &+ 8 <= n { return load(p, o) & ((1 &<< UInt64(count &* 8)) &- 1) }
    if o &+ count >= 8 { return load(p, o &+ count &- 8) &>> UInt64((8 &- count) &* 8) }
    return loadPartial(p + o, count)
  }

  /// The byte `b` in every lane.
  @inline(__always)
  static func broadcast(_ b: UInt8) -> UInt64 { UInt64(b) &* ones }
}

/// ASCII byte helpers.
enum ASCIIBytes {
  @inline(__always)
  static func lower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

  /// True when every byte is < 0x80.
  @inline(__always)
  static func isASCII(_ p: UnsafePointer<UInt8>?, _ n: Int) -> Bool {
    guard let p, n > 0 else { return true }
    var acc: UInt64 = 0
    var i = 0
    while i &+ 8 <= n {
      acc |= SWAR.load(p, i)
      i &+= 8
    }
    if i < n {
      acc |= n >= 8 ? SWAR.load(p, n &- 8) : SWAR.loadPartial(p + i, n &- i)
    }
    return acc & SWAR.highs == 0
  }

  @inline(__always)
  static func isASCII(_ b: UnsafeBufferPointer<UInt8>) -> Bool { isASCII(b.baseAddress, b.count) }

  /// Case-insensitive equality of two equally long byte runs. nil if either has a non-ASCII byte.
  @inline(__always)
  static func equalIgnoringCase(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool? {
    var hi: UInt64 = 0
    var diff: UInt64 = 0
    var i = 0
    while i &+ 8 <= n {
      let x = SWAR.load(a, i)
      let y = SWAR.load(b, i)
      hi |= x | y
      diff |= SWAR.lower(x) ^ SWAR.lower(y)
      i &+= 8
    }
    if i < n {
      let x = SWAR.loadPartial(a + i, n &- i)
      let y = SWAR.loadPartial(b + i, n &- i)
      hi |= x | y
      diff |= SWAR.lower(x) ^ SWAR.lower(y)
    }
    if hi & SWAR.highs != 0 { return nil }
    return diff == 0
  }
}

/// Comparison and search over byte buffers (raw or folded UTF-8).
enum ByteOps {
  @inline(__always)
  static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = a.count
    guard n == b.count else { return false }
    if n == 0 { return true }
    return memoryEqual(a.baseAddress!, b.baseAddress!, n)
  }

  @inline(__always)
  static func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    var diff: UInt64 = 0
    while i &+ 8 <= n {
      diff |= SWAR.load(a, i) ^ SWAR.load(b, i)
      i &+= 8
    }
    if i < n {
      diff |= SWAR.loadPartial(a + i, n &- i) ^ SWAR.loadPartial(b + i, n &- i)
    }
    return diff == 0
  }

  /// Lexicographic order of the bytes (= Unicode scalar order for UTF-8), shorter first on a tie.
  /// With `lowering`, ASCII letters are compared as lowercase (callers pass only ASCII then).
  @inline(__always)
  static func compare(
    _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, lowering: Bool = false
  ) -> Int {
    let n = Swift.min(a.count, b.count)
    if n > 0 {
      let pa = a.baseAddress!
      let pb = b.baseAddress!
      var i = 0
      while i &+ 8 <= n {
        var x = SWAR.load(pa, i)
        var y = SWAR.load(pb, i)
        if lowering {
          x = SWAR.lower(x)
          y = SWAR.lower(y)
        }
        if x != y {
          // The first differing byte is the lowest set byte of x ^ y (little endian).
          let shift = UInt64((x ^ y).trailingZeroBitCount & ~7)
          let bx = UInt8(truncatingIfNeeded: x &>> shift)
          let by = UInt8(truncatingIfNeeded: y &>> shift)
          return bx < by ? -1 : 1
        }
        i &+= 8
      }
      while i < n {
        var x = pa[i]
        var y = pb[i]
        if lowering {
          x = ASCIIBytes.lower(x)
          y = ASCIIBytes.lower(y)
        }
        if x != y { return x < y ? -1 : 1 }
        i &+= 1
      }
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
  }

  /// Calls `accept` with each position where `needle` occurs in `hay` (byte-wise; with `lowering`
  /// the haystack's ASCII letters are lowercased first and `needle` must be ASCII and lowercase),
  /// in increasing order, until `accept` returns true. Returns whether some call returned true.
  /// `needle` must not be empty.
  @inline(__always)
  static func search(
    _ hay: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, lowering: Bool,
    _ accept: (Int) -> Bool
  ) -> Bool {
    let n = hay.count
    let m = needle.count
    guard m > 0, m <= n else { return false }
    let h = hay.baseAddress!
    let p = needle.baseAddress!
    let first = UInt64(p[0]) &* SWAR.ones
    let last = n &- m  // last candidate start
    @inline(__always) func verify(_ q: Int) -> Bool {
      // Byte 0 already matched.
      if m == 1 { return true }
      var j = 1
      var diff: UInt64 = 0
      while j &+ 8 <= m {
        let w = SWAR.load(h, q &+ j)
        diff |= (lowering ? SWAR.lower(w) : w) ^ SWAR.load(p, j)
        if diff != 0 { return false }
        j &+= 8
      }
      if j < m {
        let r = m &- j
        let w: UInt64
        if q &+ m >= 8 {
          w = SWAR.load(h, q &+ m &- 8) &>> UInt64((8 &- r) &* 8)
        } else {
          w = SWAR.loadPartial(h + (q &+ j), r)
        }
        let pw = m >= 8 ? SWAR.load(p, m &- 8) &>> UInt64((8 &- r) &* 8) : SWAR.loadPartial(p + j, r)
        diff |= (lowering ? SWAR.lower(w) : w) ^ pw
      }
      return diff == 0
    }
    var i = 0
    // Candidate positions 8 at a time while a full word fits in the haystack.
    while i <= last && i &+ 8 <= n {
      let w = SWAR.load(h, i)
      var z = SWAR.zeroBytes((lowering ? SWAR.lower(w) : w) ^ first)
      while z != 0 {
        let q = i &+ (z.trailingZeroBitCount &>> 3)
        if q > last { return false }
        if verify(q) && accept(q) { return true }
        z &= z &- 1
      }
      i &+= 8
    }
    while i <= last {
      let b = lowering ? ASCIIBytes.lower(h[i]) : h[i]
      if b == p[0] && verify(i) && accept(i) { return true }
      i &+= 1
    }
    return false
  }

  /// True when the bytes contain a line terminator as PCRE2's NEWLINE_ANY (and ICU's `.`) defines
  /// it: LF, VT, FF, CR, NEL (U+0085), LS (U+2028), PS (U+2029).
  @inline(__always)
  static func hasLineTerminator(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = b.count
    guard n > 0 else { return false }
    let p = b.baseAddress!
    var flag: UInt64 = 0
    var i = 0
    let below = 0x0E0E_0E0E_0E0E_0E0E as UInt64
    while i &+ 8 <= n {
      let w = SWAR.load(p, i)
      flag |= ((w &- below) & ~w) | w
      i &+= 8
    }
    if i < n {
      // Pad with 0xFF-free non-terminator bytes ('A') so padding does not raise the flag.
      let r = n &- i
      let pad = r == 8 ? 0 : (~UInt64(0)) &<< UInt64(r &* 8)
      let w = SWAR.loadPartial(p + i, r) | (0x4141_4141_4141_4141 & pad)
      flag |= ((w &- below) & ~w) | w
    }
    if flag & SWAR.highs == 0 { return false }
    return hasLineTerminatorSlow(p, n)
  }

  /// For subjects with non-ASCII bytes: words of 8 bytes holding none of the bytes a
  /// terminator starts with (0x0A–0x0D, 0xC2, 0xE2) are skipped whole, and only from a
  /// byte that may start one is the subject read byte by byte. Read byte by byte
  /// throughout, the scan was a tenth of W3 over columns, whose subjects hold accented
  /// letters.
  @inline(never)
  static func hasLineTerminatorSlow(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    let (pairs, controlsLow, controlsHigh) = (SWAR.broadcast(0xFE), SWAR.broadcast(0x0A), SWAR.broadcast(0x0C))
    let (nel, separators) = (SWAR.broadcast(0xC2), SWAR.broadcast(0xE2))
    var i = 0
    while i < n {
      if i &+ 8 <= n {
        let w = SWAR.load(p, i)
        let starts =
          SWAR.zeroBytes((w & pairs) ^ controlsLow) | SWAR.zeroBytes((w & pairs) ^ controlsHigh)
          | SWAR.zeroBytes(w ^ nel) | SWAR.zeroBytes(w ^ separators)
        if starts == 0 {
          i &+= 8
          continue
        }
        // To the first byte that may start one.
        i &+= starts.trailingZeroBitCount &>> 3
      }
      if hasLineTerminator(startingAt: i, p, n) { return true }
      i &+= 1
    }
    return false
  }

  /// Whether a line terminator starts at `i`.
  @inline(__always)
  private static func hasLineTerminator(startingAt i: Int, _ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    let c = p[i]
    if c >= 0x0A && c <= 0x0D { return true }
    if c == 0xC2 && i &+ 1 < n && p[i &+ 1] == 0x85 { return true }
    return c == 0xE2 && i &+ 2 < n && p[i &+ 1] == 0x80 && (p[i &+ 2] == 0xA8 || p[i &+ 2] == 0xA9)
  }
}
