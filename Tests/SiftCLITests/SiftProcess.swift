import Foundation
import Sift
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What one run of the `sift` binary did.
struct SiftResult {
  var status: Int32
  var reason: Process.TerminationReason
  var stdoutBytes: [UInt8]
  var stderrBytes: [UInt8]

  var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
  var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }

  /// Standard output split at `\n`; every line must end with one.
  var lines: [String] {
    var text = stdout
    guard !text.isEmpty else { return [] }
    #expect(text.hasSuffix("\n"), "standard output does not end with a newline")
    if text.hasSuffix("\n") { text.removeLast() }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// True if the process exited normally (not killed by a signal) with `code`.
  func exited(_ code: Int32) -> Bool { reason == .exit && status == code }
}

/// Where the process reads standard input from.
enum SiftInput {
  /// `/dev/null`.
  case none
  /// These bytes, written through a pipe by a separate thread.
  case bytes([UInt8])
  /// A file opened for reading (`sift … < path`).
  case file(String)

  static func text(_ s: String) -> SiftInput { .bytes(Array(s.utf8)) }
}

/// Runs the built `sift` executable as a subprocess.
enum SiftProcess {
  /// The `sift` executable from the same build as this test bundle. SwiftPM puts
  /// executables and the test bundle in one products directory (`.build/<config>`);
  /// `SIFT_BINARY` overrides the search.
  static func binary() throws -> URL {
    let fm = FileManager.default
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["SIFT_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
    var directories: [URL] = []
    // The running test executable (on Linux, `<Package>PackageTests.xctest` itself).
    if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      directories.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
    }
    directories.append(
      URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
    // On Darwin the bundle is a directory inside the products directory.
    directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
    directories.append(Bundle.main.bundleURL)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    for directory in directories {
      let candidate = directory.appendingPathComponent("sift")
      var isDirectory: ObjCBool = false
      if fm.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
        fm.isExecutableFile(atPath: candidate.path)
      {
        return candidate
      }
    }
    throw BinaryNotFound(searched: directories.map(\.path))
  }

  struct BinaryNotFound: Error, CustomStringConvertible {
    var searched: [String]
    var description: String {
      "the sift executable was not found next to the test bundle (searched \(searched)); "
        + "build it with `swift build --product sift` or set SIFT_BINARY"
    }
  }

  /// How long one run may take before it is killed and reported.
  static let timeout: Double = 30

  /// Runs `sift arguments…`, feeding `input` and collecting both outputs.
  static func run(_ arguments: [String], input: SiftInput = .none) throws -> SiftResult {
    try run(executable: binary(), arguments, input: input)
  }

  /// Runs `bash -c script sh arguments…` with `$SIFT` set to the binary, for what
  /// `Process` cannot express (arguments that are not valid UTF-8, redirections, pipelines).
  static func shell(_ script: String, arguments: [String] = [], input: SiftInput = .none) throws -> SiftResult {
    var environment = ProcessInfo.processInfo.environment
    environment["SIFT"] = try binary().path
    let bash = FileManager.default.isExecutableFile(atPath: "/bin/bash") ? "/bin/bash" : "/bin/sh"
    return try run(
      executable: URL(fileURLWithPath: bash), ["-c", script, "sh"] + arguments, input: input,
      environment: environment)
  }

  static func run(
    executable: URL, _ arguments: [String], input: SiftInput, environment: [String: String]? = nil
  ) throws -> SiftResult {
    let running = try Running(executable: executable, arguments, input: input, environment: environment)
    let out = Collector(running.stdout.fileHandleForReading.fileDescriptor)
    return running.finish(stdout: out.finish())
  }

  /// `sift arguments… | head -n 1`: reads standard output up to its first newline, then
  /// closes the pipe and waits for sift to exit. Returns the whole result; its stdout is
  /// the bytes read before the close.
  static func runReadingOneLine(_ arguments: [String], input: SiftInput) throws -> SiftResult {
    let running = try Running(executable: binary(), arguments, input: input, environment: nil)
    var first: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    let fd = running.stdout.fileHandleForReading.fileDescriptor
    while !first.contains(UInt8(ascii: "\n")) {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      first += chunk[0..<n]
    }
    try running.stdout.fileHandleForReading.close()
    return running.finish(stdout: first)
  }

  /// A started child process with its pipes.
  struct Running {
    let process = Process()
    let stdout = Pipe()
    let stderr: Collector
    let writer: BackgroundThread?
    let exited = DispatchSemaphore(value: 0)
    let arguments: [String]

    init(executable: URL, _ arguments: [String], input: SiftInput, environment: [String: String]?) throws {
      self.arguments = arguments
      process.executableURL = executable
      process.arguments = arguments
      if let environment { process.environment = environment }
      let stderrPipe = Pipe()
      process.standardOutput = stdout
      process.standardError = stderrPipe
      var stdin: Pipe? = nil
      switch input {
      case .none: process.standardInput = FileHandle.nullDevice
      case .file(let path):
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
        process.standardInput = handle
      case .bytes:
        stdin = Pipe()
        process.standardInput = stdin
      }
      let exited = self.exited
      process.terminationHandler = { _ in exited.signal() }
      try process.run()
      stderr = Collector(stderrPipe.fileHandleForReading.fileDescriptor)
      if case .bytes(let bytes) = input, let stdin {
        let handle = stdin.fileHandleForWriting
        writer = BackgroundThread {
          writeAll(bytes, to: handle.fileDescriptor)
          try? handle.close()
        }
      } else {
        writer = nil
      }
    }

    /// Waits for the process (killing it after ``SiftProcess/timeout``) and its threads.
    func finish(stdout: @autoclosure () -> [UInt8]) -> SiftResult {
      if exited.wait(timeout: .now() + timeout) == .timedOut {
        process.terminate()
        Issue.record("sift \(arguments) did not finish within \(timeout) s; killed")
        exited.wait()
      }
      let out = stdout()
      writer?.join()
      return SiftResult(
        status: process.terminationStatus, reason: process.terminationReason,
        stdoutBytes: out, stderrBytes: stderr.finish())
    }
  }

  /// Writes all of `bytes` to a pipe. SIGPIPE is blocked on this thread only, so a child
  /// that stops reading turns into EPIPE here instead of killing the test process; the
  /// child inherits the signal mask of the thread that spawned it, not of this one.
  static func writeAll(_ bytes: [UInt8], to fd: Int32) {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &set, nil)
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return  // EPIPE: the child exited or closed its input.
        }
        offset += n
      }
    }
  }
}

