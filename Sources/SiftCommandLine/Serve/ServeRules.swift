import Sift
import SiftNATS

/// The rules a `sift serve` worker holds: a mirror of the valid rules of its shard of the
/// bucket, kept by one thread (the watcher) and matched by another (the fetch loop).
///
/// The set itself is thread-safe (``SiftPredicateSet``); what is here besides it, the
/// revision of each key, is touched by the watcher thread alone.
final class ServeRules: @unchecked Sendable {
  /// What a refused rule value is reported through: key, revision, message.
  typealias Report = @Sendable (_ key: String, _ revision: UInt64, _ message: String) -> Void

  /// The compiled rules under their keys.
  let set = SiftPredicateSet<String>()
  private let shard: RuleShard
  private let each: Bool
  private let counters: ServeCounters
  private let refuse: Report
  private let warn: Report
  /// The revision of every key of this shard the worker has seen as a put (held or refused).
  private var revisions: [String: UInt64] = [:]

  init(shard: RuleShard, each: Bool, counters: ServeCounters, refuse: @escaping Report, warn: @escaping Report) {
    self.shard = shard
    self.each = each
    self.counters = counters
    self.refuse = refuse
    self.warn = warn
  }

  /// The ids `--each` cannot use: their subjects are the worker's own records.
  static let reservedForEach: Set<String> = ["errors", "status", "ping", "rule-errors"]

  /// Whether `key` is a key JetStream's buckets allow: letters, digits and `-/_=.`, not
  /// starting or ending with `.`. Anything else (written to the bucket's stream by hand)
  /// could not be a subject under `--each`, nor a `Nats-Msg-Id` part.
  static func isValidKey(_ key: [UInt8]) -> Bool {
    guard let first = key.first, let last = key.last, first != UInt8(ascii: "."), last != UInt8(ascii: ".") else {
      return false
    }
    return key.allSatisfy { b in
      (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x2F
        || b == 0x5F || b == 0x3D || b == 0x2E
    }
  }

  /// Reads and checks a put's value (``RouteRule``, as `sift route` reads a rules file),
  /// or reports why it is not a rule.
  private func prepare(_ entry: KeyValueBucket.Entry) -> RouteRule.Prepared? {
    guard Self.isValidKey(entry.keyBytes) else {
      refuse(entry.key, entry.revision, "the id is not a valid key (letters, digits and -/_=. only)")
      return nil
    }
    if each && Self.reservedForEach.contains(entry.key) {
      refuse(
        entry.key, entry.revision,
        "with --each the id \(entry.key) would publish on the subject of the worker's own \(entry.key) records")
      return nil
    }
    do throws(RouteRuleError) {
      let prepared = try entry.value.withUnsafeBufferPointer { bytes throws(RouteRuleError) in
        try RouteRule.read(bytes, withID: false, readsVariables: true).prepare(command: "sift serve")
      }
      if let warning = prepared.warning { warn(entry.key, entry.revision, warning) }
      return prepared
    } catch {
      refuse(entry.key, entry.revision, error.message)
      return nil
    }
  }

  /// The bucket no longer holds a rule under `key` (its new value is refused): neither
  /// does the worker.
  private func drop(_ key: String) {
    set.remove(id: key)
    counters.ruleErrors.add(1, ordering: .relaxed)
  }

  /// Applies one change of the feed, in the feed's order.
  func apply(_ entry: KeyValueBucket.Entry) {
    defer { counters.rulesRevision.store(entry.revision, ordering: .relaxed) }
    guard shard.keeps(entry.keyBytes) else { return }
    switch entry.operation {
    case .put:
      revisions[entry.key] = entry.revision
      guard let prepared = prepare(entry) else {
        drop(entry.key)
        break
      }
      do throws(PredicateSyntaxError) {
        // From its syntax, as `sift route` inserts: never compiled alone when it shares
        // its shape's code.
        try set.insert(syntax: prepared.syntax, format: prepared.format, id: entry.key)
      } catch {
        refuse(entry.key, entry.revision, RouteRule.doesNotCompile(error))
        drop(entry.key)
      }
    case .delete, .purge:
      revisions[entry.key] = nil
      set.remove(id: entry.key)
    }
    counters.rules.store(set.count, ordering: .relaxed)
  }

  /// Makes the set what `snapshot` (every key's latest entry, from a fresh watch) says:
  /// inserts only what changed since it was last seen, removes what is gone. The first
  /// load and every reload after a reconnection go through here.
  func reconcile(_ snapshot: [String: KeyValueBucket.Entry], revision: UInt64) {
    var batch = RuleBatch<String, (key: String, revision: UInt64)>()
    func insertBatch() {
      for failure in batch.insert(into: set) {
        refuse(failure.origin.key, failure.origin.revision, failure.message)
        drop(failure.origin.key)
      }
    }
    var live: Set<String> = []
    for (key, entry) in snapshot where shard.keeps(entry.keyBytes) && entry.operation == .put {
      live.insert(key)
      guard revisions[key] != entry.revision else { continue }
      revisions[key] = entry.revision
      guard let prepared = prepare(entry) else {
        drop(key)
        continue
      }
      batch.append(prepared, id: key, origin: (key, entry.revision))
      if batch.isFull { insertBatch() }
    }
    insertBatch()
    for key in Array(revisions.keys) where !live.contains(key) {
      revisions[key] = nil
      set.remove(id: key)
    }
    counters.rules.store(set.count, ordering: .relaxed)
    counters.rulesRevision.store(max(revision, counters.rulesRevision.load(ordering: .relaxed)), ordering: .relaxed)
  }
}
