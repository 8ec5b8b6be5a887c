import Foundation

/// `NSPredicate(block:)` around the hand-written closure's body: what the block-based API
/// costs on top of the same test. The inputs are what NSPredicate callers pass: objects (the
/// record in a `NotificationBox`), or for W1 the id string, boxed as `Any` before timing.
struct NSPredicateBlockEvaluator<Input>: Evaluator {
  let predicate: NSPredicate

  /// A predicate whose block runs `body` on the evaluated object.
  init(_ body: @escaping (Any?) -> Bool) {
    predicate = NSPredicate { object, _ in body(object) }
  }

  func evaluate(_ input: Input) -> Bool { predicate.evaluate(with: input) }
}

/// W4 with Foundation's own search: `range(of:options: [.caseInsensitive,
/// .diacriticInsensitive])`.
struct FoundationRangeEvaluator: Evaluator {
  let needle = "résumé"
  func evaluate(_ n: NotificationItem) -> Bool {
    n.title.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil
  }
}
