/// A constant string operand prepared once at compile time (already folded per options, with its
/// UTF-8 bytes and an isASCII flag), used by the VM's fast paths. Sendable, and allocation-free to
/// use: the subject is borrowed, and when it needs folding (non-ASCII with [c]/[d]) it is folded
/// into a stack buffer.
///
/// Each method gives exactly the same answer as the `StringSemantics` function with the needle as
/// the constant operand (`isEqual(to: s)` = `equal(s, text)`, `isPrefix(of: s)` =
/// `hasPrefix(s, text)`, `isSuffix(of: s)` = `hasSuffix(s, text)`, `isContained(in: s)` =
/// `contains(s, text)`).
///
/// The folded bytes are also kept as little-endian words (the first two inline), so an ASCII
/// subject is compared 8 bytes per load, with ASCII lowercasing in the register.
/// The four tests a compiled string comparison can make with a needle.
enum NeedleTest: UInt8, Sendable {
  case equal, prefix, suffix, contains

  /// The test for `==`, BEGINSWITH, ENDSWITH or CONTAINS; nil for other operators.
  init?(_ op: ComparisonOperator) {
    switch op {
    case .equal: self = .equal
    case .beginsWith: self = .prefix
    case .endsWith: self = .suffix
    case .contains: self = .contains
    default: return nil
    }
  }
}

final class StringNeedle: Sendable {
  /// The original text.
  let text: String
  /// The comparison options.
  let options: ComparisonOptions
  /// The folding that `options` asks for.
  let mode: FoldMode
  /// `text` folded per `mode` (its own bytes when `mode` is `.none`).
  let folded: [UInt8]
  /// Whether `folded` is all ASCII.
  let isASCII: Bool
  /// ASCII, and neither starting with LF nor ending with CR: only then can a match in ASCII
  /// text not split a character (CR LF is one), so the in-place searches may answer.
  let asciiFastPath: Bool
  /// `folded.count`.
  private let count: Int
  /// Whether subject bytes are lowercased before comparing (an ASCII needle under [c]).
  private let lowering: Bool
  /// `folded` as little-endian words, the last one zero-padded; kept only for needles
  /// longer than the four inline words (one allocation fewer per compile otherwise).
  private let words: [UInt64]
  /// The needle's last folded byte (candidates match their first and last byte).
  private let lastByte: UInt8
  /// The first four words (0 when absent).
  private let w0: UInt64
  private let w1: UInt64
  private let w2: UInt64
  private let w3: UInt64

  /// For `==` without folding: the needle's small-string words (``SmallStringBits``), so a
  /// small subject is compared by two words; nil otherwise.
  private let smallBits: SmallStringBits.Bits?

  /// Which test ``matches(_:)`` runs: `==`, BEGINSWITH, ENDSWITH or CONTAINS (a
  /// compiled comparison owns its needle, so the test travels with it).
  let test: NeedleTest

  init(_ text: String, options: ComparisonOptions, test: NeedleTest = .equal) {
    self.text = text
    self.options = options
    self.test = test
    let mode = FoldMode(options)
    self.mode = mode
    let folded = Array(UnicodeFolding.fold(text, mode).utf8)
    self.folded = folded
    let isASCII = folded.allSatisfy { $0 < 0x80 }
    self.isASCII = isASCII
    asciiFastPath = isASCII && folded.first != 0x0A && folded.last != 0x0D
    self.count = folded.count
    self.lowering = mode.lowersASCII && isASCII
    var words = [UInt64](repeating: 0, count: (folded.count + 7) / 8)
    for (i, b) in folded.enumerated() { words[i / 8] |= UInt64(b) << UInt64((i % 8) * 8) }
    self.words = folded.count > 32 ? words : []
    self.lastByte = folded.last ?? 0
    self.w0 = words.count > 0 ? words[0] : 0
    self.w1 = words.count > 1 ? words[1] : 0
    self.w2 = words.count > 2 ? words[2] : 0
    self.w3 = words.count > 3 ? words[3] : 0
    smallBits = test == .equal && !mode.folds ? SmallStringBits.smallBits(of: text) : nil
  }

