#if canImport(Glibc)
  import Glibc
#endif

/// Splits a JSON Lines buffer in place as `sift filter`'s LineReader splits a stream: at
/// `\n`, without a `\r` right before it; a last line without `\n` is a line (a lone `\r` at
/// its end is dropped too); nothing follows a final `\n`.
enum LineSplitter {
  /// Calls `body` with each line's start offset and length (without its ending).
  static func forEachLine(_ buffer: UnsafeRawBufferPointer, _ body: (_ start: Int, _ length: Int) -> Void) {
    guard let base = buffer.baseAddress else { return }
    let n = buffer.count
    var position = 0
    while position < n {
      let end: Int
      if let hit = memchr(base + position, 0x0A, n - position) {
        end = base.distance(to: UnsafeRawPointer(hit))
      } else {
        end = n
      }
      var lineEnd = end
      if lineEnd > position && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      body(position, lineEnd - position)
      position = end + 1
    }
  }
}
