import Sift

/// One JSON Lines request: `{"id": …, "format": "…", "args": […], …}`.
struct JSONLinesRequest {
  var id: SiftValue
  /// The id exactly as written when it is a number, so that ids beyond `Int` (which read
  /// as doubles) and spellings like `1e2` or `2.50` are echoed without change.
  var idText: String?
  var format: String
  var args: [SiftValue]
  var object: SiftValue
  var variables: [String: SiftValue]

  /// A line that is not a usable request, already rendered as its error record.
  struct Failure: Error {
    var record: String
  }

  /// The error record for a line over `--max-line-bytes`: stage "input", as for any line
  /// that is not a request, at the first byte past the limit (the id was not read).
  static func tooLongRecord(_ long: LineReader.LongLine) -> String {
    var record = JSONRecord()
    record.add("id", .null)
    record.addError(stage: "input", message: long.message, offset: long.limit)
    return record.text
  }

  static func read(_ line: UnsafeBufferPointer<UInt8>) -> Result<JSONLinesRequest, Failure> {
    func failure(_ id: SiftValue, _ idText: String?, _ message: String, _ offset: Int)
      -> Result<JSONLinesRequest, Failure>
    {
      var record = JSONRecord()
      record.add("id", id, text: idText)
      record.addError(stage: "input", message: message, offset: offset)
      return .failure(Failure(record: record.text))
    }
    let value: SiftValue
    let ranges: [String: Range<Int>]
    do {
      (value, ranges) = try SiftValue.readWithMemberRanges(json: line)
    } catch {
      return failure(.null, nil, "line is not valid JSON: \(error.message)", error.offset)
    }
    guard case .dictionary(let fields) = value else {
      return failure(.null, nil, "line is not a JSON object", 0)
    }
    let id = fields["id"] ?? .null
    var idText: String? = nil
    switch id {
    case .int, .double:
      if let range = ranges["id"] {
        idText = String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self)
      }
    default: break
    }
    guard case .string(let format)? = fields["format"] else {
      return failure(id, idText, "line has no string \"format\"", 0)
    }
    var args: [SiftValue] = []
    switch fields["args"] {
    case nil, .null?: break
    case .array(let a)?: args = a
    default: return failure(id, idText, "\"args\" must be an array", 0)
    }
    var variables: [String: SiftValue] = [:]
    switch fields["variables"] {
    case nil, .null?: break
    case .dictionary(let v)?: variables = v
    default: return failure(id, idText, "\"variables\" must be an object", 0)
    }
    return .success(
      JSONLinesRequest(
        id: id, idText: idText, format: format, args: args, object: fields["object"] ?? .null,
        variables: variables))
  }
}

/// Builds one output line: `{"id": 1, "canonical": "…"}`, fields in insertion order.
struct JSONRecord {
  private var fields: [String] = []

  /// Adds `"key": value`; `text`, when given, is the value's JSON text as it was read.
  mutating func add(_ key: String, _ value: SiftValue, text: String? = nil) {
    var out = ""
    JSONWriter.writeString(key, to: &out)
    out += ": "
    if let text {
      out += text
    } else {
      JSONWriter.write(value, to: &out)
    }
    fields.append(out)
  }

  mutating func addError(stage: String, message: String, offset: Int) {
    var out = "\"error\": {\"stage\": "
    JSONWriter.writeString(stage, to: &out)
    out += ", \"message\": "
    JSONWriter.writeString(message, to: &out)
    out += ", \"offset\": \(offset)}"
    fields.append(out)
  }

  var text: String { "{" + fields.joined(separator: ", ") + "}" }
}

/// The arguments `explain`, `format` and `check` share: `--help`, `--args JSON_ARRAY`, `--`
/// and one positional argument (a predicate or a file), read in order; and
/// `--max-line-bytes N` for the commands that read lines.
struct SimpleArguments {
  var wantsHelp = false
  var argsJSON: [UInt8]?
  var positional: CommandLineArgument?
  /// `--max-line-bytes N`, when given.
  var maxLineBytes: Int?

