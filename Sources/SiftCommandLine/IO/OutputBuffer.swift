#if canImport(Glibc)
  import Glibc
#endif

/// Buffered output to a file descriptor with large writes. A closed pipe (the reader
/// exited, as with `| head`) stops output quietly instead of killing the process, unless
/// `quietOnClosedPipe` is false; any other write error also stops output and is kept in
/// ``failure`` for the caller to report.
///
/// A full buffer is written out only when a line is complete (``writeLine(_:)``,
/// ``lineComplete()``), never between the pieces of one line: a run stopped by a signal
/// (``StopSignal``) then leaves output that ends at a line boundary. Only an explicit
/// ``flush()`` writes a partial line (the progress line on a terminal).
final class OutputBuffer {
  private let fd: Int32
  /// Touched only from the main thread, a few times per line: the dynamic exclusivity check
  /// on every access was a few percent of `sift filter --decisions` (perf: AccessSet::insert).
  @exclusivity(unchecked) private var buffer: [UInt8] = []
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

  /// Appends part of a line (see ``lineComplete()``).
  func write(_ s: String) {
    var s = s
    s.withUTF8 { write(bytes: $0) }
  }

  /// Appends constant text, part of a line, without making a `String` of it.
  func write(_ s: StaticString) {
    write(bytes: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
  }

  /// Appends part of a line (see ``lineComplete()``).
  func write(bytes: UnsafeBufferPointer<UInt8>) {
    guard !closed else { return }
    buffer.append(contentsOf: bytes)
  }

  /// Appends `value` in decimal, straight into the buffer: no `String` per number, which
  /// `--decisions` writes for every line.
  func write(decimal value: Int) {
    guard !closed else { return }
    Self.appendDecimal(value, to: &buffer)
  }

  /// Appends `value`'s decimal digits to `buffer` (shared with the chunks of `--threads`).
  static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
    var magnitude = value.magnitude
    // 20 digits hold UInt64.max, one more the sign.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { digits in
      var at = digits.count
      repeat {
        at -= 1
        digits[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      if value < 0 {
        at -= 1
        digits[at] = UInt8(ascii: "-")
      }
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[at...]))
    }
  }

  /// Says that what was written so far ends a line (its newline included): the point
  /// where a full buffer is written out.
  func lineComplete() {
    if buffer.count >= capacity { flush() }
  }

  func writeLine(_ s: String) {
    guard !closed else { return }
    write(s)
    buffer.append(UInt8(ascii: "\n"))
    lineComplete()
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
