/// How a predicate evaluates an `Encodable` value: the keys it reads are encoded into a
/// record, through a copy of the predicate compiled for that record's schema.
enum EncodingPlan: Sendable {
  /// Encode these keys into a record and evaluate it with `predicate`.
  case record(keys: RecordKeys, schema: SiftSchema, predicate: SiftPredicate)
  /// Encode the whole value (the predicate reads `SELF`).
  case whole
  /// The predicate was compiled for a typed value: an `Encodable` one is not of its type.
  case typed(String)

  init(_ predicate: SiftPredicate) {
    if let layout = predicate.layout {
      self = .typed(layout.typeName)
    } else if let schema = predicate.options.schema {
      self = .record(keys: RecordKeys(schema.fields), schema: schema, predicate: predicate)
    } else if let keys = ReadKeys.topLevel(predicate.syntax) {
      let schema = SiftSchema(fields: keys)
      var options = predicate.options
      options.schema = schema
      // The same text compiled again for the schema; it compiled once, so it compiles.
      guard
        let bound = try? SiftPredicate(
          format: predicate.format, arguments: predicate.arguments, substitutions: predicate.substitutions,
          options: options)
      else {
        self = .whole
        return
      }
      self = .record(keys: RecordKeys(keys), schema: schema, predicate: bound)
    } else {
      self = .whole
    }
  }
}

extension SiftPredicate {
  /// Evaluates against an `Encodable` value, with no field table: a purpose-built encoder
  /// writes only the top-level keys the predicate reads into a record (their values
  /// encoded in full), and never encodes the others. A `Date` is a date, a `URL` its
  /// string. A predicate that reads `SELF` as a whole encodes the whole value. An encoding
  /// error is an `invalidArgument` evaluation error.
  public func evaluate<T: Encodable>(with value: T, variables: [String: SiftValue] = Dictionary())
    throws(EvaluationError) -> Bool
  {
    try runEncodable(value, variables: variables)
  }

  /// Evaluates against an `Encodable` value; **returns false when evaluation fails**.
  public func matches<T: Encodable>(_ value: T) -> Bool { (try? runEncodable(value, variables: nil)) ?? false }

  /// A ``SiftInput`` that is also `Encodable` (a ``SiftTyped`` or ``SiftKeyValueCoding``
  /// type, a `String`, a ``SiftValue``) is read as its ``SiftInput`` kind, never encoded.
  @inlinable
  public func evaluate(with input: some SiftInput & Encodable, variables: [String: SiftValue] = Dictionary())
    throws(EvaluationError) -> Bool
  {
    try input.siftEvaluate(self, variables: variables)
  }

  /// A ``SiftInput`` that is also `Encodable` is read as its ``SiftInput`` kind;
  /// **returns false when evaluation fails**.
  @inlinable
  public func matches(_ input: some SiftInput & Encodable) -> Bool {
    (try? input.siftEvaluate(self, variables: nil)) ?? false
  }

  private func runEncodable<T: Encodable>(_ value: T, variables: [String: SiftValue]?) throws(EvaluationError) -> Bool {
    switch encodingPlan {
    case .typed(let name):
      throw EvaluationError(.typeMismatch, "this predicate was compiled for \(name), not \(T.self)", at: syntax.range)
    case .whole:
      return try run(try Self.encodeWhole(value), variables: variables)
    case .record(let keys, let schema, let bound):
      let count = keys.names.count
      return try withUnsafeTemporaryAllocation(of: SiftValue.self, capacity: max(count, 1)) {
        (values) throws(EvaluationError) -> Bool in
        values.initialize(repeating: .null)
        defer { values.deinitialize() }
        var state = RecordEncoder.State(keys: keys, values: values.baseAddress!)
        return try withUnsafeMutablePointer(to: &state) { (p) throws(EvaluationError) -> Bool in
          do {
            try value.encode(to: RecordEncoder(state: p))
          } catch {
            throw Self.encodingFailed(error, T.self)
          }
          if let whole = p.pointee.whole {
            // Not a keyed container at the top: the predicate sees the whole value.
            guard options.schema == nil else {
              throw EvaluationError(
                .typeMismatch, "\(T.self) does not encode as keyed fields, so it is no record of the schema",
                at: syntax.range)
            }
            return try run(whole.value, variables: variables)
          }
          p.pointee.finish()
          return try bound.run(
            schema, UnsafeBufferPointer(start: values.baseAddress, count: count), variables: variables)
        }
      }
    }
  }

  private static func encodeWhole<T: Encodable>(_ value: T) throws(EvaluationError) -> SiftValue {
    do {
      return try ValueEncoding.encode(value)
    } catch {
      throw encodingFailed(error, T.self)
    }
  }

  private static func encodingFailed(_ error: any Error, _ type: Any.Type) -> EvaluationError {
    EvaluationError(.invalidArgument, "encoding a \(type) failed: \(error)")
  }
}
