#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pthread read-write lock: any number of readers, or one writer. On glibc it prefers
/// writers, so a steady stream of `matches` calls cannot starve an update; a reader must
/// therefore not take it again while holding it.
@usableFromInline
final class ReadWriteLock: @unchecked Sendable {
  @usableFromInline let lock: UnsafeMutablePointer<pthread_rwlock_t>

  init() {
    lock = .allocate(capacity: 1)
    var attributes = pthread_rwlockattr_t()
    pthread_rwlockattr_init(&attributes)
    #if canImport(Glibc)
      pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
    #endif
    let status = pthread_rwlock_init(lock, &attributes)
    pthread_rwlockattr_destroy(&attributes)
    precondition(status == 0, "pthread_rwlock_init failed: \(status)")
  }

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deallocate()
  }

  @inlinable
  func reading<R, E>(_ body: () throws(E) -> R) throws(E) -> R {
    pthread_rwlock_rdlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return try body()
  }

  @inline(__always)
  func writing<R, E>(_ body: () throws(E) -> R) throws(E) -> R {
    pthread_rwlock_wrlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return try body()
  }
}
