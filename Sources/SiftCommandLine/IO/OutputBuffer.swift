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
  /// The bytes not yet written out: `count` of them at `bytes`, which has room for
  /// `allocated`. Memory of its own rather than an array: an array's append checks
  /// uniqueness and capacity through a call per piece, which was most of writing the ids of
  /// a `sift route` line (perf: `Array.append(contentsOf:)` 5 %, with uniqueness checks
  /// and copies 9 % of routing). Touched only from the main thread, a few times per
  /// line: the dynamic exclusivity check on every access was a few percent of `sift
  /// filter --decisions` (perf: AccessSet::insert).
  @exclusivity(unchecked) private var bytes: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var allocated: Int
  @exclusivity(unchecked) private var count = 0
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
    // A line in progress may take the buffer past `capacity` (it is written out only
    // whole): room for twice as much, grown when a longer line comes.
    allocated = 2 * max(capacity, 64)
    bytes = .allocate(capacity: allocated)
  }

  /// Room for `n` more bytes after `count`.
  @inline(__always)
  private func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
    if allocated &- count < n { grow(n) }
    return bytes + count
  }

  private func grow(_ n: Int) {
    let larger = max(2 * allocated, count + n)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.initialize(from: bytes, count: count)
    bytes.deallocate()
    bytes = moved
    allocated = larger
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
  func write(bytes piece: UnsafeBufferPointer<UInt8>) {
    guard !closed, let base = piece.baseAddress else { return }
    reserve(piece.count).initialize(from: base, count: piece.count)
    count &+= piece.count
  }

  /// Appends `value` in decimal, straight into the buffer: no `String` per number, which
  /// `--decisions` writes for every line.
  func write(decimal value: Int) {
    guard !closed else { return }
    Self.withDecimal(value) { write(bytes: $0) }
  }

  /// Appends `value`'s decimal digits to `buffer` (shared with the chunks of `--threads`).
  static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
    withDecimal(value) { buffer.append(contentsOf: $0) }
  }

  /// Calls `body` with `value`'s decimal digits.
  @inline(__always)
  static func withDecimal(_ value: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
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
      body(UnsafeBufferPointer(rebasing: digits[at...]))
    }
  }

  /// Says that what was written so far ends a line (its newline included): the point
  /// where a full buffer is written out.
  func lineComplete() {
    if count >= capacity { flush() }
  }

  func writeLine(_ s: String) {
    guard !closed else { return }
    write(s)
    reserve(1).initialize(to: UInt8(ascii: "\n"))
    count &+= 1
    lineComplete()
  }

  func flush() {
    guard !closed, count > 0 else {
      count = 0
      return
    }
    _ = OutputBuffer.ignoreSIGPIPE
    var offset = 0
    while offset < count {
      let n = Glibc.write(fd, bytes + offset, count - offset)
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
        count = 0
        return
      }
      offset += n
    }
    count = 0
  }

  deinit {
    flush()
    bytes.deallocate()
  }
}
