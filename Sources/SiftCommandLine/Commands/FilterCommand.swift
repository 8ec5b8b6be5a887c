import CSiftJSON
import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// `sift filter`: the lines of a JSON Lines stream that match a predicate, byte for byte.
enum FilterCommand {
  static let help = """
    usage: sift filter [options] [--] 'PREDICATE' [FILE…]

    Reads JSON Lines (standard input when no FILE, or for '-'), evaluates the predicate with
    each line's JSON value as the object, and writes the lines that match, byte for byte
    and in input order (a last line without a newline gets one).

      --args JSON_ARRAY   values for %@, %K and numeric specifiers, in order
      --vars JSON_OBJECT  values for $variables
      --invert            write the lines that do not match instead
      --count             print only the number of lines that would be written
      --decisions         write one JSON line for every input line:
                            {"file": "NAME", "line": N, "match": true|false}
                            {"file": "NAME", "line": N, "error": {"message": "…", "offset": N}}
                          "file" only for a named FILE, not for standard input; after it
                          "file_bytes": "HEX" (the name's bytes) when the name is not UTF-8;
                          "offset" only when the error has one
      --apns              SELF is the APNs payload's aps.filter-criteria (null when absent)
      --stats             print line counts and the rate on stderr at the end
      --errors FILE       also write each bad line's error record (as --decisions writes it)
                          to FILE
      --threads N         decide on N threads (default: the cores available); the output
                          is in input order and the same bytes as with --threads 1
      --max-line-bytes N  the longest line read, in bytes without its ending (default
                          16777216, 16 MiB); a longer line is a bad line, reported with
                          its number and skipped without being held in memory
      --                  end of options: the next argument is the predicate (unless it came
                          before) and the rest are files, even those that start with '-'

    A line that is not valid JSON (an empty line included), is over --max-line-bytes, or whose
    evaluation fails, is reported on stderr with its line number and the stream goes on;
    every line is written, skipped as a non-match, or reported. Everything decided is
    written before a read that would wait for input, so a slow stream is not held back. Exit 0 when every line was handled, 1 when some
    lines (or files) had errors, 2 for a bad predicate (with its diagnostic) or bad usage.

    SIGINT or SIGTERM stops the run after the line at hand: the output ends with a whole
    line, --count prints nothing, and the exit status is 130 (SIGINT) or 143 (SIGTERM).
    """

  struct Options {
    var format: [UInt8]?
    var argsJSON: [UInt8]?
    var varsJSON: [UInt8]?
    var invert = false
    var count = false
    var decisions = false
    var apns = false
    var stats = false
    var errorsPath: FileName?
    /// `--threads N`; nil: the cores available.
    var threads: Int?
    /// `--max-line-bytes N`.
    var maxLineBytes = LineReader.defaultMaxLineBytes
    var files: [FileName] = []

    /// The inputs in reading order; `-` is standard input (also when no file is named).
    var inputs: [FileName] { files.isEmpty ? [.standardInput] : files }
  }

  static func run(_ arguments: [CommandLineArgument]) throws(UsageError) -> ExitCode {
    guard let options = try parse(arguments) else {
      Console.out.writeLine(help)
      return .success
    }
    guard let evaluator = try makeEvaluator(options, command: "filter") else { return .usage }
    var errorLog: ErrorLog? = nil
    if let path = options.errorsPath {
      if let input = ErrorLog.inputItWouldDestroy(path, inputs: options.inputs) {
        let named = input.isStandardInput ? "standard input" : input.display
        throw UsageError(message: "--errors \(path.display) is the input \(named); it would be overwritten")
      }
      guard let log = ErrorLog(path: path) else {
        throw UsageError(message: "cannot write --errors \(path.display): \(String(cString: strerror(errno)))")
      }
      errorLog = log
    }
    // From here on a signal stops the run at a line boundary (FilterRun checks).
    StopSignal.install()
    let threads = options.threads ?? availableCores()
    var parallel: ParallelFilter? = nil
    if threads > 1 {
      var evaluators: [LineEvaluator] = []
      for _ in 0..<threads {
        guard let another = try makeEvaluator(options, command: "filter") else { return .usage }
        evaluators.append(another)
      }
      parallel = ParallelFilter(
        pool: ParallelFilter.EvaluatorPool(evaluators), threads: threads, padding: Int(SIFT_JSON_PADDING),
        maxLineBytes: options.maxLineBytes,
        mode: ParallelFilter.Mode(
          writeMatches: !options.decisions && !options.invert && !options.count,
          writeOthers: !options.decisions && options.invert && !options.count, decisions: options.decisions))
    }
    var run = FilterRun(options: options, evaluator: evaluator, parallel: parallel, errorLog: errorLog)
    return run.start()
  }

