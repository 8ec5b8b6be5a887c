/// Memory for the packed `IN` lists of a predicate set's runs (``PackedStrings``), in
/// chunks that never move: a run holds its list's address. Freed with the index that owns
/// it; a rebuild packs the live lists into a fresh arena, so removed lists cost memory
/// only until the next one.
final class PackedStringArena {
  private static let chunkBytes = 1 << 20

  private var chunks: [UnsafeMutableRawPointer] = []
  private var free: UnsafeMutableRawPointer?
  private var left = 0
  /// Bytes in chunks, about (what statistics report).
  private(set) var reservedBytes = 0

  /// The address of a packing of `members` (strings), as a run's value slot holds it;
  /// nil for a list whose packing would pass ``PackedStrings/maxBytes`` (it stays an
  /// array).
  func pack(_ members: some Collection<SiftValue>) -> SiftValue? {
    let size = PackedStrings.size(members)
    guard size <= PackedStrings.maxBytes else { return nil }
    let to: UnsafeMutableRawPointer
    if size > Self.chunkBytes / 4 {
      to = allocate(size)
    } else {
      if size > left {
        free = allocate(Self.chunkBytes)
        left = Self.chunkBytes
      }
      to = free!
      free = to + size
      left -= size
    }
    PackedStrings.pack(members, to: to)
    return .int(Int(bitPattern: UInt(bitPattern: to)))
  }

  private func allocate(_ bytes: Int) -> UnsafeMutableRawPointer {
    let p = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
    chunks.append(p)
    reservedBytes += bytes
    return p
  }

  deinit {
    for p in chunks { p.deallocate() }
  }
}
