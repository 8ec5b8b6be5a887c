import Sift

/// `sift parse`: check a predicate and print its canonical form, its tree, or handle a
/// JSON Lines stream of predicates.
enum ParseCommand {
  static let help = """
    usage: sift parse [--ast] [--args JSON_ARRAY] [--] 'PREDICATE'
           sift parse --jsonl [--max-line-bytes N] < predicates.jsonl

    Parses an NSPredicate format string. Prints its canonical form (exit 0), or the
    diagnostic on stderr (exit 1).

      --ast              print the syntax tree (one node per line, with byte ranges)
      --args JSON_ARRAY  values for %@, %K and numeric specifiers, in order
      --jsonl            read {"id": …, "format": "…", "args": […]} per line from stdin and
                         write {"id": …, "canonical": "…"} or {"id": …, "error": {…}} per line,
                         in order (error stage "parse", or "input" for a line that is not a
                         JSON object with a string "format"); each answer is written before
                         a read that would wait
      --max-line-bytes N with --jsonl: the longest line read, in bytes without its ending
                         (default 16777216, 16 MiB); a longer line gets an "input" error
                         record and is skipped without being held in memory
      --                 end of options: the next argument is the predicate, even when it
                         starts with '-' (sift parse -- '-1 < x')
    """

  static func run(_ arguments: [CommandLineArgument]) throws(UsageError) -> ExitCode {
    var ast = false
    var jsonl = false
    var argsJSON: [UInt8]? = nil
    var format: [UInt8]? = nil
    var maxLineBytes: Int? = nil
    var rest = arguments[...]
    var onlyOperands = false
    while let raw = rest.popFirst() {
      let arg = raw.text
      if onlyOperands {
        guard format == nil else { throw UsageError(message: "sift parse takes one predicate") }
        format = raw.bytes
        continue
      }
      switch arg {
      case "--help", "-h":
        Console.out.writeLine(help)
        return .success
      case "--ast": ast = true
      case "--jsonl": jsonl = true
      case "--max-line-bytes": maxLineBytes = try CLIArguments.maxLineBytes(rest.popFirst())
      case "--args":
        guard let value = rest.popFirst() else { throw UsageError(message: "--args needs a JSON array") }
        argsJSON = value.bytes
      case "--": onlyOperands = true
      default:
        if arg.hasPrefix("--") { throw UsageError(message: "unknown option \(arg) for sift parse") }
        guard format == nil else { throw UsageError(message: "sift parse takes one predicate") }
        format = raw.bytes
      }
    }
    if jsonl {
      guard format == nil, argsJSON == nil else {
        throw UsageError(message: "--jsonl reads predicates from stdin; give no predicate or --args")
      }
      return runJSONLines(maxLineBytes: maxLineBytes ?? LineReader.defaultMaxLineBytes)
    }
    guard maxLineBytes == nil else {
      throw UsageError(message: "--max-line-bytes limits the lines --jsonl reads; it needs --jsonl")
    }
    guard let format else { throw UsageError(message: "sift parse needs a predicate") }
    let args = try CLIArguments.parseArray(argsJSON)
    do {
      let predicate = try PredicateSyntax(parsingUTF8: format, arguments: args)
      Console.out.writeLine(ast ? predicate.treeDump : predicate.predicateFormat)
      return .success
    } catch {
      Console.error(error.description)
      return .failure
    }
  }

  static func runJSONLines(maxLineBytes: Int) -> ExitCode {
    JSONLinesStream.answerEachLine(command: "parse", maxLineBytes: maxLineBytes, answer)
  }

  /// One output record for one input line.
  static func answer(_ line: UnsafeBufferPointer<UInt8>) -> String {
    let request: JSONLinesRequest
    switch JSONLinesRequest.read(line) {
    case .success(let r): request = r
    case .failure(let failure): return failure.record
    }
    var record = JSONRecord()
    record.add("id", request.id, text: request.idText)
    do {
      let (predicate, unused) = try PredicateSyntax.parseReportingUnusedArguments(
        request.format, arguments: request.args)
      record.add("canonical", .string(predicate.predicateFormat))
      // Arguments beyond the specifiers are ignored, as Apple ignores them: said, not lost.
      if unused > 0 { record.add("unused_arguments", .int(unused)) }
    } catch {
      record.addError(stage: "parse", message: error.error.message, offset: error.error.range.start)
    }
    return record.text
  }
}
