// Unicode folding for the `[c]` and `[d]` string options.
//
// Definition (per Unicode scalar, then canonical order):
//   [c]  full case folding and width folding, as Foundation's `folding([.caseInsensitive,
//        .widthInsensitive])` does for that scalar ("ß" -> "ss", "İ" -> "i" + U+0307, "Ａ" -> "a"),
//        then canonical decomposition (NFD);
//   [d]  width folding, canonical decomposition, then removal of nonspacing and enclosing marks
//        (general categories Mn, Me): "Résumé" -> "Resume", "ｶﾞ" -> "カ";
//   [cd] [d], then [c], then marks removed again;
// and the concatenation is put in canonical order (NFD), so precomposed and decomposed input fold to
// the same bytes. Foundation's own whole-string `folding` is not used as the definition because its
// [d] is context-dependent (it strips marks only after Latin, Greek and Cyrillic letters and keeps a
// leading mark), which no per-scalar cache can reproduce; on ordinary text the two agree (tested).
//
// Calling Foundation costs microseconds, so folding goes through a per-scalar table *computed from
// Foundation and the standard library's Unicode properties*, lazily, one 256-scalar page at a time
// (no hand-written Unicode data). Each entry keeps the canonical combining classes of its first and
// last output scalar; when a string's folded marks would need canonical reordering (rare: only [c]
// keeps marks), the concatenation is normalised by Foundation instead.

import Foundation
import Synchronization

/// The folding that a set of comparison options asks for: `[c]`, `[d]`, both, or none.
/// `[n]` and `[l]` do not change results.
enum FoldMode: UInt8, Sendable, Hashable {
  case none = 0
  case caseInsensitive = 1
  case diacriticInsensitive = 2
  case caseAndDiacriticInsensitive = 3

  @inline(__always)
  init(_ options: ComparisonOptions) {
    var raw: UInt8 = 0
    if options.contains(.caseInsensitive) { raw |= 1 }
    if options.contains(.diacriticInsensitive) { raw |= 2 }
    self = FoldMode(rawValue: raw)!
  }

  /// Whether ASCII letters fold to lowercase.
  @inline(__always) var lowersASCII: Bool { rawValue & 1 != 0 }
  /// Whether this is a folding mode at all.
  @inline(__always) var folds: Bool { rawValue != 0 }
}

enum UnicodeFolding {
  // MARK: Reference definition

  /// Whether `scalar` is removed by [d]: a nonspacing or enclosing mark.
  static func isRemovedMark(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x300 { return false }
    let category = scalar.properties.generalCategory
    return category == .nonspacingMark || category == .enclosingMark
  }

  /// The fold of each string in `strings`, each of which must be one scalar (the definition above,
  /// before canonical ordering). Calls Foundation once for the lot.
  static func foldScalars(_ strings: [String], _ mode: FoldMode) -> [String] {
    func removeMarks(_ s: String) -> String {
      var v = String.UnicodeScalarView()
      v.append(contentsOf: s.unicodeScalars.lazy.filter { !isRemovedMark($0) })
      return String(v)
    }
    func nfd(_ list: [String]) -> [String] {
      batch(list) { $0.decomposedStringWithCanonicalMapping }
    }
    func foundation(_ list: [String], _ options: String.CompareOptions) -> [String] {
      batch(list) { $0.folding(options: options, locale: nil) }
    }
    switch mode {
    case .none:
      return strings
    case .caseInsensitive:
      return nfd(foundation(strings, [.caseInsensitive, .widthInsensitive]))
    case .diacriticInsensitive:
      return nfd(foundation(strings, [.widthInsensitive])).map(removeMarks)
    case .caseAndDiacriticInsensitive:
      let stripped = nfd(foundation(strings, [.widthInsensitive])).map(removeMarks)
      return nfd(foundation(stripped, [.caseInsensitive, .widthInsensitive])).map(removeMarks)
    }
  }

  /// Applies `transform` to every string at once, joined by line feeds; per string if the line
  /// feeds did not survive one for one.
  private static func batch(_ list: [String], _ transform: (String) -> String) -> [String] {
    let joined = list.joined(separator: "\n") + "\n"
    var pieces = transform(joined).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if pieces.last?.isEmpty == true { pieces.removeLast() }
    if pieces.count == list.count { return pieces }
    return list.map(transform)
  }

