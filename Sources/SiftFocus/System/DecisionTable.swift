import CSiftPrefetch
import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// Every user's row for ``FocusService``'s decisions, laid out for a million users.
///
/// A decision for a random user touches memory nobody else touched recently, so what it
/// costs is cache misses. The common row, one app whose filter is the talk's `SELF IN
/// {ids}` with up to three ids of up to 15 bytes, is one flat 64-byte record holding the
/// ids' small-string words: finding the user is one probe of an open-addressing table
/// keyed by the id's own words, deciding is one record, and neither retains anything.
/// Every other row (several apps, other predicates, long ids) keeps its
/// ``NotificationFilter``s in a side table and decides through them, so the result is
/// always ``NotificationFilter/decide(_:)``'s.
struct DecisionTable: Sendable {
  /// Open addressing over user ids of up to 15 bytes, each entry holding the user's record
  /// (one cache line to find and decide); power-of-two sized, at most half full. A row
  /// number is an entry's index, valid until the next insertion.
  private var entries: EntryBuffer = EntryBuffer(capacity: 16)
  private var used = 0
  /// Per-table seed, so ids chosen to collide for one process do not collide in another.
  private let seed: UInt64 = .random(in: 1...UInt64.max)
  /// Users whose ids are longer than 15 bytes (no small-string words): rows below zero.
  private var longIDs: [String: Int] = [:]
  private var longRecords: [UserRecord] = []
  /// The filters of rows that are not inline, by ``UserRecord/general``.
  private var general: [[AppFilter]] = []
  private(set) var focusNames: [String] = []
  private var focusIndex: [String: Int32] = [:]
  private var appNames: [String] = []
  private var appIndex: [String: Int32] = [:]

  /// The number of users.
  var count: Int { used + longRecords.count }

  /// The record of a row.
  private func record(_ row: Int) -> UserRecord {
    row >= 0 ? entries.pointer[row].record : longRecords[-1 - row]
  }

  private mutating func setRecord(_ record: UserRecord, _ row: Int) {
    if row >= 0 { entries.pointer[row].record = record } else { longRecords[-1 - row] = record }
  }

  /// The row of `user`, made empty (no active Focus) when new.
  mutating func slot(for user: String) -> Int {
    if let row = find(user) { return row }
    guard let bits = SmallStringBits.smallBits(of: user) else {
      longRecords.append(UserRecord())
      longIDs[user] = longRecords.count
      return -longRecords.count
    }
    if (used + 1) * 2 > entries.capacity { grow() }
    used += 1
    return insert(bits, UserRecord())
  }

  /// The row of `user`, if any.
  @inline(__always)
  func find(_ user: String) -> Int? {
    let bits = SmallStringBits.bits(user)
    guard SmallStringBits.isAvailable, SmallStringBits.isSmall(bits) else {
      // Not small: a long id, or a short one built with spare capacity.
      if let small = SmallStringBits.smallBits(of: user) { return probe(small) }
      return longIDs[user].map { -$0 }
    }
    return probe(bits)
  }

  @inline(__always)
  private func probe(_ bits: SmallStringBits.Bits) -> Int? {
    let mask = entries.capacity - 1
    var k = hash(bits) & mask
    let table = entries.pointer
    while true {
      let entry = table + k
      if !entry.pointee.isUsed { return nil }
      if entry.pointee.b0 == bits.0 && entry.pointee.b1 == bits.1 { return k }
      k = (k + 1) & mask
    }
  }

  @inline(__always)
  private func hash(_ bits: SmallStringBits.Bits) -> Int {
    var h = (bits.0 ^ seed) &* 0x9E37_79B9_7F4A_7C15
    h ^= (bits.1 &+ seed) &* 0xC2B2_AE3D_27D4_EB4F
    h ^= h >> 29
    h &*= 0xBF58_476D_1CE4_E5B9
    h ^= h >> 32
    return Int(truncatingIfNeeded: h)
  }

  private mutating func insert(_ bits: SmallStringBits.Bits, _ record: UserRecord) -> Int {
    let mask = entries.capacity - 1
    var k = hash(bits) & mask
    while entries.pointer[k].isUsed { k = (k + 1) & mask }
    entries.pointer[k] = Entry(b0: bits.0, b1: bits.1, isUsed: true, record: record)
    return k
  }

  private mutating func grow() {
    let old = entries
    entries = EntryBuffer(capacity: old.capacity * 2)
    for k in 0..<old.capacity where old.pointer[k].isUsed {
      _ = insert((old.pointer[k].b0, old.pointer[k].b1), old.pointer[k].record)
    }
  }

  mutating func intern(focus: String) -> Int32 {
    if let k = focusIndex[focus] { return k }
    focusIndex[focus] = Int32(focusNames.count)
    focusNames.append(focus)
    return Int32(focusNames.count - 1)
  }

  private mutating func intern(app: String) -> Int32 {
    if let k = appIndex[app] { return k }
    appIndex[app] = Int32(appNames.count)
    appNames.append(app)
    return Int32(appNames.count - 1)
  }

  /// The active Focus of a row, if any.
  func focus(row: Int) -> String? {
    let k = record(row).focus
    return k >= 0 ? focusNames[Int(k)] : nil
  }

