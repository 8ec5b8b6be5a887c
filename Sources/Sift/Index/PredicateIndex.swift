/// The predicates of a ``SiftPredicateSet`` by *slot*, their shapes, and the index; not
/// generic (the set maps slots to its ids), so matching runs specialised code whatever
/// the id type, and not locked (the set holds the lock). A class, so a match borrows it.
///
/// Slots are handed out in insertion order and renumbered, in order, only by a rebuild,
/// so sorting slots sorts by insertion. Removing a predicate frees its constants at once
/// but leaves its postings in the index: a posting of a removed slot is skipped, one of
/// a replaced slot yields a candidate that the exact check refuses. When the stale
/// postings (or the free slots) outnumber the live ones, the owner rebuilds, so they
/// never cost more than a constant factor.
final class PredicateIndex {
  // MARK: Per slot

  /// One bit per slot: holds a predicate.
  private var alive: [UInt64] = []
  private var shapeOf: ContiguousArray<UInt32> = []
  private var constants: ContiguousArray<[SiftValue]> = []
  /// The postings each slot added to the index, or ``scanned``.
  private var postingsOf: ContiguousArray<UInt32> = []

  /// In ``postingsOf``: the slot is on the scan list.
  private static var scanned: UInt32 { .max }

  // MARK: Shapes

  private var shapes: [PredicateShape?] = []
  private var shapeUsers: [Int] = []
  private var freeShapes: [UInt32] = []
  private var sharedShapes: [ShapeKey: UInt32] = [:]
  /// Shapes whose program did not compile: their predicates keep their own.
  private var unshareable: Set<ShapeKey> = []

  // MARK: Index

  /// The key paths the groups read, each resolved once per match.
  private var paths: [[String]] = []
  private var pathIDs: [[String]: Int] = [:]
  private var groups: [IndexGroup] = []
  private var groupIDs: [IndexGroupKey: Int] = [:]
  /// Slots of predicates with no necessary condition the index can use, sorted.
  private var scan: [UInt32] = []

  // MARK: Counts

  /// Slots handed out (live or not).
  var slotCount: Int { shapeOf.count }
  private(set) var liveCount = 0
  private var livePostings = 0
  private var stalePostings = 0

  init() {}

  // MARK: - Updates

  /// Enters `p` under a new slot, the next one.
  func append(_ p: PreparedPredicate) -> UInt32 {
    precondition(shapeOf.count < Int(UInt32.max), "a predicate set holds fewer than 2^32 predicates")
    let slot = UInt32(shapeOf.count)
    shapeOf.append(shapeID(for: p))
    constants.append(p.constants)
    postingsOf.append(0)
    if Int(slot) >> 6 == alive.count { alive.append(0) }
    alive[Int(slot) >> 6] |= 1 << (UInt64(slot) & 63)
    liveCount += 1
    index(slot)
    return slot
  }

  /// Puts `p` in the place of the predicate in the live `slot`.
  func replace(_ slot: UInt32, with p: PreparedPredicate) {
    let shape = shapeID(for: p)
    retire(slot)
    shapeOf[Int(slot)] = shape
    constants[Int(slot)] = p.constants
    index(slot)
  }

  /// Removes the predicate in the live `slot`.
  func remove(_ slot: UInt32) {
    retire(slot)
    alive[Int(slot) >> 6] &= ~(1 << (UInt64(slot) & 63))
    constants[Int(slot)] = []
    postingsOf[Int(slot)] = 0
    liveCount -= 1
  }

  /// Room for `count` more slots.
  func reserve(_ count: Int) {
    shapeOf.reserveCapacity(shapeOf.count + count)
    constants.reserveCapacity(constants.count + count)
    postingsOf.reserveCapacity(postingsOf.count + count)
  }

  /// Merges pending intervals where there are enough of them (all with `force`).
  func settle(force: Bool) {
    for group in groups { group.settle(force: force) }
  }

  /// Whether free slots or stale postings outnumber the live ones (then ``rebuild()``).
  var isSparse: Bool {
    let freeSlots = shapeOf.count - liveCount
    return (freeSlots > 1024 && freeSlots > liveCount) || (stalePostings > 4096 && stalePostings > livePostings)
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
    fresh.reserve(liveCount)
    var kept: [UInt32] = []
    kept.reserveCapacity(liveCount)
    for slot in 0..<shapeOf.count where isAlive(UInt32(slot)) {
      let newSlot = UInt32(fresh.shapeOf.count)
      kept.append(UInt32(slot))
      fresh.shapeOf.append(shapeOf[slot])
      fresh.constants.append(constants[slot])
      fresh.postingsOf.append(0)
      if Int(newSlot) >> 6 == fresh.alive.count { fresh.alive.append(0) }
      fresh.alive[Int(newSlot) >> 6] |= 1 << (UInt64(newSlot) & 63)
      fresh.liveCount += 1
      fresh.index(newSlot)
    }
    fresh.settle(force: true)
    adopt(fresh)
    return kept
  }

  /// Takes every field of `other` (a class cannot assign `self`).
  private func adopt(_ other: PredicateIndex) {
    alive = other.alive
    shapeOf = other.shapeOf
    constants = other.constants
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
    let key = ShapeKey(syntax: p.shape, limits: p.predicate.options.limits)
    if p.shareable, let id = sharedShapes[key] {
      shapeUsers[Int(id)] += 1
      return id
    }
    var shape: PredicateShape?
    if p.shareable && !unshareable.contains(key) {
      do {
        shape = try PredicateShape(shared: key, constantCount: p.constants.count)
      } catch {
        unshareable.insert(key)
      }
    }
    let made = shape ?? PredicateShape(own: p.predicate, syntax: p.shape, indexable: p.indexable)
    let id: UInt32
    if let free = freeShapes.popLast() {
      id = free
      shapes[Int(id)] = made
      shapeUsers[Int(id)] = 1
    } else {
      id = UInt32(shapes.count)
      shapes.append(made)
      shapeUsers.append(1)
    }
    if made.isShared { sharedShapes[key] = id }
    return id
  }

