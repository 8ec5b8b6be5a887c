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
  /// Byte-for-byte equality (``IDKey``'s rule).
  func sameBytes(as other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}

extension Dictionary where Key == String {
  /// The value under a key with exactly these bytes: a String-keyed dictionary finds a key
  /// that is only canonically equivalent, which is another identifier here.
  func exactly(_ key: String) -> Value? {
    guard let index = index(forKey: key), self[index].key.sameBytes(as: key) else { return nil }
    return self[index].value
  }
}
