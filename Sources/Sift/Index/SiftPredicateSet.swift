/// Many predicates, each under an id, matched against one value at a time: "which of a
/// million subscriptions want this notification". ``matches(_:)-(SiftValue)`` returns the
/// id of every predicate whose own ``SiftPredicate/matches(_:)-(SiftValue)`` is true for
/// the value, in the order the ids were first inserted, without evaluating each one.
///
/// ```swift
/// let subscriptions = SiftPredicateSet<Int>()
/// subscriptions.insert(
///   try SiftPredicate(format: "account IN %@ AND priority >= 3", arguments: [["a-1", "a-7"]]), id: 1)
/// subscriptions.insert(try SiftPredicate(format: "sender BEGINSWITH[c] 'billing@'"), id: 2)
/// subscriptions.matches(["account": "a-7", "priority": 4, "sender": "x@y"])  // [1]
/// ```
///
/// **Exact.** The set indexes one *necessary* condition of each predicate (a comparison of
/// a key path with a constant that must hold for the predicate to be true: `==` and `IN`
/// on strings and numbers, `BEGINSWITH`, orderings and `BETWEEN` on numbers, the `ANY`
/// forms, the `[c]`/`[d]` options; one per operand of a top-level OR), finds the
/// predicates whose condition a value could satisfy, and evaluates each of those exactly.
/// A predicate with no such condition is evaluated for every value. A predicate whose
/// evaluation fails does not match, as with `matches`. Documentation/PredicateIndex.md
/// has the argument.
///
/// **Compact.** Predicates that differ only in their constants share one compiled
/// program; each keeps its constants and its index entries (about 300 bytes for
/// `filterCriteria IN {three ids} AND priority >= k`). Predicates compiled with a schema,
/// a typed layout, custom functions or variables of their own keep their own program, and
/// so do predicates whose constants weigh more than a sixteenth of their step budget (an
/// `IN` over tens of thousands of ids): decided at insertion, so matching never compiles.
///
/// **Thread-safe.** Every method may be called from any thread. Updates take a write lock
/// (a pthread read-write lock that prefers writers) and matches a read lock, so a match
/// sees the set as it was between two updates: a bulk ``insert(contentsOf:)`` is seen
/// whole or not at all. A custom function called while matching must not use the set.
public final class SiftPredicateSet<ID: Hashable & Sendable>: @unchecked Sendable {
  // Inlinable where the id type matters (matching), so a caller's `SiftPredicateSet<Int>`
  // runs code specialised for `Int` rather than generic code looking up type metadata.
  @usableFromInline let lock = ReadWriteLock()
  // Read under the read lock, written under the write lock.
  @usableFromInline let index = PredicateIndex()
  /// The id in each slot of the index (a removed slot keeps its old id until a rebuild).
  /// Unchecked: the lock orders its reads and writes.
  @exclusivity(unchecked) @usableFromInline var ids: ContiguousArray<ID> = []
  private var slotOf: [ID: UInt32] = [:]

  /// An empty set.
  public init() {}

  /// The number of predicates.
  public var count: Int { lock.reading { index.liveCount } }

  /// Whether the set is empty.
  public var isEmpty: Bool { count == 0 }

  /// Whether a predicate is held under `id`.
  public func contains(id: ID) -> Bool { lock.reading { slotOf[id] != nil } }

  /// Adds `predicate` under `id`, replacing the predicate already under `id` (the id keeps
  /// its place in the order of results).
  public func insert(_ predicate: SiftPredicate, id: ID) {
    // Taken apart before the lock: matches wait only for the index update.
    let prepared = PreparedPredicate(predicate)
    lock.writing {
      Self.compiled { () throws(PredicateSyntaxError) in try insertLocked(prepared, id: id) }
      rebuildIfSparse()
    }
  }

  /// Parses `format` with `arguments` (as ``SiftPredicate/init(format:arguments:options:)``
  /// does) and adds it under `id`, replacing the predicate already under `id`. A predicate
  /// that shares its shape's code is never compiled on its own: what the set keeps of it
  /// is its constants. Throws the parse or compile error ``SiftPredicate`` would, and then
  /// changes nothing.
  public func insert(
    format: String, arguments: [SiftValue] = [], options: CompileOptions = CompileOptions(), id: ID
  ) throws(PredicateSyntaxError) {
    let syntax = try PredicateSyntax(parsing: format, arguments: arguments, options: options.parse)
    try insert(syntax: syntax, format: format, options: options, id: id)
  }

  /// Adds a parsed tree (its arguments bound) under `id`, as ``insert(format:arguments:options:id:)``
  /// does; `format` is its text for diagnostics (nil: its canonical text).
  public func insert(
    syntax: PredicateSyntax, format: String? = nil, options: CompileOptions = CompileOptions(), id: ID
  ) throws(PredicateSyntaxError) {
    let prepared = try PreparedPredicate(syntax: syntax, options: options, format: format)
    try lock.writing { () throws(PredicateSyntaxError) in
      try insertLocked(prepared, id: id)
      rebuildIfSparse()
    }
  }

  /// Adds every `(id, predicate)` pair, in order, as one update: a concurrent match sees
  /// all of them or none. A repeated id keeps its last predicate.
  public func insert(contentsOf entries: some Sequence<(id: ID, predicate: SiftPredicate)>) {
    let prepared = entries.map { ($0.id, PreparedPredicate($0.predicate)) }
    insert(prepared: prepared)
  }

