/// The hash of everything `==` without options compares (``Semantics/equal(_:_:_:)``),
/// for ``EqualityTable``: 1, 1.0 and TRUE hash alike; strings are their UTF-8 bytes; NaN
/// equals nothing (``EqualityTable`` keeps each NaN apart, as a linear search would).
///
/// It covers every element of nested arrays, every entry of nested dictionaries and a
/// string's bytes (not Swift's canonical-equivalence hash, under which `"é"` and
/// `"e\u{301}"` collide although `==` tells them apart). So only equal values collide, and
/// grouping n values takes time linear in their size (a hash of two levels let
/// `[[[1]], [[2]], …]` all collide: a union of 100,000 of them took minutes).
///
/// The walk is charged to the evaluation's budget as it goes (a step per element or entry,
/// ``Cost/hashing(_:)`` per string); that pays for the `==` that confirms a match too,
/// which reaches at most the same elements and bytes.
enum EqualityKey {
  /// How deep ``combine(_:into:depth:steps:)`` recurses before the rest of a value is
  /// hashed by the walk that keeps its stack on the heap.
  static let recursionDepth = 64

  /// The hash of `value`: one hasher fed in order, each collection charged a step per
  /// element or entry before it is walked.
  static func digest(of value: SiftValue, steps: inout Int) throws(EvaluationError) -> Int {
    var hasher = Hasher()
    try combine(value, into: &hasher, depth: 0, steps: &steps)
    return hasher.finalize()
  }

  /// Feeds `v` into `hasher`: arrays element by element into the same hasher, a
  /// dictionary as the order-independent sum of its entries' hashes. Below
  /// ``recursionDepth`` a collection is hashed by ``digestWithoutRecursion(of:steps:)``
  /// instead, and its digest fed in; equal values have the same shape, so they switch at
  /// the same places and still hash alike.
  private static func combine(_ v: SiftValue, into hasher: inout Hasher, depth: Int, steps: inout Int)
    throws(EvaluationError)
  {
    switch v {
    case .array(let a):
      if depth == recursionDepth { return hasher.combine(try digestWithoutRecursion(of: v, steps: &steps)) }
      try Semantics.charge(a.count, &steps)
      hasher.combine(4 as UInt8)
      hasher.combine(a.count)
      for e in a { try combine(e, into: &hasher, depth: depth + 1, steps: &steps) }
    case .dictionary(let d):
      if depth == recursionDepth { return hasher.combine(try digestWithoutRecursion(of: v, steps: &steps)) }
      try Semantics.charge(d.count, &steps)
      hasher.combine(5 as UInt8)
      hasher.combine(d.count)
      var sum = 0
      for (k, e) in d {
        try Semantics.charge(Cost.hashing(k.utf8.count), &steps)
        var entry = Hasher()
        combineBytes(k, into: &entry)
        try combine(e, into: &entry, depth: depth + 1, steps: &steps)
        sum &+= entry.finalize()
      }
      hasher.combine(sum)
    case .null, .bool, .int, .double, .string, .date:
      try combineScalar(v, into: &hasher, steps: &steps)
    }
  }

  /// The digest of a collection nested too deep to recurse into, its walk's stack kept on
  /// the heap (a value nested thousands of arrays deep cannot overflow the stack).
  private static func digestWithoutRecursion(of value: SiftValue, steps: inout Int) throws(EvaluationError) -> Int {
    var stack = [try Frame(value, steps: &steps)]
    while true {
      let top = stack.count - 1
      if let child = try stack[top].nextChild(steps: &steps) {
        if let d = try scalarDigest(child, steps: &steps) {
          stack[top].absorb(d)
        } else {
          stack.append(try Frame(child, steps: &steps))
        }
        continue
      }
      let finished = stack.removeLast().finalize()
      if stack.isEmpty { return finished }
      stack[stack.count - 1].absorb(finished)
    }
  }

  /// A collection part-way through being hashed.
  private struct Frame {
    private enum Walk {
      case array([SiftValue], next: Int)
      /// Entries in storage order; `key` is the entry whose value is being hashed, and
      /// `sum` the order-independent sum of the entries' hashes so far.
      case dictionary([String: SiftValue], next: Dictionary<String, SiftValue>.Index, key: String, sum: Int)
    }

