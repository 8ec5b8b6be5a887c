#if canImport(Glibc)
  import Glibc
#endif

/// Reads lines from a file descriptor in large blocks. A line is handed out without its
/// `\n` (and without a `\r` before it); a last line without a newline is still a line.
///
/// A line longer than ``maxLineBytes`` (without its ending) is not held: as soon as the
/// part read is over the limit, the reader hands out a ``LongLine`` in its place (so the
/// line is reported while it is still arriving), drops what it has of it and skips to its
/// end. Memory is bounded by the limit (plus one block), whatever the input: a line that
/// never ends costs one buffer and the time to read it, never an allocation that grows
/// with it.
package struct LineReader {
  /// Reads up to `count` bytes into `buffer`: the count read, 0 at the end, -1 on an error.
  package typealias Source = (_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int

  /// The longest line every reader accepts unless told otherwise (`--max-line-bytes`):
  /// 16 MiB, far beyond any JSON Lines record or predicate met in practice (the predicate
  /// text limit is 1 MiB), small enough that holding and parsing one such line fits in
  /// memory many times over.
  package static let defaultMaxLineBytes = 16 << 20

  /// The largest `--max-line-bytes` accepted: simdjson's largest document (4 GiB - 1).
  package static let largestMaxLineBytes = 4_294_967_295

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

  /// A line longer than the limit, skipped: only its number is known (it is handed out as
  /// soon as it is over the limit, before its end is read).
  package struct LongLine: Equatable {
    /// 1-based, counted with the other lines.
    package var number: Int
    /// The reader's ``LineReader/maxLineBytes``.
    package var limit: Int

    /// The error every command reports for such a line (with its number, in its own format).
    package var message: String { "line is longer than the limit of \(limit) bytes (--max-line-bytes)" }
  }

  /// What the reader hands out, in input order.
  package enum Item {
    /// A line within the limit.
    case line(Line)
    /// A line over the limit, skipped.
    case tooLong(LongLine)
  }

  private let source: Source
  /// True when the next read may wait for input (nothing is ready on a pipe or terminal).
  private let readMayWait: () -> Bool
  /// `capacity` bytes for input, then `padding` bytes that are never filled.
  private var buffer: [UInt8]
  private var capacity: Int
  private let padding: Int
  private var start = 0
  private var end = 0
  private var eof = false
  private var searchFrom = 0
  /// True while skipping the rest of a line over the limit (already handed out).
  private var skipping = false
  /// True until the first read of a skip: what was decided up to the long line is written
  /// out then, since skipping it may take long (a line that never ends takes for ever).
  private var skipJustStarted = false
  /// The longest line handed out as a ``Line``.
  package let maxLineBytes: Int
  /// 1-based number of the last line returned.
  package private(set) var lineNumber = 0

  /// Reads from a file descriptor, waiting when it is non-blocking and retrying on EINTR,
  /// except after a stop signal (``StopSignal``): the wait ends there as a failed read
  /// (EINTR), so that a run waiting for input stops, and the partial line it holds is not
  /// handed out as a line.
  package init(
    fd: Int32, blockSize: Int = 1 << 20, padding: Int = 0, maxLineBytes: Int = LineReader.defaultMaxLineBytes
  ) {
    self.init(
      blockSize: blockSize, padding: padding, maxLineBytes: maxLineBytes,
      readMayWait: {
        // Ready (data, end of file, an error) or not: a regular file always is, so reading
        // one never counts as a wait.
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) <= 0
      }
    ) { buffer, count in
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

  /// Reads from `source` (the fuzz target feeds bytes in uneven pieces through this);
  /// `readMayWait` says whether the next read may wait (by default: always, so a caller
  /// writes out before every read).
  package init(
    blockSize: Int, padding: Int = 0, maxLineBytes: Int = LineReader.defaultMaxLineBytes,
    readMayWait: @escaping () -> Bool = { true }, source: @escaping Source
  ) {
    self.source = source
    self.readMayWait = readMayWait
    capacity = max(blockSize, 1)
    self.padding = max(padding, 0)
    // Clamped so that the limit plus its ending never overflows.
    self.maxLineBytes = min(max(maxLineBytes, 0), Int.max / 4)
    buffer = [UInt8](repeating: 0, count: capacity + self.padding)
  }

  /// Calls `body` with each line, or each line over the limit, until the input ends or
  /// `body` returns false. Returns false if reading failed.
  ///
  /// `beforeRead` is called whenever every complete line in the buffer was handed out and
  /// the reader is about to read (and move the buffer, so a caller that keeps pointers into
  /// it hands them on there). Its argument is true when what was decided should be written
  /// out first: the read may wait for input (a slow stream is then not held back until a
  /// batch fills), the buffer is about to grow for a long line (an allocation that, were
  /// it to fail, must not take decided lines down with the process), or the reader starts
  /// skipping a line over the limit (which may never end).
  package mutating func forEachItem(_ body: (Item) -> Bool, beforeRead: (_ writeOut: Bool) -> Void) -> Bool {
    while true {
      if skipping {
        if let newline = findNewline() {
          skipping = false
          start = newline + 1
          continue
        }
        // Nothing of this line is kept: drop what was read of it.
        start = end
        if eof { return true }
        beforeRead(skipJustStarted || readMayWait())
        skipJustStarted = false
        guard fill() else { return false }
        continue
      }
      if let newline = findNewline() {
        let hasCR = newline > start && buffer[newline - 1] == UInt8(ascii: "\r")
        let lineEnd = newline - (hasCR ? 1 : 0)
        let more = lineEnd - start > maxLineBytes ? emitLong(body) : emit(start, lineEnd, ending: hasCR ? 2 : 1, body)
        start = newline + 1
        if !more { return true }
        continue
      }
      if eof {
        if start < end {
          let hasCR = buffer[end - 1] == UInt8(ascii: "\r")
          // A last line ending in a lone "\r" loses it as every CRLF line does; the "\r"
          // is then its whole ending.
          let lineEnd = end - (hasCR ? 1 : 0)
          _ = lineEnd - start > maxLineBytes ? emitLong(body) : emit(start, lineEnd, ending: hasCR ? 1 : 0, body)
          start = end
        }
        return true
      }
      // No newline yet. More than the limit plus a "\r" is over the limit however the line
      // ends: it is reported now, and the rest skipped instead of read into memory.
      if end - start > maxLineBytes + 1 {
        skipping = true
        skipJustStarted = true
        if !emitLong(body) { return true }
        continue
      }
      let grows = end - start == capacity
      beforeRead(grows || readMayWait())
      guard fill() else { return false }
    }
  }

  private mutating func emit(_ from: Int, _ to: Int, ending: Int, _ body: (Item) -> Bool) -> Bool {
    lineNumber += 1
    let number = lineNumber
    return buffer.withUnsafeBufferPointer { all in
      body(
        .line(
          Line(
            bytes: UnsafeBufferPointer(rebasing: all[from..<to]), ending: ending, readable: all.count - from,
            number: number)))
    }
  }

  private mutating func emitLong(_ body: (Item) -> Bool) -> Bool {
    lineNumber += 1
    return body(.tooLong(LongLine(number: lineNumber, limit: maxLineBytes)))
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

  /// Moves the unread tail to the front (growing the buffer for a long line, never past
  /// what a line of the limit and its ending need) and reads more.
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
      // Only a partial line within the limit fills the buffer (a longer one is skipped), so
      // the buffer is below `maxLineBytes + 2` here and grows by at least a byte.
      let grown = min(capacity * 2, maxLineBytes + 2)
      buffer.append(contentsOf: repeatElement(0, count: grown - capacity))
      capacity = grown
    }
    let n = buffer.withUnsafeMutableBufferPointer { p in source(p.baseAddress! + end, capacity - end) }
    if n < 0 { return false }
    if n == 0 { eof = true } else { end += n }
    return true
  }
}

extension LineReader {
  /// As ``forEachItem(_:beforeRead:)`` for a command that writes its answers to `outputs`:
  /// each is written out before a read that may wait, so everything decided reaches its
  /// reader while the input is slow, and before the buffer grows.
  mutating func forEachItem(writingOut outputs: [OutputBuffer], _ body: (Item) -> Bool) -> Bool {
    forEachItem(body) { writeOut in
      guard writeOut else { return }
      for output in outputs { output.flush() }
    }
  }
}