  /// Reads `arguments`; `tooMany` is the message for a second positional argument.
  /// `readsLines` accepts `--max-line-bytes`.
  init(_ arguments: [CommandLineArgument], command: String, tooMany: String, readsLines: Bool = false)
    throws(UsageError)
  {
    var rest = arguments[...]
    var onlyOperands = false
    func operand(_ raw: CommandLineArgument) throws(UsageError) {
      guard positional == nil else { throw UsageError(message: tooMany) }
      positional = raw
    }
    while let raw = rest.popFirst() {
      if onlyOperands {
        try operand(raw)
        continue
      }
      switch raw.text {
      case "--help", "-h":
        wantsHelp = true
        return
      case "--args":
        guard let value = rest.popFirst() else { throw UsageError(message: "--args needs a JSON array") }
        argsJSON = value.bytes
      case "--max-line-bytes" where readsLines:
        maxLineBytes = try CLIArguments.maxLineBytes(rest.popFirst())
      case "--":
        // What follows is the operand even when it looks like an option (`-1 < x`).
        onlyOperands = true
      default:
        if raw.text.hasPrefix("--") { throw UsageError(message: "unknown option \(raw.text) for sift \(command)") }
        try operand(raw)
      }
    }
  }
}

enum CLIArguments {
  /// `--max-line-bytes N`: a number of bytes from 1 to ``LineReader/largestMaxLineBytes``.
  static func maxLineBytes(_ value: CommandLineArgument?) throws(UsageError) -> Int {
    guard let value else { throw UsageError(message: "--max-line-bytes needs a number of bytes") }
    guard let n = Int(value.text), (1...LineReader.largestMaxLineBytes).contains(n) else {
      throw UsageError(
        message: "--max-line-bytes takes a number of bytes from 1 to \(LineReader.largestMaxLineBytes) "
          + "(got '\(value.text)')")
    }
    return n
  }

  /// `--args '[1, "a"]'`.
  static func parseArray(_ json: [UInt8]?) throws(UsageError) -> [SiftValue] {
    guard let json else { return [] }
    let value: SiftValue
    do {
      value = try json.withUnsafeBufferPointer { bytes throws(JSONError) in try SiftValue(json: bytes) }
    } catch {
      throw UsageError(message: "--args is not valid JSON: \(error)")
    }
    guard case .array(let values) = value else { throw UsageError(message: "--args must be a JSON array") }
    return values
  }

  /// `--vars '{"x": 1}'`.
  static func parseObject(_ json: [UInt8]?, option: String) throws(UsageError) -> [String: SiftValue] {
    guard let json else { return [:] }
    let value: SiftValue
    do {
      value = try json.withUnsafeBufferPointer { bytes throws(JSONError) in try SiftValue(json: bytes) }
    } catch {
      throw UsageError(message: "\(option) is not valid JSON: \(error)")
    }
    guard case .dictionary(let fields) = value else { throw UsageError(message: "\(option) must be a JSON object") }
    return fields
  }
}

/// The JSON Lines loop shared by `sift parse --jsonl` and `sift cases`: one answer line
/// per input line, in order, until the input ends or the reader of the output goes away.
/// Each answer is written out before a read that would wait, so a caller that sends one
/// request and waits for its answer gets it.
enum JSONLinesStream {
  static func answerEachLine(
    command: String, maxLineBytes: Int, _ answer: (UnsafeBufferPointer<UInt8>) -> String
  ) -> ExitCode {
    var reader = LineReader(fd: 0, maxLineBytes: maxLineBytes)
    let ok = reader.forEachItem(writingOut: [Console.out]) { item in
      switch item {
      case .line(let line): Console.out.writeLine(answer(line.bytes))
      case .tooLong(let long): Console.out.writeLine(JSONLinesRequest.tooLongRecord(long))
      }
      return !Console.out.closed
    }
    Console.out.flush()
    if !ok { Console.error("sift \(command): error reading standard input") }
    return ok ? .success : .failure
  }
}
