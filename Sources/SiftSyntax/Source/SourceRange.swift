/// A half-open range of UTF-8 byte offsets into a predicate's source text.
///
/// Offsets, not line and column, travel through the whole engine (tokens, syntax
/// nodes, bytecode, errors); line and column are computed only when rendering.
public struct SourceRange: Hashable, Sendable, CustomStringConvertible {
  /// Offset of the first byte.
  public var start: Int
  /// Offset one past the last byte.
  public var end: Int

  /// Creates a range from `start` (inclusive) to `end` (exclusive).
  public init(start: Int, end: Int) {
    self.start = start
    self.end = max(start, end)
  }

  /// An empty range at `offset`.
  public static func at(_ offset: Int) -> SourceRange { SourceRange(start: offset, end: offset) }

  /// Number of bytes covered.
  public var count: Int { end - start }

  /// The smallest range that covers both ranges.
  public func union(_ other: SourceRange) -> SourceRange {
    SourceRange(start: min(start, other.start), end: max(end, other.end))
  }

  /// `start..<end`, as printed in tree dumps and listings.
  public var description: String { "\(start)..<\(end)" }
}

/// A line and column, both 1-based; the column counts Unicode scalars.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// 1-based line number.
  public var line: Int
  /// 1-based column, in Unicode scalars from the start of the line.
  public var column: Int

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}

/// Maps byte offsets of one source text to lines and columns, for rendering only.
struct SourceText {
  let bytes: [UInt8]

  init(_ text: String) { bytes = Array(text.utf8) }

  /// The byte range of the line that contains `offset` (without its line break).
  func lineBounds(containing offset: Int) -> (number: Int, start: Int, end: Int) {
    let offset = min(max(0, offset), bytes.count)
    var number = 1
    var start = 0
    var i = 0
    while i < offset {
      if bytes[i] == UInt8(ascii: "\n") {
        number += 1
        start = i + 1
      }
      i += 1
    }
    var end = start
    while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
    // A CRLF line end leaves a carriage return that must not be echoed.
    if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return (number, start, end)
  }

  func location(of offset: Int) -> SourceLocation {
    let line = lineBounds(containing: offset)
    let clamped = min(max(offset, line.start), line.end)
    return SourceLocation(line: line.number, column: scalarCount(line.start, clamped) + 1)
  }

  /// Number of Unicode scalars that start in `from..<to` (continuation bytes are skipped).
  func scalarCount(_ from: Int, _ to: Int) -> Int {
    var n = 0
    var i = from
    while i < to {
      if bytes[i] & 0xC0 != 0x80 { n += 1 }
      i += 1
    }
    return n
  }

  func text(_ from: Int, _ to: Int) -> String {
    String(decoding: bytes[from..<to], as: UTF8.self)
  }
}
