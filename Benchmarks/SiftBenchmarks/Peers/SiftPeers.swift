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

/// Foundation values through the adapter (`evaluate(with: Any?)`), as code ported from
/// `NSPredicate.evaluate(with:)` calls it; the conversion is part of every evaluation.
struct SiftAnyEvaluator<Input>: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: Input) -> Bool { (try? predicate.evaluate(with: input as Any?)) ?? false }
}

/// The app's own struct through `SiftKeyValueCoding`.
struct SiftKeyValueEvaluator: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: NotificationItem) -> Bool { (try? predicate.evaluate(with: input)) ?? false }
}

/// A `SiftRecord`, with the predicate compiled against its schema (key paths are slots).
struct SiftRecordEvaluator: Evaluator {
  let predicate: SiftPredicate
  func evaluate(_ input: SiftRecord) -> Bool { predicate.matches(input) }
}
