import SiftCommandLine
import Testing

@testable import SiftC

/// `sift_predicate_evaluate_lines` splits a buffer in place; `sift filter` splits a stream
/// with LineReader. They must find the same lines.
@Suite struct LineSplitterTests {
  static let inputs: [String] = [
    "", "\n", "\n\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\r", "a\rb\n", "\r\n", "\r", "a\n\nb\n", "  \n\t\r\n",
    "{\"a\": 1}\n{\"a\": 2}\r\n{\"a\"", "x\r\r\n", "\n\r",
  ]

  static func byLineReader(_ text: String) -> [[UInt8]] {
    var bytes = Array(text.utf8)[...]
    var reader = LineReader(blockSize: 2) { buffer, count in
      let n = min(count, bytes.count)
      for (i, b) in bytes.prefix(n).enumerated() { buffer.storeBytes(of: b, toByteOffset: i, as: UInt8.self) }
      bytes = bytes.dropFirst(n)
      return n
    }
    var lines: [[UInt8]] = []
    _ = reader.forEachItem(
      { item in
        // No line here is over the default limit.
        if case .line(let line) = item { lines.append(Array(line.bytes)) }
        return true
      }, beforeRead: { _ in })
    return lines
  }

  static func bySplitter(_ text: String) -> [[UInt8]] {
    let bytes = Array(text.utf8)
    var lines: [[UInt8]] = []
    bytes.withUnsafeBytes { buffer in
      LineSplitter.forEachLine(buffer) { start, length in lines.append(Array(buffer[start..<start + length])) }
    }
    return lines
  }

  @Test(arguments: inputs)
  func sameLinesAsSiftFilter(_ text: String) {
    #expect(Self.bySplitter(text) == Self.byLineReader(text), "\(Array(text.utf8))")
  }
}
