/// The fields of a ``SiftTyped`` type as a predicate compiled for it sees them: every field
/// of the table, and every field of a nested typed field as `outer.inner`, each with a slot
/// number. Key paths resolve to slots at compile time (the longest dotted prefix that is a
/// field); the VM reads a slot through its ``FieldRead``.
final class FieldLayout: @unchecked Sendable {
  /// One field of a table: its name, kind and read, and for a nested typed field the
  /// fields under it (named relative to it).
  struct Field: @unchecked Sendable {
    var name: String
    var kind: SiftFieldKind
    var read: FieldRead
    var nested: [Field] = []
  }

  /// The root type, so a value of another type is never read through this layout.
  let rootType: ObjectIdentifier
  /// The root type's name, for diagnostics.
  let typeName: String
  /// Every field, nested ones included, in slot order.
  let flat: [Field]
  /// The slot of each name in ``flat``.
  let slots: [String: Int]
  /// The most keys a dotted name spans.
  let depth: Int
  /// The names (dotted) of nested typed fields: every key under them is in ``flat``.
  let tables: Set<String>
  /// Per slot, how the VM's fast paths read the field in place: trivial values the VM
  /// copies without touching the reads' closures (copying a ``FieldRead`` retained them).
  let access: UnsafeBufferPointer<InPlaceAccess>

  /// A field read in place: its ``FieldRead/InPlace`` kind (nil when the field is not) and
  /// its offset from the root.
  struct InPlaceAccess {
    var kind: FieldRead.InPlace?
    var offset: Int
  }

  init<Root>(_ table: SiftFields<Root>) {
    rootType = ObjectIdentifier(Root.self)
    typeName = String(describing: Root.self)
    var flat: [Field] = []
    var tables: Set<String> = []
    for field in table.fields {
      flat.append(field)
      for child in field.nested {
        flat.append(Field(name: field.name + "." + child.name, kind: child.kind, read: child.read))
      }
    }
    // Every dotted prefix of a name is a nested table, all of whose fields are listed.
    for f in flat {
      var name = Substring(f.name)
      while let dot = name.lastIndex(of: ".") {
        name = name[..<dot]
        tables.insert(String(name))
      }
    }
    var slots: [String: Int] = [:]
    self.tables = tables
    for (i, f) in flat.enumerated() where slots[f.name] == nil { slots[f.name] = i }
    self.flat = flat
    self.slots = slots
    depth = flat.map { $0.name.utf8.count { $0 == UInt8(ascii: ".") } + 1 }.max() ?? 1
    access = UnsafeBufferPointer(frozenCopyOf: flat) { field in
      if case .inPlace(let offset, let kind) = field.read.storage { return InPlaceAccess(kind: kind, offset: offset) }
      return InPlaceAccess(kind: nil, offset: 0)
    }
  }

  deinit { access.deallocate() }

  /// The slot of the longest prefix of `keys` that names a field, and how many keys it
  /// takes; nil when the first key is not a field.
  func resolve(_ keys: ArraySlice<String>) -> (slot: Int, consumed: Int)? {
    var count = min(keys.count, depth)
    while count > 0 {
      let prefix = keys.prefix(count)
      if !prefix.contains(where: \.isCollectionOperator) {
        let name = prefix.joined(separator: ".")
        if let slot = slots[name], flat[slot].name.utf8.elementsEqual(name.utf8) { return (slot, count) }
      }
      count -= 1
    }
    return nil
  }

  /// The error for `keys[consumed]` when the resolved prefix is a nested typed value that
  /// has no such field (every field of a nested table is in the layout, so the key can
  /// only be a typing mistake); nil when the key may be read at run time.
  func unknownNestedKey(_ keys: ArraySlice<String>, consumed: Int, at range: SourceRange) -> SyntaxError? {
    guard consumed < keys.count else { return nil }
    let prefix = keys.prefix(consumed).joined(separator: ".")
    let key = keys[keys.startIndex + consumed]
    guard tables.contains(prefix), !key.isCollectionOperator, key != "self" else { return nil }
    let children = flat.map(\.name).filter {
      $0.hasPrefix(prefix + ".") && !$0.dropFirst(prefix.count + 1).contains(".")
    }
    return SyntaxError(
      "'\(key)' is not a field of '\(prefix)' in \(typeName)", at: range,
      hint: "its fields are \(children.map { String($0.dropFirst(prefix.count + 1)) }.joined(separator: ", "))")
  }

  /// The top-level field names, for the hint of an unknown key.
  var topLevelNames: [String] { flat.map(\.name).filter { !$0.utf8.contains(UInt8(ascii: ".")) } }

  /// The root as a dictionary of its top-level fields (what `SELF` is).
  func dictionary(_ root: UnsafeRawPointer) -> SiftValue {
    var d: [String: SiftValue] = [:]
    for f in flat where !f.name.utf8.contains(UInt8(ascii: ".")) && d[f.name] == nil { d[f.name] = f.read.value(root) }
    return .dictionary(d)
  }
}
