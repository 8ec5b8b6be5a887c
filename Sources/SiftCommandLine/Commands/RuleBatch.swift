import Sift

/// Rules on their way into a set from their syntax, as `sift route` loads a rules file and
/// `sift serve` a bucket: a rule that shares its shape's code is never compiled on its own,
/// and a batch is bounded (``capacity``) so that a million parsed trees are never held at
/// once. `Origin` is what a failure is reported against (a line number, a key).
struct RuleBatch<ID: Hashable & Sendable, Origin> {
  /// How many rules a batch holds before it must enter the set.
  static var capacity: Int { 10_000 }

  private var entries: [(id: ID, syntax: PredicateSyntax, format: String?)] = []
  private var origins: [Origin] = []

  /// Whether the batch should enter the set before another rule is added.
  var isFull: Bool { entries.count >= Self.capacity }

  mutating func append(_ rule: RouteRule.Prepared, id: ID, origin: Origin) {
    entries.append((id, rule.syntax, rule.format))
    origins.append(origin)
  }

  /// Inserts the batch into `set` as one update and empties it; returns, in order, each
  /// rule left out because it does not compile, with its report.
  mutating func insert(into set: SiftPredicateSet<ID>) -> [(origin: Origin, message: String)] {
    defer {
      entries.removeAll(keepingCapacity: true)
      origins.removeAll(keepingCapacity: true)
    }
    guard !entries.isEmpty else { return [] }
    return set.insert(syntaxes: entries, options: CompileOptions()).map {
      (origins[$0.position], RouteRule.doesNotCompile($0.error))
    }
  }
}
