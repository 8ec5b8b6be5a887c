#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// LIKE: whole-string wildcard match. `*` matches any run (including the empty one), `?` exactly
/// one unit, every other character is literal (regex metacharacters too); a backslash before `*`,
/// `?` or `\` makes that character literal (any other backslash is itself literal). Never a regex.
///
/// A unit is one Unicode scalar without options (`'👍' LIKE '?'`). With [c]/[d] both sides are
/// folded as for `==[c]`/`==[d]` (see `StringSemantics.fold`) and a unit is one character: a scalar
/// plus the combining marks and other extenders that follow it, so `'é' LIKE[c] '?'` holds whether
/// the é is precomposed or not.
///
/// Matching is the greedy-star algorithm with one saved backtrack position: O(n·m) worst case,
/// no recursion, no allocation (the subject is folded into a stack buffer when it needs it).
final class LikePattern: Sendable, Hashable {
  /// The pattern text.
  let pattern: String
  /// The comparison options.
  let options: ComparisonOptions
  private let mode: FoldMode
  /// The pattern's UTF-8 length, for the cost model (``Cost/like(_:patternBytes:)``).
  let patternBytes: Int
  /// The pattern as units: `Self.star`, `Self.any`, or a literal `offset << 32 | length` into `bytes`.
  private let units: [UInt64]
  /// The literal bytes (folded per `mode`).
  private let bytes: [UInt8]
  /// When every literal unit is one ASCII byte, the pattern as `head*middle…*tail` (or just `head`
  /// without a star) for the ASCII matcher: the segments' bytes one after another (`?` as 0x81),
  /// where each segment starts (plus the end), and whether there is a star. Plain stored
  /// properties, so matching copies and retains nothing.
  private let asciiBytes: [UInt8]
  private let asciiStarts: [Int]
  private let asciiKind: ASCIIKind

  private enum ASCIIKind: UInt8, Sendable, Hashable {
    case unavailable, noStar, stars
  }

  private static let star: UInt64 = .max
  private static let any: UInt64 = .max - 1
  private static let asciiAny: UInt8 = 0x81

  /// Patterns are equal when their text and options are.
  static func == (a: LikePattern, b: LikePattern) -> Bool { a.pattern == b.pattern && a.options == b.options }

  func hash(into hasher: inout Hasher) {
    hasher.combine(pattern)
    hasher.combine(options)
  }

  init(_ pattern: String, options: ComparisonOptions) {
    self.pattern = pattern
    self.options = options
    patternBytes = pattern.utf8.count
    let mode = FoldMode(options)
    self.mode = mode

    // Split into wildcards and literal runs (escapes resolved).
    enum Piece { case star, any, literal(String) }
    var pieces: [Piece] = []
    var run = String.UnicodeScalarView()
    func flush() {
      if !run.isEmpty {
        pieces.append(.literal(String(run)))
        run = String.UnicodeScalarView()
      }
    }
    let scalars = Array(pattern.unicodeScalars)
    var i = 0
    while i < scalars.count {
      let c = scalars[i]
      if c == "\\", i + 1 < scalars.count, ["*", "?", "\\"].contains(scalars[i + 1]) {
        run.append(scalars[i + 1])
        i += 2
        continue
      }
      if c == "*" {
        flush()
        if case .star = pieces.last {} else { pieces.append(.star) }  // `**` is `*`
      } else if c == "?" {
        flush()
        pieces.append(.any)
      } else {
        run.append(c)
      }
      i += 1
    }
    flush()

    var units: [UInt64] = []
    var bytes: [UInt8] = []
    for piece in pieces {
      switch piece {
      case .star: units.append(Self.star)
      case .any: units.append(Self.any)
      case .literal(let text):
        let folded = Array(UnicodeFolding.fold(text, mode).utf8)
        folded.withUnsafeBufferPointer { f in
          var j = 0
          while j < f.count {
            let e = UnicodeFolding.unitEnd(f, j, clusters: mode.folds)
            units.append(UInt64(bytes.count + j) << 32 | UInt64(e - j))
            j = e
          }
        }
        bytes.append(contentsOf: folded)
      }
    }
    self.units = units
    self.bytes = bytes
    if bytes.allSatisfy({ $0 < 0x80 }) {
      var segments: [[UInt8]] = [[]]
      for u in units {
        if u == Self.star {
          segments.append([])
        } else {
          segments[segments.count - 1].append(u == Self.any ? Self.asciiAny : bytes[Int(u >> 32)])
        }
      }
      var starts = [0]
      for segment in segments { starts.append(starts[starts.count - 1] + segment.count) }
      asciiBytes = segments.flatMap { $0 }
      asciiStarts = starts
      asciiKind = segments.count > 1 ? .stars : .noStar
    } else {
      asciiBytes = []
      asciiStarts = []
      asciiKind = .unavailable
    }
  }

