/// A value a predicate is evaluated against in place, the one input ``SiftPredicate``'s
/// `evaluate(with:variables:)` and `matches(_:)` take: `String` (as `SELF`), ``SiftValue``,
/// ``SiftRecord``, and every ``SiftTyped`` and ``SiftKeyValueCoding`` type (which get their
/// conformance from those protocols). Two kinds of input keep overloads of their own
/// because Swift cannot make them conform: `Encodable` values (the protocol is not Sift's)
/// and Foundation values as `Any?` (NSPredicate's own signature).
public protocol SiftInput {
  /// Evaluates `predicate` against this value, read the fastest way its kind allows;
  /// `variables` nil for none. `evaluate(with:)` and `matches(_:)` call it; call those.
  func siftEvaluate(_ predicate: SiftPredicate, variables: [String: SiftValue]?) throws(EvaluationError) -> Bool
}

extension String: SiftInput {
  /// `SELF` is the string (the Focus case: `SELF IN %@` against a notification's
  /// filterCriteria); a one-test program runs as a kernel on its bytes.
  @inlinable
  public func siftEvaluate(_ predicate: SiftPredicate, variables: [String: SiftValue]?) throws(EvaluationError)
    -> Bool
  {
    try predicate.run(string: self, variables: variables)
  }
}

extension SiftValue: SiftInput {
  /// A JSON-like value (dictionaries make key paths work).
  @inlinable
  public func siftEvaluate(_ predicate: SiftPredicate, variables: [String: SiftValue]?) throws(EvaluationError)
    -> Bool
  {
    try predicate.run(self, variables: variables)
  }
}

extension SiftRecord: SiftInput {
  /// A schema-bound record (fastest when the predicate was compiled with its schema); a
  /// record of another schema is a `typeMismatch` error.
  @inlinable
  public func siftEvaluate(_ predicate: SiftPredicate, variables: [String: SiftValue]?) throws(EvaluationError)
    -> Bool
  {
    try predicate.run(record: self, variables: variables)
  }
}

extension SiftKeyValueCoding {
  /// The object answers the first key of every key path itself.
  public func siftEvaluate(_ predicate: SiftPredicate, variables: [String: SiftValue]?) throws(EvaluationError)
    -> Bool
  {
    try predicate.run(keyValueCoding: self, variables: variables)
  }
}

extension SiftTyped {
  /// Read through the type's field table (``SiftPredicate/runTyped(_:variables:)``):
  /// inlined into the caller, so the value is borrowed where it lies.
  @inlinable @inline(__always)
  public func siftEvaluate(_ predicate: SiftPredicate, variables: [String: SiftValue]?) throws(EvaluationError)
    -> Bool
  {
    try predicate.runTyped(self, variables: variables)
  }
}

extension SiftTyped where Self: SiftKeyValueCoding {
  /// A value with a field table that also answers keys itself is read through its table.
  @inlinable @inline(__always)
  public func siftEvaluate(_ predicate: SiftPredicate, variables: [String: SiftValue]?) throws(EvaluationError)
    -> Bool
  {
    try predicate.runTyped(self, variables: variables)
  }
}
