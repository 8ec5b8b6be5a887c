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
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  private var raised = false

  init() {
    pthread_mutex_init(&mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(&condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(&condition)
    pthread_mutex_destroy(&mutex)
  }

  /// Raises the flag and wakes every waiter.
  func raise() {
    pthread_mutex_lock(&mutex)
    raised = true
    pthread_cond_broadcast(&condition)
    pthread_mutex_unlock(&mutex)
  }

  /// Waits until the flag is raised or `milliseconds` pass; returns whether it was raised.
  func wait(milliseconds: Int) -> Bool {
    var deadline = timespec()
    clock_gettime(CLOCK_MONOTONIC, &deadline)
    let nanoseconds = Int(deadline.tv_nsec) + (milliseconds % 1000) * 1_000_000
    deadline.tv_sec += milliseconds / 1000 + nanoseconds / 1_000_000_000
    deadline.tv_nsec = nanoseconds % 1_000_000_000
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    while !raised {
      if pthread_cond_timedwait(&condition, &mutex, &deadline) != 0 { break }
    }
    return raised
  }
}

/// Milliseconds of the monotonic clock.
func monotonicMilliseconds() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}
