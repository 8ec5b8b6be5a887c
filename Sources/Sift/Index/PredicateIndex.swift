/// The predicates of a ``SiftPredicateSet`` by *slot*, their shapes, and the index; not
/// generic (the set maps slots to its ids), so matching runs the same code whatever the
/// id type, and not locked (the set holds the lock). A class, so a match borrows it.
///
/// Slots are handed out in insertion order and renumbered, in order, only by a rebuild,
/// so sorting slots sorts by insertion.
///
/// **Layout.** Each predicate is a run of values in one pool: a header (`.int`: its slot
/// in the low 32 bits, its shape in the high ones), then its constants
/// (``ConstantSlice``). The index's postings and intervals hold the run's offset, so
/// checking a candidate reads one place in memory, with no object or array per predicate.
///
/// **Removal.** Removing or replacing a predicate marks its run dead (its shape becomes
/// ``removed``) and leaves its postings: a posting of a dead run is skipped. When dead
/// runs, free slots or stale postings outnumber the live ones, the owner rebuilds (see
/// ``isSparse``), so they never cost more than a constant factor.
@usableFromInline
final class PredicateIndex {
  // MARK: Pool

  // What a match reads skips the dynamic exclusivity check: it is written only under the
  // set's write lock and read only under its read lock.

  /// Every predicate's run: header, constants, flattened elements.
  @exclusivity(unchecked) private var pool: ContiguousArray<SiftValue> = []
  /// Values of dead runs still in the pool.
  private var deadValues = 0

  /// In a header: the run is dead.
  static var removed: UInt32 { .max }

  // MARK: Per slot

  /// Where each slot's run starts; ``removed`` for a free slot.
  private var offsetOf: ContiguousArray<UInt32> = []
  /// The postings each slot added to the index, or ``scanned``.
  private var postingsOf: ContiguousArray<UInt32> = []

  /// In ``postingsOf``: the slot is on the scan list.
  private static var scanned: UInt32 { .max }

  // MARK: Shapes

  @exclusivity(unchecked) private var shapes: [PredicateShape?] = []
  private var shapeUsers: [Int] = []
  private var freeShapes: [UInt32] = []
  private var sharedShapes: [ShapeKey: UInt32] = [:]
  /// Shapes whose program did not compile: their predicates keep their own.
  private var unshareable: Set<ShapeKey> = []

  // MARK: Index

  /// The key paths the groups and the shapes' conjunctions read, numbered (``PathValues``).
  @exclusivity(unchecked) private var paths: [[String]] = []
  private var pathIDs: [[String]: Int] = [:]
  @exclusivity(unchecked) private var groups: [IndexGroup] = []
  private var groupIDs: [IndexGroupKey: Int] = [:]
  /// Offsets of the runs of predicates with no necessary condition the index can use,
  /// ascending.
  @exclusivity(unchecked) private var scan: [UInt32] = []

  // MARK: Counts

  /// Slots handed out (live or not).
  var slotCount: Int { offsetOf.count }
  private(set) var liveCount = 0
  private var livePostings = 0
  private var stalePostings = 0

  init() {}

  // MARK: - Updates

  /// Enters `p` under a new slot, the next one.
  func append(_ p: PreparedPredicate) -> UInt32 {
    precondition(offsetOf.count < Int(UInt32.max), "a predicate set holds fewer than 2^32 predicates")
    let slot = UInt32(offsetOf.count)
    offsetOf.append(0)
    postingsOf.append(0)
    store(p, shape: shapeID(for: p), in: slot)
    liveCount += 1
    return slot
  }

  /// Puts `p` in the place of the predicate in the live `slot`.
  func replace(_ slot: UInt32, with p: PreparedPredicate) {
    let shape = shapeID(for: p)
    retire(slot)
    store(p, shape: shape, in: slot)
  }

  /// Removes the predicate in the live `slot`.
  func remove(_ slot: UInt32) {
    retire(slot)
    offsetOf[Int(slot)] = Self.removed
    postingsOf[Int(slot)] = 0
    liveCount -= 1
  }

