import CSiftPrefetch
import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// Every user's row for ``FocusService``'s decisions, laid out for a million users.
///
/// A decision for a random user touches memory nobody else touched recently, so what it
/// costs is cache misses. Every user is one 80-byte ``Entry`` of one open-addressing table
/// (`MemoryLayout<Entry>.stride`, checked by a test): the key (16 bytes) and the user's
/// record (64 bytes), two cache lines that a batch prefetches together. An id of up to 15
/// bytes is its own key (the two words of a small string); a longer one (a UUID, a device
/// token) is keyed by a 64-bit hash of its bytes and the offset of the bytes themselves in
/// an arena, which a lookup compares: ids are equal exactly when their bytes are
/// (``IDKey``), whatever their length.
///
/// The common record, one app whose filter is the talk's `SELF IN {ids}` with up to three
/// ids of up to 15 bytes, holds the ids' small-string words and decides without touching
/// anything else. Every other row (several apps, other predicates, long account ids) keeps
/// its ``NotificationFilter``s in a side table whose slots are reused, and decides through
/// them, so the result is always ``FocusPolicy/decide(_:app:filter:allowsCriticalAlerts:)``'s.
///
/// The table is never copied: its buffers are classes, used only under the service's lock.
/// `package` for the fuzz targets, which check its decisions against the policy and filters.
package struct DecisionTable: Sendable {
  /// Power-of-two sized, at most half full. A row number is an entry's index, valid until
  /// the next insertion or removal.
  private var entries = EntryBuffer(capacity: 16)
  private var used = 0
  /// Per-table seed, so ids chosen to collide for one process do not collide in another.
  private let seed: UInt64 = .random(in: 1...UInt64.max)
  /// The bytes of ids longer than 15 bytes, each after its 4-byte length.
  private var arena = ByteArena()
  /// Bytes of the arena that belong to removed users; the arena is compacted when they
  /// outweigh the rest, so adding and removing users never grows it without bound.
  private var arenaGarbage = 0
  /// The filters of rows that are not inline, by ``UserRecord/general``; a slot freed when
  /// its row changes shape is reused, so the side table holds at most one slot per user.
  private var general: [[AppFilter]] = []
  private var freeGeneral: [Int32] = []
  /// The active Focus modes in use (name and policy), each once, with the number of rows
  /// using it; a slot no row uses is reused, so edited policies do not pile up.
  private var modes: [ActiveMode] = []
  /// Whether each mode allows every app: the one thing most decisions read of it (a Bool,
  /// so the hot path copies no strings).
  private var modeIsOpen: [Bool] = []
  private var modeUses: [Int] = []
  private var freeModes: [Int32] = []
  private var modeIndex: [ActiveMode: Int32] = [:]
  /// The mode interned last: a bulk load or install sets one mode for many users in a row,
  /// and comparing with it is cheaper than hashing.
  private var lastMode: Int32 = -1
  /// App identifiers of inline rows, each once, with their small-string words.
  private var appNames: [String] = []
  private var appBits: [SmallStringBits.Bits?] = []
  private var appIndex: [IDKey: Int32] = [:]
  /// Apps registered with ``FocusService`` as allowed critical alerts.
  var criticalApps: Set<IDKey> = []

  /// An empty table.
  package init() {}

  /// An empty table sized for `users` without growing (a restart knows how many it loads).
  init(expectedUsers users: Int) {
    var capacity = 16
    while capacity < users * 2 { capacity *= 2 }
    entries = EntryBuffer(capacity: capacity)
  }

  /// Marks `app` as allowed critical alerts, or not.
  package mutating func setAllowsCriticalAlerts(_ allowed: Bool, app: String) {
    if allowed { criticalApps.insert(IDKey(app)) } else { criticalApps.remove(IDKey(app)) }
  }

  /// The number of users.
  package var count: Int { used }

  // MARK: Keys

  /// Where a user id's entry is looked for: its small-string words, or the hash of its bytes.
  struct Locator {
    var key0: UInt64
    var key1: UInt64
    var isSmall: Bool
  }

  /// The second key word of a long id: the top bit set and the small-string bit (61) clear,
  /// so it can never equal a small string's word; 0 marks an unused entry.
  private static let longFlag: UInt64 = 1 << 63
  private static let offsetMask: UInt64 = (1 << 48) - 1

  @inline(__always)
  func locate(_ user: String) -> Locator {
    let bits = SmallStringBits.bits(user)
    if SmallStringBits.isAvailable && SmallStringBits.isSmall(bits) {
      return Locator(key0: bits.0, key1: bits.1, isSmall: true)
    }
    // Not small: a long id, or a short one built with spare capacity (compared in its small form).
    if let small = SmallStringBits.smallBits(of: user) { return Locator(key0: small.0, key1: small.1, isSmall: true) }
    var text = user
    let h = text.withUTF8 { hashBytes($0) }
    return Locator(key0: h, key1: 0, isSmall: false)
  }

  @inline(__always)
  private func home(_ locator: Locator) -> Int {
    locator.isSmall
      ? hashSmall(locator.key0, locator.key1) & (entries.capacity - 1)
      : mix(locator.key0)
        & (entries.capacity - 1)
  }

  @inline(__always)
  private func homeOf(_ entry: Entry) -> Int {
    entry.key1 & (1 << 61) != 0
      ? hashSmall(entry.key0, entry.key1) & (entries.capacity - 1) : mix(entry.key0) & (entries.capacity - 1)
  }

  @inline(__always)
  private func hashSmall(_ a: UInt64, _ b: UInt64) -> Int {
    var h = (a ^ seed) &* 0x9E37_79B9_7F4A_7C15
    h ^= (b &+ seed) &* 0xC2B2_AE3D_27D4_EB4F
    h ^= h >> 29
    h &*= 0xBF58_476D_1CE4_E5B9
    h ^= h >> 32
    return Int(truncatingIfNeeded: h)
  }

  @inline(__always)
  private func mix(_ h: UInt64) -> Int {
    var x = h ^ (h >> 31)
    x &*= 0x94D0_49BB_1331_11EB
    x ^= x >> 29
    return Int(truncatingIfNeeded: x)
  }

  /// A seeded 64-bit hash of the bytes, eight at a time.
  @inline(__always)
  private func hashBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
    let raw = UnsafeRawBufferPointer(bytes)
    var k = 0
    while k + 8 <= raw.count {
      let word = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
      h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
      h ^= h >> 27
      k += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while k < raw.count {
      tail |= UInt64(raw[k]) << shift
      shift += 8
      k += 1
    }
    h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
    h ^= h >> 31
    return h
  }

  // MARK: Rows

  /// The row of `user`, if any.
  @inline(__always)
  package func find(_ user: String) -> Int? { find(locate(user), user) }

  @inline(__always)
  func find(_ locator: Locator, _ user: String) -> Int? {
    let mask = entries.capacity - 1
    var k = home(locator)
    let table = entries.pointer
    if locator.isSmall {
      while true {
        let entry = table + k
        if entry.pointee.key1 == 0 { return nil }
        if entry.pointee.key0 == locator.key0 && entry.pointee.key1 == locator.key1 { return k }
        k = (k + 1) & mask
      }
    }
    var text = user
    return text.withUTF8 { bytes in
      while true {
        let entry = table + k
        let key1 = entry.pointee.key1
        if key1 == 0 { return nil }
        if entry.pointee.key0 == locator.key0 && key1 & (1 << 61) == 0
          && arena.equals(at: Int(key1 & Self.offsetMask), bytes)
        {
          return k
        }
        k = (k + 1) & mask
      }
    }
  }

  /// The row of `user`, made empty (no active Focus) when new.
  package mutating func slot(for user: String) -> Int {
    let locator = locate(user)
    if let row = find(locator, user) { return row }
    if (used + 1) * 2 > entries.capacity {
      rebuild(capacity: entries.capacity * 2)
    } else if !locator.isSmall && arenaGarbage > max(arena.count / 2, 1 << 16) {
      rebuild(capacity: entries.capacity)
    }
    used += 1
    var key1 = locator.key1
    if !locator.isSmall {
      var text = user
      key1 = Self.longFlag | UInt64(text.withUTF8 { arena.append($0) })
    }
    return insert(Entry(key0: locator.key0, key1: key1, record: UserRecord()))
  }

  private mutating func insert(_ entry: Entry) -> Int {
    let mask = entries.capacity - 1
    var k = homeOf(entry)
    while entries.pointer[k].key1 != 0 { k = (k + 1) & mask }
    entries.pointer[k] = entry
    return k
  }

  /// Re-inserts every entry into a table of `capacity`; long ids' bytes move to a fresh
  /// arena, leaving behind the bytes of removed users.
  private mutating func rebuild(capacity: Int) {
    let old = entries
    let oldArena = arena
    entries = EntryBuffer(capacity: capacity)
    arena = ByteArena()
    arenaGarbage = 0
    for k in 0..<old.capacity where old.pointer[k].key1 != 0 {
      var entry = old.pointer[k]
      if entry.key1 & (1 << 61) == 0 {
        entry.key1 = Self.longFlag | UInt64(arena.append(copyingFrom: oldArena, at: Int(entry.key1 & Self.offsetMask)))
      }
      _ = insert(entry)
    }
  }

  /// Removes `user`'s row (deleting a user); its side-table slot is freed for reuse.
  package mutating func remove(_ user: String) {
    guard var hole = find(user) else { return }
    releaseGeneral(entries.pointer[hole].record)
    releaseMode(entries.pointer[hole].record.mode)
    let key1 = entries.pointer[hole].key1
    if key1 & (1 << 61) == 0 { arenaGarbage += 4 + arena.length(at: Int(key1 & Self.offsetMask)) }
    let mask = entries.capacity - 1
    let table = entries.pointer
    // Backward-shift deletion: later entries of the probe run move up, so no tombstone is
    // left and lookups stay exact.
    var j = hole
    while true {
      j = (j + 1) & mask
      if table[j].key1 == 0 { break }
      let home = homeOf(table[j])
      let stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
      if !stays {
        table[hole] = table[j]
        hole = j
      }
    }
    table[hole] = Entry()
    used -= 1
  }

  private mutating func releaseGeneral(_ record: UserRecord) {
    guard record.general >= 0 else { return }
    general[Int(record.general)] = []
    freeGeneral.append(record.general)
  }

  // MARK: Modes and apps

  /// The slot of `mode`, counted as used once more.
  private mutating func retain(_ mode: ActiveMode) -> Int32 {
    if lastMode >= 0, modeUses[Int(lastMode)] > 0, modes[Int(lastMode)] == mode {
      modeUses[Int(lastMode)] += 1
      return lastMode
    }
    if let k = modeIndex[mode] {
      lastMode = k
      modeUses[Int(k)] += 1
      return k
    }
    let k: Int32
    if let free = freeModes.popLast() {
      k = free
      modes[Int(k)] = mode
      modeIsOpen[Int(k)] = mode.isOpen
      modeUses[Int(k)] = 1
    } else {
      k = Int32(modes.count)
      modes.append(mode)
      modeIsOpen.append(mode.isOpen)
      modeUses.append(1)
    }
    modeIndex[mode] = k
    lastMode = k
    return k
  }

  private mutating func releaseMode(_ k: Int32) {
    guard k >= 0 else { return }
    modeUses[Int(k)] -= 1
    if modeUses[Int(k)] == 0 {
      modeIndex[modes[Int(k)]] = nil
      freeModes.append(k)
    }
  }

  /// The number of mode slots (used and free): at most the number of distinct active modes
  /// at any one time.
  var modeSlots: Int { modes.count }

  private mutating func intern(app: String) -> Int32 {
    if let k = appIndex[IDKey(app)] { return k }
    let k = Int32(appNames.count)
    appIndex[IDKey(app)] = k
    appNames.append(app)
    appBits.append(SmallStringBits.smallBits(of: app))
    return k
  }

  /// The active Focus of a row and its policy, if a Focus is on.
  func mode(row: Int) -> (name: String, policy: FocusPolicy)? {
    let k = entries.pointer[row].record.mode
    return k >= 0 ? (modes[Int(k)].name.text, modes[Int(k)].policy) : nil
  }

  /// Sets the active Focus of a row (nil: none) and the policy it decides with.
  package mutating func setMode(_ focus: String?, policy: FocusPolicy, row: Int) {
    let k = focus.map { retain(ActiveMode(name: IDKey($0), policy: policy)) } ?? -1
    releaseMode(entries.pointer[row].record.mode)
    entries.pointer[row].record.mode = k
  }

  /// The filters of a row, in app order (an inline row's filter rebuilt from its words,
  /// which are a small string's own representation).
  func filters(row: Int) -> [AppFilter] {
    let record = entries.pointer[row].record
    switch record.kind {
    case .empty: return []
    case .general: return general[Int(record.general)]
    case .inline:
      let words = [record.ids.0, record.ids.1, record.ids.2].prefix(Int(record.count))
      let ids = words.map { unsafeBitCast($0, to: String.self) }
      let filter = NotificationFilter(
        allowList: ids, targetContentIdentifierPrefix: nil, hidesBadges: false,
        allowsTimeSensitive: record.flags & UserRecord.allowsTimeSensitive != 0,
        allowsCriticalAlerts: record.flags & UserRecord.allowsCriticalAlerts != 0)
      return [AppFilter(app: appNames[Int(record.app)], filter: filter)]
    }
  }

  /// Replaces the filters of a row: inline when they are one app's small allow list and
  /// nothing else.
  package mutating func setFilters(_ filters: [AppFilter], row: Int) {
    var record = entries.pointer[row].record
    if filters.count == 1, let members = filters[0].filter.allowListMembers, members.count <= 3,
      filters[0].filter.targetContentIdentifierPrefix == nil, !filters[0].filter.hidesBadges
    {
      let bits = members.compactMap { SmallStringBits.smallBits(of: $0) }
      if bits.count == members.count {
        releaseGeneral(record)
        record.general = -1
        record.kind = .inline
        record.app = intern(app: filters[0].app)
        record.count = UInt8(bits.count)
        let zero: SmallStringBits.Bits = (0, 0)
        record.ids = (bits.count > 0 ? bits[0] : zero, bits.count > 1 ? bits[1] : zero, bits.count > 2 ? bits[2] : zero)
        record.flags =
          (filters[0].filter.allowsTimeSensitive ? UserRecord.allowsTimeSensitive : 0)
          | (filters[0].filter.allowsCriticalAlerts ? UserRecord.allowsCriticalAlerts : 0)
        entries.pointer[row].record = record
        return
      }
    }
    record.count = 0
    record.flags = 0
    record.ids = ((0, 0), (0, 0), (0, 0))
    if filters.isEmpty {
      releaseGeneral(record)
      record.general = -1
      record.kind = .empty
    } else {
      record.kind = .general
      if record.general < 0 {
        // A freed slot first; a new one only when none is free, so the side table never
        // holds more slots than there are rows.
        if let free = freeGeneral.popLast() {
          record.general = free
        } else {
          record.general = Int32(general.count)
          general.append([])
        }
      }
      general[Int(record.general)] = filters
    }
    entries.pointer[row].record = record
  }

  /// The number of side-table slots (used and free): at most the number of rows.
  var sideTableSlots: Int { general.count }

  /// The bytes the long ids' arena holds (live ids and removed ones not yet compacted).
  var arenaBytes: Int { arena.count }

  // MARK: Decisions

  /// Starts fetching the entry a locator is probed at first (both its cache lines), so it
  /// is on its way while earlier notifications of a batch are decided.
  @inline(__always)
  func prefetch(_ locator: Locator) {
    let entry = entries.pointer + home(locator)
    sift_prefetch(entry)
    sift_prefetch(UnsafeRawPointer(entry) + 64)
  }

  /// For a long id, starts fetching its bytes in the arena once its entry has arrived.
  @inline(__always)
  func prefetchBytes(_ locator: Locator) {
    guard !locator.isSmall else { return }
    let key1 = entries.pointer[home(locator)].key1
    if key1 != 0, key1 & (1 << 61) == 0 { sift_prefetch(arena.base + Int(key1 & Self.offsetMask)) }
  }

  /// The decision for `app` of the user in `row`, as
  /// ``FocusPolicy/decide(_:app:filter:allowsCriticalAlerts:)`` under the row's Focus with the
  /// row's filter for the app, without building that filter for an inline row.
  @inline(__always)
  package func decide(_ content: NotificationContent, row: Int, app: String) -> NotificationDecision {
    let record = entries.pointer[row].record
    guard record.mode >= 0 else { return .noActiveFocus }
    if !modeIsOpen[Int(record.mode)] {
      let policy = modes[Int(record.mode)].policy
      if !policy.allowedApps.allows(app) {
        return policy.silenced(content, allowsCriticalAlerts: allowsCriticalAlerts(app, record))
      }
    }
    switch record.kind {
    case .empty: return NotificationDecision(outcome: .delivered, reason: .noFilter)
    case .general:
      for filter in general[Int(record.general)] where filter.app.sameBytes(as: app) {
        return filter.filter.decide(content)
      }
      return NotificationDecision(outcome: .delivered, reason: .noFilter)
    case .inline:
      guard isApp(record.app, app) else { return NotificationDecision(outcome: .delivered, reason: .noFilter) }
      return Self.decideInline(record, content)
    }
  }

  /// Whether `app` may send critical alerts: registered so, or its filter in the row says so.
  private func allowsCriticalAlerts(_ app: String, _ record: UserRecord) -> Bool {
    if criticalApps.contains(IDKey(app)) { return true }
    switch record.kind {
    case .empty: return false
    case .inline: return isApp(record.app, app) && record.flags & UserRecord.allowsCriticalAlerts != 0
    case .general:
      return general[Int(record.general)].contains { $0.app.sameBytes(as: app) && $0.filter.allowsCriticalAlerts }
    }
  }

  @inline(__always)
  private func isApp(_ k: Int32, _ app: String) -> Bool {
    if let bits = appBits[Int(k)] {
      let query = SmallStringBits.bits(app)
      if SmallStringBits.isSmall(query) { return query.0 == bits.0 && query.1 == bits.1 }
    }
    return appNames[Int(k)].sameBytes(as: app)
  }

  /// ``NotificationFilter/decide(_:)`` for an allow list of small ids, in the same order,
  /// on the ids the user's row holds inline: a user costs 225 heap bytes in the service
  /// against 1,704 for a compiled `SiftPredicate` each (`SiftBenchmarks focus-scale`, the
  /// same run as ``AllowList``'s figure).
  @inline(__always)
  private static func decideInline(_ record: UserRecord, _ content: NotificationContent) -> NotificationDecision {
    switch content.interruptionLevel {
    case .critical where record.flags & UserRecord.allowsCriticalAlerts != 0:
      return NotificationDecision(outcome: .delivered, reason: .critical)
    case .timeSensitive where record.flags & UserRecord.allowsTimeSensitive != 0:
      return NotificationDecision(outcome: .delivered, reason: .timeSensitive)
    case .passive, .active, .timeSensitive, .critical: break
    }
    guard let criteria = content.filterCriteria else {
      return NotificationDecision(outcome: .delivered, reason: .noFilterCriteria)
    }
    var bits = SmallStringBits.bits(criteria)
    if !(SmallStringBits.isAvailable && SmallStringBits.isSmall(bits)) {
      // Longer than 15 bytes cannot equal a small id; a short one with spare capacity is
      // compared by its small form.
      guard let small = SmallStringBits.smallBits(of: criteria) else {
        return NotificationDecision(outcome: .muted, reason: .notMatched)
      }
      bits = small
    }
    let n = record.count
    let matched =
      (n > 0 && record.ids.0 == bits) || (n > 1 && record.ids.1 == bits) || (n > 2 && record.ids.2 == bits)
    return matched
      ? NotificationDecision(outcome: .delivered, reason: .matched)
      : NotificationDecision(outcome: .muted, reason: .notMatched)
  }
}

