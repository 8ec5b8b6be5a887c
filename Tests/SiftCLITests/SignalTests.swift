import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension SiftCLITests {
  /// SIGINT or SIGTERM in the middle of a `sift filter` run: the output ends at a line
  /// boundary and the status is 128 + the signal. Standard input is a pipe that stays open,
  /// so the run cannot end before the signal, whatever the timing.
  @Suite("sift filter stopped by a signal")
  struct Signals {
    /// Every line matches, so the output of a run stopped at a line boundary is a prefix of
    /// the input that ends with a newline. Lines of uneven length, so that a block boundary
    /// falls anywhere in a line.
    static let input: [UInt8] = {
      var text = ""
      for i in 0..<100_000 {
        text += #"{"i": \#(i), "filterCriteria": "work", "pad": ""# + String(repeating: "x", count: i % 61) + "\"}\n"
      }
      return Array(text.utf8)
    }()

    static let predicate = "filterCriteria == 'work'"

    /// Where the run writes: a pipe the test reads slowly (so that the signal finds sift
    /// blocked in a `write`, which used to leave part of a line), or a regular file.
    enum Output: String, CaseIterable {
      case pipe, file
    }

    static let cases: [(Int32, Int32, Output)] = [
      (SIGINT, 130, .pipe), (SIGTERM, 143, .pipe), (SIGINT, 130, .file), (SIGTERM, 143, .file),
    ]

    @Test("the output is whole input lines and the status is 128 + the signal", arguments: cases)
    func stoppedAtALineBoundary(_ signal: Int32, _ status: Int32, _ output: Output) throws {
      // A few runs each: the signal lands at a different point of the stream every time.
      for _ in 0..<3 {
        let file = output == .file ? try TemporaryFile([]) : nil
        let run = try StartedSift(["filter", Self.predicate], outputFile: file?.path)
        run.writeInBackground(Self.input)
        var written: [UInt8] = []
        if let file {
          try run.waitUntil("output appears in \(file.path)") { (try? Self.size(of: file.path)) ?? 0 > 0 }
        } else {
          // Three output buffers' worth, then a pause in which the pipe fills up: the signal
          // finds sift blocked inside a `write` that has copied part of its buffer, which the
          // default action cut short (a partial last line) in most runs.
          written = run.readOutput(atLeast: 200_000)
          usleep(20_000)
        }
        run.send(signal)
        written += run.readOutputToTheEnd()
        run.waitForExit()
        if let file { written = try Array(Data(contentsOf: URL(fileURLWithPath: file.path))) }
        #expect(
          run.process.terminationReason == .exit && run.process.terminationStatus == status,
          "\(run.process.terminationReason) \(run.process.terminationStatus): \(run.errors())")
        #expect(!written.isEmpty)
        #expect(written.last == 0x0A, "the output ends in the middle of a line")
        #expect(written.count < Self.input.count, "the run was not stopped")
        // Not `==` on the arrays: a failure would print megabytes of bytes.
        let mismatch = written.indices.first { $0 >= Self.input.count || written[$0] != Self.input[$0] }
        #expect(
          mismatch == nil,
          Comment(
            rawValue: "the output is not the input's first lines: it differs at byte \(mismatch ?? 0) of "
              + "\(written.count): \(Self.around(mismatch ?? 0, in: written))"))
      }
    }

    /// Waiting for input that has not come (a partial line is held), a signal ends the wait:
    /// the lines already complete are written, the partial one is not.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func stoppedWhileWaitingForInput(_ signal: Int32, _ status: Int32) throws {
      let run = try StartedSift(["filter", "a == 1"], outputFile: nil)
      let whole = #"{"a": 1}"# + "\n" + #"{"a": 2}"# + "\n" + #"{"a": 1, "b": 3}"# + "\n"
      let expected = #"{"a": 1}"# + "\n" + #"{"a": 1, "b": 3}"# + "\n"
      run.write(Array((whole + #"{"a": 1, "par"#).utf8))
      // Output is buffered until the end of the run: what comes first is the signal's flush.
      try run.waitUntil("sift waits for input") { run.isWaitingForInput }
      run.send(signal)
      let written = run.readOutputToTheEnd()
      run.waitForExit()
      #expect(run.process.terminationReason == .exit && run.process.terminationStatus == status)
      #expect(String(decoding: written, as: UTF8.self) == expected)
      #expect(run.errors() == "")
    }

    /// A stopped `--count` prints no count: a count of part of the input would read as the
    /// answer. `--stats` still reports what was seen.
    @Test func aStoppedCountPrintsNothing() throws {
      let run = try StartedSift(["filter", "a == 1", "--count", "--stats"], outputFile: nil)
      run.write(Array("{\"a\": 1}\nnot json\n".utf8))
      try run.waitUntil("sift waits for input") { run.isWaitingForInput }
      run.send(SIGINT)
      let written = run.readOutputToTheEnd()
      run.waitForExit()
      #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 130)
      #expect(written == [])
      let errors = run.errors()
      #expect(errors.hasPrefix("sift filter: line 2: line is not valid JSON"), "\(errors)")
      #expect(errors.contains("sift filter: 2 lines (1 matched, 0 not matched, 1 errors) in "), "\(errors)")
    }

    /// The text around `offset`, for a failure message that stays short.
    static func around(_ offset: Int, in bytes: [UInt8]) -> String {
      String(decoding: bytes[max(0, offset - 80)..<min(bytes.count, offset + 80)], as: UTF8.self)
    }

    static func size(of path: String) throws -> Int {
      (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
  }
}

/// A `sift` process the test drives by hand: its standard input is a pipe that stays open
/// until the process has exited, and its standard output a pipe (read with
/// ``readOutput(atLeast:)``) or a file.
final class StartedSift {
  let process = Process()
  private let input = Pipe()
  private let output: Pipe?
  private let stderr: Collector
  private var writer: BackgroundThread?
  private var watchdog: BackgroundThread?
  /// Signalled once the process has exited.
  private let stopped = DispatchSemaphore(value: 0)

  init(_ arguments: [String], outputFile: String?) throws {
    process.executableURL = try SiftProcess.binary()
    process.arguments = arguments
    process.standardInput = input
    if let outputFile {
      guard let handle = FileHandle(forWritingAtPath: outputFile) else { throw CocoaError(.fileNoSuchFile) }
      process.standardOutput = handle
      output = nil
    } else {
      let pipe = Pipe()
      process.standardOutput = pipe
      output = pipe
    }
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    stderr = Collector(errors.fileHandleForReading.fileDescriptor)
  }

  /// Writes `bytes`, which fit in the pipe, to standard input; the pipe stays open.
  func write(_ bytes: [UInt8]) {
    // Not `SiftProcess.writeAll`, which blocks SIGPIPE on the calling thread for good.
    let fd = input.fileHandleForWriting.fileDescriptor
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return }
        offset += n
      }
    }
  }

  /// Writes `bytes` to standard input from another thread (sift may stop reading while the
  /// pipe is full); the pipe stays open afterwards.
  func writeInBackground(_ bytes: [UInt8]) {
    let fd = input.fileHandleForWriting.fileDescriptor
    writer = BackgroundThread { SiftProcess.writeAll(bytes, to: fd) }
  }

  /// Blocks until at least `count` bytes of standard output have come, or it ended.
  func readOutput(atLeast count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    while bytes.count < count, let chunk = readChunk() { bytes += chunk }
    return bytes
  }

  /// Reads standard output to its end, a small piece at a time: sift writes in large blocks,
  /// so most of its writes find the pipe full and block until the test reads.
  func readOutputToTheEnd() -> [UInt8] {
    var bytes: [UInt8] = []
    while let chunk = readChunk() { bytes += chunk }
    return bytes
  }

  private func readChunk() -> [UInt8]? {
    guard let fd = output?.fileHandleForReading.fileDescriptor else { return nil }
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
      if n < 0 && errno == EINTR { continue }
      return n > 0 ? Array(chunk[0..<n]) : nil
    }
  }

  /// True when sift is asleep in `read` on its standard input, with the whole of what was
  /// written consumed (Linux: the pipe holds nothing, and the process sleeps).
  var isWaitingForInput: Bool {
    var pending: Int32 = 0
    guard ioctl(input.fileHandleForWriting.fileDescriptor, UInt(FIONREAD), &pending) == 0, pending == 0 else {
      return false
    }
    let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
    // The state follows the command name, which is in parentheses.
    guard let close = stat.lastIndex(of: ")") else { return false }
    return stat[close...].dropFirst(2).first == "S"
  }

  /// Sends `signal`, and kills the process (SIGKILL) if it is still running 5 s later (it
  /// stops within milliseconds): a sift that ignores the signal would otherwise keep its
  /// output open, and the test would read it forever. The process then ends by SIGKILL,
  /// which the test's status expectation reports.
  func send(_ signal: Int32) {
    #expect(kill(process.processIdentifier, signal) == 0)
    let pid = process.processIdentifier
    let stopped = self.stopped
    watchdog = BackgroundThread {
      if stopped.wait(timeout: .now() + 5) == .timedOut { kill(pid, SIGKILL) }
    }
  }

  /// Polls `condition` every millisecond for up to 10 s.
  func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(10)
    while try !condition() {
      guard Date() < deadline, process.isRunning else {
        Issue.record("gave up waiting until \(what)")
        throw CancellationError()
      }
      usleep(1000)
    }
  }

  /// Waits for the process (killing it after ``SiftProcess/timeout``), then closes its input.
  func waitForExit() {
    let deadline = Date().addingTimeInterval(SiftProcess.timeout)
    while process.isRunning && Date() < deadline { usleep(1000) }
    if process.isRunning {
      Issue.record("sift \(process.arguments ?? []) did not stop; killed")
      kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    stopped.signal()
    watchdog?.join()
    try? input.fileHandleForWriting.close()
    writer?.join()
  }

  /// What sift wrote on standard error, once it has exited.
  func errors() -> String { String(decoding: stderr.finish(), as: UTF8.self) }
}
