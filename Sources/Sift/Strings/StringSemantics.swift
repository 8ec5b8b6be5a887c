// NSPredicate string semantics for ==, ordering, BEGINSWITH, ENDSWITH and CONTAINS, with the
// [c] and [d] options ([n] and [l] do not change results).
//
// Without [c]/[d], strings compare literally, as sequences of Unicode scalars (UTF-8 bytes):
// precomposed "é" is not "e" + U+0301, and "e\u{301}" CONTAINS "e". With [c] and/or [d], both sides
// are folded (see UnicodeFolding: full case folding and width folding for [c], diacritic removal
// for [d], canonical decomposition for both) and the folded bytes are compared; substring and
// prefix matches must then also end on a character boundary, so "Café" does not BEGINSWITH[c]
// "Cafe" (its fold is "cafe" + U+0301). An empty needle never matches CONTAINS/BEGINSWITH/ENDSWITH,
// as with NSString; neither does a needle that folds to nothing.
//
// When both operands are ASCII the work is done on the bytes (SWAR, 8 bytes a step), without
// calling Foundation or allocating.

enum StringSemantics {
  /// NSPredicate string equality: literal (Unicode scalar sequence, no normalisation: precomposed
  /// é != e+U+0301) unless [c]/[d]; [n] and [l] do not change the result.
  static func equal(_ a: String, _ b: String, _ options: ComparisonOptions) -> Bool {
    let mode = FoldMode(options)
    return withUTF8Bytes(a) { x in withUTF8Bytes(b) { y in equalBytes(x, y, mode) } }
  }

  /// Ordering for < <= > >=: by Unicode scalar values without options; with [c]/[d] on the folded
  /// forms. Returns -1, 0, 1.
  static func compare(_ a: String, _ b: String, _ options: ComparisonOptions) -> Int {
    let mode = FoldMode(options)
    return withUTF8Bytes(a) { x in withUTF8Bytes(b) { y in compareBytes(x, y, mode) } }
  }

  /// `haystack CONTAINS needle` (also `needle IN haystack` for strings).
  static func contains(_ haystack: String, _ needle: String, _ options: ComparisonOptions) -> Bool {
    let mode = FoldMode(options)
    return withUTF8Bytes(haystack) { s in withUTF8Bytes(needle) { p in containsBytes(s, p, mode) } }
  }

  /// `s BEGINSWITH prefix`.
  static func hasPrefix(_ s: String, _ prefix: String, _ options: ComparisonOptions) -> Bool {
    let mode = FoldMode(options)
    return withUTF8Bytes(s) { x in withUTF8Bytes(prefix) { p in hasPrefixBytes(x, p, mode) } }
  }

  /// `s ENDSWITH suffix`.
  static func hasSuffix(_ s: String, _ suffix: String, _ options: ComparisonOptions) -> Bool {
    let mode = FoldMode(options)
    return withUTF8Bytes(s) { x in withUTF8Bytes(suffix) { p in hasSuffixBytes(x, p, mode) } }
  }

  /// The folded form used by [c] (full case folding, e.g. "Straße" -> "strasse", and width
  /// folding), [d] (canonical decomposition, then removal of combining marks: "Résumé" -> "Resume"),
  /// both for [cd]; identity when neither c nor d is set. With [c] or [d] the result is in
  /// canonical decomposition (NFD), so "é" ==[c] "e\u{301}".
  static func fold(_ s: String, _ options: ComparisonOptions) -> String {
    UnicodeFolding.fold(s, FoldMode(options))
  }

  /// Calls `body` with the UTF-8 bytes of `fold(s, options)` without building a String: borrowed
  /// when no folding is needed, otherwise folded into a stack buffer (allocation-free for any text
  /// the fold table covers, which is all text except marks needing canonical reordering under [c]).
  /// For hashing or comparing a folded subject, e.g. against a set of folded constants.
  @inline(__always)
  static func withFoldedUTF8<R>(
    _ s: String, _ options: ComparisonOptions, _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    withUTF8Bytes(s) { bytes in withFoldedUTF8(bytes: bytes, options, body) }
  }

  /// ``withFoldedUTF8(_:_:_:)`` for a string given as its (valid) UTF-8 bytes.
  @inline(__always)
  static func withFoldedUTF8<R>(
    bytes: UnsafeBufferPointer<UInt8>, _ options: ComparisonOptions, _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    let mode = FoldMode(options)
    if !mode.folds || (!mode.lowersASCII && ASCIIBytes.isASCII(bytes)) { return body(bytes) }
    return UnicodeFolding.withFolded(bytes, mode, body)
  }

  // MARK: Byte-level implementations

