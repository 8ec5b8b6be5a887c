/// Which top-level keys of the evaluated object a predicate reads, found once from its
/// syntax: the schema of the record an input can be cut down to (`sift filter` builds one
/// per line from simdjson's document, an `Encodable` value is encoded into one). nil when
/// the predicate reads `SELF` as a whole (`SELF`, `self`, or a collection operator at the
/// top), so only the full value will do.
package enum ReadKeys {
  /// The keys in the order they are first read, without repeats; nil for the whole value.
  package static func topLevel(_ syntax: PredicateSyntax) -> [String]? {
    var keys: [String] = []
    var whole = false
    visit(syntax, &keys, &whole)
    if whole { return nil }
    var seen = Set<String>()
    return keys.filter { seen.insert($0).inserted }
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
      } else if let first = path.first, first != "self", !first.isCollectionOperator {
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