  /// The fold of `s` straight from the definition (slow; tests compare the table against it).
  static func referenceFold(_ s: String, _ mode: FoldMode) -> String {
    guard mode.folds else { return s }
    return foldScalars(s.unicodeScalars.map { String($0) }, mode).joined().decomposedStringWithCanonicalMapping
  }

  // MARK: Folding strings

  /// The folded form of `s` (identity for `.none`).
  static func fold(_ s: String, _ mode: FoldMode) -> String {
    guard mode.folds else { return s }
    return withUTF8Bytes(s) { bytes -> String in
      if ASCIIBytes.isASCII(bytes) {
        guard mode.lowersASCII, bytes.count > 0 else { return s }
        return String(unsafeUninitializedCapacity: bytes.count) { out in
          for i in 0..<bytes.count { out[i] = ASCIIBytes.lower(bytes[i]) }
          return bytes.count
        }
      }
      return withFolded(bytes, mode) { String(decoding: $0, as: UTF8.self) }
    }
  }

  /// Calls `body` with the folded UTF-8 of `bytes` (`mode` must fold). Folds into a stack buffer
  /// through the table, allocation-free once the pages involved exist; only folded marks that need
  /// canonical reordering (or a buffer too small) take the slower heap + Foundation path.
  @inline(__always)
  static func withFolded<R>(
    _ bytes: UnsafeBufferPointer<UInt8>, _ mode: FoldMode, _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    let capacity = bytes.count &* 3 &+ 16
    let viaTable: R? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> R? in
      guard let count = tableFold(bytes, mode, into: buffer.baseAddress!, capacity: capacity) else {
        return nil
      }
      return body(UnsafeBufferPointer(start: buffer.baseAddress!, count: count))
    }
    if let viaTable { return viaTable }
    return reorderingFallback(bytes, mode, body)
  }

  /// The table fold when marks need canonical reordering or the stack buffer was too small:
  /// concatenate the entries into a heap buffer, then let Foundation put the marks in order.
  @inline(never)
  static func reorderingFallback<R>(
    _ bytes: UnsafeBufferPointer<UInt8>, _ mode: FoldMode, _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    var capacity = bytes.count &* 4 &+ 16
    while true {
      let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
      defer { buffer.deallocate() }
      if let count = tableFold(bytes, mode, into: buffer, capacity: capacity, canonicalOrderOnly: false) {
        let concatenated = String(decoding: UnsafeBufferPointer(start: buffer, count: count), as: UTF8.self)
        var folded = concatenated.decomposedStringWithCanonicalMapping
        return folded.withUTF8 { body($0) }
      }
      capacity &*= 4
    }
  }

  /// Folds valid UTF-8 through the table. Returns the folded length, or nil when `capacity` is too
  /// small or (with `canonicalOrderOnly`) the folded marks would need canonical reordering.
  static func tableFold(
    _ source: UnsafeBufferPointer<UInt8>, _ mode: FoldMode, into out: UnsafeMutablePointer<UInt8>,
    capacity: Int, canonicalOrderOnly: Bool = true
  ) -> Int? {
    let n = source.count
    guard n > 0 else { return 0 }
    let s = source.baseAddress!
    let lowering = mode.lowersASCII
    let slots = FoldPageTable.shared.slots + (Int(mode.rawValue) &- 1) &* FoldPageTable.pagesPerMode
    var i = 0
    var o = 0
    var lastCCC: UInt64 = 0
    var pageIndex = -1
    var page = UnsafePointer<UInt64>(bitPattern: 8)!
    while i < n {
      // ASCII, 8 bytes at a time: the ASCII head of the word is copied (lowered) in one store.
      if i &+ 8 <= n && o &+ 8 <= capacity {
        let w = SWAR.load(s, i)
        let high = w & SWAR.highs
        let ascii = high == 0 ? 8 : high.trailingZeroBitCount &>> 3
        if ascii > 0 {
          let lowered = lowering ? SWAR.lower(w) : w
          UnsafeMutableRawPointer(out + o).storeBytes(of: lowered.littleEndian, as: UInt64.self)
          i &+= ascii
          o &+= ascii
          lastCCC = 0
          continue
        }
      }
      let b = s[i]
      if b < 0x80 {
        if o >= capacity { return nil }
        out[o] = lowering ? ASCIIBytes.lower(b) : b
        o &+= 1
        i &+= 1
        lastCCC = 0
        continue
      }
      let (v, length) = decode(s, i, b)
      let pi = Int(v &>> 8)
      if pi != pageIndex {
        var raw = slots[pi].load(ordering: .acquiring)
        if raw == 0 { raw = FoldPageTable.buildPage(pi, mode, slot: slots + pi) }
        page = UnsafePointer(bitPattern: raw)!
        pageIndex = pi
      }
      let e = page[Int(v & 0xFF)]
      let l = Int((e &>> 32) & 0xFF)
      if l > 0 {
        let first = (e &>> 40) & 0xFF
        if first != 0 && first < lastCCC && canonicalOrderOnly { return nil }  // marks need reordering
        if o &+ l > capacity { return nil }
        let from = UnsafeRawPointer(page + 256) + Int(e & 0xFFFF_FFFF)
        if l <= 8 && o &+ 8 <= capacity {
          // Pages keep 8 bytes of slack after their last entry, so this load stays inside.
          UnsafeMutableRawPointer(out + o).storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
        } else {
          (out + o).update(from: from.assumingMemoryBound(to: UInt8.self), count: l)
        }
        o &+= l
        lastCCC = (e &>> 48) & 0xFF
      }
      i &+= length
    }
    return o
  }

  // MARK: Scalars and character boundaries

  /// Decodes the scalar whose lead byte `b` is at `p[i]` (valid UTF-8, b >= 0x80).
  @inline(__always)
  static func decode(_ p: UnsafePointer<UInt8>, _ i: Int, _ b: UInt8) -> (UInt32, Int) {
    if b < 0xE0 {
      return ((UInt32(b & 0x1F) &<< 6) | UInt32(p[i &+ 1] & 0x3F), 2)
    }
    if b < 0xF0 {
      return ((UInt32(b & 0x0F) &<< 12) | (UInt32(p[i &+ 1] & 0x3F) &<< 6) | UInt32(p[i &+ 2] & 0x3F), 3)
    }
    return (
      (UInt32(b & 0x07) &<< 18) | (UInt32(p[i &+ 1] & 0x3F) &<< 12) | (UInt32(p[i &+ 2] & 0x3F) &<< 6)
        | UInt32(p[i &+ 3] & 0x3F), 4
    )
  }

  /// The byte length of the scalar whose lead byte is `b`.
  @inline(__always)
  static func scalarLength(_ b: UInt8) -> Int {
    b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
  }

  /// Whether scalar `v` continues the character before it rather than starting one: combining and
  /// enclosing marks and other grapheme extenders, spacing marks, ZWJ, emoji modifiers, and Hangul
  /// medial/final jamo (what canonical decomposition turns a syllable's tail into).
  /// With `[c]`/`[d]`, a match must not end just before such a scalar: "Café" does not
  /// BEGINSWITH[c] "Cafe", although the decomposed fold of "Café" starts with the bytes of "cafe".
  static func continuesCharacter(_ v: UInt32) -> Bool {
    if v < 0x300 { return false }
    if v == 0x200D { return true }
    if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return true }
    guard let scalar = Unicode.Scalar(v) else { return false }
    let p = scalar.properties
    return p.isGraphemeExtend || p.generalCategory == .spacingMark || p.isEmojiModifier
  }

  /// Whether a character (an extended grapheme cluster, the unit `[c]`/`[d]` compare in)
  /// starts at byte `i` of `b`, or `i` is an end. The standard library's grapheme breaker
  /// decides, run from the nearest earlier point where a break is certain; before this,
  /// a scalar plus its extenders stood in for a character, and the differential fuzz target
  /// found where they differ (`'\n\u{301}' LIKE[c] '?'`: a mark after a control stands alone).
  static func isBoundary(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
    if i <= 0 || i >= b.count { return true }
    // ASCII text breaks between any two scalars except CR LF.
    if b[i] < 0x80 && b[i &- 1] < 0x80 { return !(b[i] == 0x0A && b[i &- 1] == 0x0D) }
    // A break is certain before an ASCII byte other than LF that follows an ASCII byte: no
    // ASCII scalar extends, prepends or joins.
    var k = i &- 1
    while k > 0 && !(b[k] < 0x80 && b[k] != 0x0A && b[k &- 1] < 0x80) { k &-= 1 }
    var recognizer = Unicode._CharacterRecognizer()
    var j = k
    while j < b.count {
      let (scalar, length) = Self.scalar(b, j)
      let breaks = recognizer.hasBreak(before: scalar)
      if j == i { return breaks }
      if j > i { return true }
      j &+= length
    }
    return true
  }

  /// The end of the unit that starts at `i` (a character boundary): one scalar, or with
  /// `clusters` one character (extended grapheme cluster).
  @inline(__always)
  static func unitEnd(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, clusters: Bool) -> Int {
    let j = i &+ scalarLength(b[i])
    if !clusters { return j }
    // ASCII followed by ASCII is one character, except CR LF.
    if b[i] < 0x80 && (j == b.count || (b[j] < 0x80 && !(b[i] == 0x0D && b[j] == 0x0A))) { return j }
    return clusterEnd(b, i)
  }

  @inline(never)
  private static func clusterEnd(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
    var recognizer = Unicode._CharacterRecognizer()
    var j = i
    var first = true
    while j < b.count {
      let (scalar, length) = Self.scalar(b, j)
      if recognizer.hasBreak(before: scalar) && !first { return j }
      first = false
      j &+= length
    }
    return j
  }

  /// The scalar at byte `i` of valid UTF-8 and its length.
  @inline(__always)
  private static func scalar(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Unicode.Scalar, Int) {
    let lead = b[i]
    if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
    let (v, length) = decode(b.baseAddress!, i, lead)
    return (Unicode.Scalar(v) ?? "\u{FFFD}", length)
  }
}

