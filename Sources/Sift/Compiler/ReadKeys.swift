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
    visit(.predicate(syntax), &keys, &whole)
    if whole { return nil }
    var seen = Set<String>()
    return keys.filter { seen.insert($0).inserted }
  }

  private static func visit(_ child: SyntaxChild, _ keys: inout [String], _ whole: inout Bool) {
    if case .expression(let e) = child {
      switch e.kind {
      case .evaluatedObject:
        whole = true
        return
      case .keyPath(nil, let path):
        if let first = path.first, first != "self", !first.isCollectionOperator {
          keys.append(first)
        } else {
          whole = true
        }
        return
      default: break
      }
    }
    // Inside a SUBQUERY, a key path without a base still starts at the evaluated object.
    child.forEachChild { visit($0, &keys, &whole) }
  }
}