  /// The needle's own ``test`` on `subject`. The closure only forwards the bytes, so it
  /// inlines and the caller's borrowed string needs no retain around it (a closure holding
  /// the whole test was outlined, and the string retained for the call).
  @inline(__always)
  func matches(_ subject: String) -> Bool {
    if let smallBits {
      // Equality with a short needle: a small subject is equal exactly when its words are.
      let b = SmallStringBits.bits(subject)
      if SmallStringBits.isSmall(b) { return b.0 == smallBits.0 && b.1 == smallBits.1 }
    } else if test == .equal, !mode.folds, count > 15, SmallStringBits.isAvailable,
      SmallStringBits.isSmall(SmallStringBits.bits(subject))
    {
      return false  // a small subject is shorter than the needle
    }
    return withUTF8Bytes(subject) { matches(bytes: $0) }
  }

  /// ``matches(_:)`` on a subject's UTF-8 bytes.
  func matches(bytes s: UnsafeBufferPointer<UInt8>) -> Bool {
    switch test {
    case .equal: equalBytes(s)
    case .prefix: prefixBytes(s)
    case .suffix: suffixBytes(s)
    case .contains: containedBytes(s)
    }
  }

  /// `subject ==[options] text`.
  func isEqual(to subject: String) -> Bool {
    withUTF8Bytes(subject) { s in equalBytes(s) }
  }

  /// `subject BEGINSWITH[options] text`.
  func isPrefix(of subject: String) -> Bool {
    withUTF8Bytes(subject) { s in prefixBytes(s) }
  }

  /// `subject ENDSWITH[options] text`.
  func isSuffix(of subject: String) -> Bool {
    withUTF8Bytes(subject) { s in suffixBytes(s) }
  }

  /// `subject CONTAINS[options] text`.
  func isContained(in subject: String) -> Bool {
    withUTF8Bytes(subject) { s in containedBytes(s) }
  }

  // MARK: Implementations over the subject's bytes

  /// Compares the `count` bytes of `s` at offset `o` with the needle (lowercasing the subject's
  /// ASCII letters when `lowering`); also reports whether those subject bytes were all ASCII.
  @inline(__always)
  private func region(_ s: UnsafePointer<UInt8>, _ n: Int, _ o: Int) -> (equal: Bool, ascii: Bool) {
    let m = count
    if m <= 8 {
      let w = SWAR.read(s, n, o, m)
      return ((lowering ? SWAR.lower(w) : w) == w0, w & SWAR.highs == 0)
    }
    return mediumRegion(s, n, o)
  }

  /// `region` for needles longer than 8 bytes (kept out of line so the short case inlines).
  @inline(never)
  private func mediumRegion(_ s: UnsafePointer<UInt8>, _ n: Int, _ o: Int) -> (equal: Bool, ascii: Bool) {
    let m = count
    if m <= 32 {
      let a = SWAR.load(s, o)
      var hi = a
      var diff = (lowering ? SWAR.lower(a) : a) ^ w0
      if m <= 16 {
        let b = SWAR.read(s, n, o &+ 8, m &- 8)
        hi |= b
        diff |= (lowering ? SWAR.lower(b) : b) ^ w1
      } else {
        let b = SWAR.load(s, o &+ 8)
        hi |= b
        diff |= (lowering ? SWAR.lower(b) : b) ^ w1
        if m <= 24 {
          let c = SWAR.read(s, n, o &+ 16, m &- 16)
          hi |= c
          diff |= (lowering ? SWAR.lower(c) : c) ^ w2
        } else {
          let c = SWAR.load(s, o &+ 16)
          let d = SWAR.read(s, n, o &+ 24, m &- 24)
          hi |= c | d
          diff |= ((lowering ? SWAR.lower(c) : c) ^ w2) | ((lowering ? SWAR.lower(d) : d) ^ w3)
        }
      }
      return (diff == 0, hi & SWAR.highs == 0)
    }
    return longRegion(s, n, o)
  }

