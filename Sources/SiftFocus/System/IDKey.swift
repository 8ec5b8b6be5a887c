import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// An identifier as SiftFocus compares it: by its UTF-8 bytes, as APNs device tokens and
/// SQLite do, never by Swift's canonical equivalence (under which `"caf\u{E9}"` and
/// `"cafe\u{301}"` are equal). User ids, app ids, Focus names and account ids follow this
/// one rule in every layer: the systems a service keeps, its decision table, the restart
/// loader and the database. A NUL is an ordinary byte.
struct IDKey: Hashable, Sendable {
  let text: String

  init(_ text: String) { self.text = text }

  static func == (a: IDKey, b: IDKey) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

  func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

extension String {
  /// Byte-for-byte equality (``IDKey``'s rule): two strings with one representation (the
  /// same small string, or one storage) at once, then the lengths, then the bytes.
  @inline(__always)
  func sameBytes(as other: String) -> Bool {
    let a = SmallStringBits.bits(self)
    let b = SmallStringBits.bits(other)
    if a.0 == b.0 && a.1 == b.1 { return true }
    if SmallStringBits.isAvailable && SmallStringBits.isSmall(a) && SmallStringBits.isSmall(b) { return false }
    guard utf8.count == other.utf8.count else { return false }
    var x = self
    var y = other
    return x.withUTF8 { p in y.withUTF8 { q in p.count == 0 || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0 } }
  }
}

extension Dictionary where Key == String {
  /// The value under a key with exactly these bytes: a String-keyed dictionary finds a key
  /// that is only canonically equivalent, which is another identifier here.
  func exactly(_ key: String) -> Value? {
    guard let index = index(forKey: key), self[index].key.sameBytes(as: key) else { return nil }
    return self[index].value
  }
}
