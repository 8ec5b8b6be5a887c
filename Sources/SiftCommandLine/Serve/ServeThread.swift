#if canImport(Glibc)
  import Glibc
#endif

/// Runs `body` on a new thread (the rule watcher): a plain pthread, since the worker
/// needs one long-lived thread and nothing of Dispatch or Foundation.
final class ServeThread: @unchecked Sendable {
  private var thread = pthread_t()
  private let body: () -> Void

  private init(_ body: @escaping () -> Void) { self.body = body }

  /// Starts `body` now.
  static func start(_ body: @escaping () -> Void) -> ServeThread {
    let t = ServeThread(body)
    let context = Unmanaged.passRetained(t).toOpaque()
    let started = pthread_create(
      &t.thread, nil,
      { context in
        let t = Unmanaged<ServeThread>.fromOpaque(context!).takeRetainedValue()
        t.body()
        return nil
      }, context)
    precondition(started == 0, "cannot start a thread: \(started)")
    return t
  }

  /// Waits for `body` to return.
  func join() { pthread_join(thread, nil) }
}

/// A flag one thread raises and another waits for, with a time-out.
final class ServeSignal: @unchecked Sendable {
  private let lock = MonotonicCondition()
  private var raised = false

  /// Raises the flag and wakes every waiter.
  func raise() {
    lock.locked {
      raised = true
      lock.broadcast()
    }
  }

  /// Waits until the flag is raised or `milliseconds` pass; returns whether it was raised.
  func wait(milliseconds: Int) -> Bool {
    lock.wait(milliseconds: milliseconds, until: { raised }) { raised }
  }
}

/// Milliseconds of the monotonic clock.
func monotonicMilliseconds() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}
