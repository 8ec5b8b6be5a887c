#if canImport(Glibc)
  import Glibc
#endif

/// Reads lines from a file descriptor in large blocks. A line is handed out without its
/// `\n` (and without a `\r` before it); a last line without a newline is still a line.
/// Lines of any length are kept whole.
package struct LineReader {
  /// Reads up to `count` bytes into `buffer`: the count read, 0 at the end, -1 on an error.
  package typealias Source = (_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int

  /// One line as found in the input.
  package struct Line {
    /// The line without its ending.
    package var bytes: UnsafeBufferPointer<UInt8>
    /// The ending's length right after `bytes`: 1 for `\n`, 2 for `\r\n`, 0 for a last
    /// line without a newline. `bytes` plus the ending are the input's exact bytes.
    package var ending: Int
    /// Readable bytes from the line's start to the end of the buffer: at least
    /// `bytes.count + padding` (what simdjson needs past a document).
    package var readable: Int
    /// 1-based.
    package var number: Int

    /// True when the ending holds a `\n`; false for a last line that ends without one (no
    /// ending, or a lone `\r`), which a writer must terminate itself.
    package var endsWithNewline: Bool { ending > 0 && bytes.baseAddress![bytes.count + ending - 1] == 0x0A }
  }

  private let source: Source
  /// `capacity` bytes for input, then `padding` bytes that are never filled.
  private var buffer: [UInt8]
  private var capacity: Int
  private let padding: Int
  private var start = 0
  private var end = 0
  private var eof = false
  private var searchFrom = 0
  /// 1-based number of the last line returned.
  package private(set) var lineNumber = 0

  /// Reads from a file descriptor, waiting when it is non-blocking and retrying on EINTR,
  /// except after a stop signal (``StopSignal``): the wait ends there as a failed read
  /// (EINTR), so that a run waiting for input stops, and the partial line it holds is not
  /// handed out as a line.
  package init(fd: Int32, blockSize: Int = 1 << 20, padding: Int = 0) {
    self.init(blockSize: blockSize, padding: padding) { buffer, count in
      while true {
        // Checked right before the read too: a signal that came after the caller's last
        // check would not interrupt a read that has not started (the window left is a few
        // instructions wide, and a second signal kills: SA_RESETHAND).
        if StopSignal.requested != nil {
          errno = EINTR
          return -1
        }
        let n = read(fd, buffer, count)
        if n >= 0 { return n }
        let error = errno
        if error == EINTR { continue }
        guard error == EAGAIN || error == EWOULDBLOCK else { return -1 }
        // A non-blocking descriptor inherited from the parent: wait for input.
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, -1)
      }
    }
  }

  /// Reads from `source` (the fuzz target feeds bytes in uneven pieces through this).
  package init(blockSize: Int, padding: Int = 0, source: @escaping Source) {
    self.source = source
    capacity = max(blockSize, 1)
    self.padding = max(padding, 0)
    buffer = [UInt8](repeating: 0, count: capacity + self.padding)
  }

  /// Calls `body` with each line's bytes and number until the input ends or `body` returns
  /// false. Returns false if reading failed.
  package mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Bool) -> Bool {
    forEachLine { (line: Line) in body(line.bytes, line.number) }
  }

  /// Calls `body` with each line until the input ends or `body` returns false. Returns
  /// false if reading failed.
  package mutating func forEachLine(_ body: (Line) -> Bool) -> Bool {
    forEachLine(body, beforeRead: {})
  }

  /// As ``forEachLine(_:)``, calling `beforeRead` whenever every complete line in the
  /// buffer was handed out and the next read may wait for input: a caller that batches
  /// lines hands the batch on there, so a slow stream is not held back until a batch fills.
  package mutating func forEachLine(_ body: (Line) -> Bool, beforeRead: () -> Void) -> Bool {
    while true {
      if let newline = findNewline() {
        let hasCR = newline > start && buffer[newline - 1] == UInt8(ascii: "\r")
        if !emit(start, newline - (hasCR ? 1 : 0), ending: hasCR ? 2 : 1, body) { return true }
        start = newline + 1
        continue
      }
      if eof {
        if start < end {
          let hasCR = buffer[end - 1] == UInt8(ascii: "\r")
          // A last line ending in a lone "\r" loses it as every CRLF line does; the "\r"
          // is then its whole ending.
          _ = emit(start, end - (hasCR ? 1 : 0), ending: hasCR ? 1 : 0, body)
          start = end
        }
        return true
      }
      beforeRead()
      guard fill() else { return false }
    }
  }

  private mutating func emit(_ from: Int, _ to: Int, ending: Int, _ body: (Line) -> Bool) -> Bool {
    lineNumber += 1
    let number = lineNumber
    return buffer.withUnsafeBufferPointer { all in
      body(
        Line(
          bytes: UnsafeBufferPointer(rebasing: all[from..<to]), ending: ending, readable: all.count - from,
          number: number))
    }
  }

  private mutating func findNewline() -> Int? {
    let from = max(start, searchFrom)
    guard from < end else { return nil }
    let found = buffer.withUnsafeBufferPointer { p -> Int? in
      guard let hit = memchr(p.baseAddress! + from, 0x0A, end - from) else { return nil }
      return p.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
    searchFrom = found.map { $0 + 1 } ?? end
    return found
  }

  /// Moves the unread tail to the front (growing the buffer for long lines) and reads more.
  private mutating func fill() -> Bool {
    if start > 0 {
      let tail = end - start
      buffer.withUnsafeMutableBufferPointer { p in
        _ = memmove(p.baseAddress!, p.baseAddress! + start, tail)
      }
      searchFrom -= start
      start = 0
      end = tail
    }
    if end == capacity {
      buffer.append(contentsOf: repeatElement(0, count: capacity))
      capacity *= 2
    }
    let n = buffer.withUnsafeMutableBufferPointer { p in source(p.baseAddress! + end, capacity - end) }
    if n < 0 { return false }
    if n == 0 { eof = true } else { end += n }
    return true
  }
}
