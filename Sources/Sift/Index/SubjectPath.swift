/// What the index reads from a record: `SELF` (no keys) or a key path of plain keys on it
/// (`account`, `sender.domain`).
///
/// Only plain keys qualify: a collection operator (`@count`) computes a value, and `self`
/// as a key is read differently by the VM's first key (a dictionary lookup) and by later
/// ones (the value itself); neither is worth a special case here.
enum SubjectPath {
  /// The keys of `e` when it is `SELF` or a key path of plain keys from `SELF`; nil for
  /// anything else (a variable, a function, an index, a key path on another value).
  static func keys(of e: ExpressionSyntax) -> [String]? {
    switch e.kind {
    case .evaluatedObject:
      return []
    case .keyPath(let base, let keys):
      if let base {
        guard case .evaluatedObject = base.kind else { return nil }
      }
      guard keys.allSatisfy(isPlainKey) else { return nil }
      return keys
    default:
      return nil
    }
  }

  static func isPlainKey(_ key: String) -> Bool { !key.isEmpty && !key.hasPrefix("@") && key != "self" }

  /// The value at `keys` in `root` as the VM reads it (a dictionary by byte-exact key,
  /// null through null, a string's `length`, mapped over arrays), or nil where reading
  /// throws (a key on a number): a comparison on that path then fails, which is never a
  /// match. `mapsArray` is set when an array was mapped (the VM charges steps for that; a
  /// group's lookup, which only proposes candidates, is not charged).
  static func value(_ keys: [String], in root: SiftValue, mapsArray: inout Bool) -> SiftValue? {
    var current = root
    var i = 0
    while i < keys.count {
      switch current {
      case .dictionary(let d):
        current = d.literalValue(forKey: keys[i]) ?? .null
      case .null:
        return .null
      case .array:
        // The VM maps the rest of the path over the elements; so does this, unmetered.
        mapsArray = true
        var steps = Int.max
        return try? Semantics.keyPath(keys[i...], on: current, steps: &steps)
      default:
        var steps = Int.max
        guard let v = try? Semantics.value(forKey: keys[i], in: current, steps: &steps) else { return nil }
        current = v
      }
      i += 1
    }
    return current
  }
}
