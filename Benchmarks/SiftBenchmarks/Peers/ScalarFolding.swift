import Foundation

/// What a hand-written matcher folds: `[c]` or `[cd]` (the workloads use no `[d]` alone).
enum FoldOptions {
  /// `[c]`: full case folding and width folding, canonical decomposition; marks kept.
  case caseInsensitive
  /// `[cd]`: as `[c]`, and nonspacing and enclosing marks removed.
  case caseAndDiacriticInsensitive

  var foundationOptions: String.CompareOptions {
    switch self {
    case .caseInsensitive: [.caseInsensitive, .widthInsensitive]
    case .caseAndDiacriticInsensitive: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]
    }
  }
}

/// The fold of each non-ASCII scalar, computed on first sight from Foundation's `folding` of
/// that one scalar, then decomposed, with marks dropped under `[cd]`; ASCII is folded inline
/// by the caller. This is what a competent engineer writes instead of calling Foundation per
/// string (1.5–3 µs): a per-scalar cache that turns folding into two loads per non-ASCII
/// scalar and allocates only while it fills. Pages of 256 scalars are allocated on demand.
///
/// Not thread-safe (it fills itself while reading); each benchmark engine owns its tables.
final class ScalarFoldTable {
  /// An entry: bit 63 set once computed; up to three folded scalars in 21-bit fields (0 means
  /// none), or, for a longer fold, `longMarker` in the first field and an index into `long`.
  typealias Entry = UInt64

  static let longMarker: UInt64 = 0x1F_FFFF
  private static let pageCount = 0x11_0000 >> 8

  let options: FoldOptions
  private let pages: UnsafeMutablePointer<UnsafeMutablePointer<Entry>?>
  /// Folds of more than three scalars (rare: a few ligatures and Greek letters with marks).
  private(set) var long: [[UInt32]] = []

  init(_ options: FoldOptions) {
    self.options = options
    pages = .allocate(capacity: Self.pageCount)
    pages.initialize(repeating: nil, count: Self.pageCount)
  }

  deinit {
    for i in 0..<Self.pageCount { pages[i]?.deallocate() }
    pages.deallocate()
  }

  /// The entry of non-ASCII scalar `value`, computing it the first time.
  @inline(__always)
  func entry(_ value: UInt32) -> Entry {
    if let page = pages[Int(value >> 8)] {
      let e = page[Int(value & 0xFF)]
      if e != 0 { return e }
    }
    return fill(value)
  }

  @inline(never)
  private func fill(_ value: UInt32) -> Entry {
    let pageIndex = Int(value >> 8)
    let page: UnsafeMutablePointer<Entry>
    if let existing = pages[pageIndex] {
      page = existing
    } else {
      page = .allocate(capacity: 256)
      page.initialize(repeating: 0, count: 256)
      pages[pageIndex] = page
    }
    let folded = Self.fold(value, options)
    var e: Entry = 1 << 63
    if folded.count <= 3 {
      for (i, s) in folded.enumerated() { e |= UInt64(s) << (21 * UInt64(i)) }
    } else {
      e |= Self.longMarker | UInt64(long.count) << 21
      long.append(folded)
    }
    page[Int(value & 0xFF)] = e
    return e
  }

  /// The definition: Foundation's fold of the one scalar, canonically decomposed, marks
  /// (general categories Mn and Me) removed under `[cd]`.
  static func fold(_ value: UInt32, _ options: FoldOptions) -> [UInt32] {
    guard let scalar = Unicode.Scalar(value) else { return [value] }
    let folded = String(Character(scalar)).folding(options: options.foundationOptions, locale: nil)
    return folded.decomposedStringWithCanonicalMapping.unicodeScalars.compactMap { s in
      if options == .caseAndDiacriticInsensitive {
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return nil
        default: break
        }
      }
      return s.value
    }
  }
}

extension ScalarFoldTable {
  /// Calls `body` with each folded scalar of `text` in order, until it returns false;
  /// returns false if `body` stopped early. Decodes the UTF-8 bytes directly (Swift strings
  /// are valid UTF-8) and lowercases ASCII inline.
  @inline(__always)
  func forEachFoldedScalar(of text: String, _ body: (UInt32) -> Bool) -> Bool {
    if let result = text.utf8.withContiguousStorageIfAvailable({ forEachFoldedScalar(of: $0, body) }) {
      return result
    }
    var copy = text  // bridged or foreign storage: never the case for these records
    return copy.withUTF8 { forEachFoldedScalar(of: $0, body) }
  }

