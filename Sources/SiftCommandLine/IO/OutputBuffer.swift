#if canImport(Glibc)
  import Glibc
#endif

/// Buffered output to a file descriptor with large writes. A closed pipe (the reader
/// exited, as with `| head`) stops output quietly instead of killing the process, unless
/// `quietOnClosedPipe` is false; any other write error also stops output and is kept in
/// ``failure`` for the caller to report.
final class OutputBuffer {
  private let fd: Int32
  private var buffer: [UInt8] = []
  private let capacity: Int
  private let quietOnClosedPipe: Bool
  /// True once output has stopped (the reader went away, or a write failed); further
  /// output is discarded.
  private(set) var closed = false
  /// The `errno` of a write that failed for a reason other than a closed pipe.
  private(set) var failure: Int32? = nil

  init(fd: Int32, capacity: Int = 1 << 16, quietOnClosedPipe: Bool = true) {
    self.fd = fd
    self.capacity = capacity
    self.quietOnClosedPipe = quietOnClosedPipe
    buffer.reserveCapacity(capacity)
  }

  static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

  func write(_ s: String) {
    var s = s
    s.withUTF8 { write(bytes: $0) }
  }

  func write(bytes: UnsafeBufferPointer<UInt8>) {
    guard !closed else { return }
    buffer.append(contentsOf: bytes)
    if buffer.count >= capacity { flush() }
  }

  func writeLine(_ s: String) {
    guard !closed else { return }
    write(s)
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count >= capacity { flush() }
  }

  func flush() {
    guard !closed, !buffer.isEmpty else {
      buffer.removeAll(keepingCapacity: true)
      return
    }
    _ = OutputBuffer.ignoreSIGPIPE
    buffer.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 {
          let error = errno
          if error == EINTR { continue }
          if error == EAGAIN || error == EWOULDBLOCK {
            // A non-blocking descriptor inherited from the parent: wait until it drains.
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, -1)
            continue
          }
          closed = true
          if error != EPIPE || !quietOnClosedPipe { failure = error }
          return
        }
        offset += n
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  deinit { flush() }
}
