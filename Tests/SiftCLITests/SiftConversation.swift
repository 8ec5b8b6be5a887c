import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A `sift` run the test talks to through a pipe: it writes standard input piece by piece
/// and, between pieces, waits for what `sift` writes. A test that waits for the answer to
/// one line before it sends the next fails if `sift` holds decided lines back until its
/// input ends: the answer then never comes while the input stays open. Nothing is timed;
/// ``patience`` only bounds how long a test waits for an answer that does not come.
final class SiftConversation {
  /// How long to wait for an expected answer before reporting that it never came.
  static let patience: Double = 20

  private let process = Process()
  private let input = Pipe()
  private let exited = DispatchSemaphore(value: 0)
  /// Every descriptor read from (standard output, standard error, any extra one), and what
  /// each has given so far.
  private var received: [Int32: [UInt8]] = [:]
  /// The descriptors not yet at their end.
  private var open: Set<Int32> = []
  let stdout: Int32
  let stderr: Int32
  /// The read ends of the child's output pipes, kept open as long as this object.
  private var handles: [FileHandle] = []
  private var inputClosed = false

  /// Starts `sift arguments…` with standard input from a pipe (or from `standardInput`,
  /// such as `/dev/zero`, when given); `extra` are descriptors the test opened for reading
  /// (a FIFO `sift` writes to) and wants to wait on too.
  init(_ arguments: [String], extra: [Int32] = [], standardInput: FileHandle? = nil) throws {
    let out = Pipe()
    let err = Pipe()
    process.executableURL = try SiftProcess.binary()
    process.arguments = arguments
    process.standardInput = standardInput ?? input
    process.standardOutput = out
    process.standardError = err
    let exited = self.exited
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    stdout = out.fileHandleForReading.fileDescriptor
    stderr = err.fileHandleForReading.fileDescriptor
    handles = [out.fileHandleForReading, err.fileHandleForReading]
    for fd in [stdout, stderr] + extra {
      received[fd] = []
      open.insert(fd)
    }
  }

  /// The child's process id (for reading its `/proc` status).
  var processIdentifier: Int32 { process.processIdentifier }

  /// Writes `bytes` to the child's standard input (from a thread of its own, where a child
  /// that went away is EPIPE, not a signal to the test process).
  func send(_ bytes: [UInt8]) {
    let fd = input.fileHandleForWriting.fileDescriptor
    let writer = BackgroundThread { SiftProcess.writeAll(bytes, to: fd) }
    writer.join()
  }

  func send(_ text: String) { send(Array(text.utf8)) }

  /// What `fd` has given so far.
  func output(_ fd: Int32) -> String { String(decoding: received[fd] ?? [], as: UTF8.self) }

  /// Waits until what `fd` gave so far contains `expected`; records an issue and returns
  /// false if it has not after ``patience`` seconds, or if `fd` ended without it.
  @discardableResult
  func waitFor(_ expected: String, on fd: Int32, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let deadline = Date().addingTimeInterval(Self.patience)
    while !output(fd).contains(expected) {
      let left = deadline.timeIntervalSinceNow
      guard left > 0, open.contains(fd) else {
        let sofar = String(output(fd).suffix(300))
        let comment = Comment(
          rawValue: "\(process.arguments ?? []): \(expected.debugDescription) did not come (so far: "
            + "\(sofar.debugDescription))")
        Issue.record(comment, sourceLocation: sourceLocation)
        return false
      }
      readAvailable(waitingAtMost: left)
    }
    return true
  }

  /// Waits up to `seconds` for any descriptor to be readable, then reads what each has.
  private func readAvailable(waitingAtMost seconds: Double) {
    var fds = open.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    guard !fds.isEmpty else { return }
    let n = poll(&fds, nfds_t(fds.count), Int32(max(1, min(seconds * 1000, 1000))))
    guard n > 0 else { return }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    for p in fds where p.revents != 0 {
      let count = chunk.withUnsafeMutableBytes { read(p.fd, $0.baseAddress!, $0.count) }
      if count > 0 {
        received[p.fd, default: []] += chunk[0..<count]
      } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
        open.remove(p.fd)
      }
    }
  }

  /// Kills the child (SIGKILL: a child spawned from a test thread may start with SIGTERM
  /// blocked, and only the commands that handle stop signals unblock it).
  func kill() { _ = Glibc.kill(process.processIdentifier, SIGKILL) }

  /// Ends standard input (unless done already).
  func closeInput() {
    guard !inputClosed else { return }
    inputClosed = true
    try? input.fileHandleForWriting.close()
  }

  /// Ends standard input, reads every descriptor to its end and waits for the child
  /// (killing it after ``patience`` seconds).
  func finish() -> SiftResult {
    closeInput()
    let deadline = Date().addingTimeInterval(Self.patience)
    while !open.isEmpty && deadline.timeIntervalSinceNow > 0 {
      readAvailable(waitingAtMost: deadline.timeIntervalSinceNow)
    }
    if exited.wait(timeout: .now() + max(deadline.timeIntervalSinceNow, 1)) == .timedOut {
      kill()
      Issue.record("sift \(process.arguments ?? []) did not finish; killed")
      exited.wait()
    }
    return SiftResult(
      status: process.terminationStatus, reason: process.terminationReason, stdoutBytes: received[stdout] ?? [],
      stderrBytes: received[stderr] ?? [])
  }

  deinit {
    if process.isRunning { kill() }
  }
}
