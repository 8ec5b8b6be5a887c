/// The 64-bit keys of the predicate index's hash tables: a string's folded UTF-8 bytes or a
/// number, hashed. Keys are only ever used to find *candidates*, which are then evaluated
/// exactly, so two different constants sharing a key (a collision) cost one extra
/// evaluation and never a wrong answer; that is why the tables keep no copy of the
/// constants themselves.
///
/// The hash is fixed (no per-process seed): a key computed at insertion is the key
/// computed at lookup, and nothing here is process-wide state.
enum PostingKey {
  /// Never a key: the tables mark empty buckets with it.
  static let empty: UInt64 = 0

  /// MurmurHash3's 64-bit finaliser: every input bit reaches every output bit, so the low
  /// bits index a table well.
  @inline(__always)
  static func mix(_ x: UInt64) -> UInt64 {
    var h = x
    h ^= h >> 33
    h &*= 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    h &*= 0xC4CE_B9FE_1A85_EC53
    h ^= h >> 33
    return h
  }

  @inline(__always)
  static func nonEmpty(_ h: UInt64) -> UInt64 { h == empty ? 1 : h }

  /// The key of the first `count` bytes at `base`, eight bytes a step.
  @inline(__always)
  static func bytes(_ base: UnsafePointer<UInt8>?, count: Int) -> UInt64 {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
    var i = 0
    if let base {
      let raw = UnsafeRawPointer(base)
      while i &+ 8 <= count {
        let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        h = ((h ^ word) &* 0x100_0000_01B3).rotatedLeft(29)
        i &+= 8
      }
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while i < count {
        tail |= UInt64(base[i]) << shift
        shift &+= 8
        i &+= 1
      }
      h = (h ^ tail) &* 0x100_0000_01B3
    }
    return nonEmpty(mix(h))
  }

  /// The key of a string under the folding of `options` (`[c]`, `[d]`; none: its bytes).
  /// Sift's string equality under those options is equality of these folded bytes
  /// (``StringSemantics``), so equal strings have equal keys.
  @inline(__always)
  static func string(_ s: String, _ options: ComparisonOptions) -> UInt64 {
    StringSemantics.withFoldedUTF8(s, options) { bytes(UnsafePointer($0.baseAddress), count: $0.count) }
  }

  /// ``string(_:_:)`` of the string whose valid UTF-8 bytes are `utf8`.
  @inline(__always)
  static func string(utf8: UnsafeBufferPointer<UInt8>, _ options: ComparisonOptions) -> UInt64 {
    StringSemantics.withFoldedUTF8(bytes: utf8, options) { bytes(UnsafePointer($0.baseAddress), count: $0.count) }
  }

  /// A number as the index compares it: ints, doubles and booleans (Sift orders and
  /// equates booleans as 0 and 1) as a double; nil for everything else and for NaN,
  /// which equals and orders against nothing.
  ///
  /// Rounding an int to the nearest double is monotonic, so an exact comparison `x >= k`
  /// implies `Double(x) >= Double(k)`, and `x == k` implies `Double(x) == Double(k)`: the
  /// index, working on doubles with inclusive bounds, never misses a predicate whose
  /// comparison holds.
  @inline(__always)
  static func number(_ v: SiftValue) -> Double? {
    switch v {
    case .int(let i): return Double(i)
    case .double(let d): return d.isNaN ? nil : d
    case .bool(let b): return b ? 1 : 0
    default: return nil
    }
  }

  /// The key of a number (from ``number(_:)``); -0.0 and 0.0 are one key.
  @inline(__always)
  static func number(_ d: Double) -> UInt64 {
    let canonical = d == 0 ? 0.0 : d
    return nonEmpty(mix(canonical.bitPattern ^ 0x6E75_6D62_6572_2121))
  }

  /// The key of `v` for an equality table: a string folded by `options`, a number, or nil
  /// for a value no string or number constant can equal (null, a date, a collection).
  @inline(__always)
  static func equality(_ v: SiftValue, _ options: ComparisonOptions) -> UInt64? {
    if case .string(let s) = v { return string(s, options) }
    return number(v).map(number)
  }
}

extension UInt64 {
  @inline(__always)
  fileprivate func rotatedLeft(_ n: UInt64) -> UInt64 { (self << n) | (self >> (64 &- n)) }
}