  /// Writes the run of `p` at the end of the pool for `slot`, and indexes it.
  private func store(_ p: PreparedPredicate, shape: UInt32, in slot: UInt32) {
    let flattened = shapes[Int(shape)]!.flattened
    let (heads, elements) = ConstantSlice.layout(p.constants, mask: flattened)
    append(slot: slot, shape: shape, heads: heads, elements: elements)
    index(slot)
  }

  private func append(
    slot: UInt32, shape: UInt32, heads: some Collection<SiftValue>, elements: some Collection<SiftValue>
  ) {
    precondition(
      pool.count + 1 + heads.count + elements.count < Int(UInt32.max), "too many constants in a predicate set")
    offsetOf[Int(slot)] = UInt32(pool.count)
    pool.append(Self.header(slot: slot, shape: shape))
    pool.append(contentsOf: heads)
    pool.append(contentsOf: elements)
  }

  @inline(__always)
  private static func header(slot: UInt32, shape: UInt32) -> SiftValue {
    .int(Int(bitPattern: UInt(slot) | UInt(shape) << 32))
  }

  /// The slot and shape in the header at `offset`.
  @inline(__always)
  private static func header(_ pool: UnsafeBufferPointer<SiftValue>, _ offset: Int) -> (slot: UInt32, shape: UInt32) {
    guard case .int(let packed) = pool[offset] else { preconditionFailure("not a run header") }
    let bits = UInt(bitPattern: packed)
    return (UInt32(truncatingIfNeeded: bits), UInt32(truncatingIfNeeded: bits >> 32))
  }

  /// The constants of the run at `offset`, of `shape`.
  @inline(__always)
  private static func constants(_ pool: UnsafeBufferPointer<SiftValue>, _ offset: Int, _ shape: PredicateShape)
    -> ConstantSlice
  {
    let headsStart = offset + 1
    let elementsStart = headsStart + shape.constantCount
    return ConstantSlice(
      heads: UnsafeBufferPointer(rebasing: pool[headsStart..<elementsStart]),
      elements: UnsafeBufferPointer(rebasing: pool[elementsStart...]), flattened: shape.flattened)
  }

  /// How many values the run at `offset` takes.
  private static func runLength(_ constants: ConstantSlice) -> Int {
    var elements = 0
    for k in 0..<min(constants.count, 64) {
      if case .elements(let e) = constants.constant(k), let start = e.baseAddress, e.count > 0 {
        elements = max(elements, start + e.count - constants.elements.baseAddress!)
      }
    }
    return 1 + constants.count + elements
  }

  /// Room for `count` more slots.
  func reserve(_ count: Int) {
    offsetOf.reserveCapacity(offsetOf.count + count)
    postingsOf.reserveCapacity(postingsOf.count + count)
  }

  /// Merges pending intervals where there are enough of them (all with `force`).
  func settle(force: Bool) {
    for group in groups { group.settle(force: force) }
  }

  /// Whether free slots, stale postings or dead values outnumber the live ones (then
  /// ``rebuild()``).
  var isSparse: Bool {
    let freeSlots = offsetOf.count - liveCount
    return (freeSlots > 1024 && freeSlots > liveCount) || (stalePostings > 4096 && stalePostings > livePostings)
      || (deadValues > 4096 && deadValues * 2 > pool.count)
  }

  /// The same predicates in the same order, renumbered from 0, with a fresh index.
  /// Returns the old slot of each new one.
  func rebuild() -> [UInt32] {
    let fresh = PredicateIndex()
    fresh.shapes = shapes
    fresh.shapeUsers = shapeUsers
    fresh.freeShapes = freeShapes
    fresh.sharedShapes = sharedShapes
    fresh.unshareable = unshareable
    // The shapes' conjunctions number paths: keep the numbers.
    fresh.paths = paths
    fresh.pathIDs = pathIDs
    fresh.reserve(liveCount)
    fresh.pool.reserveCapacity(pool.count - deadValues)
    var kept: [UInt32] = []
    kept.reserveCapacity(liveCount)
    pool.withUnsafeBufferPointer { pool in
      for (slot, offset) in offsetOf.enumerated() where offset != Self.removed {
        let newSlot = UInt32(fresh.offsetOf.count)
        kept.append(UInt32(slot))
        fresh.offsetOf.append(0)
        fresh.postingsOf.append(0)
        let shape = Self.header(pool, Int(offset)).shape
        let length = Self.runLength(Self.constants(pool, Int(offset), shapes[Int(shape)]!))
        let run = pool[Int(offset) + 1..<Int(offset) + length]
        fresh.append(slot: newSlot, shape: shape, heads: run, elements: EmptyCollection())
        fresh.liveCount += 1
        fresh.index(newSlot)
      }
    }
    fresh.settle(force: true)
    adopt(fresh)
    return kept
  }