  @inline(__always)
  func forEachFoldedScalar(of bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt32) -> Bool) -> Bool {
    guard let p = bytes.baseAddress else { return true }
    let n = bytes.count
    var i = 0
    while i < n {
      let b0 = p[i]
      if b0 < 0x80 {
        let lower = b0 &- 0x41 < 26 ? b0 | 0x20 : b0
        if !body(UInt32(lower)) { return false }
        i &+= 1
        continue
      }
      let value: UInt32
      if b0 < 0xE0 {
        value = UInt32(b0 & 0x1F) << 6 | UInt32(p[i &+ 1] & 0x3F)
        i &+= 2
      } else if b0 < 0xF0 {
        value = UInt32(b0 & 0x0F) << 12 | UInt32(p[i &+ 1] & 0x3F) << 6 | UInt32(p[i &+ 2] & 0x3F)
        i &+= 3
      } else {
        value =
          UInt32(b0 & 0x07) << 18 | UInt32(p[i &+ 1] & 0x3F) << 12 | UInt32(p[i &+ 2] & 0x3F) << 6
          | UInt32(p[i &+ 3] & 0x3F)
        i &+= 4
      }
      let e = entry(value)
      let first = UInt32(truncatingIfNeeded: e) & 0x1F_FFFF
      if UInt64(first) == Self.longMarker {
        for s in long[Int((e >> 21) & 0x1F_FFFF)] where !body(s) { return false }
        continue
      }
      if first == 0 { continue }  // folded away (a mark under [cd])
      if !body(first) { return false }
      let second = UInt32(truncatingIfNeeded: e >> 21) & 0x1F_FFFF
      if second == 0 { continue }
      if !body(second) { return false }
      let third = UInt32(truncatingIfNeeded: e >> 42) & 0x1F_FFFF
      if third != 0 && !body(third) { return false }
    }
    return true
  }
}

/// A constant folded once, searched for in folded text scalar by scalar with
/// Knuth–Morris–Pratt, so the text is folded on the fly and never copied: no allocation per
/// evaluation once the table holds the text's scalars.
final class FoldedNeedle {
  let table: ScalarFoldTable
  private let needle: UnsafeMutablePointer<UInt32>
  private let failure: UnsafeMutablePointer<Int>
  private let count: Int

  /// Folds `text` with `table`'s options (the same definition the text gets).
  init(_ text: String, table: ScalarFoldTable) {
    self.table = table
    var folded: [UInt32] = []
    _ = table.forEachFoldedScalar(of: text) { s in
      folded.append(s)
      return true
    }
    precondition(!folded.isEmpty, "an empty needle never matches; not needed here")
    count = folded.count
    needle = .allocate(capacity: count)
    needle.initialize(from: folded, count: count)
    failure = .allocate(capacity: count)
    failure[0] = 0
    var k = 0
    for i in 1..<max(count, 1) {
      while k > 0 && folded[i] != folded[k] { k = failure[k - 1] }
      if folded[i] == folded[k] { k += 1 }
      failure[i] = k
    }
  }

  deinit {
    needle.deallocate()
    failure.deallocate()
  }

  /// `text CONTAINS[…] needle`.
  @inline(__always)
  func isContained(in text: String) -> Bool {
    var j = 0
    let needle = needle
    let failure = failure
    let m = count
    let finished = table.forEachFoldedScalar(of: text) { c in
      while j > 0 && needle[j] != c { j = failure[j &- 1] }
      if needle[j] == c {
        j &+= 1
        if j == m { return false }  // found: stop
      }
      return true
    }
    return !finished
  }

  /// `text ENDSWITH[…] needle`: whether the last folded scalar completes an occurrence.
  @inline(__always)
  func isSuffix(of text: String) -> Bool {
    var j = 0
    var endsWithMatch = false
    let needle = needle
    let failure = failure
    let m = count
    _ = table.forEachFoldedScalar(of: text) { c in
      while j > 0 && needle[j] != c { j = failure[j &- 1] }
      endsWithMatch = false
      if needle[j] == c {
        j &+= 1
        if j == m {
          endsWithMatch = true
          j = failure[m &- 1]
        }
      }
      return true
    }
    return endsWithMatch
  }

  /// `text ==[…] needle`: the folded text is exactly the needle.
  @inline(__always)
  func isEqual(to text: String) -> Bool {
    var k = 0
    let needle = needle
    let m = count
    let finished = table.forEachFoldedScalar(of: text) { c in
      guard k < m && needle[k] == c else { return false }
      k &+= 1
      return true
    }
    return finished && k == m
  }
}