  /// Sets the active Focus of a row.
  mutating func setFocus(_ focus: String?, row: Int) {
    var r = record(row)
    r.focus = focus.map { intern(focus: $0) } ?? -1
    setRecord(r, row)
  }

  /// The filters of a row, in app order (an inline row's filter rebuilt from its words,
  /// which are a small string's own representation).
  func filters(row: Int) -> [AppFilter] {
    let record = record(row)
    switch record.kind {
    case .empty: return []
    case .general: return general[Int(record.general)]
    case .inline:
      let words = [record.ids.0, record.ids.1, record.ids.2].prefix(Int(record.count))
      let ids = words.map { unsafeBitCast($0, to: String.self) }
      let filter = NotificationFilter(
        allowList: ids, targetContentIdentifierPrefix: nil, hidesBadges: false,
        allowsTimeSensitive: record.allowsTimeSensitive)
      return [AppFilter(app: appNames[Int(record.app)], filter: filter)]
    }
  }

  /// Replaces the filters of a row: inline when they are one app's small allow list.
  mutating func setFilters(_ filters: [AppFilter], row: Int) {
    var record = record(row)
    let reuse = record.general
    record.kind = .empty
    record.general = -1
    if filters.count == 1, let members = filters[0].filter.allowListMembers, members.count <= 3,
      filters[0].filter.failure == nil
    {
      let bits = members.compactMap { SmallStringBits.smallBits(of: $0) }
      if bits.count == members.count {
        record.kind = .inline
        record.app = intern(app: filters[0].app)
        record.count = UInt8(bits.count)
        let zero: SmallStringBits.Bits = (0, 0)
        record.ids = (bits.count > 0 ? bits[0] : zero, bits.count > 1 ? bits[1] : zero, bits.count > 2 ? bits[2] : zero)
        record.allowsTimeSensitive = filters[0].filter.allowsTimeSensitive
        if reuse >= 0 { general[Int(reuse)] = [] }
        setRecord(record, row)
        return
      }
    }
    if !filters.isEmpty {
      record.kind = .general
      if reuse >= 0 {
        general[Int(reuse)] = filters
        record.general = reuse
      } else {
        record.general = Int32(general.count)
        general.append(filters)
      }
    } else if reuse >= 0 {
      general[Int(reuse)] = []
    }
    setRecord(record, row)
  }

  /// Where `user`'s entry would be probed first (for ``touch(_:)``); nil for ids that are
  /// not small.
  @inline(__always)
  func home(of user: String) -> Int? {
    let bits = SmallStringBits.bits(user)
    guard SmallStringBits.isAvailable, SmallStringBits.isSmall(bits) else { return nil }
    return hash(bits) & (entries.capacity - 1)
  }

  /// Starts fetching an entry's cache line, so it is on its way while earlier
  /// notifications of a batch are decided.
  @inline(__always)
  func prefetch(_ k: Int) { sift_prefetch(entries.pointer + k) }

  /// The decision for `app` of the user in `row`: ``NotificationFilter/decide(_:)`` of the
  /// row's filter for the app, without building it for an inline row.
  @inline(__always)
  func decide(_ content: NotificationContent, row: Int, app: String) -> NotificationDecision {
    let record = row >= 0 ? entries.pointer[row].record : longRecords[-1 - row]
    guard record.focus >= 0 else { return .noActiveFocus }
    switch record.kind {
    case .empty: return NotificationDecision(outcome: .delivered, reason: .noFilter)
    case .general:
      for filter in general[Int(record.general)] where filter.app == app { return filter.filter.decide(content) }
      return NotificationDecision(outcome: .delivered, reason: .noFilter)
    case .inline:
      guard appNames[Int(record.app)] == app else {
        return NotificationDecision(outcome: .delivered, reason: .noFilter)
      }
      return Self.decideInline(record, content)
    }
  }

  /// ``NotificationFilter/decide(_:)`` for an allow list of small ids, in the same order.
  @inline(__always)
  private static func decideInline(_ record: UserRecord, _ content: NotificationContent) -> NotificationDecision {
    switch content.interruptionLevel {
    case .critical: return NotificationDecision(outcome: .delivered, reason: .critical)
    case .timeSensitive where record.allowsTimeSensitive:
      return NotificationDecision(outcome: .delivered, reason: .timeSensitive)
    case .passive, .active, .timeSensitive: break
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

/// One entry of the user table: the id's small-string words and the user's record.
struct Entry {
  var b0: UInt64 = 0
  var b1: UInt64 = 0
  var isUsed = false
  var record = UserRecord()
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
  /// Interned active Focus; -1 when none.
  var focus: Int32 = -1
  /// Interned app of an inline row.
  var app: Int32 = -1
  /// Index into the side table of a general row; -1 when none.
  var general: Int32 = -1
  var kind: Kind = .empty
  var count: UInt8 = 0
  var allowsTimeSensitive = true
  var ids: (SmallStringBits.Bits, SmallStringBits.Bits, SmallStringBits.Bits) = ((0, 0), (0, 0), (0, 0))
}

@inline(__always)
private func == (a: SmallStringBits.Bits, b: SmallStringBits.Bits) -> Bool { a.0 == b.0 && a.1 == b.1 }
