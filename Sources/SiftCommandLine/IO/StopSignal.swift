import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM for the stream commands: a signal asks the run to stop at the next
/// line boundary instead of killing the process in the middle of a `write`, which left the
/// output ending in part of a line.
///
/// The flag is a process-wide atomic, and nothing else is, because a signal handler has
/// nowhere else to put what it saw and may only do async-signal-safe work: a lock-free
/// atomic store is that (touching a Swift object, allocating or locking is not). The run
/// reads the flag between lines and stops there itself.
enum StopSignal {
  /// The number of the first stop signal received, 0 while none has been.
  private static let received = Atomic<Int32>(0)

  /// The signals that ask a run to stop.
  static let signals: [Int32] = [SIGINT, SIGTERM]

  /// Installs the handler for SIGINT and SIGTERM. A signal the process was started with
  /// ignored (`nohup`, or `&` in a non-interactive shell) stays ignored, as the parent
  /// intended. The handler is reset to the default once it has run (SA_RESETHAND), so a
  /// second signal kills the process at once, should the final flush block on a reader
  /// that never drains. No SA_RESTART: a `read` waiting for input returns EINTR, and the
  /// reader gives up instead of waiting on (``LineReader``).
  ///
  /// The two signals are unblocked too. A blocked mask is inherited, not intended: a
  /// process spawned by Foundation's `Process` from a Dispatch thread starts with nearly
  /// every signal blocked (libdispatch blocks them on its workers), and `interrupt()` or
  /// `terminate()` would then never reach the run.
  static func install() {
    // Initialized here, not in the handler: the first access of a static runs swift_once,
    // which is not async-signal-safe.
    _ = received.load(ordering: .relaxed)
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for signal in signals {
      var previous = sigaction()
      guard sigaction(signal, nil, &previous) == 0 else { continue }
      if unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
        continue
      }
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { signal in
        // Only the first signal is kept: it decides the exit status.
        _ = StopSignal.received.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
      }
      sigemptyset(&action.sa_mask)
      // SA_RESETHAND is 0x80000000: the sign bit of sa_flags.
      action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
      if sigaction(signal, &action, nil) == 0 { sigaddset(&unblock, signal) }
    }
    // After the handlers are in place: a signal that was pending while blocked arrives
    // now, and stops the run like any other.
    _ = sigprocmask(SIG_UNBLOCK, &unblock, nil)
  }

  /// The stop signal received, or nil; always nil unless ``install()`` ran.
  static var requested: Int32? {
    let signal = received.load(ordering: .relaxed)
    return signal == 0 ? nil : signal
  }

  /// The shell's status for a process stopped by `signal`: 128 + its number (130 for
  /// SIGINT, 143 for SIGTERM).
  static func exitCode(_ signal: Int32) -> ExitCode {
    signal == SIGTERM ? .terminated : .interrupted
  }
}
