/// A short list of strings packed as UTF-8 bytes in memory a predicate set owns
/// (``PackedStringArena``): a 32-bit count, then each member as a 32-bit length and its
/// bytes. In a set's run, the value slot of an `inStrings` list that has no set object
/// holds the address of its packing as an `.int`: the list is then no array of its own
/// (a heap object per predicate, retained on every read, one more cache miss per
/// candidate) but bytes beside the others, compared in place. Only such a slot ever holds
/// an `.int`: the compiler emits `inStrings` for a list of strings alone.
enum PackedStrings {
  /// The largest packing: every length in it fits its 32 bits.
  static var maxBytes: Int { Int(UInt32.max) }

  /// Whether a value slot of an `inStrings` list holds a packing.
  @inline(__always)
  static func address(of v: UnsafePointer<SiftValue>) -> UnsafeRawPointer? {
    guard case .int(let address) = v.pointee else { return nil }
    return UnsafeRawPointer(bitPattern: address)
  }

  /// The bytes a packing of `members` takes.
  static func size(_ members: some Collection<SiftValue>) -> Int {
    members.reduce(4) { n, m in
      guard case .string(let s) = m else { preconditionFailure("a packed list holds strings") }
      return n + 4 + s.utf8.count
    }
  }

  /// Writes `members` (strings) at `to`, which has room for ``size(_:)`` bytes.
  static func pack(_ members: some Collection<SiftValue>, to: UnsafeMutableRawPointer) {
    to.storeBytes(of: UInt32(members.count), toByteOffset: 0, as: UInt32.self)
    var at = 4
    for case .string(let s) in members {
      let n = s.utf8.count
      to.storeBytes(of: UInt32(n), toByteOffset: at, as: UInt32.self)
      withUTF8Bytes(s) { bytes in
        if let base = bytes.baseAddress { (to + at + 4).copyMemory(from: base, byteCount: n) }
      }
      at += 4 + n
    }
  }

  /// `body` on each member's bytes in order, until it returns true; returns whether it did.
  @inline(__always)
  static func first(_ packed: UnsafeRawPointer, where body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
    let count = Int(packed.loadUnaligned(as: UInt32.self))
    var at = packed + 4
    for _ in 0..<count {
      let n = Int(at.loadUnaligned(as: UInt32.self))
      if body(UnsafeBufferPointer(start: (at + 4).assumingMemoryBound(to: UInt8.self), count: n)) { return true }
      at += 4 + n
    }
    return false
  }

  /// Whether some member's bytes are `bytes` (string `==` with no options).
  @inline(__always)
  static func contains(_ packed: UnsafeRawPointer, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    first(packed) { ByteOps.equal($0, bytes) }
  }

  /// The members as a value, for the general comparison rules (a subject that is not a
  /// string) and for reading a set's constants back.
  static func array(_ packed: UnsafeRawPointer) -> SiftValue {
    var members: [SiftValue] = []
    members.reserveCapacity(Int(packed.loadUnaligned(as: UInt32.self)))
    _ = first(packed) { bytes in
      members.append(.string(String(decoding: bytes, as: UTF8.self)))
      return false
    }
    return .array(members)
  }
}
