extension CompileOptions {
  /// What two compiled predicates or expressions must share to be equal: everything but
  /// the function registry (closures cannot be compared).
  struct ComparableKey: Hashable {
    var parse: ParseOptions
    var schema: SiftSchema?
    var limits: EvaluationLimits
    var layout: ObjectIdentifier?
  }

  var comparableKey: ComparableKey {
    ComparableKey(parse: parse, schema: schema, limits: limits, layout: layout.map(ObjectIdentifier.init))
  }
}

extension SiftPredicate: Hashable {
  /// Equal when the syntax trees (arguments and substitutions bound) and the compile
  /// options, all but the function registry, are equal: `a == 1` parsed from `a = 1`
  /// equals one parsed from `a == 1`.
  public static func == (a: SiftPredicate, b: SiftPredicate) -> Bool {
    a.syntax == b.syntax && a.options.comparableKey == b.options.comparableKey
  }

  /// Hashes the syntax tree.
  public func hash(into hasher: inout Hasher) { hasher.combine(syntax) }
}
