import Sift

/// Standard error, for diagnostics; standard output, for answers.
/// The CLI is single-threaded: these buffers are only touched from the main thread.
enum Console {
  nonisolated(unsafe) static let out = OutputBuffer(fd: 1)
  nonisolated(unsafe) static let err = OutputBuffer(fd: 2, capacity: 1 << 12)

  static func error(_ message: String) {
    err.writeLine(message)
    err.flush()
  }
}

/// Exit codes shared by every subcommand.
enum ExitCode: Int32 {
  /// Everything was handled.
  case success = 0
  /// Some input could not be handled (a bad predicate for `parse`, bad lines for streams).
  case failure = 1
  /// Bad usage: unknown option, missing argument, bad predicate for stream commands.
  case usage = 2
  /// A stream command stopped by SIGINT after its last whole line (128 + SIGINT).
  case interrupted = 130
  /// A stream command stopped by SIGTERM after its last whole line (128 + SIGTERM).
  case terminated = 143
}

struct UsageError: Error {
  var message: String
}