  /// Adds parsed trees as one update, as ``insert(contentsOf:)-(Sequence<(id:ID,predicate:SiftPredicate)>)``
  /// adds compiled predicates; each entry that does not compile is left out, and its
  /// position and error returned (in order).
  package func insert(
    syntaxes entries: [(id: ID, syntax: PredicateSyntax, format: String?)], options: CompileOptions
  ) -> [(position: Int, error: PredicateSyntaxError)] {
    var failed: [(position: Int, error: PredicateSyntaxError)] = []
    var prepared: [(ID, PreparedPredicate)] = []
    prepared.reserveCapacity(entries.count)
    var positions: [Int] = []
    for (k, entry) in entries.enumerated() {
      do throws(PredicateSyntaxError) {
        prepared.append((entry.id, try PreparedPredicate(syntax: entry.syntax, options: options, format: entry.format)))
        positions.append(k)
      } catch {
        failed.append((k, error))
      }
    }
    failed += insert(prepared: prepared).map { (positions[$0.position], $0.error) }
    failed.sort { $0.position < $1.position }
    return failed
  }

  /// Under one write lock: inserts each prepared predicate; returns those whose shape's
  /// code and own compilation failed (only predicates inserted from syntax can).
  @discardableResult
  private func insert(prepared: [(ID, PreparedPredicate)]) -> [(position: Int, error: PredicateSyntaxError)] {
    lock.writing {
      var failed: [(position: Int, error: PredicateSyntaxError)] = []
      index.reserve(prepared.count)
      ids.reserveCapacity(ids.count + prepared.count)
      slotOf.reserveCapacity(slotOf.count + prepared.count)
      for (k, (id, p)) in prepared.enumerated() {
        do throws(PredicateSyntaxError) { try insertLocked(p, id: id) } catch { failed.append((k, error)) }
      }
      index.settle(force: true)
      rebuildIfSparse()
      return failed
    }
  }

  /// Runs an insertion of a compiled predicate, which cannot fail: its prepared form
  /// carries its program for the case where its shape's code does not compile.
  private static func compiled(_ body: () throws(PredicateSyntaxError) -> Void) {
    do throws(PredicateSyntaxError) { try body() } catch {
      preconditionFailure("a compiled predicate failed to enter a set: \(error)")
    }
  }

  private func insertLocked(_ p: PreparedPredicate, id: ID) throws(PredicateSyntaxError) {
    if let slot = slotOf[id] {
      try index.replace(slot, with: p)
    } else {
      let slot = try index.append(p)
      ids.append(id)
      slotOf[id] = slot
    }
  }

  /// Removes the predicate under `id`; returns whether there was one.
  @discardableResult
  public func remove(id: ID) -> Bool {
    lock.writing {
      guard let slot = slotOf.removeValue(forKey: id) else { return false }
      index.remove(slot)
      rebuildIfSparse()
      return true
    }
  }

  /// Removes every predicate.
  public func removeAll() {
    lock.writing {
      for slot in slotOf.values { index.remove(slot) }
      slotOf = [:]
      rebuildIfSparse(force: true)
    }
  }

  /// Under the write lock: renumbers the slots when enough of them are free or stale.
  private func rebuildIfSparse(force: Bool = false) {
    guard force || index.isSparse else { return }
    let kept = index.rebuild()
    var newIDs = ContiguousArray<ID>()
    newIDs.reserveCapacity(kept.count)
    for old in kept {
      slotOf[ids[Int(old)]] = UInt32(newIDs.count)
      newIDs.append(ids[Int(old)])
    }
    ids = newIDs
  }

  /// The ids of the predicates that match `value` (those whose `matches(value)` is true),
  /// in the order the ids were first inserted.
  @inlinable
  public func matches(_ value: SiftValue) -> [ID] {
    withUnsafePointer(to: value) { root in
      lock.reading { ids(of: index.matches(root, string: nil)) }
    }
  }

  /// The ids of the predicates that match `string` as `SELF` (`SELF IN {…}`,
  /// `SELF BEGINSWITH 'acct-'`), in the order the ids were first inserted.
  @inlinable
  public func matches(_ string: String) -> [ID] {
    withUnsafePointer(to: SiftValue.string(string)) { root in
      lock.reading { ids(of: index.matches(root, string: string)) }
    }
  }

  /// The ids of `slots` (under the read lock).
  @inlinable
  func ids(of slots: [UInt32]) -> [ID] {
    if slots.isEmpty { return [] }
    // One access to the ids for the whole list, not one per slot.
    return ids.withUnsafeBufferPointer { ids in slots.map { ids[Int($0)] } }
  }

  /// `body` on the id of each slot, by slot (under the read lock).
  @inlinable
  func withIDs<R>(_ body: (UnsafeBufferPointer<ID>) -> R) -> R { ids.withUnsafeBufferPointer(body) }

  /// How the predicates are held: indexed or scanned, shapes, index size.
  public var statistics: SiftPredicateSetStatistics { lock.reading { index.statistics } }
}

/// What a ``SiftPredicateSet`` holds, for capacity planning and for seeing which
/// predicates the index cannot help with.
public struct SiftPredicateSetStatistics: Sendable, Hashable {
  /// Predicates held.
  public var count = 0
  /// Predicates found through the index.
  public var indexed = 0
  /// Predicates with no condition the index can use, evaluated for every value.
  public var scanned = 0
  /// Compiled programs shared by predicates of one shape.
  public var sharedShapes = 0
  /// Predicates that keep their own compiled program (a schema, a typed layout, custom
  /// functions or variables of their own, constants too heavy to share, a shape whose
  /// program did not compile).
  public var ownPrograms = 0
  /// Index groups: one per key path, `ANY` or not, kind of lookup and folding.
  public var groups = 0
  /// Postings and intervals in the index, stale ones included.
  public var indexEntries = 0
  /// Entries left by removed or replaced predicates, dropped at the next rebuild.
  public var staleIndexEntries = 0
  /// Bytes the index's tables have reserved (not counting the predicates' constants).
  public var indexBytes = 0

  /// Statistics of an empty set.
  public init() {}
}
