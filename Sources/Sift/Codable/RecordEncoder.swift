/// Encodes the top-level keys a predicate reads (``ReadKeys``) of an `Encodable` value into
/// the values of a record, and skips every other key without encoding its value: a
/// notification's `tags` and `sender` are encoded for `ANY tags == 'urgent' AND sender
/// ENDSWITH 'x'`, its body and attachments never are. A value that does not encode as a
/// keyed container at the top is encoded whole instead (``State/whole``).
///
/// The encoder is a struct over state the caller keeps on its stack (the values too), so
/// a call allocates only the container box the standard library makes and the values of
/// the read keys that are arrays or dictionaries.
struct RecordEncoder: Encoder {
  /// What the encoders and containers of one call share.
  struct State {
    /// The record's keys, in slot order, and their small-string words (nil for a key
    /// without them), so most keys are found by comparing two words.
    let keys: RecordKeys
    /// One value per key, initialized to `nil` (as a missing key is).
    let values: UnsafeMutablePointer<SiftValue>
    /// Nested containers of read keys, turned into values by ``finish()``.
    var pending: [(slot: Int, node: EncodingNode)] = []
    /// Set when the top level is an unkeyed or single-value container: the whole value.
    var whole: EncodingNode?

    /// Fills the values of nested containers once they are complete.
    mutating func finish() {
      for (slot, node) in pending { values[slot] = node.value }
      pending = []
    }
  }

  let state: UnsafeMutablePointer<State>

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  @inline(__always)
  func slot(_ key: String) -> Int? { state.pointee.keys.slot(key) }

  func pendingNode(for slot: Int) -> EncodingNode {
    let node = EncodingNode()
    state.pointee.pending.append((slot, node))
    return node
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if let whole = state.pointee.whole { return NodeEncoder(node: whole, codingPath: []).container(keyedBy: type) }
    return KeyedEncodingContainer(RecordContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    NodeEncoder(node: wholeNode(), codingPath: []).unkeyedContainer()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    NodeEncoder(node: wholeNode(), codingPath: []).singleValueContainer()
  }

  private func wholeNode() -> EncodingNode {
    if let whole = state.pointee.whole { return whole }
    let node = EncodingNode()
    state.pointee.whole = node
    return node
  }
}

/// The keys of a record an `Encodable` value is encoded into, made once per predicate.
struct RecordKeys: Sendable {
  let names: [String]
  /// The small-string words of each name (``SmallStringBits``), or nil for a name without.
  let bits: [SmallStringBits.Bits?]
  /// Whether every name has its words: then a small key that matches none is no name.
  let allSmall: Bool

  init(_ names: [String]) {
    self.names = names
    bits = names.map(SmallStringBits.smallBits(of:))
    allSmall = bits.allSatisfy { $0 != nil }
  }

  /// The slot of `key`, byte for byte. Keys are few, so a scan beats hashing; a coding key's
  /// name is usually a small string, compared by its two words.
  @inline(__always)
  func slot(_ key: String) -> Int? {
    if allSmall {
      let b = SmallStringBits.bits(key)
      if SmallStringBits.isSmall(b) {
        for i in bits.indices where bits[i]!.0 == b.0 && bits[i]!.1 == b.1 { return i }
        return nil
      }
    }
    let n = key.utf8.count
    for i in names.indices where names[i].utf8.count == n && names[i] == key && sameBytes(names[i], key) { return i }
    return nil
  }
}

/// The top-level keyed container of a ``RecordEncoder``: a read key's value goes to its
/// slot, any other key is dropped before its value is encoded.
struct RecordContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: RecordEncoder
  var codingPath: [any CodingKey] { [] }

  @inline(__always)
  private func put(_ value: @autoclosure () -> SiftValue, _ key: Key) {
    if let slot = encoder.slot(key.stringValue) { encoder.state.pointee.values[slot] = value() }
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
    encoder.state.pointee.values[slot] = try ValueEncoding.encode(value, under: key)
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
