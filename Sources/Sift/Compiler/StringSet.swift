#if canImport(Glibc)
  import Glibc
#endif

/// A constant set of strings for `x IN {…}` / `x IN %@`, prepared at compile time.
///
/// Up to `linearLimit` strings are scanned linearly (length check then bytes: cheaper than
/// hashing for a handful of ids): as plain UTF-8 byte arrays without options, as
/// ``StringNeedle``s with `[c]`/`[d]`. Larger sets hash the UTF-8
/// bytes into an open-addressing table; with `[c]`/`[d]` the subject is folded first.
/// Equality is NSPredicate's literal equality, so bytes (not `String ==`, which is
/// canonical equivalence) are compared.
struct StringSet: Sendable {
  static let linearLimit = 8

  let options: ComparisonOptions
  /// Small sets without folding options.
  let literals: [[UInt8]]
  /// Small sets with `[c]`/`[d]`.
  let needles: [StringNeedle]
  let entries: [[UInt8]]
  let slots: [Int32]
  let mask: Int

  init(_ strings: [String], options: ComparisonOptions) {
    self.options = options
    let folding = !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty
    if strings.count <= Self.linearLimit {
      literals = folding ? [] : strings.map { Array($0.utf8) }
      needles = folding ? strings.map { StringNeedle($0, options: options) } : []
      entries = []
      slots = []
      mask = 0
      return
    }
    literals = []
    needles = []
    var unique: [[UInt8]] = []
    var seen = Set<[UInt8]>()
    for s in strings {
      let bytes = Array((folding ? StringSemantics.fold(s, options) : s).utf8)
      if seen.insert(bytes).inserted { unique.append(bytes) }
    }
    var size = 16
    while size < unique.count * 2 { size *= 2 }
    var table = [Int32](repeating: -1, count: size)
    for (i, bytes) in unique.enumerated() {
      var slot = Int(truncatingIfNeeded: bytes.withUnsafeBufferPointer(Self.hash)) & (size - 1)
      while table[slot] >= 0 { slot = (slot + 1) & (size - 1) }
      table[slot] = Int32(i)
    }
    entries = unique
    slots = table
    mask = size - 1
  }

  var count: Int { literals.count + needles.count + entries.count }

  /// FNV-1a over the bytes; the table is built and probed in one process, so a fixed
  /// seed is fine and keeps lookups allocation-free.
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
    return h
  }

  func contains(_ s: String) -> Bool {
    if !literals.isEmpty {
      if let found = s.utf8.withContiguousStorageIfAvailable({ containsLiteral($0) }) { return found }
      var copy = s
      return copy.withUTF8 { containsLiteral($0) }
    }
    if !needles.isEmpty || entries.isEmpty {
      for needle in needles where needle.isEqual(to: s) { return true }
      return false
    }
    // Folded bytes without building a String: no allocation per lookup.
    return StringSemantics.withFoldedUTF8(s, options) { lookup($0) }
  }

  private func containsLiteral(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for literal in literals where literal.count == bytes.count {
      if literal.withUnsafeBufferPointer({ l in
        l.isEmpty || memcmp(l.baseAddress!, bytes.baseAddress!, l.count) == 0
      }) {
        return true
      }
    }
    return false
  }

  private func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
    while true {
      let i = slots[slot]
      if i < 0 { return false }
      let entry = entries[Int(i)]
      if entry.count == bytes.count, entry.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) { return true }
      slot = (slot + 1) & mask
    }
  }
}
