/// A Swift type whose fields predicates read directly, with no conversion per call. The
/// type publishes a table of its fields once:
///
/// ```swift
/// struct Mail: SiftTyped {
///   var sender: String
///   var priority: Int
///   var tags: [String]
///   var thread: String?
///
///   static let siftFields = SiftFields<Mail>()
///     .field("sender", \.sender)
///     .field("priority", \.priority)
///     .field("tags", \.tags)
///     .field("thread", \.thread)
/// }
///
/// let urgent = try SiftPredicate(format: "priority >= 3 AND ANY tags == 'urgent'", for: Mail.self)
/// urgent.matches(mail)
/// ```
///
/// A predicate compiled `for:` the type resolves each key path to its field when it is
/// compiled (an unknown key, or a comparison no value of the field's type can satisfy
/// without an error, is a compile error with the source range) and reads only the fields it
/// uses, strings in place. Any other predicate evaluates a `SiftTyped` value too, through
/// its ``siftValue`` (a dictionary of every field).
///
/// Declare the table with `static let`, so it is built once.
public protocol SiftTyped: SiftFieldValue, SiftInput {
  /// The fields predicates can read, by name.
  static var siftFields: SiftFields<Self> { get }
}

extension SiftTyped {
  /// A dictionary of every field in ``siftFields``.
  public var siftValue: SiftValue {
    let fields = Self.siftFields.fields
    return withUnsafePointer(to: self) { p in
      let root = UnsafeRawPointer(p)
      var d: [String: SiftValue] = [:]
      d.reserveCapacity(fields.count)
      for f in fields where d[f.name] == nil { d[f.name] = f.read.value(root) }
      return .dictionary(d)
    }
  }

  /// ``SiftFieldKind/dictionary``.
  public static var siftFieldKind: SiftFieldKind { .dictionary }
}

/// The field table of a ``SiftTyped`` type: names and how to read each field. Built once
/// per type, with one ``field(_:_:)-(String,KeyPath<Root,V>)`` call per field; a key path
/// to a stored property of a struct is read in place, anything else through the key path
/// or the closure given.
public struct SiftFields<Root>: @unchecked Sendable {
  // Key paths and closures over `Root` are immutable once built; the table is only read.
  let fields: [FieldLayout.Field]

  /// An empty table.
  public init() { fields = [] }

  private init(_ fields: [FieldLayout.Field]) { self.fields = fields }

  /// The table with one more field, read through `keyPath`. A later field with the same
  /// name replaces an earlier one; a name must not contain a `.` (nested types are reached
  /// with key paths such as `address.city`).
  public func field<V: SiftFieldValue>(_ name: String, _ keyPath: KeyPath<Root, V>) -> SiftFields<Root> {
    adding(FieldLayout.Field(name: name, kind: V.siftFieldKind, read: FieldRead(keyPath)))
  }

  /// The table with one more field, computed by `get` (a derived value, or a property of a
  /// class).
  public func field<V: SiftFieldValue>(_ name: String, _ get: @escaping (Root) -> V) -> SiftFields<Root> {
    adding(FieldLayout.Field(name: name, kind: V.siftFieldKind, read: FieldRead(get)))
  }

  /// The table with one more field of a nested ``SiftTyped`` type: its own fields are
  /// reachable as `name.field`, read in place when both are stored properties.
  public func field<V: SiftTyped>(_ name: String, _ keyPath: KeyPath<Root, V>) -> SiftFields<Root> {
    adding(
      FieldLayout.Field(
        name: name, kind: V.siftFieldKind, read: FieldRead(keyPath),
        nested: FieldRead.nested(V.siftFields.fields, at: keyPath)))
  }

  private func adding(_ field: FieldLayout.Field) -> SiftFields<Root> {
    precondition(!field.name.utf8.contains(UInt8(ascii: ".")), "a field name cannot contain '.': \(field.name)")
    return SiftFields(fields.filter { $0.name != field.name || !$0.name.utf8.elementsEqual(field.name.utf8) } + [field])
  }

  /// The field names, in the order they were added.
  public var names: [String] { fields.map(\.name) }
}
