/// A hash multimap from ``PostingKey`` keys to predicates (their offsets in the index's
/// constant pool): open addressing with linear probing, a key's first four postings in its
/// bucket, the rest as a linked list in one flat array.
///
/// The list of a key is laid out in one run of that array (``settle(force:)``): a match walks
/// consecutive memory, not one cache miss per posting. Appended in insertion order, a
/// key's postings would sit a whole load apart (100,000 rules over 5,000 accounts: 60
/// postings a key, each in its own cache line, and the walk was a quarter of `sift route`).
///
/// Compact and cache-friendly on purpose (the index of a million predicates is mostly
/// this): 32 bytes a bucket, half a cache line, so a key with up to four predicates (an
/// account id named by a few subscriptions) costs one memory access to look up; 8 bytes a
/// further posting; no object per key. It only grows: a removed predicate's postings stay until the whole
/// index is rebuilt (``PredicateIndex``), and a posting of a removed predicate is skipped.
///
/// A class over storage of its own (freed in `deinit`), not a struct of arrays: a lookup
/// reads the buckets and lists through pointers and retains nothing. As arrays in a struct
/// in the group's property, every lookup copied the three array references out first:
/// three retains and three releases a lookup (callgrind, `sift_set_match_ids`), each an
/// atomic write.
final class PostingMap {
  struct Bucket {
    /// ``PostingKey/empty`` when free.
    var key: UInt64
    /// How many postings the key has (stale ones included): what the planner weighs a
    /// key by.
    var count: UInt32
    /// The first four postings (`inline.0` first).
    var inline: (UInt32, UInt32, UInt32, UInt32)
    /// The rest, newest first: an index into ``postings``, `UInt32.max` for none.
    var head: UInt32
  }

  private static let emptyBucket = Bucket(key: PostingKey.empty, count: 0, inline: (0, 0, 0, 0), head: .max)

  struct Posting {
    var target: UInt32
    /// The next posting of the same key; `UInt32.max`: none.
    var next: UInt32
  }

  // Written under the set's write lock, read under its read lock: unchecked.
  /// A power of two long, or empty; every bucket initialised.
  @exclusivity(unchecked) private var buckets = UnsafeMutableBufferPointer<Bucket>(start: nil, count: 0)
  private var usedBuckets = 0
  /// The postings beyond the buckets' own: the first ``listLength`` are initialised.
  @exclusivity(unchecked) private var postings = UnsafeMutableBufferPointer<Posting>(start: nil, count: 0)
  private var listLength = 0
  private(set) var postingCount = 0
  /// Postings appended since the lists were last laid out.
  private var scattered = 0
  /// The keys with postings beyond their bucket, in the order they got them: a layout
  /// visits these, not every bucket (a million keys, a few of them long, is the usual case).
  private var listed: [UInt64] = []

  init() {}

  deinit {
    buckets.deallocate()
    postings.deallocate()
  }

  /// Distinct keys.
  var keyCount: Int { usedBuckets }

  /// Bytes of memory this map has reserved.
  var reservedBytes: Int {
    buckets.count * MemoryLayout<Bucket>.stride + postings.count * MemoryLayout<Posting>.stride
      + listed.capacity * MemoryLayout<UInt64>.stride
  }

  func insert(_ key: UInt64, _ target: UInt32) {
    if (usedBuckets + 1) * 4 > buckets.count * 3 { rehash(max(16, buckets.count * 2)) }
    let mask = buckets.count - 1
    var i = Int(truncatingIfNeeded: key) & mask
    while buckets[i].key != PostingKey.empty && buckets[i].key != key { i = (i + 1) & mask }
    if buckets[i].key == PostingKey.empty {
      buckets[i] = Self.emptyBucket
      buckets[i].key = key
      usedBuckets += 1
    }
    switch buckets[i].count {
    case 0: buckets[i].inline.0 = target
    case 1: buckets[i].inline.1 = target
    case 2: buckets[i].inline.2 = target
    case 3: buckets[i].inline.3 = target
    default:
      precondition(listLength < Int(UInt32.max), "an index group holds fewer than 2^32 postings")
      if buckets[i].head == .max { listed.append(key) }
      if listLength == postings.count { growPostings(max(16, postings.count * 2)) }
      (postings.baseAddress! + listLength).initialize(to: Posting(target: target, next: buckets[i].head))
      buckets[i].head = UInt32(listLength)
      listLength += 1
      scattered += 1
    }
    buckets[i].count &+= 1
    postingCount += 1
  }

