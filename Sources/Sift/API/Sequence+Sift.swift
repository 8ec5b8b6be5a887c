extension Sequence {
  /// The elements `predicate` matches, like `NSArray.filtered(using:)`; an element whose
  /// evaluation fails is left out (``SiftPredicate/matches(_:)-(SiftValue)``). Each element
  /// goes through the fastest input its type allows, chosen once: a ``SiftValue``,
  /// ``SiftRecord`` or `String` directly, a ``SiftTyped`` type through its field table, a
  /// ``SiftKeyValueCoding`` type through its lookups, an `Encodable` one through the
  /// encoder, anything else as Foundation values.
  public func filter(_ predicate: SiftPredicate) -> [Element] {
    if Element.self == SiftValue.self { return filter { predicate.matches($0 as! SiftValue) } }
    if Element.self == SiftRecord.self { return filter { predicate.matches($0 as! SiftRecord) } }
    if Element.self == String.self { return filter { predicate.matches($0 as! String) } }
    if let typed = Element.self as? any SiftTyped.Type { return filterTyped(predicate, typed) }
    if let kvc = Element.self as? any SiftKeyValueCoding.Type { return filterKVC(predicate, kvc) }
    if let encodable = Element.self as? any Encodable.Type { return filterEncodable(predicate, encodable) }
    return filter { predicate.matches($0 as Any?) }
  }

  private func filterTyped<T: SiftTyped>(_ predicate: SiftPredicate, _: T.Type) -> [Element] {
    filter { predicate.matches($0 as! T) }
  }

  private func filterKVC<T: SiftKeyValueCoding>(_ predicate: SiftPredicate, _: T.Type) -> [Element] {
    filter { predicate.matches($0 as! T) }
  }

  private func filterEncodable<T: Encodable>(_ predicate: SiftPredicate, _: T.Type) -> [Element] {
    filter { predicate.matches($0 as! T) }
  }
}
