/// A hash multimap from ``PostingKey`` keys to predicate slots: open addressing with linear
/// probing over the keys, and each key's slots as a linked list in two flat arrays.
///
/// Compact on purpose (the index of a million predicates is mostly this): 16 bytes a
/// bucket, 8 a posting, no object per key. It only grows: a removed predicate's postings
/// stay until the whole index is rebuilt (``PredicateSetState``), and a posting whose
/// predicate is gone or changed only yields a candidate that the exact check refuses.
struct PostingMap {
  /// The key of each bucket, ``PostingKey/empty`` when free; a power of two long (or empty).
  private var keys: [UInt64] = []
  /// The first posting of each bucket's key.
  private var heads: [UInt32] = []
  /// How many postings each bucket's key has (stale ones included): what the planner
  /// weighs a key by.
  private var counts: [UInt32] = []
  private var usedBuckets = 0
  /// Postings: the slot, and the next posting of the same key (`UInt32.max`: none).
  private var slots: [UInt32] = []
  private var next: [UInt32] = []

  /// Postings held, stale ones included.
  var postingCount: Int { slots.count }
  /// Distinct keys.
  var keyCount: Int { usedBuckets }

  /// Bytes of memory this map has reserved.
  var reservedBytes: Int {
    keys.capacity * 8 + heads.capacity * 4 + counts.capacity * 4 + slots.capacity * 4 + next.capacity * 4
  }

  /// Room for `postings` more postings over about `newKeys` more keys, so a bulk insert
  /// grows each array once.
  mutating func reserve(postings: Int, newKeys: Int) {
    slots.reserveCapacity(slots.count + postings)
    next.reserveCapacity(next.count + postings)
    var capacity = max(keys.count, 16)
    while (usedBuckets + newKeys) * 4 > capacity * 3 { capacity *= 2 }
    if capacity > keys.count { rehash(capacity) }
  }

  mutating func insert(_ key: UInt64, _ slot: UInt32) {
    if (usedBuckets + 1) * 4 > keys.count * 3 { rehash(max(16, keys.count * 2)) }
    let mask = keys.count - 1
    var i = Int(truncatingIfNeeded: key) & mask
    while keys[i] != PostingKey.empty && keys[i] != key { i = (i + 1) & mask }
    if keys[i] == PostingKey.empty {
      keys[i] = key
      heads[i] = .max
      counts[i] = 0
      usedBuckets += 1
    }
    counts[i] &+= 1
    slots.append(slot)
    next.append(heads[i])
    heads[i] = UInt32(slots.count - 1)
  }

  /// How many postings `key` has.
  func count(of key: UInt64) -> Int {
    guard !keys.isEmpty else { return 0 }
    let mask = keys.count - 1
    var i = Int(truncatingIfNeeded: key) & mask
    while keys[i] != PostingKey.empty {
      if keys[i] == key { return Int(counts[i]) }
      i = (i + 1) & mask
    }
    return 0
  }

  /// Appends the slot of every posting under `key` to `out`.
  @inline(__always)
  func collect(_ key: UInt64, into out: inout [UInt32]) {
    guard !keys.isEmpty else { return }
    keys.withUnsafeBufferPointer { keys in
      let mask = keys.count - 1
      var i = Int(truncatingIfNeeded: key) & mask
      while true {
        let k = keys[i]
        if k == key { break }
        if k == PostingKey.empty { return }
        i = (i + 1) & mask
      }
      slots.withUnsafeBufferPointer { slots in
        next.withUnsafeBufferPointer { next in
          var p = heads[i]
          while p != .max {
            out.append(slots[Int(p)])
            p = next[Int(p)]
          }
        }
      }
    }
  }

  private mutating func rehash(_ capacity: Int) {
    let oldKeys = keys
    let oldHeads = heads
    let oldCounts = counts
    keys = Array(repeating: PostingKey.empty, count: capacity)
    heads = Array(repeating: .max, count: capacity)
    counts = Array(repeating: 0, count: capacity)
    let mask = capacity - 1
    for (j, key) in oldKeys.enumerated() where key != PostingKey.empty {
      var i = Int(truncatingIfNeeded: key) & mask
      while keys[i] != PostingKey.empty { i = (i + 1) & mask }
      keys[i] = key
      heads[i] = oldHeads[j]
      counts[i] = oldCounts[j]
    }
  }
}
