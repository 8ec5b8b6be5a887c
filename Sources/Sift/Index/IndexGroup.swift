/// Where a group of index entries reads the record, and how it looks the value up.
struct IndexGroupKey: Hashable, Sendable {
  enum Kind: UInt8, Sendable {
    /// `==` and `IN` on strings and numbers: a hash of the (folded) value.
    case equality
    /// `BEGINSWITH`: a hash of each prefix length some constant has.
    case prefix
    /// Orderings and `BETWEEN` on numbers: intervals.
    case range
  }

  /// The key path (empty: `SELF`).
  var keys: [String]
  /// `ANY keys OP …`: the value is an array, and each element is looked up.
  var quantified: Bool
  var kind: Kind
  /// The folding of `[c]`/`[d]` applied to strings before hashing (none for ranges).
  var fold: FoldMode
}

/// The entries of one ``IndexGroupKey``: the postings of constants (or prefixes), or the
/// intervals, each naming the slot of its predicate. A class: a match reads each group
/// through one reference.
final class IndexGroup {
  let key: IndexGroupKey
  /// Which of the index's key paths the group reads (read once per match).
  let path: Int
  // The parts of `key` a lookup reads, apart: reading them copies no array.
  private let kind: IndexGroupKey.Kind
  private let quantified: Bool
  private let options: ComparisonOptions
  /// An equality lookup on one key, not `ANY`: a string there can be looked up by its
  /// bytes (``key(utf8:)``), with no `String` made from them.
  let looksUpUTF8: Bool
  // Written under the set's write lock, read under its read lock.
  private let postings = PostingMap()
  /// The prefix lengths present (sorted), with how many prefixes of each length.
  @exclusivity(unchecked) private var prefixLengths: [Int] = []
  private var prefixCounts: [Int: Int] = [:]
  @exclusivity(unchecked) private var ranges = RangeList()

  init(key: IndexGroupKey, path: Int) {
    self.key = key
    self.path = path
    kind = key.kind
    quantified = key.quantified
    options = ComparisonOptions(rawValue: key.fold.rawValue)
    looksUpUTF8 = key.kind == .equality && !key.quantified && key.keys.count == 1
  }

  /// The posting key of the string whose UTF-8 bytes are `utf8`, folded as this group
  /// folds: the key ``collect(_:into:)`` looks up for `.string` of those bytes.
  @inline(__always)
  func key(utf8: UnsafeBufferPointer<UInt8>) -> UInt64 { PostingKey.string(utf8: utf8, options) }

  /// Appends the postings of `key` (from ``key(utf8:)``) to `out`.
  @inline(__always)
  func collect(key: UInt64, into out: inout [UInt32]) { postings.collect(key, into: &out) }

  /// Postings and intervals held, stale ones included.
  var entryCount: Int { postings.postingCount + ranges.count }

  /// Bytes reserved by the group's tables.
  var reservedBytes: Int { postings.reservedBytes + ranges.reservedBytes + prefixLengths.capacity * 8 }

  /// About how many candidates `entry` would add to a lookup that reaches it: the
  /// postings already under its keys (a key every predicate shares, such as W2's
  /// `ANY tags == 'urgent'`, lets them all through), or a fixed guess for an interval.
  func estimate(_ entry: IndexAtom.Entry) -> Int { Self.estimate(entry) { postings.count(of: $0) } }

  /// ``estimate(_:)`` with `count` postings under a key; `{ _ in 0 }` for a group that does
  /// not exist yet. Such a group is as dear as an empty one, not free: at cost 0, the
  /// second rule of `filterCriteria IN %@ AND priority >= %@` opened a range group and was
  /// then a candidate of every line, whose candidates no longer came in pool order and
  /// were sorted at every match (5 % of `sift route` with 1,000,000 rules, perf).
  static func estimate(_ entry: IndexAtom.Entry, postings count: (UInt64) -> Int) -> Int {
    switch entry {
    case .keys(let keys): return keys.reduce(0) { $0 + 1 + count($1) }
    case .prefix(let k, let length): return (length >= 4 ? 2 : 6 - length) + count(k)
    case .range(let low, let high): return low == -.infinity || high == .infinity ? 1_000 : 400
    }
  }

  func add(_ entry: IndexAtom.Entry, target: UInt32) {
    switch entry {
    case .keys(let keys):
      for k in keys { postings.insert(k, target) }
    case .prefix(let k, let length):
      postings.insert(k, target)
      if prefixCounts[length, default: 0] == 0 {
        let at = prefixLengths.firstIndex { $0 > length } ?? prefixLengths.count
        prefixLengths.insert(length, at: at)
      }
      prefixCounts[length, default: 0] += 1
    case .range(let low, let high):
      ranges.insert(low: low, high: high, target: target)
    }
  }

  /// Merges pending intervals (see ``RangeList/settle(force:)``), all of them with `force`,
  /// and lays out the postings (see ``PostingMap/settle(force:)``) once enough have come.
  /// Postings are never forced: every insert batch settles with `force`, one rule is a
  /// batch, and a layout moves every list of the group.
  func settle(force: Bool) {
    switch kind {
    case .range: ranges.settle(force: force)
    case .equality, .prefix: postings.settle()
    }
  }

  /// Appends to `out` the slot of every entry that `value`, the record's value at the
  /// group's key path, could satisfy.
  func collect(_ value: SiftValue, into out: inout [UInt32]) {
    if quantified {
      // ANY over null is false, over anything but an array an error.
      guard case .array(let elements) = value else { return }
      for e in elements { collectOne(e, into: &out) }
    } else {
      collectOne(value, into: &out)
    }
  }

  @inline(__always)
  private func collectOne(_ value: SiftValue, into out: inout [UInt32]) {
    switch kind {
    case .equality:
      guard let k = PostingKey.equality(value, options) else { return }
      postings.collect(k, into: &out)
    case .prefix:
      guard case .string(let s) = value else { return }
      StringSemantics.withFoldedUTF8(s, options) { bytes in
        let base = UnsafePointer(bytes.baseAddress)
        for length in prefixLengths {
          if length > bytes.count { break }
          postings.collect(PostingKey.bytes(base, count: length), into: &out)
        }
      }
    case .range:
      guard let x = PostingKey.number(value) else { return }
      ranges.collect(x, into: &out)
    }
  }
}
