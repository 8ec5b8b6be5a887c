import Foundation

/// How one field of a ``SiftTyped`` value is read, given a pointer to the root value: in
/// place at a byte offset (a stored property of a struct, found with
/// `MemoryLayout.offset(of:)`), or through a closure. Reads in place borrow: a string is
/// used where it lies, with no copy and no reference count.
struct FieldRead: @unchecked Sendable {
  /// The types read in place without a closure: what the VM's fast paths test directly.
  enum InPlace: UInt8 {
    case string = 1, int, double, bool, date
    case optionalString, optionalInt, optionalDouble, optionalBool
    /// `[String]`: ANY/ALL string tests walk it without building an array of values.
    case strings
  }

  enum Storage {
    /// A value of an ``InPlace`` type at this offset from the root.
    case inPlace(Int, InPlace)
    /// Another type at this offset: the closure converts the value at the pointer it is
    /// given (the field's own address).
    case converted(Int, (UnsafeRawPointer) -> SiftValue)
    /// Through closures given the root's address: the value, and for the fast paths the
    /// string or strings when the field has that type.
    case computed(
      value: (UnsafeRawPointer) -> SiftValue, string: ((UnsafeRawPointer) -> String)?,
      strings: ((UnsafeRawPointer) -> [String])?)
  }

  let storage: Storage

  init(_ storage: Storage) { self.storage = storage }

  /// Reads `keyPath` in place when it is a stored property of a struct, else through it.
  init<Root, V: SiftFieldValue>(_ keyPath: KeyPath<Root, V>) {
    guard let offset = MemoryLayout<Root>.offset(of: keyPath) else {
      self.init({ (root: Root) in root[keyPath: keyPath] })
      return
    }
    if let kind = Self.inPlaceKind(V.self) {
      self.init(.inPlace(offset, kind))
    } else {
      self.init(.converted(offset) { p in p.assumingMemoryBound(to: V.self).pointee.siftValue })
    }
  }

  /// Reads through `get`.
  init<Root, V: SiftFieldValue>(_ get: @escaping (Root) -> V) {
    let value: (UnsafeRawPointer) -> SiftValue = { p in get(p.assumingMemoryBound(to: Root.self).pointee).siftValue }
    var string: ((UnsafeRawPointer) -> String)? = nil
    var strings: ((UnsafeRawPointer) -> [String])? = nil
    if V.self == String.self {
      string = { p in unsafeBitCast(get(p.assumingMemoryBound(to: Root.self).pointee), to: String.self) }
    } else if V.self == [String].self {
      strings = { p in unsafeBitCast(get(p.assumingMemoryBound(to: Root.self).pointee), to: [String].self) }
    }
    self.init(.computed(value: value, string: string, strings: strings))
  }

  static func inPlaceKind<V>(_ type: V.Type) -> InPlace? {
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(String.self): .string
    case ObjectIdentifier(Int.self): .int
    case ObjectIdentifier(Double.self): .double
    case ObjectIdentifier(Bool.self): .bool
    case ObjectIdentifier(Date.self): .date
    case ObjectIdentifier(String?.self): .optionalString
    case ObjectIdentifier(Int?.self): .optionalInt
    case ObjectIdentifier(Double?.self): .optionalDouble
    case ObjectIdentifier(Bool?.self): .optionalBool
    case ObjectIdentifier([String].self): .strings
    default: nil
    }
  }

  // MARK: Reading

  /// The field's value, given the root's address.
  func value(_ root: UnsafeRawPointer) -> SiftValue {
    switch storage {
    case .inPlace(let offset, let kind):
      let p = root + offset
      switch kind {
      case .string: return .string(p.assumingMemoryBound(to: String.self).pointee)
      case .int: return .int(p.load(as: Int.self))
      case .double: return .double(p.load(as: Double.self))
      case .bool: return .bool(p.load(as: Bool.self))
      case .date:
        return .date(
          secondsSinceReferenceDate: p.assumingMemoryBound(to: Date.self).pointee.timeIntervalSinceReferenceDate)
      case .optionalString: return p.assumingMemoryBound(to: String?.self).pointee.map(SiftValue.string) ?? .null
      case .optionalInt: return p.assumingMemoryBound(to: Int?.self).pointee.map(SiftValue.int) ?? .null
      case .optionalDouble: return p.assumingMemoryBound(to: Double?.self).pointee.map(SiftValue.double) ?? .null
      case .optionalBool: return p.assumingMemoryBound(to: Bool?.self).pointee.map(SiftValue.bool) ?? .null
      case .strings: return .array(p.assumingMemoryBound(to: [String].self).pointee.map(SiftValue.string))
      }
    case .converted(let offset, let convert): return convert(root + offset)
    case .computed(let value, _, _): return value(root)
    }
  }

  // MARK: Nested types

  /// The fields of a nested ``SiftTyped`` value at `keyPath`, rebased so that they read
  /// from the outer root: `inner` fields (with their own nested fields, named
  /// `field.sub`) come out named relative to the nested value.
  static func nested<Root, V: SiftTyped>(_ inner: [FieldLayout.Field], at keyPath: KeyPath<Root, V>)
    -> [FieldLayout.Field]
  {
    let rebase: (FieldRead) -> FieldRead
    if let offset = MemoryLayout<Root>.offset(of: keyPath) {
      rebase = { $0.moved(by: offset) }
    } else {
      rebase = { $0.through(keyPath) }
    }
    var out: [FieldLayout.Field] = []
    for field in inner {
      out.append(FieldLayout.Field(name: field.name, kind: field.kind, read: rebase(field.read)))
      for child in field.nested {
        out.append(FieldLayout.Field(name: field.name + "." + child.name, kind: child.kind, read: rebase(child.read)))
      }
    }
    return out
  }

  /// The same read from a root `offset` bytes before this one's.
  func moved(by offset: Int) -> FieldRead {
    switch storage {
    case .inPlace(let o, let kind): return FieldRead(.inPlace(o + offset, kind))
    case .converted(let o, let convert): return FieldRead(.converted(o + offset, convert))
    case .computed(let value, let string, let strings):
      return FieldRead(
        .computed(
          value: { value($0 + offset) }, string: string.map { s in { s($0 + offset) } },
          strings: strings.map { s in { s($0 + offset) } }))
    }
  }

  /// The same read, from the value at `keyPath` of a root of another type.
  func through<Root, V>(_ keyPath: KeyPath<Root, V>) -> FieldRead {
    let inner = self
    func with<R>(_ root: UnsafeRawPointer, _ body: (UnsafeRawPointer) -> R) -> R {
      let nested = root.assumingMemoryBound(to: Root.self).pointee[keyPath: keyPath]
      return withUnsafePointer(to: nested) { body(UnsafeRawPointer($0)) }
    }
    var string: ((UnsafeRawPointer) -> String)? = nil
    var strings: ((UnsafeRawPointer) -> [String])? = nil
    switch inner.storage {
    case .inPlace(let o, .string): string = { p in with(p) { ($0 + o).assumingMemoryBound(to: String.self).pointee } }
    case .inPlace(let o, .strings):
      strings = { p in with(p) { ($0 + o).assumingMemoryBound(to: [String].self).pointee } }
    case .computed(_, let s?, _): string = { p in with(p) { s($0) } }
    case .computed(_, _, let s?): strings = { p in with(p) { s($0) } }
    default: break
    }
    return FieldRead(.computed(value: { p in with(p) { inner.value($0) } }, string: string, strings: strings))
  }
}