  /// Takes every field of `other` (a class cannot assign `self`).
  private func adopt(_ other: PredicateIndex) {
    pool = other.pool
    deadValues = other.deadValues
    offsetOf = other.offsetOf
    postingsOf = other.postingsOf
    shapes = other.shapes
    shapeUsers = other.shapeUsers
    freeShapes = other.freeShapes
    sharedShapes = other.sharedShapes
    unshareable = other.unshareable
    paths = other.paths
    pathIDs = other.pathIDs
    groups = other.groups
    groupIDs = other.groupIDs
    scan = other.scan
    liveCount = other.liveCount
    livePostings = other.livePostings
    stalePostings = other.stalePostings
  }

  /// The shape of a prepared predicate: an existing shared one, a new shared one, or one
  /// of its own. Counts the predicate as a user.
  private func shapeID(for p: PreparedPredicate) -> UInt32 {
    let key = p.key
    if p.shareable, let id = sharedShapes[key] {
      shapeUsers[Int(id)] += 1
      return id
    }
    var shape: PredicateShape?
    if p.shareable && !unshareable.contains(key) {
      do {
        shape = try PredicateShape(shared: key, constantCount: p.constants.count, path: pathID)
      } catch {
        unshareable.insert(key)
      }
    }
    let made =
      shape
      ?? PredicateShape(own: p.predicate, syntax: p.shape, constantCount: p.constants.count, indexable: p.indexable)
    let id: UInt32
    if let free = freeShapes.popLast() {
      id = free
      shapes[Int(id)] = made
      shapeUsers[Int(id)] = 1
    } else {
      precondition(shapes.count < Int(UInt32.max) - 1, "too many shapes in a predicate set")
      id = UInt32(shapes.count)
      shapes.append(made)
      shapeUsers.append(1)
    }
    if let key = made.key { sharedShapes[key] = id }
    return id
  }

  private func releaseShape(_ id: UInt32) {
    shapeUsers[Int(id)] -= 1
    guard shapeUsers[Int(id)] == 0, let shape = shapes[Int(id)] else { return }
    if let key = shape.key { sharedShapes[key] = nil }
    shapes[Int(id)] = nil
    freeShapes.append(id)
  }

  /// Takes the predicate in `slot` out of the index (its run dies, its postings go
  /// stale) and releases its shape.
  private func retire(_ slot: UInt32) {
    let offset = Int(offsetOf[Int(slot)])
    let postings = postingsOf[Int(slot)]
    if postings == Self.scanned {
      if let at = Self.position(of: UInt32(offset), in: scan) { scan.remove(at: at) }
    } else {
      livePostings -= Int(postings)
      stalePostings += Int(postings)
    }
    let shape = pool.withUnsafeBufferPointer { pool in
      let shape = Self.header(pool, offset).shape
      deadValues += Self.runLength(Self.constants(pool, offset, shapes[Int(shape)]!))
      return shape
    }
    pool[offset] = Self.header(slot: slot, shape: Self.removed)
    releaseShape(shape)
  }

  /// Enters the run of `slot` into the index: under its cheapest necessary condition
  /// given the postings already there, or on the scan list.
  private func index(_ slot: UInt32) {
    let offset = offsetOf[Int(slot)]
    let atoms = pool.withUnsafeBufferPointer { pool in
      let shape = shapes[Int(Self.header(pool, Int(offset)).shape)]!
      return shape.plan.atoms(Self.constants(pool, Int(offset), shape)) { atom in
        groupIDs[atom.group].map { groups[$0].estimate(atom.entry) } ?? 0
      }
    }
    guard let atoms else {
      postingsOf[Int(slot)] = Self.scanned
      // Runs are appended, so a new one is the last.
      scan.append(offset)
      return
    }
    var count = 0
    for atom in atoms {
      groups[groupID(atom.group)].add(atom.entry, target: offset)
      count += atom.postings
    }
    postingsOf[Int(slot)] = UInt32(min(count, Int(Self.scanned) - 1))
    livePostings += count
  }

