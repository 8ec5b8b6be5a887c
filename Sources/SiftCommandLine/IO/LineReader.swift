#if canImport(Glibc)
  import Glibc
#endif

/// Reads lines from a file descriptor in large blocks. A line is handed out without its
/// `\n` (and without a `\r` before it); a last line without a newline is still a line.
/// Lines of any length are kept whole.
package struct LineReader {
  /// Reads up to `count` bytes into `buffer`: the count read, 0 at the end, -1 on an error.
  package typealias Source = (_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int

  private let source: Source
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var eof = false
  /// 1-based number of the last line returned.
  package private(set) var lineNumber = 0

  /// Reads from a file descriptor, waiting when it is non-blocking and retrying on EINTR.
  package init(fd: Int32, blockSize: Int = 1 << 20) {
    self.init(blockSize: blockSize) { buffer, count in
      while true {
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
  package init(blockSize: Int, source: @escaping Source) {
    self.source = source
    buffer = [UInt8](repeating: 0, count: max(blockSize, 1))
  }

  /// Calls `body` with each line's bytes until the input ends or `body` returns false.
  /// Returns false if reading failed.
  package mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Bool) -> Bool {
    while true {
      if let newline = findNewline() {
        var lineEnd = newline
        if lineEnd > start, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        lineNumber += 1
        let keepGoing = buffer.withUnsafeBufferPointer {
          body(UnsafeBufferPointer(rebasing: $0[start..<lineEnd]), lineNumber)
        }
        start = newline + 1
        if !keepGoing { return true }
        continue
      }
      if eof {
        if start < end {
          var lineEnd = end
          if buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
          lineNumber += 1
          _ = buffer.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[start..<lineEnd]), lineNumber)
          }
          start = end
        }
        return true
      }
      guard fill() else { return false }
    }
  }

  private var searchFrom = 0

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
    if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
    let n = buffer.withUnsafeMutableBufferPointer { p in source(p.baseAddress! + end, p.count - end) }
    if n < 0 { return false }
    if n == 0 { eof = true } else { end += n }
    return true
  }
}
