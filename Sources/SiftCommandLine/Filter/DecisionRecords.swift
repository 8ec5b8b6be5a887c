import Sift

/// The JSON records `sift filter` writes about the lines of one input, for `--decisions`
/// and `--errors`:
///
///     {"file": "NAME", "line": N, "match": true|false}
///     {"file": "NAME", "line": N, "error": {"message": "…", "offset": N}}
///
/// without "file" for standard input, and with "file_bytes" after it for a name that is not
/// UTF-8 (``FileName/jsonMembers``). Everything up to the line number is the same for
/// every record of an input, so it is built once per input and copied; the number's digits
/// go straight into the output buffer. Escaping the name and formatting a `String` for
/// every record made `--decisions` several times slower than plain `filter`.
struct DecisionRecords {
  /// `{"file": "NAME", "line": ` (or `{"line": `).
  private let prefix: [UInt8]

  init(file: FileName?) {
    var text = "{"
    if let file { text += file.jsonMembers }
    text += "\"line\": "
    prefix = Array(text.utf8)
  }

  /// Writes the decision about line `number`, a whole line.
  func writeDecision(_ number: Int, matched: Bool, to out: some LineSink) {
    prefix.withUnsafeBufferPointer { out.write(bytes: $0) }
    out.write(decimal: number)
    let rest: StaticString = matched ? ", \"match\": true}\n" : ", \"match\": false}\n"
    out.write(rest)
    out.lineComplete()
  }

  /// The error record about line `number`, without a newline (errors are rare: text is fine).
  func errorRecord(_ number: Int, message: String, offset: Int?) -> String {
    var record = String(decoding: prefix, as: UTF8.self) + "\(number), \"error\": {\"message\": "
    JSONWriter.writeString(message, to: &record)
    if let offset { record += ", \"offset\": \(offset)" }
    record += "}}"
    return record
  }
}

/// Where whole lines of output go: standard output's buffer, or a chunk's bytes when
/// `--threads` decides chunks on several threads.
protocol LineSink {
  /// Appends part of a line.
  func write(bytes: UnsafeBufferPointer<UInt8>)
  /// Appends constant text, part of a line.
  func write(_ s: StaticString)
  /// Appends a number in decimal, part of a line.
  func write(decimal value: Int)
  /// Says that what was written so far ends a line.
  func lineComplete()
}

extension OutputBuffer: LineSink {}
