extension SiftPredicate {
  /// Parses and compiles `format` for values of `type`: key paths resolve to its fields
  /// now, and evaluating a `Root` reads only the fields the predicate uses, strings in
  /// place. A key that is not a field, or a comparison no value of a field's type can
  /// satisfy (`age BEGINSWITH 'a'` on an `Int`), throws a ``PredicateSyntaxError`` with the
  /// range, as a syntax error does. `options.schema` is not used. The field table is not
  /// part of the predicate's `Codable` form: a decoded predicate is an untyped one.
  public init<Root: SiftTyped>(
    format: String, arguments: [SiftValue] = [], for type: Root.Type, options: CompileOptions = CompileOptions()
  ) throws(PredicateSyntaxError) {
    try self.init(format: format, arguments: arguments, fields: Root.siftFields, options: options)
  }

  /// Parses and compiles `format` for values read through `fields`, a table other than the
  /// type's own ``SiftTyped/siftFields`` (one built at run time, or a second view of a
  /// type); otherwise as ``init(format:arguments:for:options:)``.
  public init<Root: SiftTyped>(
    format: String, arguments: [SiftValue] = [], fields: SiftFields<Root>, options: CompileOptions = CompileOptions()
  ) throws(PredicateSyntaxError) {
    var options = options
    options.schema = nil
    options.layout = FieldLayout(fields)
    try self.init(format: format, arguments: arguments, substitutions: [:], options: options)
  }

  // A typed value is evaluated through ``SiftInput`` (``SiftTyped/siftEvaluate(_:variables:)``):
  // compiled for `Root`, the predicate reads the fields in place; compiled without a type,
  // it evaluates the value's ``SiftTyped/siftValue`` (every field as a dictionary), with the
  // same result; compiled for another type (or a record schema), it throws a `typeMismatch`
  // error, as a record of another schema does.

  /// Inlined into the caller, so the value is borrowed where it lies: a generic call into
  /// the library copied the whole struct (and retained every field) to take its address.
  @inlinable @inline(__always)
  func runTyped<Root: SiftTyped>(_ value: Root, variables: [String: SiftValue]?) throws(EvaluationError) -> Bool {
    try withUnsafePointer(to: value) { (p) throws(EvaluationError) in
      try runTyped(
        UnsafeRawPointer(p), ObjectIdentifier(Root.self), variables: variables, typeName: { "\(Root.self)" },
        dictionary: { value.siftValue })
    }
  }

  /// The typed evaluation of the value at `root`, of the type `type`.
  @usableFromInline
  func runTyped(
    _ root: UnsafeRawPointer, _ type: ObjectIdentifier, variables: [String: SiftValue]?, typeName: () -> String,
    dictionary: () -> SiftValue
  ) throws(EvaluationError) -> Bool {
    guard let layout = layoutRef else {
      if options.schema != nil {
        throw EvaluationError(
          .typeMismatch, "this predicate was compiled for a schema; evaluate it with a SiftRecord", at: syntax.range)
      }
      return try run(dictionary(), variables: variables)
    }
    guard layout._withUnsafeGuaranteedRef({ $0.rootType == type }) else {
      throw EvaluationError(
        .typeMismatch, "this predicate was compiled for \(layout.takeUnretainedValue().typeName), not \(typeName())",
        at: syntax.range)
    }
    return try run(TypedReader(base: root, layout: layout), variables: variables)
  }
}
