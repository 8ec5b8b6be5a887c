/// How key paths become slot numbers at compile time: through a record schema (the first
/// key is a field), or through a ``SiftTyped`` type's layout (the longest dotted prefix that
/// names a field, so `address.city` can be one slot read in place).
enum SlotResolver {
  case schema(SiftSchema)
  case layout(FieldLayout)

  /// The slot for the first keys of a key path, and how many keys it takes.
  func resolve(_ keys: ArraySlice<String>) -> (slot: Int, consumed: Int)? {
    switch self {
    case .schema(let schema):
      guard let first = keys.first, let slot = schema.slot(for: first) else { return nil }
      return (slot, 1)
    case .layout(let layout): return layout.resolve(keys)
    }
  }

  /// The compile error for a first key that is not a field.
  func unknownField(_ key: String, at range: SourceRange) -> SyntaxError {
    switch self {
    case .schema(let schema):
      return SyntaxError(
        "'\(key)' is not a field of the schema", at: range,
        hint: "the schema's fields are \(schema.fields.joined(separator: ", "))")
    case .layout(let layout):
      return SyntaxError(
        "'\(key)' is not a field of \(layout.typeName)", at: range,
        hint: "the fields of \(layout.typeName) are \(layout.topLevelNames.joined(separator: ", "))")
    }
  }

  /// The layout, for predicates compiled for a typed value.
  var layout: FieldLayout? {
    if case .layout(let layout) = self { return layout }
    return nil
  }
}
