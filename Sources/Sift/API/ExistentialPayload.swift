/// The value inside an `Any` whose dynamic type is already known, without the runtime's
/// cast machinery. `as!` from `Any` to a concrete type costs a call into the runtime that
/// looks the type up again (about 35 ns measured here for a `String`); a value of up to
/// three words that can be moved bitwise (`String`, `Int`, `Double`, `Bool`, arrays and
/// dictionaries) is stored inline in the `Any` container, so it can be loaded from there.
///
/// This reads the existential container's layout (ABI-stable: a three-word inline buffer,
/// then the type), so ``isAvailable`` checks it once on known values; without it, and for
/// other types, the cast is used.
enum ExistentialPayload {
  /// Whether inline payloads load as assumed (checked on known values).
  static let isAvailable: Bool = {
    #if _pointerBitWidth(_64)
      guard MemoryLayout<Any>.size == 32 else { return false }
      let text: Any = String(repeating: "x", count: 40)
      let number: Any = 0x1234_5678
      let list: Any = ["a", "b"]
      let map: Any = ["k": 1] as [String: Any]
      guard
        withUnsafePointer(to: text, { UnsafeRawPointer($0).load(fromByteOffset: 24, as: ObjectIdentifier.self) })
          == ObjectIdentifier(String.self)
      else { return false }
      return withUnsafeBytes(of: text) { $0.load(as: String.self) } == String(repeating: "x", count: 40)
        && withUnsafeBytes(of: number) { $0.load(as: Int.self) } == 0x1234_5678
        && withUnsafeBytes(of: list) { $0.load(as: [String].self) } == ["a", "b"]
        && withUnsafeBytes(of: map) { $0.load(as: [String: Any].self) }.count == 1
    #else
      return false
    #endif
  }()

  /// The metadata of `value`'s dynamic type, read from the container (`type(of:)` on an
  /// `Any` calls into the runtime); nil when the layout is not the one assumed.
  @inline(__always)
  static func typeID(_ value: Any) -> ObjectIdentifier? {
    guard isAvailable else { return nil }
    return withUnsafePointer(to: value) { p in
      UnsafeRawPointer(p).load(fromByteOffset: 24, as: ObjectIdentifier.self)
    }
  }

  /// `value as! T`, for a `value` whose dynamic type the caller has checked is `T` (one of
  /// the inline, bitwise-movable types above). The container itself must say `T`: an `Any`
  /// holding another `Any` (what a generic caller passes as `x as Any?` when its `x` is
  /// already an `Any`) has the dynamic type of the innermost value but holds a box, so it
  /// takes the cast.
  @inline(__always)
  static func load<T>(_ value: Any, as type: T.Type) -> T {
    guard MemoryLayout<T>.size <= 24, typeID(value) == ObjectIdentifier(T.self) else { return value as! T }
    return withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: T.self) }
  }
}