/// The lazily filled per-scalar fold table: for each of the three folding modes, one atomic slot
/// per 256-scalar page (0x1100 pages cover U+0000...U+10FFFF). A slot holds 0 until its page is
/// built, then the address of an immutable, never freed page.
///
/// Page layout: 256 `UInt64` entries, then the folded bytes. Entry bits: 0..<32 byte offset,
/// 32..<40 length, 40..<48 canonical combining class of the first folded scalar, 48..<56 that of
/// the last. Entries for ASCII and surrogate code points are unused.
final class FoldPageTable: @unchecked Sendable {
  static let pagesPerMode = 0x1100
  static let shared = FoldPageTable()

  let slots: UnsafeMutablePointer<Atomic<UInt>>

  private init() {
    let count = 3 * Self.pagesPerMode
    slots = .allocate(capacity: count)
    for i in 0..<count { (slots + i).initialize(to: Atomic(0)) }
  }

  /// Builds page `index` for `mode` and publishes it in `slot` (the first publisher wins).
  @inline(never)
  static func buildPage(_ index: Int, _ mode: FoldMode, slot: UnsafeMutablePointer<Atomic<UInt>>) -> UInt {
    var entries = [UInt64](repeating: 0, count: 256)
    var bytes: [UInt8] = []
    var scalars: [(Int, Unicode.Scalar)] = []
    for k in 0..<256 {
      let v = index << 8 | k
      guard v >= 0x80, let scalar = Unicode.Scalar(v) else { continue }
      scalars.append((k, scalar))
    }
    let folded = UnicodeFolding.foldScalars(scalars.map { String($0.1) }, mode)
    for ((k, _), piece) in zip(scalars, folded) {
      let utf8 = Array(piece.utf8)
      precondition(utf8.count < 256, "fold of U+\(String(index << 8 | k, radix: 16)) is too long")
      let first = piece.unicodeScalars.first.map { UInt64($0.properties.canonicalCombiningClass.rawValue) } ?? 0
      let last = piece.unicodeScalars.last.map { UInt64($0.properties.canonicalCombiningClass.rawValue) } ?? 0
      entries[k] = UInt64(bytes.count) | UInt64(utf8.count) << 32 | first << 40 | last << 48
      bytes.append(contentsOf: utf8)
    }
    // 8 bytes of zeroed slack after the last entry: the folding loop copies entries with 8-byte loads.
    let raw = UnsafeMutableRawPointer.allocate(byteCount: 256 * 8 + bytes.count + 8, alignment: 8)
    raw.initializeMemory(as: UInt8.self, repeating: 0, count: 256 * 8 + bytes.count + 8)
    entries.withUnsafeBytes { raw.copyMemory(from: $0.baseAddress!, byteCount: 256 * 8) }
    bytes.withUnsafeBytes { if $0.count > 0 { (raw + 256 * 8).copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
    let address = UInt(bitPattern: raw)
    let (exchanged, original) = slot[0].compareExchange(
      expected: 0, desired: address, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
    if exchanged { return address }
    raw.deallocate()
    return original
  }
}
