import Sift
import SiftCommandLine

enum JSONLinesFuzzing {
  /// Input: one byte that sets the reader's block size and read sizes, then the stream. The
  /// reader must hand out exactly the lines a plain split finds, and `sift cases` must
  /// answer each with one JSON object. Read again with a line limit of a few bytes (from
  /// the same shape byte), the reader must find the same lines, each one over the limit
  /// handed out as too long with its number.
  static func cases(_ bytes: [UInt8]) {
    guard let shape = bytes.first else { return }
    let stream = Array(bytes.dropFirst())
    let blockSize = Int(shape & 0x0F) + 1
    let pieceSize = Int(shape >> 4) + 1
    let expected = splitLines(stream)
    let limit = Int(shape % 23)
    let limited = read(stream, blockSize: blockSize, pieceSize: pieceSize, maxLineBytes: limit)
    let expectedLimited = expected.enumerated().map { k, line in
      line.count > limit ? .tooLong(number: k + 1) : ReadLine.line(line)
    }
    guard limited == expectedLimited else {
      violated("a limited reader finds the lines a plain split finds, long ones as too long", "limit \(limit)")
    }
    var offset = 0
    var reader = LineReader(blockSize: blockSize) { buffer, count in
      let n = min(count, pieceSize, stream.count - offset)
      stream.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
      offset += n
      return n
    }
    var lines: [[UInt8]] = []
    let ok = reader.forEachItem(
      { item in
        guard case .line(let whole) = item else { violated("no line of a short stream is too long", "") }
        let line = whole.bytes
        let number = whole.number
        guard number == lines.count + 1 else { violated("line numbers count from 1", "\(number)") }
        lines.append(Array(line))
        let answer = CasesCommand.answer(line)
        guard case .dictionary(let record)? = try? SiftValue(json: answer), record["id"] != nil else {
          violated("each answer is a JSON object with an id", answer)
        }
        guard !answer.utf8.contains(UInt8(ascii: "\n")) else { violated("each answer is one line", answer) }
        return true
      }, beforeRead: { _ in })
    guard ok else { violated("reading from memory does not fail", "") }
    guard lines == expected else {
      violated("the reader finds the lines a plain split finds", "\(lines.count) lines vs \(expected.count)")
    }
  }

  /// Input: predicate, 0, JSON argument array (empty for none), 0, a JSON Lines stream.
  /// Each line's outcome from `sift filter`'s evaluator must be the library's on
  /// `SiftValue(json:)` of the line: the same result, or an error on both sides (invalid
  /// JSON included). The arguments reach keys no predicate text can spell, such as a `%K`
  /// holding a NUL.
  static func filter(_ bytes: [UInt8]) {
    let input = parts(bytes, 3)
    let format = String(decoding: input[0], as: UTF8.self)
    var arguments: [SiftValue] = []
    if !input[1].isEmpty {
      guard case .array(let values)? = try? SiftValue(json: String(decoding: input[1], as: UTF8.self)) else { return }
      arguments = values
    }
    guard let library = try? SiftPredicate(format: format, arguments: arguments),
      !Determinism.isNondeterministic(library.syntax),
      let evaluator = try? LineEvaluator(syntax: library.syntax, format: format, apns: false, variables: [:])
    else { return }
    let stream = Array(input[2])
    var offset = 0
    var reader = LineReader(blockSize: 64, padding: 64) { buffer, count in
      let n = min(count, stream.count - offset)
      stream.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
      offset += n
      return n
    }
    _ = reader.forEachItem(
      { item in
        guard case .line(let line) = item else { violated("no line of a short stream is too long", "") }
        let fast = evaluator.decide(line.bytes, readable: line.readable)
        let expected: Result<Bool, EvaluationError>?
        if let value = try? SiftValue(json: line.bytes) {
          expected = Result { () throws(EvaluationError) in try library.evaluate(with: value) }
        } else {
          expected = nil
        }
        switch (fast, expected) {
        case (.match, .success(true)?), (.noMatch, .success(false)?), (.error, .failure?), (.error, nil): return true
        default:
          violated(
            "sift filter decides as the library",
            "\(format) on \(String(decoding: line.bytes, as: UTF8.self)): "
              + "filter \(fast), library \(expected.map { "\($0)" } ?? "invalid JSON")")
        }
      }, beforeRead: { _ in })
  }

  /// What a reader handed out, as values to compare.
  enum ReadLine: Equatable {
    case line([UInt8])
    case tooLong(number: Int)
  }

  /// Everything a reader with `maxLineBytes` hands out for `stream`, fed in pieces.
  static func read(_ stream: [UInt8], blockSize: Int, pieceSize: Int, maxLineBytes: Int) -> [ReadLine] {
    var offset = 0
    var reader = LineReader(blockSize: blockSize, maxLineBytes: maxLineBytes) { buffer, count in
      let n = min(count, pieceSize, stream.count - offset)
      stream.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
      offset += n
      return n
    }
    var items: [ReadLine] = []
    let ok = reader.forEachItem(
      { item in
        switch item {
        case .line(let line):
          guard line.bytes.count <= maxLineBytes else { violated("a line handed out is within the limit", "") }
          items.append(.line(Array(line.bytes)))
        case .tooLong(let long):
          guard long.limit == maxLineBytes else { violated("a long line carries the limit", "\(long.limit)") }
          items.append(.tooLong(number: long.number))
        }
        return true
      }, beforeRead: { _ in })
    guard ok else { violated("reading from memory does not fail", "") }
    return items
  }

  /// Lines as the README defines them: split at `\n`, one `\r` before it dropped, a last
  /// line without a newline kept, nothing after a final newline.
  static func splitLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    if bytes.last == UInt8(ascii: "\n") || bytes.isEmpty { lines.removeLast() }
    return lines.map { $0.last == UInt8(ascii: "\r") ? Array($0.dropLast()) : $0 }
  }
}