/// A plain thread (not a task in the cooperative pool, which blocking reads would starve).
final class BackgroundThread: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () -> Void) {
    let done = self.done
    let thread = Thread {
      body()
      done.signal()
    }
    thread.start()
  }

  func join() { done.wait() }
}

/// Reads a descriptor to its end on a background thread.
final class Collector: @unchecked Sendable {
  private var bytes: [UInt8] = []
  private var thread: BackgroundThread? = nil

  init(_ fd: Int32) {
    // The thread keeps the collector alive until end of file, even if nobody waits for it.
    thread = BackgroundThread { [self] in
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        self.bytes.append(contentsOf: chunk[0..<n])
      }
    }
  }

  /// Waits for end of file and returns everything read.
  func finish() -> [UInt8] {
    thread?.join()
    return bytes
  }
}

/// A temporary file that is removed when the test is done with it.
final class TemporaryFile {
  let path: String

  init(_ bytes: [UInt8]) throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-cli-test-\(UUID().uuidString)").path
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      throw CocoaError(.fileWriteUnknown)
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// What the library says about a predicate, for expectations that should follow the
/// syntax layer's wording rather than freeze it here: the CLI's job is to pass it through.
enum Library {
  /// The rendered diagnostic `sift parse` prints on stderr (with its newline), or nil if
  /// the predicate parses.
  static func diagnostic(_ format: String, _ args: [SiftValue] = []) -> String? {
    do {
      _ = try PredicateSyntax(parsing: format, arguments: args)
      return nil
    } catch {
      return error.description + "\n"
    }
  }

  /// The `--jsonl` error record for a predicate that does not parse.
  static func parseErrorRecord(id: String, _ format: String, _ args: [SiftValue] = []) -> String {
    do {
      _ = try PredicateSyntax(parsing: format, arguments: args)
      Issue.record("\(format) parses; expected a parse error")
      return ""
    } catch {
      var message = ""
      JSONWriter.writeString(error.error.message, to: &message)
      return
        #"{"id": \#(id), "error": {"stage": "parse", "message": \#(message), "offset": \#(error.error.range.start)}}"#
    }
  }
}
