import Foundation

/// An `Encoder` whose output is a ``SiftValue``: keyed containers become dictionaries,
/// unkeyed ones arrays, and `Date`, `URL` and `Decimal` their natural values (a `Date` a
/// date, not the number its own `encode(to:)` writes). Used for the values of the keys a
/// predicate reads from an `Encodable` input (``RecordEncoder``), and for a whole value
/// when the predicate reads `SELF`.
enum ValueEncoding {
  /// The value of `value`.
  static func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey] = []) throws -> SiftValue {
    if let direct = direct(value) { return direct }
    let node = EncodingNode()
    try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    return node.value
  }

  /// The value of `value`, found under `key` (the coding path is only built when a nested
  /// encoder needs it).
  static func encode<T: Encodable, Key: CodingKey>(_ value: T, under key: Key) throws -> SiftValue {
    if let direct = direct(value) { return direct }
    let node = EncodingNode()
    try value.encode(to: NodeEncoder(node: node, codingPath: [key]))
    return node.value
  }

  /// Values whose Sift form is not what their `encode(to:)` writes, and the common leaves,
  /// without an encoder.
  @inline(__always)
  static func direct<T: Encodable>(_ value: T) -> SiftValue? {
    switch ObjectIdentifier(T.self) {
    case ObjectIdentifier(String.self): return .string(value as! String)
    case ObjectIdentifier(Int.self): return .int(value as! Int)
    case ObjectIdentifier(Double.self): return .double(value as! Double)
    case ObjectIdentifier(Bool.self): return .bool(value as! Bool)
    case ObjectIdentifier([String].self): return .array((value as! [String]).map(SiftValue.string))
    case ObjectIdentifier(Date.self): return (value as! Date).siftValue
    case ObjectIdentifier(SiftValue.self): return value as? SiftValue
    case ObjectIdentifier(URL.self): return .string((value as! URL).absoluteString)
    case ObjectIdentifier(Decimal.self): return .double(NSDecimalNumber(decimal: value as! Decimal).doubleValue)
    default: return nil
    }
  }
}

/// Where an encoder writes: one value, or the entries of a keyed or unkeyed container
/// (children that are containers themselves are nodes of their own).
final class EncodingNode {
  enum Child {
    case value(SiftValue)
    case node(EncodingNode)

    var value: SiftValue {
      switch self {
      case .value(let v): v
      case .node(let n): n.value
      }
    }
  }

  enum Content {
    case empty
    case single(SiftValue)
    case keyed([String: Child])
    case unkeyed([Child])
  }

  var content = Content.empty

  var value: SiftValue {
    switch content {
    case .empty: return .dictionary([:])
    case .single(let v): return v
    case .keyed(let entries): return .dictionary(entries.mapValues(\.value))
    case .unkeyed(let elements): return .array(elements.map(\.value))
    }
  }

  func set(_ key: String, _ child: Child) {
    if case .keyed(var entries) = content {
      content = .empty
      entries[key] = child
      content = .keyed(entries)
    } else {
      content = .keyed([key: child])
    }
  }

  func append(_ child: Child) {
    if case .unkeyed(var elements) = content {
      content = .empty
      elements.append(child)
      content = .unkeyed(elements)
    } else {
      content = .unkeyed([child])
    }
  }

  var count: Int {
    if case .unkeyed(let elements) = content { return elements.count }
    return 0
  }
}

/// The encoder over one ``EncodingNode``.
struct NodeEncoder: Encoder {
  let node: EncodingNode
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .keyed = node.content {} else { node.content = .keyed([:]) }
    return KeyedEncodingContainer(NodeKeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
    return NodeUnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    NodeSingleValueContainer(node: node, codingPath: codingPath)
  }

  /// The child for a value: a leaf directly, a container as a node of its own.
  static func child<T: Encodable>(_ value: T, _ codingPath: [any CodingKey]) throws -> EncodingNode.Child {
    if let direct = ValueEncoding.direct(value) { return .value(direct) }
    let node = EncodingNode()
    try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    return .node(node)
  }
}

struct NodeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: EncodingNode
  var codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { node.set(key.stringValue, .value(.null)) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { node.set(key.stringValue, .value(.bool(value))) }
  mutating func encode(_ value: String, forKey key: Key) throws { node.set(key.stringValue, .value(.string(value))) }
  mutating func encode(_ value: Double, forKey key: Key) throws { node.set(key.stringValue, .value(.double(value))) }
  mutating func encode(_ value: Float, forKey key: Key) throws { node.set(key.stringValue, .value(value.siftValue)) }
  mutating func encode(_ value: Int, forKey key: Key) throws { node.set(key.stringValue, .value(.int(value))) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { node.set(key.stringValue, .value(value.siftValue)) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { node.set(key.stringValue, .value(value.siftValue)) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { node.set(key.stringValue, .value(value.siftValue)) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { node.set(key.stringValue, .value(value.siftValue)) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { node.set(key.stringValue, .value(value.siftValue)) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { node.set(key.stringValue, .value(value.siftValue)) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { node.set(key.stringValue, .value(value.siftValue)) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { node.set(key.stringValue, .value(value.siftValue)) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { node.set(key.stringValue, .value(value.siftValue)) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    node.set(key.stringValue, try NodeEncoder.child(value, codingPath + [key]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = EncodingNode()
    node.set(key.stringValue, .node(child))
    return NodeEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = EncodingNode()
    node.set(key.stringValue, .node(child))
    return NodeEncoder(node: child, codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let child = EncodingNode()
    node.set(key.stringValue, .node(child))
    return NodeEncoder(node: child, codingPath: codingPath + [key])
  }
}

/// An index in an unkeyed container, as a coding key.
struct IndexKey: CodingKey {
  var stringValue: String { "\(intValue!)" }
  var intValue: Int?
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

struct NodeUnkeyedContainer: UnkeyedEncodingContainer {
  let node: EncodingNode
  var codingPath: [any CodingKey]
  var count: Int { node.count }

  mutating func encodeNil() throws { node.append(.value(.null)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    node.append(try NodeEncoder.child(value, codingPath + [IndexKey(count)]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = EncodingNode()
    let path = codingPath + [IndexKey(count)]
    node.append(.node(child))
    return NodeEncoder(node: child, codingPath: path).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = EncodingNode()
    let path = codingPath + [IndexKey(count)]
    node.append(.node(child))
    return NodeEncoder(node: child, codingPath: path).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let child = EncodingNode()
    let path = codingPath + [IndexKey(count)]
    node.append(.node(child))
    return NodeEncoder(node: child, codingPath: path)
  }
}

struct NodeSingleValueContainer: SingleValueEncodingContainer {
  let node: EncodingNode
  var codingPath: [any CodingKey]

  static func number<T>(_ value: T) -> SiftValue? {
    if let i = value as? any FixedWidthInteger {
      if let exact = Int(exactly: i) { return .int(exact) }
      return .double(Double(i))
    }
    if let f = value as? any BinaryFloatingPoint { return .double(Double(f)) }
    return nil
  }

  mutating func encodeNil() throws { node.content = .single(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    if let direct = ValueEncoding.direct(value) {
      node.content = .single(direct)
    } else if let number = Self.number(value) {
      // Numbers of every width and Float: their own encode(to:) comes back here.
      node.content = .single(number)
    } else {
      try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    }
  }
}
