#if canImport(Glibc)
  import Glibc
#endif

/// A mutex and a condition variable whose timed waits run on the monotonic clock (a step
/// of the wall clock must neither cut a wait short nor stretch it): how `sift serve`'s
/// threads wait for each other (``PublishOutcomes``, ``ServeSignal``).
final class MonotonicCondition: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()

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

  /// `body` with the mutex held.
  func locked<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return body()
  }

  /// Wakes every waiter; called with the mutex held (inside ``locked(_:)``).
  func broadcast() { pthread_cond_broadcast(&condition) }

  /// With the mutex held: waits until `done()` or until `milliseconds` have passed, then
  /// returns `then()`, still holding it.
  func wait<T>(milliseconds: Int, until done: () -> Bool, then: () -> T) -> T {
    var deadline = timespec()
    clock_gettime(CLOCK_MONOTONIC, &deadline)
    let nanoseconds = Int(deadline.tv_nsec) + (milliseconds % 1000) * 1_000_000
    deadline.tv_sec += milliseconds / 1000 + nanoseconds / 1_000_000_000
    deadline.tv_nsec = nanoseconds % 1_000_000_000
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    while !done() {
      if pthread_cond_timedwait(&condition, &mutex, &deadline) != 0 { break }
    }
    return then()
  }
}