  private func releaseShape(_ id: UInt32) {
    shapeUsers[Int(id)] -= 1
    guard shapeUsers[Int(id)] == 0, let shape = shapes[Int(id)] else { return }
    if shape.isShared { sharedShapes[ShapeKey(syntax: shape.syntax, limits: shape.limits)] = nil }
    shapes[Int(id)] = nil
    freeShapes.append(id)
  }

  /// Takes the predicate in `slot` out of the index (its postings go stale) and releases
  /// its shape.
  private func retire(_ slot: UInt32) {
    let postings = postingsOf[Int(slot)]
    if postings == Self.scanned {
      if let at = Self.position(of: slot, in: scan) { scan.remove(at: at) }
    } else {
      livePostings -= Int(postings)
      stalePostings += Int(postings)
    }
    releaseShape(shapeOf[Int(slot)])
  }

  /// Enters the predicate in `slot` (its shape and constants set) into the index: under
  /// its cheapest necessary condition given the postings already there, or on the scan
  /// list.
  private func index(_ slot: UInt32) {
    let plan = shapes[Int(shapeOf[Int(slot)])]!.plan
    let atoms = plan.atoms(constants[Int(slot)]) { atom in
      groupIDs[atom.group].map { groups[$0].estimate(atom.entry) } ?? 0
    }
    guard let atoms else {
      postingsOf[Int(slot)] = Self.scanned
      if let last = scan.last, last > slot {
        scan.insert(slot, at: Self.insertionPoint(of: slot, in: scan))
      } else {
        scan.append(slot)
      }
      return
    }
    var count = 0
    for atom in atoms {
      groups[groupID(atom.group)].add(atom.entry, slot: slot)
      count += atom.postings
    }
    postingsOf[Int(slot)] = UInt32(min(count, Int(Self.scanned) - 1))
    livePostings += count
  }

  private func groupID(_ key: IndexGroupKey) -> Int {
    if let g = groupIDs[key] { return g }
    let path: Int
    if let p = pathIDs[key.keys] {
      path = p
    } else {
      path = paths.count
      paths.append(key.keys)
      pathIDs[key.keys] = path
    }
    groups.append(IndexGroup(key: key, path: path))
    groupIDs[key] = groups.count - 1
    return groups.count - 1
  }

  private static func insertionPoint(of slot: UInt32, in sorted: [UInt32]) -> Int {
    var lo = 0
    var hi = sorted.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if sorted[mid] < slot { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  private static func position(of slot: UInt32, in sorted: [UInt32]) -> Int? {
    let i = insertionPoint(of: slot, in: sorted)
    return i < sorted.count && sorted[i] == slot ? i : nil
  }

  @inline(__always)
  private func isAlive(_ slot: UInt32) -> Bool { alive[Int(slot) >> 6] & (1 << (UInt64(slot) & 63)) != 0 }

  // MARK: - Matching

  /// The slots of the predicates that match `root`, ascending. `string`: `root` is this
  /// string, for predicates that keep their own program.
  func matches(_ root: UnsafePointer<SiftValue>, string: String?) -> [UInt32] {
    var candidates: [UInt32] = []
    if !groups.isEmpty {
      candidates.reserveCapacity(16)
      collect(root, into: &candidates)
    }
    var out: [UInt32] = []
    var variables: [String: SiftValue] = [:]
    // Candidates and the scan list, merged in slot order.
    var i = 0
    var j = 0
    while i < candidates.count || j < scan.count {
      let slot: UInt32
      if j == scan.count || (i < candidates.count && candidates[i] < scan[j]) {
        slot = candidates[i]
        i += 1
      } else {
        if i < candidates.count && candidates[i] == scan[j] { i += 1 }
        slot = scan[j]
        j += 1
      }
      guard isAlive(slot) else { continue }
      let shape = shapes[Int(shapeOf[Int(slot)])].unsafelyUnwrapped
      if shape.matches(root, string: string, constants: constants[Int(slot)], variables: &variables) {
        out.append(slot)
      }
    }
    return out
  }

  /// The candidates from every group, sorted, without repeats.
  private func collect(_ root: UnsafePointer<SiftValue>, into candidates: inout [UInt32]) {
    // Each key path read once: the value, or nil when reading it failed (then every
    // comparison on it fails too).
    withUnsafeTemporaryAllocation(of: SiftValue?.self, capacity: paths.count) { resolved in
      withUnsafeTemporaryAllocation(of: Bool.self, capacity: paths.count) { known in
        known.initialize(repeating: false)
        for group in groups {
          let path = group.path
          if !known[path] {
            var mapsArray = false
            let keys = paths[path]
            (resolved.baseAddress! + path).initialize(
              to: keys.isEmpty ? root.pointee : SubjectPath.value(keys, in: root.pointee, mapsArray: &mapsArray))
            known[path] = true
          }
          if let value = resolved[path] { group.collect(value, into: &candidates) }
        }
        for path in 0..<paths.count where known[path] { (resolved.baseAddress! + path).deinitialize(count: 1) }
      }
    }
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
    s.ownPrograms = shapes.reduce(0) { $0 + (($1?.isShared ?? true) ? 0 : 1) }
    s.groups = groups.count
    s.indexEntries = groups.reduce(0) { $0 + $1.entryCount }
    s.staleIndexEntries = stalePostings
    s.indexBytes = groups.reduce(0) { $0 + $1.reservedBytes }
    return s
  }
}
