import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// `sift filter`: the lines of a JSON Lines stream that match a predicate, byte for byte.
enum FilterCommand {
  static let help = """
    usage: sift filter 'PREDICATE' [options] [FILE…]

    Reads JSON Lines (standard input when no FILE, or for '-'), evaluates the predicate with
    each line's JSON value as the object, and writes the lines that match, byte for byte
    and in input order (a last line without a newline gets one).

      --args JSON_ARRAY   values for %@, %K and numeric specifiers, in order
      --vars JSON_OBJECT  values for $variables
      --invert            write the lines that do not match instead
      --count             print only the number of lines that would be written
      --decisions         write {"line": N, "match": true|false} for every line, or
                          {"line": N, "error": {"message": "…", "offset": N}}
      --apns              SELF is the APNs payload's aps.filter-criteria (null when absent)
      --stats             print line counts and the rate on stderr at the end
      --errors FILE       also write each bad line's error as a JSON line to FILE

    A line that is not valid JSON (an empty line included), or whose evaluation fails, is
    reported on stderr with its line number and the stream goes on; every line is written,
    skipped as a non-match, or reported. Exit 0 when every line was handled, 1 when some
    lines (or files) had errors, 2 for a bad predicate (with its diagnostic) or bad usage.
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
    var errorsPath: String?
    var files: [String] = []

    /// The inputs in reading order; `-` is standard input (also when no file is named).
    var inputs: [String] { files.isEmpty ? ["-"] : files }
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
        throw UsageError(
          message: "--errors \(path) is the input \(input == "-" ? "standard input" : input); it would be overwritten")
      }
      guard let log = ErrorLog(path: path) else {
        throw UsageError(message: "cannot write --errors \(path): \(String(cString: strerror(errno)))")
      }
      errorLog = log
    }
    var run = FilterRun(options: options, evaluator: evaluator, errorLog: errorLog)
    return run.start()
  }

  /// The options, or nil when help was asked for.
  static func parse(_ arguments: [CommandLineArgument]) throws(UsageError) -> Options? {
    var options = Options()
    var rest = arguments[...]
    var onlyFiles = false
    func value(_ option: String) throws(UsageError) -> CommandLineArgument {
      guard let value = rest.popFirst() else { throw UsageError(message: "\(option) needs a value") }
      return value
    }
    while let raw = rest.popFirst() {
      let arg = raw.text
      if onlyFiles || arg == "-" || !arg.hasPrefix("-") {
        if options.format == nil && !onlyFiles {
          options.format = raw.bytes
        } else {
          options.files.append(arg)
        }
        continue
      }
      switch arg {
      case "--help", "-h": return nil
      case "--": onlyFiles = true
      case "--args": options.argsJSON = try value(arg).bytes
      case "--vars": options.varsJSON = try value(arg).bytes
      case "--invert": options.invert = true
      case "--count": options.count = true
      case "--decisions": options.decisions = true
      case "--apns": options.apns = true
      case "--stats": options.stats = true
      case "--errors": options.errorsPath = try value(arg).text
      default: throw UsageError(message: "unknown option \(arg) for sift filter")
      }
    }
    if onlyFiles && options.format == nil, !options.files.isEmpty {
      options.format = Array(options.files.removeFirst().utf8)
    }
    guard options.format != nil else { throw UsageError(message: "sift filter needs a predicate") }
    if options.decisions && (options.count || options.invert) {
      throw UsageError(message: "--decisions reports every line; it cannot be combined with --count or --invert")
    }
    return options
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
  let path: String
  private let output: OutputBuffer
  private let fd: Int32

  init?(path: String) {
    self.path = path
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
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

  /// The input (a name from `inputs`, `-` for standard input) that is the same regular file
  /// as `path`, which opening the log would truncate before it is read. Compared by device
  /// and inode, so another name, a link or `/dev/stdin` for the same file is caught too.
  static func inputItWouldDestroy(_ path: String, inputs: [String]) -> String? {
    var log = stat()
    guard stat(path, &log) == 0, (log.st_mode & S_IFMT) == S_IFREG else { return nil }
    for input in inputs {
      var other = stat()
      let found = input == "-" ? fstat(0, &other) == 0 : stat(input, &other) == 0
      if found && other.st_dev == log.st_dev && other.st_ino == log.st_ino { return input }
    }
    return nil
  }

  deinit {
    output.flush()
    close(fd)
  }
}
