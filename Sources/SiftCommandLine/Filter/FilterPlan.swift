import Sift

/// What `sift filter` hands the predicate for each line, decided once from the predicate:
/// the fewer values it has to build per line, the faster the stream goes.
enum FilterPlan {
  /// Only these top-level keys are read: each line becomes a record of their values, and the
  /// predicate is compiled against that schema (a key path resolves to a slot).
  case record(keys: [String])
  /// The predicate uses `SELF` as a whole (or `self`, or a collection operator at the top):
  /// each line becomes a full value.
  case document
  /// `--apns`: `SELF` is the payload's `aps.filter-criteria` (the Focus case).
  case apnsCriteria

  /// The plan for `syntax`: the keys of its top-level key paths, or the whole document when
  /// it reads `SELF` in any other way.
  static func plan(for syntax: PredicateSyntax) -> FilterPlan {
    var keys: [String] = []
    var whole = false
    visit(syntax, &keys, &whole)
    if whole { return .document }
    var seen = Set<String>()
    return .record(keys: keys.filter { seen.insert($0).inserted })
  }

  private static func visit(_ p: PredicateSyntax, _ keys: inout [String], _ whole: inout Bool) {
    switch p.kind {
    case .constant: break
    case .comparison(let c):
      visit(c.lhs, &keys, &whole)
      visit(c.rhs, &keys, &whole)
    case .not(let inner): visit(inner, &keys, &whole)
    case .and(let parts), .or(let parts):
      for part in parts { visit(part, &keys, &whole) }
    }
  }

  private static func visit(_ e: ExpressionSyntax, _ keys: inout [String], _ whole: inout Bool) {
    switch e.kind {
    case .constant, .variable: break
    case .evaluatedObject: whole = true
    case .keyPath(let base, let path):
      if let base {
        visit(base, &keys, &whole)
      } else if let first = path.first, first != "self", !first.hasPrefix("@") {
        keys.append(first)
      } else {
        whole = true
      }
    case .aggregate(let elements):
      for element in elements { visit(element, &keys, &whole) }
    case .index(let base, let index):
      visit(base, &keys, &whole)
      if case .expression(let i) = index { visit(i, &keys, &whole) }
    case .negate(let inner), .bitwiseNot(let inner), .cast(let inner, _):
      visit(inner, &keys, &whole)
    case .binary(_, let a, let b):
      visit(a, &keys, &whole)
      visit(b, &keys, &whole)
    case .function(_, let arguments):
      for argument in arguments { visit(argument, &keys, &whole) }
    case .customFunction(let receiver, _, let arguments):
      visit(receiver, &keys, &whole)
      for argument in arguments { visit(argument, &keys, &whole) }
    case .subquery(let collection, _, let predicate):
      visit(collection, &keys, &whole)
      // Inside a SUBQUERY, a key path without a base still starts at the evaluated object.
      visit(predicate, &keys, &whole)
    case .ternary(let condition, let a, let b):
      visit(condition, &keys, &whole)
      visit(a, &keys, &whole)
      visit(b, &keys, &whole)
    case .assignment(_, let value): visit(value, &keys, &whole)
    }
  }
}
