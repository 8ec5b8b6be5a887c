/// Numeric intervals `[low, high]` (either end may be infinite) with the predicate (its
/// offset in the index's constant pool) each comes from: "which intervals contain x".
///
/// The intervals are sorted by `low` in blocks of ``blockSize``, over which a tree keeps
/// the largest `high` of every run of blocks: a query walks down only into runs whose
/// intervals start at or before `x` and of which some ends at or after `x`, so it visits
/// the intervals that contain `x` and few others (at most a block's worth per interval
/// found, plus the tree's depth), whatever their widths. Only comparisons, no arithmetic
/// on the bounds: nothing is lost to rounding.
///
/// New intervals wait in a short unsorted list, scanned at every query, and are merged
/// in when it grows past a thirty-second of the sorted ones (and at the end of every bulk
/// insert), so inserting one costs amortised O(32) moves, not a shift of the whole array.
///
/// A one-sided range (`priority >= 3`) holds for a large share of records, and every
/// predicate it lets through is a candidate: the planner indexes a range only when a
/// predicate has nothing more selective.
struct RangeList {
  struct Entry {
    var low: Double
    var high: Double
    var target: UInt32
  }

  static let blockSize = 16

  /// Sorted by `low`.
  private var sorted: [Entry] = []
  /// The largest `high` of each node's blocks; node 1 is the root, the children of `n` are
  /// `2n` and `2n + 1`, and leaf `leafBase + b` is block `b`.
  private var maxHigh: [Double] = []
  private var leafBase = 0
  /// Not yet merged, in any order.
  private var pending: [Entry] = []

  /// Intervals held, stale ones included.
  var count: Int { sorted.count + pending.count }

  /// Bytes of memory reserved.
  var reservedBytes: Int {
    (sorted.capacity + pending.capacity) * MemoryLayout<Entry>.stride + maxHigh.capacity * 8
  }

  mutating func insert(low: Double, high: Double, target: UInt32) {
    pending.append(Entry(low: low, high: high, target: target))
  }

  /// Merges the pending intervals when there are many of them (always with `force`).
  mutating func settle(force: Bool) {
    guard !pending.isEmpty, force || pending.count > max(32, sorted.count / 32) else { return }
    let added = pending.sorted { $0.low < $1.low }
    pending = []
    var merged: [Entry] = []
    merged.reserveCapacity(sorted.count + added.count)
    var i = 0
    var j = 0
    while i < sorted.count && j < added.count {
      if added[j].low < sorted[i].low {
        merged.append(added[j])
        j += 1
      } else {
        merged.append(sorted[i])
        i += 1
      }
    }
    merged.append(contentsOf: sorted[i...])
    merged.append(contentsOf: added[j...])
    sorted = merged
    buildTree()
  }

  private mutating func buildTree() {
    let blocks = (sorted.count + Self.blockSize - 1) / Self.blockSize
    leafBase = 1
    while leafBase < blocks { leafBase <<= 1 }
    maxHigh = Array(repeating: -.infinity, count: 2 * leafBase)
    for (i, e) in sorted.enumerated() {
      let leaf = leafBase + i / Self.blockSize
      if e.high > maxHigh[leaf] { maxHigh[leaf] = e.high }
    }
    var node = leafBase - 1
    while node >= 1 {
      maxHigh[node] = max(maxHigh[2 * node], maxHigh[2 * node + 1])
      node -= 1
    }
  }

  /// Appends the predicate of every interval containing `x` to `out`.
  func collect(_ x: Double, into out: inout [UInt32]) {
    if !sorted.isEmpty {
      sorted.withUnsafeBufferPointer { entries in
        maxHigh.withUnsafeBufferPointer { maxHigh in
          // Intervals [0, end) start at or before x.
          var lo = 0
          var hi = entries.count
          while lo < hi {
            let mid = (lo + hi) >> 1
            if entries[mid].low <= x { lo = mid + 1 } else { hi = mid }
          }
          let end = lo
          guard end > 0 else { return }
          let endBlock = (end - 1) / Self.blockSize
          // Depth-first over the tree: (node, first block, block count).
          var stack: [(Int, Int, Int)] = [(1, 0, leafBase)]
          while let (node, first, width) = stack.popLast() {
            if first > endBlock || maxHigh[node] < x { continue }
            if width == 1 {
              let start = first * Self.blockSize
              for e in entries[start..<min(end, start + Self.blockSize)] where e.high >= x { out.append(e.target) }
              continue
            }
            let half = width / 2
            stack.append((2 * node + 1, first + half, half))
            stack.append((2 * node, first, half))
          }
        }
      }
    }
    for e in pending where e.low <= x && e.high >= x { out.append(e.target) }
  }
}
