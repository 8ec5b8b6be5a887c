extension BuiltinSelectors {
  /// Whether `FUNCTION(receiver, name, …)` with `argumentCount` arguments after the
  /// receiver (a custom selector `lhs name: rhs` has one) reaches a built-in when nothing is
  /// registered under `name`: exactly when ``call(_:_:)`` answers instead of returning nil,
  /// known from the name alone, without calling it. A built-in's name is its Objective-C
  /// selector, which has one colon per argument (`length`, `hasPrefix:`).
  ///
  /// For tools that check a predicate before any evaluation (`sift route` reports a rule
  /// whose every evaluation would fail with `unknownFunction`).
  package static func answers(_ name: String, argumentCount: Int) -> Bool {
    isBuiltin(name) && name.utf8.count(where: { $0 == UInt8(ascii: ":") }) == argumentCount
  }
}