/// An active Focus as a row refers to it: its name and what it lets through.
struct ActiveMode: Hashable, Sendable {
  var name: IDKey
  var policy: FocusPolicy
  var isOpen: Bool { policy.isOpen }
}

/// One entry of the user table: the key (an id's small-string words, or a long id's hash
/// and arena offset) and the user's record; 80 bytes.
struct Entry {
  var key0: UInt64 = 0
  var key1: UInt64 = 0
  var record = UserRecord()
}

/// One user's row: 64 bytes of plain data.
struct UserRecord: Sendable {
  enum Kind: UInt8, Sendable {
    /// No filter for any app.
    case empty
    /// One app, `SELF IN` up to three small ids, held in ``ids``.
    case inline
    /// Filters in the side table.
    case general
  }
  static let allowsTimeSensitive: UInt8 = 1
  static let allowsCriticalAlerts: UInt8 = 2
  /// Interned active Focus (name and policy); -1 when none.
  var mode: Int32 = -1
  /// Interned app of an inline row.
  var app: Int32 = -1
  /// Index into the side table of a general row; -1 when none.
  var general: Int32 = -1
  var kind: Kind = .empty
  var count: UInt8 = 0
  /// An inline filter's ``allowsTimeSensitive`` and ``allowsCriticalAlerts`` bits.
  var flags: UInt8 = 0
  var ids: (SmallStringBits.Bits, SmallStringBits.Bits, SmallStringBits.Bits) = ((0, 0), (0, 0), (0, 0))
}