    private var walk: Walk
    private var hasher = Hasher()

    init(_ collection: SiftValue, steps: inout Int) throws(EvaluationError) {
      switch collection {
      case .array(let a):
        try Semantics.charge(a.count, &steps)
        hasher.combine(4 as UInt8)
        hasher.combine(a.count)
        walk = .array(a, next: 0)
      case .dictionary(let d):
        try Semantics.charge(d.count, &steps)
        hasher.combine(5 as UInt8)
        hasher.combine(d.count)
        walk = .dictionary(d, next: d.startIndex, key: "", sum: 0)
      case .null, .bool, .int, .double, .string, .date:
        preconditionFailure("a frame is made for collections only")
      }
    }

    /// The next element or entry value to hash, or nil when all are done.
    mutating func nextChild(steps: inout Int) throws(EvaluationError) -> SiftValue? {
      switch walk {
      case .array(let a, let next):
        guard next < a.count else { return nil }
        walk = .array(a, next: next + 1)
        return a[next]
      case .dictionary(let d, let next, _, let sum):
        guard next < d.endIndex else { return nil }
        let (key, value) = d[next]
        try Semantics.charge(Cost.hashing(key.utf8.count), &steps)
        walk = .dictionary(d, next: d.index(after: next), key: key, sum: sum)
        return value
      }
    }

    /// Takes in the hash of the child ``nextChild(steps:)`` returned last.
    mutating func absorb(_ child: Int) {
      switch walk {
      case .array:
        hasher.combine(child)
      case .dictionary(let d, let next, let key, let sum):
        var entry = Hasher()
        EqualityKey.combineBytes(key, into: &entry)
        entry.combine(child)
        walk = .dictionary(d, next: next, key: "", sum: sum &+ entry.finalize())
      }
    }

    consuming func finalize() -> Int {
      if case .dictionary(_, _, _, let sum) = walk { hasher.combine(sum) }
      return hasher.finalize()
    }
  }

  /// The hash of a value that is not a collection (nil for one), charging a string's
  /// bytes.
  @inline(__always)
  private static func scalarDigest(_ v: SiftValue, steps: inout Int) throws(EvaluationError) -> Int? {
    switch v {
    case .array, .dictionary: return nil
    case .null, .bool, .int, .double, .string, .date:
      var hasher = Hasher()
      try combineScalar(v, into: &hasher, steps: &steps)
      return hasher.finalize()
    }
  }

  /// Feeds a value that is not a collection into `hasher`, charging a string's bytes.
  @inline(__always)
  private static func combineScalar(_ v: SiftValue, into hasher: inout Hasher, steps: inout Int)
    throws(EvaluationError)
  {
    switch v {
    case .null: hasher.combine(0 as UInt8)
    case .bool(let b): combineNumber(b ? 1 : 0, into: &hasher)
    case .int(let i): combineNumber(i, into: &hasher)
    case .double(let d):
      // An integral double equals the int of the same value.
      if let i = Int(exactly: d) {
        combineNumber(i, into: &hasher)
      } else {
        hasher.combine(6 as UInt8)
        hasher.combine(d)
      }
    case .string(let s):
      try Semantics.charge(Cost.hashing(s.utf8.count), &steps)
      hasher.combine(2 as UInt8)
      combineBytes(s, into: &hasher)
    case .date(let d):
      hasher.combine(3 as UInt8)
      hasher.combine(d == 0 ? 0 : d)  // -0.0 is the same time as 0.0
    case .array, .dictionary: preconditionFailure("collections are hashed by combine(_:into:depth:steps:)")
    }
  }

  private static func combineNumber(_ i: Int, into hasher: inout Hasher) {
    hasher.combine(1 as UInt8)
    hasher.combine(i)
  }

  /// A string's UTF-8 bytes and their count: what `==` without options compares.
  @inline(__always)
  fileprivate static func combineBytes(_ s: String, into hasher: inout Hasher) {
    let n = s.utf8.count
    let done: Void? = s.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    if done == nil {
      // Bridged or foreign strings: copied to contiguous bytes once.
      var copy = s
      copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
    hasher.combine(n)
  }
}