  /// The options, or nil when help was asked for.
  static func parse(_ arguments: [CommandLineArgument]) throws(UsageError) -> Options? {
    var options = Options()
    var rest = arguments[...]
    var onlyOperands = false
    func value(_ option: String) throws(UsageError) -> CommandLineArgument {
      guard let value = rest.popFirst() else { throw UsageError(message: "\(option) needs a value") }
      return value
    }
    while let raw = rest.popFirst() {
      let arg = raw.text
      if onlyOperands || arg == "-" || !arg.hasPrefix("-") {
        // The first operand is the predicate, also after `--`; the rest are files. Both
        // keep their bytes: a name that is not UTF-8 must still open.
        if options.format == nil {
          options.format = raw.bytes
        } else {
          options.files.append(FileName(raw))
        }
        continue
      }
      switch arg {
      case "--help", "-h": return nil
      case "--": onlyOperands = true
      case "--args": options.argsJSON = try value(arg).bytes
      case "--vars": options.varsJSON = try value(arg).bytes
      case "--invert": options.invert = true
      case "--count": options.count = true
      case "--decisions": options.decisions = true
      case "--apns": options.apns = true
      case "--stats": options.stats = true
      case "--errors": options.errorsPath = FileName(try value(arg))
      case "--threads":
        let text = try value(arg).text
        guard let n = Int(text), (1...256).contains(n) else {
          throw UsageError(message: "--threads takes a number of threads from 1 to 256 (got '\(text)')")
        }
        options.threads = n
      case "--max-line-bytes": options.maxLineBytes = try CLIArguments.maxLineBytes(rest.popFirst())
      default: throw UsageError(message: "unknown option \(arg) for sift filter")
      }
    }
    guard options.format != nil else { throw UsageError(message: "sift filter needs a predicate") }
    if options.decisions && (options.count || options.invert) {
      throw UsageError(message: "--decisions reports every line; it cannot be combined with --count or --invert")
    }
    return options
  }

  /// The cores online, at least 1 (`sched_getaffinity` is not visible to Swift without
  /// `_GNU_SOURCE`; a container's CPU limit is not seen here: pass `--threads`).
  static func availableCores() -> Int {
    max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
  }

  /// Compiles the predicate; on a bad predicate prints its diagnostic and returns nil.
  static func makeEvaluator(_ options: Options, command: String) throws(UsageError) -> LineEvaluator? {
    let args = try CLIArguments.parseArray(options.argsJSON)
    let variables = try CLIArguments.parseObject(options.varsJSON, option: "--vars")
    let format = options.format ?? []
    do throws(PredicateSyntaxError) {
      // Parsed once, from the bytes (which reports invalid UTF-8 precisely), compiled once.
      let syntax = try PredicateSyntax(parsingUTF8: format, arguments: args)
      return try LineEvaluator(
        syntax: syntax, format: String(decoding: format, as: UTF8.self), apns: options.apns, variables: variables)
    } catch {
      Console.error(error.description)
      return nil
    }
  }
}

/// The `--errors` file: one JSON line per bad input line.
final class ErrorLog {
  let path: FileName
  /// The records' buffer (written out with standard output before a read that may wait).
  let output: OutputBuffer
  private let fd: Int32

  init?(path: FileName) {
    self.path = path
    // The name's own bytes: decoded text would create another file for a non-UTF-8 name.
    fd = path.open(O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
    guard fd >= 0 else { return nil }
    // A FIFO whose reader went away loses records: that is a failure here, not a quiet stop.
    output = OutputBuffer(fd: fd, quietOnClosedPipe: false)
  }

  func write(_ line: String) { output.writeLine(line) }

  /// Writes what is buffered; the `errno` of the first write that failed, if one did.
  func finish() -> Int32? {
    output.flush()
    return output.failure
  }

  /// The input (one of `inputs`, `-` for standard input) that is the same regular file
  /// as `path`, which opening the log would truncate before it is read. Compared by device
  /// and inode, so another name, a link or `/dev/stdin` for the same file is caught too.
  static func inputItWouldDestroy(_ path: FileName, inputs: [FileName]) -> FileName? {
    guard let log = path.status(), (log.st_mode & S_IFMT) == S_IFREG else { return nil }
    var standardInput = stat()
    for input in inputs {
      let other = input.isStandardInput ? (fstat(0, &standardInput) == 0 ? standardInput : nil) : input.status()
      if let other, other.st_dev == log.st_dev && other.st_ino == log.st_ino { return input }
    }
    return nil
  }

  deinit {
    output.flush()
    close(fd)
  }
}
