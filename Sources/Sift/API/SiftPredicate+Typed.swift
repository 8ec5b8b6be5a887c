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

  /// Evaluates against a typed value. Compiled for `Root`, the predicate reads the fields
  /// in place. Compiled without a type, it evaluates the value's ``SiftTyped/siftValue``
  /// (every field as a dictionary), with the same result. Compiled for another type (or
  /// a record schema), it throws a `typeMismatch` error, as a record of another schema does.
  public func evaluate<Root: SiftTyped>(with value: Root, variables: [String: SiftValue] = Dictionary())
    throws(EvaluationError) -> Bool
  {
    try runTyped(value, variables: variables)
  }

  /// Evaluates against a typed value; **returns false when evaluation fails**.
  public func matches<Root: SiftTyped>(_ value: Root) -> Bool {
    (try? runTyped(value, variables: nil)) ?? false
  }

  @inline(__always)
  func runTyped<Root: SiftTyped>(_ value: Root, variables: [String: SiftValue]?) throws(EvaluationError)
    -> Bool
  {
    guard let layout = self.layout else {
      if options.schema != nil {
        throw EvaluationError(
          .typeMismatch, "this predicate was compiled for a schema; evaluate it with a SiftRecord", at: syntax.range)
      }
      return try run(value.siftValue, variables: variables)
    }
    guard layout.rootType == ObjectIdentifier(Root.self) else {
      throw EvaluationError(
        .typeMismatch, "this predicate was compiled for \(layout.typeName), not \(Root.self)", at: syntax.range)
    }
    return try withUnsafePointer(to: value) { (p) throws(EvaluationError) in
      try run(.typed(UnsafeRawPointer(p), Unmanaged.passUnretained(layout)), variables: variables)
    }
  }
}
