import CSiftJSON
import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// One `sift filter` run over its inputs: every line ends up written, skipped as a
/// non-match, or reported as an error.
struct FilterRun {
  let options: FilterCommand.Options
  let evaluator: LineEvaluator
  /// With `--threads N` for N > 1: the evaluators of the deciding threads.
  let parallel: ParallelFilter?
  let errorLog: ErrorLog?
  var counts = FilterCounts()
  private var progress = Progress()
  private var hadFileError = false

  init(options: FilterCommand.Options, evaluator: LineEvaluator, parallel: ParallelFilter? = nil, errorLog: ErrorLog?) {
    self.options = options
    self.evaluator = evaluator
    self.parallel = parallel
    self.errorLog = errorLog
  }

  /// Runs over every input and returns the exit code.
  mutating func start() -> ExitCode {
    let clock = ContinuousClock()
    let began = clock.now
    for input in options.inputs {
      if Console.out.closed || StopSignal.requested != nil { break }
      let fd: Int32
      if input.isStandardInput {
        fd = 0
      } else {
        fd = input.open(O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
          let error = errno
          // Opening a FIFO waits for its writer; a stop signal ends that wait (EINTR).
          if StopSignal.requested != nil { break }
          Console.error("sift filter: cannot read \(input.display): \(String(cString: strerror(error)))")
          hadFileError = true
          continue
        }
      }
      let ok = filter(fd: fd, name: input.isStandardInput ? nil : input)
      if fd != 0 { close(fd) }
      // A stop signal ends a read that waits for input: that is not a read error.
      if !ok && StopSignal.requested == nil {
        Console.error("sift filter: error reading \(input.isStandardInput ? "standard input" : input.display)")
        hadFileError = true
      }
    }
    progress.finish()
    let stopped = StopSignal.requested
    // A count of part of the input would read as the answer: a stopped run prints none.
    if options.count && stopped == nil {
      Console.out.writeLine(String(options.invert ? counts.notMatched : counts.matched))
    }
    Console.out.flush()
    if options.stats { Console.error("sift filter: " + counts.summary(seconds: (clock.now - began).seconds)) }
    if let errorLog, let failure = errorLog.finish() {
      // Records were lost: as loud as a failed write to standard output.
      Console.error(
        "sift filter: error writing --errors \(errorLog.path.display): \(String(cString: strerror(failure)))")
      hadFileError = true
    }
    if let stopped { return StopSignal.exitCode(stopped) }
    return counts.errors > 0 || hadFileError ? .failure : .success
  }

  /// Filters one input; false when reading it failed (or a stop signal ended a read).
  private mutating func filter(fd: Int32, name: FileName?) -> Bool {
    var reader = LineReader(fd: fd, padding: Int(SIFT_JSON_PADDING), maxLineBytes: options.maxLineBytes)
    // Locals, not `self`: a closure over the struct copied all of it for every line.
    let evaluator = self.evaluator
    let errorLog = self.errorLog
    let decisions = options.decisions
    let writeMatches = !options.decisions && !options.invert && !options.count
    let writeOthers = !options.decisions && options.invert && !options.count
    let records = DecisionRecords(file: name)
    let out = Console.out
    var counts = self.counts
    var progress = self.progress
    defer {
      self.counts = counts
      self.progress = progress
    }
    // Everything decided is written out before a read that may wait: a slow stream gets
    // each line's answer as soon as it is decided, not when a buffer fills.
    var outputs = [out]
    if let errorLog { outputs.append(errorLog.output) }
    if let parallel {
      return parallel.run(&reader, records: records, outputs: outputs, counts: &counts, progress: &progress) {
        error in
        // The record itself is already in the chunk's output for --decisions.
        Self.report(error.number, name, error.message, error.offset, records, decisions: false, log: errorLog)
      }
    }
    return reader.forEachItem(writingOut: outputs) { (item: LineReader.Item) -> Bool in
      let line: LineReader.Line
      switch item {
      case .line(let whole): line = whole
      case .tooLong(let long):
        counts.lines += 1
        counts.errors += 1
        Self.report(long.number, name, long.message, nil, records, decisions: decisions, log: errorLog)
        return !out.closed && StopSignal.requested == nil
      }
      counts.lines += 1
      counts.bytes += line.bytes.count + line.ending
      switch evaluator.decide(line.bytes, readable: line.readable) {
      case .match:
        counts.matched += 1
        if writeMatches {
          Self.write(line, to: out)
        } else if decisions {
          records.writeDecision(line.number, matched: true, to: out)
        }
      case .noMatch:
        counts.notMatched += 1
        if writeOthers {
          Self.write(line, to: out)
        } else if decisions {
          records.writeDecision(line.number, matched: false, to: out)
        }
      case .error(let message, let offset):
        counts.errors += 1
        Self.report(line.number, name, message, offset, records, decisions: decisions, log: errorLog)
      }
      if counts.lines & 0xFFFF == 0 { progress.update(counts) }
      // Checked after each whole line: a stop signal ends the output at a line boundary.
      return !out.closed && StopSignal.requested == nil
    }
  }

