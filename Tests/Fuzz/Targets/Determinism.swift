import Sift

/// Whether a predicate calls `random()`, `random:`, `randomn:` or `now()`: two evaluations
/// of it may differ, so comparing two evaluators on it proves nothing (found by the
/// differential target with `randomn:(9) < 5`).
enum Determinism {
  static func isNondeterministic(_ p: PredicateSyntax) -> Bool {
    switch p.kind {
    case .constant: false
    case .comparison(let c): isNondeterministic(c.lhs) || isNondeterministic(c.rhs)
    case .not(let inner): isNondeterministic(inner)
    case .and(let parts), .or(let parts): parts.contains(where: isNondeterministic)
    }
  }

  static func isNondeterministic(_ e: ExpressionSyntax) -> Bool {
    switch e.kind {
    case .constant, .variable, .evaluatedObject: false
    case .keyPath(let base, _): base.map(isNondeterministic) ?? false
    case .aggregate(let elements): elements.contains(where: isNondeterministic)
    case .index(let base, let index):
      if case .expression(let i) = index, isNondeterministic(i) { true } else { isNondeterministic(base) }
    case .negate(let inner), .bitwiseNot(let inner), .cast(let inner, _): isNondeterministic(inner)
    case .binary(_, let a, let b): isNondeterministic(a) || isNondeterministic(b)
    case .function(let function, let arguments):
      [.random, .randomElement, .randomInteger, .now].contains(function)
        || arguments.contains(where: isNondeterministic)
    case .customFunction(let receiver, _, let arguments):
      isNondeterministic(receiver) || arguments.contains(where: isNondeterministic)
    case .subquery(let collection, _, let predicate): isNondeterministic(collection) || isNondeterministic(predicate)
    case .ternary(let condition, let a, let b):
      isNondeterministic(condition) || isNondeterministic(a) || isNondeterministic(b)
    case .assignment(_, let value): isNondeterministic(value)
    }
  }
}
