import Sift

/// Whether a predicate calls `random()`, `random:`, `randomn:` or `now()`: two evaluations
/// of it may differ, so comparing two evaluators on it proves nothing (found by the
/// differential target with `randomn:(9) < 5`).
enum Determinism {
  static func isNondeterministic(_ p: PredicateSyntax) -> Bool {
    p.containsNode { child in
      if case .expression(let e) = child, case .function(let f, _) = e.kind {
        return [.random, .randomElement, .randomInteger, .now].contains(f)
      }
      return false
    }
  }
}