  /// The line exactly as read, with a newline added when the input's last line had none
  /// (a lone `\r` at the very end is kept, and the newline follows it).
  private static func write(_ line: LineReader.Line, to out: OutputBuffer) {
    out.write(bytes: UnsafeBufferPointer(start: line.bytes.baseAddress, count: line.bytes.count + line.ending))
    if !line.endsWithNewline { out.write("\n" as StaticString) }
    out.lineComplete()
  }

  private static func report(
    _ number: Int, _ name: FileName?, _ message: String, _ offset: Int?, _ records: DecisionRecords,
    decisions: Bool, log: ErrorLog?
  ) {
    let place = name.map { "\($0.display):\(number)" } ?? "line \(number)"
    Console.error("sift filter: \(place): \(message)" + (offset.map { " (at byte \($0))" } ?? ""))
    let record = records.errorRecord(number, message: message, offset: offset)
    if decisions { Console.out.writeLine(record) }
    log?.write(record)
  }
}

/// What a run saw.
struct FilterCounts {
  var lines = 0
  var bytes = 0
  var matched = 0
  var notMatched = 0
  var errors = 0

  func summary(seconds: Double) -> String {
    let rate = seconds > 0 ? Double(lines) / seconds : 0
    let megabytes = seconds > 0 ? Double(bytes) / seconds / 1e6 : 0
    return "\(lines) lines (\(matched) matched, \(notMatched) not matched, \(errors) errors) in "
      + "\(Format.fixed(seconds, 3)) s: \(Format.fixed(rate / 1e6, 2)) M lines/s, \(Format.fixed(megabytes, 1)) MB/s"
  }
}

extension Duration {
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

enum Format {
  /// `value` with `digits` decimals, without Foundation.
  static func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (value * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(abs(scaled) - abs(Double(whole)) * scale)
    guard digits > 0 else { return "\(whole)" }
    let text = String(fraction)
    return "\(value < 0 && whole == 0 ? "-" : "")\(whole)." + String(repeating: "0", count: digits - text.count) + text
  }
}

/// A status line on stderr, only when stderr is a terminal, at most once a second.
struct Progress {
  private let enabled = isatty(2) != 0
  private let clock = ContinuousClock()
  private var last: ContinuousClock.Instant
  private var began: ContinuousClock.Instant
  private var shown = false

  init() {
    last = clock.now
    began = last
  }

  mutating func update(_ counts: FilterCounts) {
    guard enabled else { return }
    let now = clock.now
    guard now - last >= .seconds(1) else { return }
    last = now
    let rate = Double(counts.lines) / (now - began).seconds
    Console.err.write("\r\(counts.lines) lines, \(counts.matched) matched, \(Format.fixed(rate / 1e6, 2)) M lines/s ")
    Console.err.flush()
    shown = true
  }

  mutating func finish() {
    guard shown else { return }
    Console.err.write("\r\u{1B}[K")
    Console.err.flush()
  }
}