  @inline(never)
  private func longRegion(_ s: UnsafePointer<UInt8>, _ n: Int, _ o: Int) -> (equal: Bool, ascii: Bool) {
    let m = count
    return words.withUnsafeBufferPointer { ws in
      var diff: UInt64 = 0
      var hi: UInt64 = 0
      var j = 0
      var k = 0
      while j &+ 8 <= m {
        let w = SWAR.load(s, o &+ j)
        hi |= w
        diff |= (lowering ? SWAR.lower(w) : w) ^ ws[k]
        j &+= 8
        k &+= 1
      }
      if j < m {
        let w = SWAR.read(s, n, o &+ j, m &- j)
        hi |= w
        diff |= (lowering ? SWAR.lower(w) : w) ^ ws[k]
      }
      return (diff == 0, hi & SWAR.highs == 0)
    }
  }

  @inline(__always)
  private func equalBytes(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = s.count
    let m = count
    if !mode.folds {
      return n == m && (m == 0 || region(s.baseAddress!, n, 0).equal)
    }
    if isASCII {
      if n == m {
        if m == 0 { return true }
        let r = region(s.baseAddress!, n, 0)
        if r.ascii { return r.equal }
      } else if ASCIIBytes.isASCII(s) {
        return false
      }
    } else if ASCIIBytes.isASCII(s) {
      return false  // an ASCII subject folds to ASCII
    }
    return slowEqual(s)
  }

  @inline(__always)
  private func prefixBytes(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    let m = count
    if m == 0 { return false }
    let n = s.count
    if !mode.folds { return n >= m && region(s.baseAddress!, n, 0).equal }
    if asciiFastPath {
      if n >= m {
        // Folding works scalar by scalar, so an ASCII head of the subject folds on its own.
        let r = region(s.baseAddress!, n, 0)
        if r.ascii {
          if !r.equal { return false }
          if n == m || s[m] < 0x80 { return true }
          // A non-ASCII scalar follows: it may be a combining mark, or vanish under [d].
        }
      } else if ASCIIBytes.isASCII(s) {
        return false
      }
    } else if !isASCII && ASCIIBytes.isASCII(s) {
      return false
    }
    return slowPrefix(s)
  }

  @inline(__always)
  private func suffixBytes(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    let m = count
    if m == 0 { return false }
    let n = s.count
    if !mode.folds { return n >= m && region(s.baseAddress!, n, n &- m).equal }
    if asciiFastPath {
      if n >= m {
        let r = region(s.baseAddress!, n, n &- m)
        if r.ascii { return r.equal }
      } else if ASCIIBytes.isASCII(s) {
        return false
      }
    } else if !isASCII && ASCIIBytes.isASCII(s) {
      return false
    }
    return slowSuffix(s)
  }

  @inline(__always)
  private func containedBytes(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    let m = count
    if m == 0 { return false }
    if !mode.folds {
      return s.count >= m && find(s.baseAddress!, s.count) { _ in true }
    }
    // One SWAR pass decides the path: an ASCII subject folds to itself (lowercased under
    // [c]), so the needle's bytes are searched in place; any other subject is folded once
    // and searched once (searching its raw bytes first cost a second search whenever the
    // subject has accents, the common case for [d]).
    let n = s.count
    if n == 0 { return false }
    if asciiFastPath, let found = findWhileASCII(s.baseAddress!, n) { return found }
    if !isASCII && ASCIIBytes.isASCII(s) { return false }
    return slowContains(s)
  }

  /// The in-place search of an ASCII needle, abandoned at the first non-ASCII byte: true or
  /// false for an ASCII subject (one pass: the ASCII check rides on the search's loads), nil
  /// as soon as a byte >= 0x80 shows the subject must be folded.
  @inline(__always)
  private func findWhileASCII(_ s: UnsafePointer<UInt8>, _ n: Int) -> Bool? {
    let m = count
    if n < m &+ 7 {
      if !ASCIIBytes.isASCII(UnsafeBufferPointer(start: s, count: n)) { return nil }
      return n >= m && find(s, n) { _ in true }
    }
    // As in `find`, with every loaded word checked for high bits first. The a-loads cover
    // [0, last + 8) and the b-loads [m - 1, n), which together cover the subject.
    let last = n &- m
    let first = SWAR.broadcast(UInt8(truncatingIfNeeded: w0))
    let final = SWAR.broadcast(lastByte)
    var i = 0
    while true {
      let a = SWAR.load(s, i)
      let b = SWAR.load(s, i &+ m &- 1)
      if (a | b) & SWAR.highs != 0 { return nil }
      var z =
        SWAR.zeroBytes((lowering ? SWAR.lower(a) : a) ^ first) & SWAR.zeroBytes((lowering ? SWAR.lower(b) : b) ^ final)
      while z != 0 {
        let q = i &+ (z.trailingZeroBitCount &>> 3)
        if q > last { break }
        if region(s, n, q).equal {
          // A match followed by a non-ASCII byte may end inside a character (a combining
          // mark after it): only the folded subject can tell.
          let e = q &+ m
          return e == n || s[e] < 0x80 ? true : nil
        }
        z &= z &- 1
      }
      if i &+ 7 >= last { return false }
      i = Swift.min(i &+ 8, last &- 7)
    }
  }