  /// The bucket of `key`, or nil.
  @inline(__always)
  private static func find(_ key: UInt64, _ buckets: UnsafeMutableBufferPointer<Bucket>) -> Int? {
    guard !buckets.isEmpty else { return nil }
    let mask = buckets.count - 1
    var i = Int(truncatingIfNeeded: key) & mask
    while true {
      let k = buckets[i].key
      if k == key { return i }
      if k == PostingKey.empty { return nil }
      i = (i + 1) & mask
    }
  }

  /// How many postings `key` has.
  func count(of key: UInt64) -> Int { Self.find(key, buckets).map { Int(buckets[$0].count) } ?? 0 }

  /// Appends every posting under `key` to `out`, oldest first.
  @inline(__always)
  func collect(_ key: UInt64, into out: inout [UInt32]) {
    guard let i = Self.find(key, buckets) else { return }
    let bucket = buckets[i]
    let total = Int(bucket.count)
    let start = out.count
    // Grown once and written through a pointer: appended one by one, each posting paid
    // a uniqueness and a capacity check (a popular key's 125 postings were a tenth of a
    // `sift route` match, callgrind).
    out.append(contentsOf: repeatElement(0, count: total))
    out.withUnsafeMutableBufferPointer { out in
      let to = out.baseAddress! + start
      to[0] = bucket.inline.0
      if total > 1 { to[1] = bucket.inline.1 }
      if total > 2 { to[2] = bucket.inline.2 }
      if total > 3 { to[3] = bucket.inline.3 }
      // The list runs newest first: written from the end, a key's postings come out in
      // the order they were added (pool order), so a match of one key needs no sort.
      var at = total
      var p = bucket.head
      while p != .max {
        at &-= 1
        let posting = postings[Int(p)]
        to[at] = posting.target
        p = posting.next
      }
    }
  }

  /// Lays every key's list out in one run, newest first as it is walked, once the
  /// postings appended since the last layout are an eighth of all (or with `force`, any):
  /// amortised, each posting is moved about eight times over the map's life, and a bulk
  /// load leaves at most an eighth of its postings out of place.
  func settle(force: Bool = false) {
    guard scattered > 0, force || scattered >= max(256, listLength / 8) else { return }
    let laid = UnsafeMutableBufferPointer<Posting>.allocate(capacity: postings.count)
    var length = 0
    for key in listed {
      let b = Self.find(key, buckets)!
      var p = buckets[b].head
      buckets[b].head = UInt32(length)
      while p != .max {
        let posting = postings[Int(p)]
        (laid.baseAddress! + length).initialize(to: Posting(target: posting.target, next: UInt32(length + 1)))
        length += 1
        p = posting.next
      }
      laid[length - 1].next = .max
    }
    precondition(length == listLength, "every list posting is laid out")
    postings.deallocate()
    postings = laid
    scattered = 0
  }

  private func growPostings(_ capacity: Int) {
    let grown = UnsafeMutableBufferPointer<Posting>.allocate(capacity: capacity)
    if listLength > 0 { grown.baseAddress!.initialize(from: postings.baseAddress!, count: listLength) }
    postings.deallocate()
    postings = grown
  }

  private func rehash(_ capacity: Int) {
    let old = buckets
    buckets = .allocate(capacity: capacity)
    buckets.initialize(repeating: Self.emptyBucket)
    let mask = capacity - 1
    for bucket in old where bucket.key != PostingKey.empty {
      var i = Int(truncatingIfNeeded: bucket.key) & mask
      while buckets[i].key != PostingKey.empty { i = (i + 1) & mask }
      buckets[i] = bucket
    }
    old.deallocate()
  }
}
