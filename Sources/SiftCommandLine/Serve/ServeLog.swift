import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Standard error for `sift serve`, written from the worker's threads (the fetch loop, the
/// rule watcher, the connection's callbacks): each report is one `write` under a lock, so
/// reports never interleave.
final class ServeLog: Sendable {
  private let lock = Mutex(())

  /// Writes `sift serve: MESSAGE` and a newline.
  func report(_ message: String) {
    var line = Array("sift serve: \(message)\n".utf8)
    lock.withLock { _ in
      var offset = 0
      while offset < line.count {
        let n = line.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return }
        offset += n
      }
    }
    line.removeAll()
  }
}
