import Sift

/// Sift with each input kind. A failed evaluation counts as no match (as `matches` does), so
/// an engine that throws shows up as a match-count difference, which fails the run.

/// `SELF` is the string (W1).
struct SiftStringEvaluator: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: String) -> Bool { predicate.matches(input) }
}

/// A value tree: a string for W1, a dictionary of the record's fields otherwise.
struct SiftValueEvaluator: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: SiftValue) -> Bool { predicate.matches(input) }
}

/// Foundation values through `evaluate(with: Any?)`, as code ported from
/// `NSPredicate.evaluate(with:)` calls it: a `[String: Any]`, read lazily.
struct SiftAnyEvaluator: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: [String: Any]) -> Bool { (try? predicate.evaluate(with: input)) ?? false }
}

/// A value already boxed as `Any` (W1's id string), passed as it is. (A generic wrapper's
/// `x as Any?` would box the `Any` a second time, with an allocation, which is the
/// wrapper's cost, not the engine's.)
struct SiftAnyValueEvaluator: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: Any) -> Bool { (try? predicate.evaluate(with: input)) ?? false }
}

/// The app's own struct through `SiftKeyValueCoding`.
struct SiftKeyValueEvaluator<Input: SiftKeyValueCoding>: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: Input) -> Bool { (try? predicate.evaluate(with: input)) ?? false }
}

/// A `SiftRecord`, with the predicate compiled against its schema (key paths are slots).
struct SiftRecordEvaluator: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: SiftRecord) -> Bool { predicate.matches(input) }
}

/// A `SiftTyped` value (the app's struct with its field table), with the predicate compiled
/// for its type: fields are read in place, nothing is converted.
struct SiftTypedEvaluator<Input: SiftTyped>: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: Input) -> Bool { predicate.matches(input) }
}

/// An `Encodable` value with no field table: the predicate's keys are encoded into a record
/// on every call (`Input` is known only as `Encodable` here, so the encoding path runs even
/// for a type that also has a field table).
struct SiftCodableEvaluator<Input: Encodable>: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: Input) -> Bool { predicate.matches(input) }
}

/// A `SiftRecord` built by hand from the app's struct on every call (every field, as the
/// record's schema has them), then evaluated: what `sift-codable` is measured against.
struct SiftRecordBuiltEvaluator: Evaluator {
  let predicate: SiftPredicate
  let schema: SiftSchema
  func evaluate(_ input: NotificationItem) -> Bool {
    predicate.matches(SiftRecord(schema: schema, values: input.siftValues))
  }
}