/// The entries, in memory the table owns: plain data, allocated in 2 MiB-aligned blocks
/// the kernel is asked to back with huge pages (`MADV_HUGEPAGE`), because a decision for a
/// random user among a million otherwise pays a TLB miss on top of its cache miss.
/// Only used under ``FocusService``'s lock, hence `@unchecked Sendable`.
final class EntryBuffer: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<Entry>
  let capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    let bytes = capacity * MemoryLayout<Entry>.stride
    let huge = 2 << 20
    let isHuge = bytes >= huge
    let size = isHuge ? (bytes + huge - 1) / huge * huge : bytes
    var raw: UnsafeMutableRawPointer?
    guard posix_memalign(&raw, isHuge ? huge : 64, size) == 0, let raw else { fatalError("out of memory") }
    if isHuge { _ = madvise(raw, size, MADV_HUGEPAGE) }
    pointer = raw.bindMemory(to: Entry.self, capacity: capacity)
    pointer.initialize(repeating: Entry(), count: capacity)
  }

  deinit {
    pointer.deinitialize(count: capacity)
    free(pointer)
  }
}

/// The bytes of long ids, each after its length (4 bytes), appended; only used under
/// ``FocusService``'s lock, hence `@unchecked Sendable`.
final class ByteArena: @unchecked Sendable {
  private(set) var base: UnsafeMutableRawPointer
  private(set) var count = 0
  private var capacity: Int

