/// The predicates of a ``SiftPredicateSet`` by *slot*, their shapes, and the index; not
/// generic (the set maps slots to its ids), so matching runs the same code whatever the
/// id type, and not locked (the set holds the lock). A class, so a match borrows it.
///
/// Slots are handed out in insertion order and renumbered, in order, only by a rebuild,
/// so sorting slots sorts by insertion.
///
/// **Layout.** Each predicate is a run of values in one pool: a header (`.int`: its slot
/// in the low 32 bits, its shape in the high ones), the offset of its object run in
/// ``BoundObjects`` (`.int`), then the values its shape's code reads, in the code's value
/// slots (``PredicateShape/values(_:)``; for a predicate of its own, its constants). The
/// index's postings and intervals hold the run's offset; a candidate is checked by running
/// its shape's one ``Code`` on that run, as an ``Executable``: no object per predicate.
///
/// **Slots.** Shared code is compiled for the set's schema: every first key any shape reads
/// has a slot, numbered as keys first appear (numbers never change, so code compiled
/// earlier stays valid). A match reads each key at most once, whichever predicates read
/// it (``SetValueReader``, ``JSONRecordReader``).
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

  /// Every predicate's run: header, object offset, values.
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
  /// What a check needs of each shape, kept beside ``shapes`` so that checking a
  /// candidate retains nothing (``CheckedShape``).
  @exclusivity(unchecked) private var checked: ContiguousArray<CheckedShape> = []
  private var shapeUsers: [Int] = []
  private var freeShapes: [UInt32] = []
  private var sharedShapes: [ShapeKey: UInt32] = [:]
  /// Shapes whose program did not compile: their predicates keep their own.
  private var unshareable: Set<ShapeKey> = []
  /// The objects of shared shapes' predicates.
  @exclusivity(unchecked) private(set) var objects = BoundObjects()
  /// The short `IN` lists of shared shapes' predicates, packed.
  private var lists = PackedStringArena()

  // MARK: Schema

  /// The first keys shared code reads, by slot.
  @exclusivity(unchecked) private(set) var keys: [String] = []
  private var keySlots: [[UInt8]: Int] = [:]
  private var schema = SiftSchema(fields: [])
  /// First keys of group paths that no shared code reads (only predicates of their own
  /// are indexed under them), by bytes: a reader reads them by name.
  private var groupOnlyKeys: [String] = []
  /// Changes whenever ``readKeys`` does.
  private(set) var keyGeneration = 0

  /// Every first key a match reads, shared code's slots first: what a reader that
  /// views fields in place (``JSONRecordReader``) must have in its plan. Grows only.
  var readKeys: [String] {
    groupOnlyKeys.isEmpty ? keys : keys + groupOnlyKeys.filter { keySlots[Array($0.utf8)] == nil }
  }

  // MARK: Index

  /// The key paths the groups read, numbered.
  @exclusivity(unchecked) private var paths: [[String]] = []
  /// The schema slot of each path's first key, or -1 (read by name): kept with the
  /// paths and the keys, so a match looks no key up.
  @exclusivity(unchecked) private var pathSlots: [Int] = []
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
  func append(_ p: PreparedPredicate) throws(PredicateSyntaxError) -> UInt32 {
    precondition(offsetOf.count < Int(UInt32.max), "a predicate set holds fewer than 2^32 predicates")
    let shape = try shapeID(for: p)
    let slot = UInt32(offsetOf.count)
    offsetOf.append(0)
    postingsOf.append(0)
    store(p, shape: shape, in: slot)
    liveCount += 1
    return slot
  }

  /// Puts `p` in the place of the predicate in the live `slot`.
  func replace(_ slot: UInt32, with p: PreparedPredicate) throws(PredicateSyntaxError) {
    let shape = try shapeID(for: p)
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
    let s = shapes[Int(shape)]!
    let values = s.program == nil ? p.constants : Self.packed(s.values(p.constants), s, into: lists)
    append(slot: slot, shape: shape, objects: objects.run(for: s, p.constants), values: values)
    index(slot, p.constants)
  }

  private func append(slot: UInt32, shape: UInt32, objects: UInt32, values: some Collection<SiftValue>) {
    precondition(pool.count + 2 + values.count < Int(UInt32.max), "too many constants in a predicate set")
    offsetOf[Int(slot)] = UInt32(pool.count)
    pool.append(Self.header(slot: slot, shape: shape))
    pool.append(.int(Int(objects)))
    pool.append(contentsOf: values)
  }

  @inline(__always)
  private static func header(slot: UInt32, shape: UInt32) -> SiftValue {
    .int(Int(bitPattern: UInt(slot) | UInt(shape) << 32))
  }

  /// The slot and shape in the header at `offset`.
  @inline(__always)
  static func header(_ pool: UnsafeBufferPointer<SiftValue>, _ offset: Int) -> (slot: UInt32, shape: UInt32) {
    guard case .int(let packed) = pool[offset] else { preconditionFailure("not a run header") }
    let bits = UInt(bitPattern: packed)
    return (UInt32(truncatingIfNeeded: bits), UInt32(truncatingIfNeeded: bits >> 32))
  }

  /// The values of the run at `offset`, of `shape`.
  @inline(__always)
  private static func values(_ pool: UnsafeBufferPointer<SiftValue>, _ offset: Int, _ shape: PredicateShape)
    -> UnsafeBufferPointer<SiftValue>
  {
    let count = shape.program == nil ? shape.constantCount : shape.valueCount
    return UnsafeBufferPointer(rebasing: pool[(offset + 2)..<(offset + 2 + count)])
  }

  /// `values` of a predicate of `shape` with each `IN` list that has no set object
  /// (``BoundObjects/isLinear(_:_:)``) packed into `arena`.
  private static func packed(_ values: [SiftValue], _ shape: PredicateShape, into arena: PackedStringArena)
    -> [SiftValue]
  {
    var values = values
    for case .set(let slot, _, let options)? in shape.bindings {
      guard case .array(let members) = values[slot], BoundObjects.isLinear(members, options),
        let packed = arena.pack(members)
      else { continue }
      values[slot] = packed
    }
    return values
  }

  /// The shared code on the constants of the run at `offset`.
  @inline(__always)
  static func executable(
    _ code: Unmanaged<Code>, _ pool: UnsafeBufferPointer<SiftValue>,
    _ objectPool: UnsafeBufferPointer<UnsafeRawPointer?>,
    _ offset: Int
  ) -> Executable {
    Executable(
      unmanaged: code, values: pool.baseAddress! + offset + 2,
      objects: objectPool.baseAddress.map { $0 + objectOffset(pool, offset) })
  }

  /// The offset of the run's objects.
  @inline(__always)
  static func objectOffset(_ pool: UnsafeBufferPointer<SiftValue>, _ offset: Int) -> Int {
    guard case .int(let o) = pool[offset + 1] else { preconditionFailure("not a run header") }
    return o
  }

  /// The constants of the run at `offset` (read back from its values through the shape's
  /// bindings).
  private static func constants(_ pool: UnsafeBufferPointer<SiftValue>, _ offset: Int, _ shape: PredicateShape)
    -> [SiftValue]
  {
    let values = Self.values(pool, offset, shape)
    guard shape.program != nil else { return Array(values) }
    return shape.bindings.map { binding in
      switch binding {
      case .set(let slot, _, _)?:
        PackedStrings.address(of: values.baseAddress! + slot).map(PackedStrings.array) ?? values[slot]
      case .value(let slot)?, .needle(let slot, _, _, _)?: values[slot]
      case nil: .null
      }
    }
  }

  /// How many values the run of `shape` takes.
  private static func runLength(_ shape: PredicateShape) -> Int {
    2 + (shape.program == nil ? shape.constantCount : shape.valueCount)
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
    fresh.checked = checked
    fresh.shapeUsers = shapeUsers
    fresh.freeShapes = freeShapes
    fresh.sharedShapes = sharedShapes
    fresh.unshareable = unshareable
    // Runs keep their object offsets, and shapes their slots: keep both tables.
    fresh.objects = objects
    fresh.keys = keys
    fresh.keySlots = keySlots
    fresh.groupOnlyKeys = groupOnlyKeys
    fresh.keyGeneration = keyGeneration
    fresh.schema = schema
    fresh.paths = paths
    fresh.pathSlots = pathSlots
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
        let shapeID = Self.header(pool, Int(offset)).shape
        let shape = shapes[Int(shapeID)]!
        let constants = Self.constants(pool, Int(offset), shape)
        // Lists are packed again, into the fresh arena: a removed one's bytes go with the old.
        let values = shape.program == nil ? constants : Self.packed(shape.values(constants), shape, into: fresh.lists)
        fresh.append(
          slot: newSlot, shape: shapeID, objects: UInt32(Self.objectOffset(pool, Int(offset))), values: values)
        fresh.liveCount += 1
        fresh.index(newSlot, constants)
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
    checked = other.checked
    shapeUsers = other.shapeUsers
    freeShapes = other.freeShapes
    sharedShapes = other.sharedShapes
    unshareable = other.unshareable
    objects = other.objects
    lists = other.lists
    keys = other.keys
    keySlots = other.keySlots
    groupOnlyKeys = other.groupOnlyKeys
    keyGeneration = other.keyGeneration
    schema = other.schema
    paths = other.paths
    pathSlots = other.pathSlots
    pathIDs = other.pathIDs
    groups = other.groups
    groupIDs = other.groupIDs
    scan = other.scan
    liveCount = other.liveCount
    livePostings = other.livePostings
    stalePostings = other.stalePostings
  }

  /// The shape of a prepared predicate: an existing shared one, a new shared one, or one
  /// of its own. Counts the predicate as a user. Compiles the predicate on its own only
  /// when it cannot share and the caller did not.
  private func shapeID(for p: PreparedPredicate) throws(PredicateSyntaxError) -> UInt32 {
    let key = p.key
    if p.shareable, let id = sharedShapes[key] {
      shapeUsers[Int(id)] += 1
      return id
    }
    var shape: PredicateShape?
    if p.shareable && !unshareable.contains(key), let slots = slots(for: p.shape) {
      do {
        let made = try PredicateShape(shared: key, constants: p.constants, slots: slots)
        // Every constant must land in a slot, or another predicate's could not be bound.
        if made.bindings.allSatisfy({ $0 != nil }) { shape = made } else { unshareable.insert(key) }
      } catch {
        unshareable.insert(key)
      }
    }
    let made: PredicateShape
    if let shape {
      made = shape
    } else {
      let own: SiftPredicate
      if let predicate = p.predicate { own = predicate } else { own = try Self.compiledAlone(p) }
      made = PredicateShape(own: own, syntax: p.shape, constantCount: p.constants.count, indexable: p.indexable)
    }
    let id: UInt32
    if let free = freeShapes.popLast() {
      id = free
      shapes[Int(id)] = made
      checked[Int(id)] = CheckedShape(made)
      shapeUsers[Int(id)] = 1
    } else {
      precondition(shapes.count < Int(UInt32.max) - 1, "too many shapes in a predicate set")
      id = UInt32(shapes.count)
      shapes.append(made)
      checked.append(CheckedShape(made))
      shapeUsers.append(1)
    }
    if let key = made.key { sharedShapes[key] = id }
    return id
  }

  /// A predicate inserted from its syntax whose shape did not compile to shared code,
  /// compiled on its own: its own compile error, with its own text, is the caller's.
  private static func compiledAlone(_ p: PreparedPredicate) throws(PredicateSyntaxError) -> SiftPredicate {
    guard let source = p.source else {
      // Every other prepared predicate carries its compiled predicate.
      preconditionFailure("a prepared predicate without its predicate or its syntax")
    }
    return try SiftPredicate(syntax: source.syntax, format: source.format, options: p.options)
  }

  /// The set's schema with every first key `shape` reads in it (new keys take the next
  /// slots); nil when a key is canonically equivalent to another one already there but
  /// spelled differently (a schema looks keys up as Swift strings).
  private func slots(for shape: PredicateSyntax) -> SlotResolver? {
    var added = false
    for key in ShapeExtraction.firstKeys(of: shape) {
      let bytes = Array(key.utf8)
      if keySlots[bytes] != nil { continue }
      if schema.slot(for: key) != nil { return nil }
      keySlots[bytes] = keys.count
      keys.append(key)
      added = true
    }
    if added {
      schema = SiftSchema(fields: keys)
      keyGeneration += 1
      for (p, path) in paths.enumerated() where pathSlots[p] < 0 {
        pathSlots[p] = path.first.flatMap { keySlots[Array($0.utf8)] } ?? -1
      }
    }
    return .schema(schema)
  }

  private func releaseShape(_ id: UInt32) {
    shapeUsers[Int(id)] -= 1
    guard shapeUsers[Int(id)] == 0, let shape = shapes[Int(id)] else { return }
    if let key = shape.key { sharedShapes[key] = nil }
    shapes[Int(id)] = nil
    checked[Int(id)] = CheckedShape(nil)
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
      deadValues += Self.runLength(shapes[Int(shape)]!)
      return shape
    }
    pool[offset] = Self.header(slot: slot, shape: Self.removed)
    releaseShape(shape)
  }

  /// Enters the run of `slot`, whose predicate has `constants`, into the index: under its
  /// cheapest necessary condition given the postings already there, or on the scan list.
  private func index(_ slot: UInt32, _ constants: [SiftValue]) {
    let offset = offsetOf[Int(slot)]
    let shape = pool.withUnsafeBufferPointer { shapes[Int(Self.header($0, Int(offset)).shape)]! }
    let atoms = shape.plan.atoms(constants) { atom in
      groupIDs[atom.group].map { groups[$0].estimate(atom.entry) } ?? IndexGroup.estimate(atom.entry) { _ in 0 }
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

  /// The number of a key path a group reads.
  private func pathID(_ keys: [String]) -> Int {
    if let p = pathIDs[keys] { return p }
    paths.append(keys)
    pathSlots.append(keys.first.flatMap { keySlots[Array($0.utf8)] } ?? -1)
    pathIDs[keys] = paths.count - 1
    return paths.count - 1
  }

  private func groupID(_ key: IndexGroupKey) -> Int {
    if let g = groupIDs[key] { return g }
    if let first = key.keys.first, keySlots[Array(first.utf8)] == nil,
      !groupOnlyKeys.contains(where: { $0.utf8.elementsEqual(first.utf8) })
    {
      groupOnlyKeys.append(first)
      keyGeneration += 1
    }
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
    keys.withUnsafeBufferPointer { keys in
      SetValueReader.with(root, keys) { reader in
        match(reader) { string.map(SiftValue.string) ?? root.pointee }
      }
    }
  }

  /// The slots of the predicates that match the input `reader` reads (the set's schema is
  /// its schema: ``keys``), ascending. `whole` is the input as a value, for predicates
  /// that keep their own program (made when one is a candidate).
  func match<R: InputReader>(_ reader: R, whole: () -> SiftValue) -> [UInt32] {
    var scratch = MatchScratch()
    return match(reader, scratch: &scratch, whole: whole)
  }

  /// ``match(_:whole:)`` in `scratch`'s arrays, which a caller matching many inputs keeps
  /// (their memory is reused: a match then allocates only its answer).
  func match<R: InputReader>(_ reader: R, scratch: inout MatchScratch, whole: () -> SiftValue) -> [UInt32] {
    scratch.reset(paths: paths.count)
    for group in groups {
      let p = group.path
      // A string key in place is looked up by its bytes: no `String` per match (it was
      // about a tenth of a set match with one or two candidates, callgrind).
      if group.looksUpUTF8, pathSlots[p] >= 0, let key = reader.withSlotUTF8(pathSlots[p], group.key(utf8:)) {
        group.collect(key: key, into: &scratch.candidates)
        continue
      }
      if !scratch.pathRead[p] {
        scratch.pathRead[p] = true
        scratch.pathValues[p] = value(at: paths[p], slot: pathSlots[p], reader)
      }
      if let value = scratch.pathValues[p] { group.collect(value, into: &scratch.candidates) }
    }
    // In pool order, once each (an OR, or two keys of one IN, can name a run twice).
    Self.sortUnique(&scratch.candidates)
    pool.withUnsafeBufferPointer { pool in
      objects.pool.withUnsafeBufferPointer { objectPool in
        checked.withUnsafeBufferPointer { checked in
          shapes.withUnsafeBufferPointer { shapes in
            Self.check(
              Tables(pool: pool, objectPool: objectPool, checked: checked, shapes: shapes), scan: scan, reader,
              &scratch, whole: whole)
          }
        }
      }
    }
    // Pool order is not slot order once a predicate has been replaced, the scan list is
    // apart, and a run checked test by test answers in the order its candidates left the
    // chain: the answer is in slot (insertion) order.
    if scratch.out.count > 1 && !Self.isAscending(scratch.out) { scratch.out.sort() }
    return scratch.out
  }

  /// What checking a candidate reads of the index, borrowed for one match.
  private struct Tables {
    var pool: UnsafeBufferPointer<SiftValue>
    var objectPool: UnsafeBufferPointer<UnsafeRawPointer?>
    var checked: UnsafeBufferPointer<CheckedShape>
    var shapes: UnsafeBufferPointer<PredicateShape?>
  }

  /// Checks `scratch.candidates`, then the scan list, appending the slots that match to
  /// `scratch.out`. Static, with everything it reads passed in: as a local function
  /// capturing the match's state, every candidate paid dynamic exclusivity checks on the
  /// captured scratch (callgrind, `sift_set_match_ids` with one or two candidates).
  private static func check<R: InputReader>(
    _ tables: Tables, scan: [UInt32], _ reader: R, _ scratch: inout MatchScratch, whole: () -> SiftValue
  ) {
    var wholeValue: SiftValue? = nil
    if scratch.candidates.count > 1 { prefetch(scratch.candidates, tables.pool, tables.checked) }
    // Runs of candidates of one test-chain shape (pool order keeps a shape's predicates
    // together) are checked test by test; the rest one by one. The list is moved out of
    // the scratch, whose lanes the checks write meanwhile.
    var candidates: [UInt32] = []
    swap(&candidates, &scratch.candidates)
    defer { swap(&candidates, &scratch.candidates) }
    let pool = tables.pool
    var i = 0
    while i < candidates.count {
      let shapeID = header(pool, Int(candidates[i])).shape
      var j = i &+ 1
      if shapeID != removed && tables.checked[Int(shapeID)].testChain {
        while j < candidates.count && header(pool, Int(candidates[j])).shape == shapeID { j &+= 1 }
      }
      if j &- i >= 2 {
        candidates.withUnsafeBufferPointer { candidates in
          checkChain(
            UnsafeBufferPointer(rebasing: candidates[i..<j]), tables.checked[Int(shapeID)], pool: pool,
            objectPool: tables.objectPool, reader: reader, lanes: &scratch.lanes, steps: &scratch.steps,
            matched: &scratch.out)
        }
      } else {
        checkOne(candidates[i], tables, reader, &scratch.out, &wholeValue, whole)
      }
      i = j
    }
    for offset in scan { checkOne(offset, tables, reader, &scratch.out, &wholeValue, whole) }
  }

  /// Checks the run at `offset` alone (on its shape's code, or on its own predicate with
  /// the input as a value, made once per match in `wholeValue`).
  @inline(__always)
  private static func checkOne<R: InputReader>(
    _ offset: UInt32, _ tables: Tables, _ reader: R, _ out: inout [UInt32], _ wholeValue: inout SiftValue?,
    _ whole: () -> SiftValue
  ) {
    let (slot, shapeID) = header(tables.pool, Int(offset))
    guard shapeID != removed else { return }
    let matched: Bool
    let shape = tables.checked[Int(shapeID)]
    if let code = shape.unmanagedCode {
      let exe = executable(code, tables.pool, tables.objectPool, Int(offset))
      var environment = Environment(variables: nil, stepsLeft: shape.maxSteps)
      matched = (try? Machine.run(exe, input: reader, environment: &environment)) ?? false
    } else {
      if wholeValue == nil { wholeValue = whole() }
      let predicate = tables.shapes[Int(shapeID)].unsafelyUnwrapped.predicate.unsafelyUnwrapped
      if case .string(let s)? = wholeValue {
        matched = predicate.matches(s)
      } else {
        matched = predicate.matches(wholeValue!)
      }
    }
    if matched { out.append(slot) }
  }

  /// Brings the runs of `candidates` and the arrays they hold into cache ahead of their
  /// checks. Every candidate's run is somewhere in a large pool, and its `IN` list is a
  /// heap object of its own: waiting for each in turn is most of a check. First their
  /// headers, independent loads the processor overlaps; then, through each header's
  /// shape, the storage of the run's first array value, by a software prefetch (a hint:
  /// reading that storage would retain it, an atomic write that waits for the line).
  private static func prefetch(
    _ candidates: [UInt32], _ pool: UnsafeBufferPointer<SiftValue>, _ checked: UnsafeBufferPointer<CheckedShape>
  ) {
    let base = UnsafeRawPointer(pool.baseAddress!)
    let stride = MemoryLayout<SiftValue>.stride
    var touched: UInt64 = 0
    for offset in candidates {
      touched &+= base.load(fromByteOffset: Int(offset) &* stride, as: UInt64.self)
    }
    keep(touched)
    for offset in candidates {
      let shapeID = header(pool, Int(offset)).shape
      guard shapeID != removed else { continue }
      let slot = checked[Int(shapeID)].arraySlot
      guard slot >= 0 else { continue }
      (pool.baseAddress! + Int(offset) + 2 + slot).prefetchArrayStorage()
    }
  }

  /// The value at a group's key path, as the VM reads it, or nil where reading throws (a
  /// comparison on that path then fails, which is never a match). Unmetered: a group's
  /// lookup only proposes candidates.
  private func value<R: InputReader>(at path: [String], slot: Int, _ reader: R) -> SiftValue? {
    var steps = Int.max
    guard let first = path.first else { return try? reader.selfValue(steps: &steps) }
    // A key only predicates of their own read is not in the set's schema (shared code
    // alone adds keys there): it is read by name.
    let read: SiftValue?
    if slot >= 0 {
      read = try? reader.slot(slot, steps: &steps)
    } else {
      read = try? reader.root(first, steps: &steps)
    }
    guard let v = read else { return nil }
    var ignored = false
    return path.count == 1 ? v : SubjectPath.value(Array(path.dropFirst()), in: v, mapsArray: &ignored)
  }

  /// Keeps the loads that produced `x` from being optimised away.
  @_optimize(none) @inline(never)
  private static func keep(_ x: UInt64) { _ = x }

  private static func sortUnique(_ candidates: inout [UInt32]) {
    guard candidates.count > 1 else { return }
    // One group's postings come in pool order, once each: most lists are left as they
    // are, read through a pointer (written through the array, every element paid a
    // uniqueness check, callgrind).
    if isAscending(candidates, strictly: true) { return }
    candidates.sort()
    let kept = candidates.withUnsafeMutableBufferPointer { b in
      var kept = 1
      for i in 1..<b.count where b[i] != b[kept &- 1] {
        b[kept] = b[i]
        kept &+= 1
      }
      return kept
    }
    candidates.removeLast(candidates.count - kept)
  }

  /// Whether `xs` ascends (`strictly`: with no element twice), read through a pointer.
  private static func isAscending(_ xs: [UInt32], strictly: Bool = false) -> Bool {
    xs.withUnsafeBufferPointer { b in
      for i in 1..<b.count where b[i] < b[i &- 1] || (strictly && b[i] == b[i &- 1]) { return false }
      return true
    }
  }

  /// The shapes with shared code, as checks see them.
  var checkedShapes: [CheckedShape] { checked.filter { $0.unmanagedCode != nil } }

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
    s.indexBytes = groups.reduce(0) { $0 + $1.reservedBytes } + objects.reservedBytes + lists.reservedBytes
    return s
  }
}