  @inline(__always)
  static func equalBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, _ mode: FoldMode) -> Bool {
    if !mode.folds { return ByteOps.equal(x, y) }
    let n = x.count
    if n == y.count {
      if n == 0 { return true }
      if mode.lowersASCII {
        if let r = ASCIIBytes.equalIgnoringCase(x.baseAddress!, y.baseAddress!, n) { return r }
      } else {
        if ByteOps.memoryEqual(x.baseAddress!, y.baseAddress!, n) { return true }
        if ASCIIBytes.isASCII(x) && ASCIIBytes.isASCII(y) { return false }
      }
    } else if ASCIIBytes.isASCII(x) && ASCIIBytes.isASCII(y) {
      return false
    }
    return foldBoth(x, y, mode) { ByteOps.equal($0, $1) }
  }

  @inline(__always)
  static func compareBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, _ mode: FoldMode) -> Int {
    if !mode.folds { return ByteOps.compare(x, y) }
    if ASCIIBytes.isASCII(x) && ASCIIBytes.isASCII(y) {
      return ByteOps.compare(x, y, lowering: mode.lowersASCII)
    }
    return foldBoth(x, y, mode) { ByteOps.compare($0, $1) }
  }

  @inline(__always)
  static func hasPrefixBytes(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>, _ mode: FoldMode) -> Bool
  {
    let m = p.count
    if m == 0 { return false }
    if !mode.folds { return s.count >= m && ByteOps.memoryEqual(s.baseAddress!, p.baseAddress!, m) }
    if ASCIIBytes.isASCII(s) && ASCIIBytes.isASCII(p) && FoldedOps.keepsCRLF(p) {
      guard s.count >= m else { return false }
      if mode.lowersASCII { return ASCIIBytes.equalIgnoringCase(s.baseAddress!, p.baseAddress!, m)! }
      return ByteOps.memoryEqual(s.baseAddress!, p.baseAddress!, m)
    }
    return foldBoth(s, p, mode) { FoldedOps.hasPrefix($0, $1) }
  }

  @inline(__always)
  static func hasSuffixBytes(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>, _ mode: FoldMode) -> Bool
  {
    let m = p.count
    if m == 0 { return false }
    let n = s.count
    if !mode.folds { return n >= m && ByteOps.memoryEqual(s.baseAddress! + (n &- m), p.baseAddress!, m) }
    if ASCIIBytes.isASCII(s) && ASCIIBytes.isASCII(p) && FoldedOps.keepsCRLF(p) {
      guard n >= m else { return false }
      if mode.lowersASCII { return ASCIIBytes.equalIgnoringCase(s.baseAddress! + (n &- m), p.baseAddress!, m)! }
      return ByteOps.memoryEqual(s.baseAddress! + (n &- m), p.baseAddress!, m)
    }
    return foldBoth(s, p, mode) { FoldedOps.hasSuffix($0, $1) }
  }

  @inline(__always)
  static func containsBytes(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>, _ mode: FoldMode) -> Bool
  {
    let m = p.count
    if m == 0 { return false }
    if !mode.folds { return ByteOps.search(s, p, lowering: false) { _ in true } }
    if ASCIIBytes.isASCII(s) && ASCIIBytes.isASCII(p) && FoldedOps.keepsCRLF(p) {
      if !mode.lowersASCII { return ByteOps.search(s, p, lowering: false) { _ in true } }
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: m) { lowered in
        for i in 0..<m { lowered[i] = ASCIIBytes.lower(p[i]) }
        return ByteOps.search(s, UnsafeBufferPointer(lowered), lowering: true) { _ in true }
      }
    }
    return foldBoth(s, p, mode) { FoldedOps.contains($0, $1) }
  }

  @inline(__always)
  static func foldBoth<R>(
    _ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, _ mode: FoldMode,
    _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    UnicodeFolding.withFolded(x, mode) { fx in UnicodeFolding.withFolded(y, mode) { fy in body(fx, fy) } }
  }
}

/// Prefix, suffix and substring tests on already folded bytes (the [c]/[d] definitions).
enum FoldedOps {
  /// Whether ASCII text can be searched for `p` byte by byte under [c]/[d]: every ASCII byte
  /// is a character except CR LF, which is one, so a needle that starts with LF or ends with
  /// CR could split it; those take the folded path, which checks boundaries.
  @inline(__always)
  static func keepsCRLF(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
    p.first != 0x0A && p.last != 0x0D
  }

  /// Whether `s` starts with the non-empty `p`, and a character boundary follows it.
  @inline(__always)
  static func hasPrefix(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
    let m = p.count
    guard m > 0, s.count >= m else { return false }
    return ByteOps.memoryEqual(s.baseAddress!, p.baseAddress!, m) && UnicodeFolding.isBoundary(s, m)
  }

  /// Whether `s` ends with the non-empty `p`, and a character boundary precedes it.
  @inline(__always)
  static func hasSuffix(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
    let m = p.count
    guard m > 0, s.count >= m else { return false }
    return ByteOps.memoryEqual(s.baseAddress! + (s.count &- m), p.baseAddress!, m)
      && UnicodeFolding.isBoundary(s, s.count &- m)
  }

  /// Whether the non-empty `p` occurs in `s` as whole characters: boundaries before and after.
  @inline(__always)
  static func contains(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
    let m = p.count
    guard m > 0 else { return false }
    return ByteOps.search(s, p, lowering: false) {
      UnicodeFolding.isBoundary(s, $0 &+ m) && UnicodeFolding.isBoundary(s, $0)
    }
  }
}