  /// The number of a key path, for ``PathValues``.
  private func pathID(_ keys: [String]) -> Int {
    if let p = pathIDs[keys] { return p }
    paths.append(keys)
    pathIDs[keys] = paths.count - 1
    return paths.count - 1
  }

  private func groupID(_ key: IndexGroupKey) -> Int {
    if let g = groupIDs[key] { return g }
    groups.append(IndexGroup(key: key, path: pathID(key.keys)))
    groupIDs[key] = groups.count - 1
    return groups.count - 1
  }

  private static func position(of offset: UInt32, in sorted: [UInt32]) -> Int? {
    var lo = 0
    var hi = sorted.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if sorted[mid] < offset { lo = mid + 1 } else { hi = mid }
    }
    return lo < sorted.count && sorted[lo] == offset ? lo : nil
  }

  // MARK: - Matching

  /// The slots of the predicates that match `root`, ascending. `string`: `root` is this
  /// string, for predicates that keep their own program.
  @usableFromInline
  func matches(_ root: UnsafePointer<SiftValue>, string: String?) -> [UInt32] {
    PathValues.with(root, paths) { values in
      var candidates: [UInt32] = []
      for group in groups {
        if let (value, _) = values.value(group.path) { group.collect(value.pointee, into: &candidates) }
      }
      // In pool order, once each (an OR, or two keys of one IN, can name a run twice).
      Self.sortUnique(&candidates)
      var out: [UInt32] = []
      var variables: [String: SiftValue] = [:]
      pool.withUnsafeBufferPointer { pool in
        shapes.withUnsafeBufferPointer { shapes in
          func check(_ offset: UInt32) {
            let (slot, shapeID) = Self.header(pool, Int(offset))
            guard shapeID != Self.removed else { return }
            let shape = shapes[Int(shapeID)].unsafelyUnwrapped
            if shape.matches(
              values, string: string, constants: Self.constants(pool, Int(offset), shape), variables: &variables)
            {
              out.append(slot)
            }
          }
          // Every candidate's run is somewhere in a large pool, each a cache miss: read
          // their first words up front, independent loads the processor overlaps, so the
          // checks below find them in cache instead of waiting for each in turn.
          if candidates.count > 1 {
            let base = UnsafeRawPointer(pool.baseAddress!)
            var touched: UInt64 = 0
            for offset in candidates {
              touched &+= base.load(fromByteOffset: Int(offset) &* MemoryLayout<SiftValue>.stride, as: UInt64.self)
            }
            Self.keep(touched)
          }
          for offset in candidates { check(offset) }
          for offset in scan { check(offset) }
        }
      }
      // Pool order is not slot order once a predicate has been replaced, and the scan
      // list is apart: the answer is in slot (insertion) order.
      if out.count > 1 { out.sort() }
      return out
    }
  }

  /// Keeps the loads that produced `x` from being optimised away.
  @_optimize(none) @inline(never)
  private static func keep(_ x: UInt64) { _ = x }

  private static func sortUnique(_ candidates: inout [UInt32]) {
    guard candidates.count > 1 else { return }
    candidates.sort()
    var kept = 1
    for i in 1..<candidates.count where candidates[i] != candidates[kept - 1] {
      candidates[kept] = candidates[i]
      kept += 1
    }
    candidates.removeLast(candidates.count - kept)
  }

  // MARK: - Statistics

  /// The figures of ``SiftPredicateSetStatistics``.
  var statistics: SiftPredicateSetStatistics {
    var s = SiftPredicateSetStatistics()
    s.count = liveCount
    s.scanned = scan.count
    s.indexed = liveCount - scan.count
    s.sharedShapes = sharedShapes.count
    s.ownPrograms = shapes.reduce(0) { $0 + (($1.map { $0.key == nil } ?? false) ? 1 : 0) }
    s.groups = groups.count
    s.indexEntries = groups.reduce(0) { $0 + $1.entryCount }
    s.staleIndexEntries = stalePostings
    s.indexBytes = groups.reduce(0) { $0 + $1.reservedBytes }
    return s
  }
}
