#if canImport(Glibc)
  import Glibc
#endif

extension Dictionary where Key == String, Value == SiftValue {
  /// The value for `key`, matching keys byte for byte (Semantics detail 7). Swift's own
  /// lookup treats canonically equivalent keys (`"é"` and `"e\u{301}"`) as the same key;
  /// the found key's bytes are checked, which for the usual ASCII keys is one short memcmp.
  @inline(__always)
  func literalValue(forKey key: String) -> SiftValue? {
    guard let i = index(forKey: key) else { return nil }
    let entry = self[i]
    return sameBytes(entry.key, key) ? entry.value : nil
  }
}

@inline(__always)
func sameBytes(_ a: String, _ b: String) -> Bool {
  let n = a.utf8.count
  guard n == b.utf8.count else { return false }
  let result = a.utf8.withContiguousStorageIfAvailable { x in
    b.utf8.withContiguousStorageIfAvailable { y in n == 0 || memcmp(x.baseAddress!, y.baseAddress!, n) == 0 }
  }
  return (result ?? nil) ?? a.utf8.elementsEqual(b.utf8)
}