  init() {
    capacity = 256
    base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
  }

  deinit { base.deallocate() }

  /// Appends `bytes` and returns their offset.
  func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let offset = count
    reserve(4 + bytes.count)
    base.storeBytes(of: UInt32(truncatingIfNeeded: bytes.count), toByteOffset: offset, as: UInt32.self)
    if let source = bytes.baseAddress { (base + offset + 4).copyMemory(from: source, byteCount: bytes.count) }
    count += 4 + bytes.count
    return offset
  }

  /// Appends the id stored at `offset` of `other`.
  func append(copyingFrom other: ByteArena, at offset: Int) -> Int {
    let length = Int(other.base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    let start = (other.base + offset + 4).assumingMemoryBound(to: UInt8.self)
    return append(UnsafeBufferPointer(start: start, count: length))
  }

  /// The length of the id at `offset`.
  func length(at offset: Int) -> Int { Int(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }

  /// Whether the id at `offset` has exactly these bytes.
  @inline(__always)
  func equals(at offset: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let length = Int(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    guard length == bytes.count else { return false }
    guard let other = bytes.baseAddress else { return true }
    return memcmp(base + offset + 4, other, length) == 0
  }

  private func reserve(_ extra: Int) {
    guard count + extra > capacity else { return }
    var next = capacity * 2
    while next < count + extra { next *= 2 }
    let grown = UnsafeMutableRawPointer.allocate(byteCount: next, alignment: 8)
    grown.copyMemory(from: base, byteCount: count)
    base.deallocate()
    base = grown
    capacity = next
  }
}

@inline(__always)
private func == (a: SmallStringBits.Bits, b: SmallStringBits.Bits) -> Bool { a.0 == b.0 && a.1 == b.1 }
