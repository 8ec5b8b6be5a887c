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
  /// it reads `SELF` in any other way (``ReadKeys``).
  static func plan(for syntax: PredicateSyntax) -> FilterPlan {
    ReadKeys.topLevel(syntax).map { .record(keys: $0) } ?? .document
  }
}