  /// Calls `accept` with each offset where the needle's bytes occur in `s` (`n >= count`), in
  /// increasing order, until it returns true. Candidates come 8 at a time from matching the first
  /// and the last byte of the needle.
  @inline(__always)
  private func find(_ s: UnsafePointer<UInt8>, _ n: Int, _ accept: (Int) -> Bool) -> Bool {
    let m = count
    let last = n &- m
    let first = SWAR.broadcast(UInt8(truncatingIfNeeded: w0))
    let final = SWAR.broadcast(lastByte)
    var i = 0
    if n >= m &+ 7 {
      // Blocks of 8 candidate positions; the last block is moved back to end at `last` (it may
      // recheck a few positions, which is harmless).
      while true {
        let a = SWAR.load(s, i)
        let b = SWAR.load(s, i &+ m &- 1)
        var z =
          SWAR.zeroBytes((lowering ? SWAR.lower(a) : a) ^ first)
          & SWAR.zeroBytes((lowering ? SWAR.lower(b) : b) ^ final)
        while z != 0 {
          let q = i &+ (z.trailingZeroBitCount &>> 3)
          if q > last { return false }
          if region(s, n, q).equal && accept(q) { return true }
          z &= z &- 1
        }
        if i &+ 7 >= last { return false }
        i = Swift.min(i &+ 8, last &- 7)
      }
    }
    let firstByte = UInt8(truncatingIfNeeded: w0)
    while i <= last {
      let b = lowering ? ASCIIBytes.lower(s[i]) : s[i]
      if b == firstByte && region(s, n, i).equal && accept(i) { return true }
      i &+= 1
    }
    return false
  }

  /// Whether the needle's bytes occur in `s` as they are (lowercasing the subject's ASCII letters
  /// when the needle is ASCII under [c]), with no character-boundary rule: the substring search that
  /// a MATCHES `.*literal.*` pattern needs.
  @inline(__always)
  func occursVerbatim(in s: UnsafeBufferPointer<UInt8>) -> Bool {
    count > 0 && s.count >= count && find(s.baseAddress!, s.count) { _ in true }
  }

  /// The offset of the first verbatim occurrence of the needle's bytes in `s`, or nil.
  func firstOffset(in s: UnsafeBufferPointer<UInt8>) -> Int? {
    guard count > 0, s.count >= count else { return nil }
    var found: Int? = nil
    _ = find(s.baseAddress!, s.count) { offset in
      found = offset
      return true
    }
    return found
  }

  // MARK: Non-ASCII subjects: fold, then the [c]/[d] definitions

  @inline(never)
  private func slowEqual(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    folded.withUnsafeBufferPointer { p in UnicodeFolding.withFolded(s, mode) { ByteOps.equal($0, p) } }
  }

  @inline(never)
  private func slowPrefix(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    folded.withUnsafeBufferPointer { p in UnicodeFolding.withFolded(s, mode) { FoldedOps.hasPrefix($0, p) } }
  }

  @inline(never)
  private func slowSuffix(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    folded.withUnsafeBufferPointer { p in UnicodeFolding.withFolded(s, mode) { FoldedOps.hasSuffix($0, p) } }
  }

  @inline(never)
  private func slowContains(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    folded.withUnsafeBufferPointer { p in UnicodeFolding.withFolded(s, mode) { FoldedOps.contains($0, p) } }
  }
}
