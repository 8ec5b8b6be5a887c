/// Distinct values by `==` without options, for the operations that group values: `UNION`,
/// `INTERSECT`, `MINUS`, the distinct collection operators and `mode:`. Each value is hashed
/// once (``EqualityKey``: everything `==` compares, all the way down) into an open-addressed
/// table of indices sized once for the most values it will hold, so a lookup is one probe
/// sequence over 32-bit slots and a digest comparison, and `==` runs only on equal digests.
///
/// Swift's `Set` of keys hashed each digest again and probed through generic code: the
/// profile of `(b UNION b)` over 104,000 values spent 62 % of its time in that probe loop
/// (370 ns an insertion, against 60 ns here; `SiftBenchmarks adversarial`).
///
/// Each value grouped is charged ``Cost/grouping`` steps (the probe and the table's memory)
/// on top of its hash walk.
struct EqualityTable {
  /// The values kept, in the order they were first inserted.
  private(set) var values: [SiftValue] = []
  private var digests: [Int] = []
  /// Index + 1 into `values`, 0 for an empty slot; a power of two at least twice the
  /// capacity, so probe sequences stay short.
  private var slots: [UInt32]
  private let mask: Int

  /// A table for at most `capacity` distinct values.
  init(capacity: Int) {
    var size = 16
    while size < 2 * capacity { size <<= 1 }
    slots = Array(repeating: 0, count: size)
    mask = size - 1
    values.reserveCapacity(capacity)
    digests.reserveCapacity(capacity)
  }

  /// Inserts `v` unless an equal value is already in: whether it was inserted, and the
  /// index in ``values`` of `v` or the value equal to it.
  @discardableResult
  mutating func insert(_ v: SiftValue, steps: inout Int) throws(EvaluationError) -> (inserted: Bool, index: Int) {
    try Semantics.charge(Cost.grouping, &steps)
    let digest = try EqualityKey.digest(of: v, steps: &steps)
    var i = digest & mask
    while slots[i] != 0 {
      let k = Int(slots[i] - 1)
      if digests[k] == digest, Semantics.equal(values[k], v, []) { return (false, k) }
      i = (i + 1) & mask
    }
    precondition(values.count < slots.count / 2, "an EqualityTable holds at most its capacity")
    values.append(v)
    digests.append(digest)
    slots[i] = UInt32(values.count)
    return (true, values.count - 1)
  }

  /// The index of the value equal to `v` (its first insertion), or nil.
  func index(of v: SiftValue, steps: inout Int) throws(EvaluationError) -> Int? {
    try Semantics.charge(Cost.grouping, &steps)
    let digest = try EqualityKey.digest(of: v, steps: &steps)
    var i = digest & mask
    while slots[i] != 0 {
      let k = Int(slots[i] - 1)
      if digests[k] == digest, Semantics.equal(values[k], v, []) { return k }
      i = (i + 1) & mask
    }
    return nil
  }
}
