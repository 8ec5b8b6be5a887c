/// Encodes the top-level keys a predicate reads (``ReadKeys``) of an `Encodable` value into
/// the values of a record, and skips every other key without encoding its value: a
/// notification's `tags` and `sender` are encoded for `ANY tags == 'urgent' AND sender
/// ENDSWITH 'x'`, its body and attachments never are. A value that does not encode as a
/// keyed container at the top is encoded whole instead (``whole``).
final class RecordEncoder: Encoder {
  /// The record's keys, in slot order.
  let keys: [String]
  /// One value per key; `nil` for a key the value does not encode (as a missing key is).
  var values: [SiftValue]
  /// Nested containers of read keys, turned into values by ``finish()``.
  private var pending: [(slot: Int, node: EncodingNode)] = []
  /// Set when the top level is an unkeyed or single-value container: the whole value.
  private(set) var whole: EncodingNode?

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(keys: [String]) {
    self.keys = keys
    values = Array(repeating: .null, count: keys.count)
  }

  /// The slot of `key`, byte for byte (keys are few: a scan beats hashing the key).
  @inline(__always)
  func slot(_ key: String) -> Int? {
    let n = key.utf8.count
    for i in keys.indices where keys[i].utf8.count == n && keys[i] == key && sameBytes(keys[i], key) { return i }
    return nil
  }

  /// Fills the values of nested containers once they are complete.
  func finish() {
    for (slot, node) in pending { values[slot] = node.value }
    pending = []
  }

  func pendingNode(for slot: Int) -> EncodingNode {
    let node = EncodingNode()
    pending.append((slot, node))
    return node
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if let whole { return NodeEncoder(node: whole, codingPath: []).container(keyedBy: type) }
    return KeyedEncodingContainer(RecordContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let node = whole ?? EncodingNode()
    whole = node
    return NodeEncoder(node: node, codingPath: []).unkeyedContainer()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    let node = whole ?? EncodingNode()
    whole = node
    return NodeEncoder(node: node, codingPath: []).singleValueContainer()
  }
}

/// The top-level keyed container of a ``RecordEncoder``: a read key's value goes to its
/// slot, any other key is dropped before its value is encoded.
struct RecordContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: RecordEncoder
  var codingPath: [any CodingKey] { [] }

  @inline(__always)
  private func put(_ value: @autoclosure () -> SiftValue, _ key: Key) {
    if let slot = encoder.slot(key.stringValue) { encoder.values[slot] = value() }
  }

  mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { put(value.siftValue, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(value), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { put(value.siftValue, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { put(value.siftValue, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { put(value.siftValue, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { put(value.siftValue, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { put(value.siftValue, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { put(value.siftValue, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { put(value.siftValue, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { put(value.siftValue, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { put(value.siftValue, key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    guard let slot = encoder.slot(key.stringValue) else { return }
    encoder.values[slot] = try ValueEncoding.encode(value, codingPath: [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    guard let slot = encoder.slot(key.stringValue) else { return DiscardingEncoder().container(keyedBy: keyType) }
    return NodeEncoder(node: encoder.pendingNode(for: slot), codingPath: [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    guard let slot = encoder.slot(key.stringValue) else { return DiscardingEncoder().unkeyedContainer() }
    return NodeEncoder(node: encoder.pendingNode(for: slot), codingPath: [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    guard let slot = encoder.slot(key.stringValue) else { return DiscardingEncoder() }
    return NodeEncoder(node: encoder.pendingNode(for: slot), codingPath: [key])
  }
}

/// Where the containers of a key no predicate reads write: everything is dropped, and no
/// value given to them is encoded.
struct DiscardingEncoder: Encoder {
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(Keyed<Key>())
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed() }
  func singleValueContainer() -> any SingleValueEncodingContainer { Single() }

  struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
      -> KeyedEncodingContainer<NestedKey>
    { KeyedEncodingContainer(Keyed<NestedKey>()) }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Unkeyed() }
    mutating func superEncoder() -> any Encoder { DiscardingEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { DiscardingEncoder() }
  }

  struct Unkeyed: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count = 0
    mutating func encodeNil() { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) { count += 1 }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    { KeyedEncodingContainer(Keyed<NestedKey>()) }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed() }
    mutating func superEncoder() -> any Encoder { DiscardingEncoder() }
  }

  struct Single: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() {}
    mutating func encode<T: Encodable>(_ value: T) {}
  }
}
