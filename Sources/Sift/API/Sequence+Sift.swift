extension Sequence {
  /// The elements `predicate` matches, like `NSArray.filtered(using:)`; an element whose
  /// evaluation fails is left out (``SiftPredicate/matches(_:)``). Each element goes
  /// through the fastest input its type allows, chosen once: a ``SiftInput`` (`String`,
  /// ``SiftValue``, ``SiftRecord``, a ``SiftTyped`` or ``SiftKeyValueCoding`` type) as
  /// itself, an `Encodable` one through the encoder, anything else as Foundation values.
  public func filter(_ predicate: SiftPredicate) -> [Element] {
    if let input = Element.self as? any SiftInput.Type { return filterInput(predicate, input) }
    if let encodable = Element.self as? any Encodable.Type { return filterEncodable(predicate, encodable) }
    return filter { predicate.matches($0 as Any?) }
  }

  private func filterInput<T: SiftInput>(_ predicate: SiftPredicate, _: T.Type) -> [Element] {
    // Contiguous storage (an array) goes through the batch tier; the elements are `T`.
    let batched = withContiguousStorageIfAvailable { buffer in
      unsafeBitCast(buffer.withMemoryRebound(to: T.self) { predicate.filter($0) }, to: [Element].self)
    }
    return batched ?? filter { predicate.matches($0 as! T) }
  }

  private func filterEncodable<T: Encodable>(_ predicate: SiftPredicate, _: T.Type) -> [Element] {
    filter { predicate.matches($0 as! T) }
  }
}