  /// Whether the whole of `subject` matches the pattern.
  @inline(__always)
  func matches(_ subject: String) -> Bool {
    // Only forwards the bytes, so a borrowed subject needs no retain (as StringNeedle).
    withUTF8Bytes(subject) { matches(bytes: $0) }
  }

  /// ``matches(_:)`` on a subject's UTF-8 bytes.
  func matches(bytes s: UnsafeBufferPointer<UInt8>) -> Bool {
    // Byte units are characters in ASCII text, except that under [c]/[d] CR LF is one.
    if asciiKind != .unavailable && ASCIIBytes.isASCII(s)
      && !(mode.folds && s.count > 1 && memchr(s.baseAddress!, 0x0D, s.count - 1) != nil)
    {
      return matchASCII(s)
    }
    if !mode.folds { return matchUnits(s) }
    return UnicodeFolding.withFolded(s, mode) { matchUnits($0) }
  }

  /// ASCII subject, ASCII pattern: one byte per unit. The head must match at the start and the
  /// tail at the end; the middle segments are then found left to right, each at its leftmost
  /// position (which is optimal for `*`), so this is linear in practice and O(n·m) at worst.
  @inline(__always)
  private func matchASCII(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    let lowering = mode.lowersASCII
    return asciiBytes.withUnsafeBufferPointer { bytes in
      asciiStarts.withUnsafeBufferPointer { starts in
        let n = s.count
        let segments = starts.count &- 1
        let pat = bytes.baseAddress ?? UnsafePointer(bitPattern: 8)!
        let headCount = starts[1]
        if asciiKind == .noStar {
          return n == headCount && Self.segmentMatches(s, 0, pat, headCount, lowering)
        }
        let tailStart = starts[segments &- 1]
        let tailCount = starts[segments] &- tailStart
        guard n >= headCount &+ tailCount,
          Self.segmentMatches(s, 0, pat, headCount, lowering),
          Self.segmentMatches(s, n &- tailCount, pat + tailStart, tailCount, lowering)
        else { return false }
        var i = headCount
        let end = n &- tailCount
        var k = 1
        let sp = s.baseAddress ?? UnsafePointer(bitPattern: 8)!
        while k < segments &- 1 {
          let start = starts[k]
          let m = starts[k &+ 1] &- start
          let first = pat[start]
          let broadcast = SWAR.broadcast(first)
          while true {
            if first != Self.asciiAny && i &+ 8 <= n {
              // Skip 8 positions at a time to the next occurrence of the segment's first byte.
              let w = SWAR.load(sp, i)
              let z = SWAR.zeroBytes((lowering ? SWAR.lower(w) : w) ^ broadcast)
              if z == 0 {
                i &+= 8
                if i &+ m > end { return false }
                continue
              }
              i &+= z.trailingZeroBitCount &>> 3
            }
            if i &+ m > end { return false }
            if Self.segmentMatches(s, i, pat + start, m, lowering) { break }
            i &+= 1
          }
          i &+= m
          k &+= 1
        }
        return true
      }
    }
  }

  /// Whether the `m` pattern bytes at `p` (`asciiAny` for `?`) match `s` at `offset` (in bounds).
  @inline(__always)
  private static func segmentMatches(
    _ s: UnsafeBufferPointer<UInt8>, _ offset: Int, _ p: UnsafePointer<UInt8>, _ m: Int, _ lowering: Bool
  ) -> Bool {
    var j = 0
    while j < m {
      let u = p[j]
      if u != asciiAny {
        let c = s[offset &+ j]
        if (lowering ? ASCIIBytes.lower(c) : c) != u { return false }
      }
      j &+= 1
    }
    return true
  }

  /// General case: units are scalars (no options) or characters ([c]/[d], on the folded subject).
  private func matchUnits(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    units.withUnsafeBufferPointer { p in
      bytes.withUnsafeBufferPointer { lit in
        let n = s.count
        let m = p.count
        let clusters = mode.folds
        var i = 0
        var j = 0
        var starJ = -1
        var starI = 0
        while i < n {
          if j < m {
            let u = p[j]
            if u == Self.star {
              starJ = j
              starI = i
              j &+= 1
              continue
            }
            let e = UnicodeFolding.unitEnd(s, i, clusters: clusters)
            if u == Self.any {
              i = e
              j &+= 1
              continue
            }
            let length = Int(u & 0xFFFF_FFFF)
            if e &- i == length
              && ByteOps.memoryEqual(s.baseAddress! + i, lit.baseAddress! + Int(u >> 32), length)
            {
              i = e
              j &+= 1
              continue
            }
          }
          if starJ < 0 { return false }
          starI = UnicodeFolding.unitEnd(s, starI, clusters: clusters)
          i = starI
          j = starJ &+ 1
        }
        while j < m && p[j] == Self.star { j &+= 1 }
        return j == m
      }
    }
  }
}
