import Sift

/// `sift cases`: evaluate a JSON Lines stream of (predicate, object) cases.
package enum CasesCommand {
  static let help = """
    usage: sift cases [--max-line-bytes N] [--] < cases.jsonl

    Reads one case per line:
      {"id": …, "format": "…", "args": […], "object": <JSON>, "variables": {…}}
    (all but "format" optional; JSON objects become dictionaries, so key paths work) and
    writes one line per input line, in order:
      {"id": …, "canonical": "…", "result": true|false}
      {"id": …, "canonical": "…", "error": {"stage": "parse"|"evaluate", "message": "…", "offset": N}}
    "canonical" is present whenever parsing succeeded. A line that is not a JSON object with
    a string "format", or that is over --max-line-bytes, gets an error record with stage
    "input"; the run goes on. Each answer is written before a read that would wait. Exit 0.

      --max-line-bytes N  the longest line read, in bytes without its ending (default
                          16777216, 16 MiB); a longer line gets its error record and is
                          skipped without being held in memory
      --                  end of options, accepted as by every command (sift cases takes
                          no operands)
    """

  static func run(_ arguments: [CommandLineArgument]) throws(UsageError) -> ExitCode {
    var onlyOperands = false
    var maxLineBytes = LineReader.defaultMaxLineBytes
    var rest = arguments[...]
    while let arg = rest.popFirst()?.text {
      if !onlyOperands && (arg == "--help" || arg == "-h") {
        Console.out.writeLine(help)
        return .success
      }
      if !onlyOperands && arg == "--" {
        onlyOperands = true
        continue
      }
      if !onlyOperands && arg == "--max-line-bytes" {
        maxLineBytes = try CLIArguments.maxLineBytes(rest.popFirst())
        continue
      }
      throw UsageError(message: "unknown argument \(arg) for sift cases")
    }
    return JSONLinesStream.answerEachLine(command: "cases", maxLineBytes: maxLineBytes, answer)
  }

  /// The answer record for one input line (never fails: bad lines get an error record).
  package static func answer(_ line: UnsafeBufferPointer<UInt8>) -> String {
    let request: JSONLinesRequest
    switch JSONLinesRequest.read(line) {
    case .success(let r): request = r
    case .failure(let failure): return failure.record
    }
    var record = JSONRecord()
    record.add("id", request.id, text: request.idText)
    let predicate: SiftPredicate
    do {
      predicate = try SiftPredicate(format: request.format, arguments: request.args)
    } catch {
      if let syntax = try? PredicateSyntax(parsing: request.format, arguments: request.args) {
        record.add("canonical", .string(syntax.predicateFormat))
      }
      record.addError(stage: "parse", message: error.error.message, offset: error.error.range.start)
      return record.text
    }
    record.add("canonical", .string(predicate.predicateFormat))
    do {
      let result = try predicate.evaluate(with: request.object, variables: request.variables)
      record.add("result", .bool(result))
    } catch {
      record.addError(stage: "evaluate", message: error.message, offset: error.range.start)
    }
    return record.text
  }
}
