import Dispatch
import Foundation
import SiftTestSupport
import Synchronization
import Testing

@testable import Sift

/// ``SiftPredicateSet`` against evaluating each of its predicates with `matches`: the same
/// ids, in insertion order, on seeded random predicate sets and records, through inserts,
/// replacements and removals; and consistent snapshots under concurrent updates.
@Suite struct PredicateSetTests {
  // MARK: - Examples

  @Test func documentedExample() throws {
    let subscriptions = SiftPredicateSet<Int>()
    subscriptions.insert(
      try SiftPredicate(format: "account IN %@ AND priority >= 3", arguments: [["a-1", "a-7"]]), id: 1)
    subscriptions.insert(try SiftPredicate(format: "sender BEGINSWITH[c] 'billing@'"), id: 2)
    #expect(subscriptions.matches(["account": "a-7", "priority": 4, "sender": "x@y"]) == [1])
    #expect(subscriptions.matches(["account": "a-7", "priority": 4, "sender": "Billing@y"]) == [1, 2])
    #expect(subscriptions.matches(["account": "a-7", "priority": 2]) == [])
    #expect(subscriptions.count == 2)
  }

  @Test func orderReplaceAndRemove() throws {
    let set = SiftPredicateSet<String>()
    let yes = SiftPredicate(value: true)
    set.insert(try SiftPredicate(format: "SELF == 'a'"), id: "first")
    set.insert(yes, id: "second")
    set.insert(try SiftPredicate(format: "SELF BEGINSWITH 'a'"), id: "third")
    #expect(set.matches("a") == ["first", "second", "third"])
    // A replaced id keeps its place; a removed and re-inserted one goes last.
    set.insert(try SiftPredicate(format: "SELF IN {'a', 'b'}"), id: "first")
    #expect(set.matches("b") == ["first", "second"])
    #expect(set.remove(id: "second"))
    #expect(!set.remove(id: "second"))
    set.insert(yes, id: "second")
    #expect(set.matches("a") == ["first", "third", "second"])
    #expect(set.count == 3)
    #expect(set.contains(id: "third"))
    set.removeAll()
    #expect(set.isEmpty)
    #expect(set.matches("a") == [])
  }

  @Test func focusShapeSharesOneProgram() throws {
    let set = SiftPredicateSet<Int>()
    set.insert(
      contentsOf: (0..<1_000).map { i in
        (
          id: i,
          predicate: try! SiftPredicate(
            format: "filterCriteria IN %@ AND priority >= %d",
            arguments: [
              .array([.string("acct-\(i)"), .string("acct-\(i + 1)"), .string("acct-\(i + 2)")]), .int(i % 5),
            ])
        )
      })
    let stats = set.statistics
    #expect(stats.count == 1_000)
    #expect(stats.indexed == 1_000)
    #expect(stats.scanned == 0)
    #expect(stats.sharedShapes == 1)
    #expect(stats.ownPrograms == 0)
    // Every one under its `IN`: a range group opened by the second predicate (a group
    // that did not exist yet used to cost nothing) made it a candidate of every record.
    #expect(stats.groups == 1)
    #expect(stats.indexEntries == 3_000)
    #expect(set.matches(["filterCriteria": "acct-10", "priority": 3]) == [8, 10])
  }

  @Test func predicatesThatCannotShareKeepTheirOwnProgram() throws {
    let formats = [
      "SUBQUERY(tags, $t, $t BEGINSWITH 'u').@count > 0 AND s == 'x'", "s == 'x'", "s == 'x' AND $__c0 == 1",
      "FUNCTION(s, 'uppercaseString') == 'X'",
    ]
    let schema = CompileOptions(schema: SiftSchema(fields: ["s"]))
    let predicates = try formats.enumerated().map { i, format in
      try SiftPredicate(format: format, options: i == 1 ? schema : CompileOptions())
    }
    let set = SiftPredicateSet<Int>()
    for (i, p) in predicates.enumerated() { set.insert(p, id: i) }
    #expect(set.statistics.ownPrograms == 4)
    for record: SiftValue in [["s": "x", "tags": ["urgent"]], ["s": "x"], ["s": "y"], "x"] {
      #expect(set.matches(record) == predicates.indices.filter { predicates[$0].matches(record) })
    }
  }

  /// A predicate of its own is indexed under a key no shared code put in the set's schema:
  /// the set still reads that key for it (by name), alone or beside shared ones.
  @Test(arguments: [
    ["SUBQUERY(tags, $t, $t BEGINSWITH 'u').@count > 0 AND s == 'x'"],
    ["SUBQUERY(tags, $t, $t BEGINSWITH 'u').@count > 0 AND s == 'x'", "t == 'y'"],
    ["FUNCTION(s, 'uppercaseString') == 'X' AND k == 2", "SUBQUERY(tags, $t, $t == 'urgent').@count == 1"],
  ])
  func ownProgramsAreFoundUnderKeysOutsideTheSchema(_ formats: [String]) throws {
    let predicates = try formats.map { try SiftPredicate(format: $0) }
    let set = SiftPredicateSet<Int>()
    for (i, p) in predicates.enumerated() { set.insert(p, id: i) }
    for record: SiftValue in [["s": "x", "tags": ["urgent"], "k": 2, "t": "y"], ["s": "x"], ["k": 2, "s": "x"]] {
      let expected = predicates.indices.filter { predicates[$0].matches(record) }
      #expect(set.matches(record) == expected)
    }
    #expect(set.matches(["s": "x", "tags": ["urgent"], "k": 2, "t": "y"]) == Array(predicates.indices))
  }

  // MARK: - Heavy constants

  /// Whether a predicate shares its shape's program is decided at insertion: constants
  /// weighing more than a sixteenth of the budget (one per value and element, one per 8
  /// bytes of string) keep the predicate's own program, so no evaluation compiles it
  /// again. At a budget of 1,600 the edge is a weight of 100: `IN` over 99 numbers (the
  /// array and its elements weigh 100) shares, over 100 it does not.
  @Test func heavyConstantsKeepTheirOwnProgramFromTheStart() throws {
    let options = CompileOptions(limits: EvaluationLimits(maxSteps: 1_600))
    func predicate(_ n: Int) throws -> SiftPredicate {
      try SiftPredicate(
        format: "filterCriteria IN %@", arguments: [.array((0..<n).map { .int($0) })], options: options)
    }
    #expect(PreparedPredicate(try predicate(99)).shareable)
    #expect(!PreparedPredicate(try predicate(100)).shareable)
    let set = SiftPredicateSet<Int>()
    set.insert(try predicate(99), id: 0)
    set.insert(try predicate(99), id: 1)
    set.insert(try predicate(100), id: 2)
    let stats = set.statistics
    #expect(stats.sharedShapes == 1)
    #expect(stats.ownPrograms == 1)
    #expect(stats.indexed == 3)
    #expect(set.matches(["filterCriteria": 42]) == [0, 1, 2])
    #expect(set.matches(["filterCriteria": 99]) == [2])
    #expect(set.matches(["filterCriteria": 100]) == [])
  }

  /// Issue 22's rule at the default budget (70,000 ids weigh 140,001, over 62,500): its own
  /// program, indexed as before, and the answers of `matches` on ids in and out of the
  /// list, wrong types, null and a missing key, next to a light rule of the same shape
  /// that still shares.
  @Test func heavyRuleAnswersAsMatches() throws {
    let ids = SiftValue.array((0..<70_000).map { .string("id-\($0)") })
    let heavy = try SiftPredicate(format: "filterCriteria IN %@ AND priority >= %d", arguments: [ids, 2])
    let light = try SiftPredicate(
      format: "filterCriteria IN %@ AND priority >= %d", arguments: [["id-7", "other"], 3])
    let set = SiftPredicateSet<String>()
    set.insert(heavy, id: "big")
    set.insert(light, id: "small")
    let stats = set.statistics
    #expect(stats.ownPrograms == 1)
    #expect(stats.sharedShapes == 1)
    #expect(stats.indexed == 2)
    let records: [SiftValue] = [
      ["filterCriteria": "id-7", "priority": 3], ["filterCriteria": "id-7", "priority": 2],
      ["filterCriteria": "id-69999", "priority": 5], ["filterCriteria": "id-70000", "priority": 5],
      ["filterCriteria": "other", "priority": 3], ["filterCriteria": "ID-7", "priority": 3],
      ["filterCriteria": 7, "priority": 3], ["filterCriteria": .null, "priority": 3], ["priority": 3],
      ["filterCriteria": ["id-7"], "priority": 3], ["filterCriteria": "id-7", "priority": "3"], "id-7",
    ]
    for record in records {
      let expected = [("big", heavy), ("small", light)].filter { $0.1.matches(record) }.map(\.0)
      #expect(set.matches(record) == expected, "\(record)")
    }
    #expect(set.matches(["filterCriteria": "id-7", "priority": 3]) == ["big", "small"])
  }

  // MARK: - Differential

  /// Random predicate pools, records and sets: every set match equals filtering the set's
  /// predicates by `matches`, in order.
  @Test func differentialAgainstEachPredicate() throws {
    var random = SplitMix64(seed: 0x1D_E7)
    let predicates = (0..<400).map { _ in RandomPredicates.predicate(&random, subject: .record) }
    let records = (0..<1_000).map { _ in RandomPredicates.record(&random) }
    let cases = try runDifferential(
      predicates: predicates, subjects: records.map(Subject.value), sets: 100, setSize: 16, random: &random)
    #expect(cases >= 100_000)
  }

  /// The same with strings as `SELF` (`matches(_: String)`) and non-dictionary values.
  @Test func differentialOnStrings() throws {
    var random = SplitMix64(seed: 0x5E1F)
    let predicates = (0..<200).map { _ in RandomPredicates.predicate(&random, subject: .string) }
    var subjects = (0..<300).map { _ in Subject.string(RandomPredicates.string(&random)) }
    subjects += (0..<100).map { _ in Subject.value(RandomPredicates.scalar(&random)) }
    let cases = try runDifferential(predicates: predicates, subjects: subjects, sets: 30, setSize: 30, random: &random)
    #expect(cases >= 12_000)
  }

  /// Enough removals and replacements to make the set rebuild its index (renumbering
  /// slots, dropping dead runs and stale postings) several times, checked after each.
  @Test func churnRebuildsAndStaysExact() throws {
    var random = SplitMix64(seed: 0xC4_52)
    let predicates = (0..<250).map { _ in RandomPredicates.predicate(&random, subject: .record) }
    let records = (0..<80).map { _ in RandomPredicates.record(&random) }
    let truth = predicates.map { p in records.map { p.matches($0) } }
    let set = SiftPredicateSet<Int>()
    var model: [(id: Int, predicate: Int)] = (0..<3_000).map { ($0, random.below(predicates.count)) }
    set.insert(contentsOf: model.map { (id: $0.id, predicate: predicates[$0.predicate]) })
    var nextID = model.count
    var mismatches = 0
    for round in 0..<4 {
      for _ in 0..<1_500 {
        switch random.below(3) {
        case 0 where !model.isEmpty:
          let at = random.below(model.count)
          #expect(set.remove(id: model[at].id))
          model.remove(at: at)
        case 1 where !model.isEmpty:
          let at = random.below(model.count)
          model[at].predicate = random.below(predicates.count)
          set.insert(predicates[model[at].predicate], id: model[at].id)
        default:
          model.append((nextID, random.below(predicates.count)))
          set.insert(predicates[model.last!.predicate], id: nextID)
          nextID += 1
        }
      }
      #expect(set.count == model.count)
      for (r, record) in records.enumerated()
      where set.matches(record) != model.filter({ truth[$0.predicate][r] }).map(\.id) {
        mismatches += 1
      }
      #expect(set.statistics.staleIndexEntries <= max(4_096, set.statistics.indexEntries), "round \(round)")
    }
    #expect(mismatches == 0)
    // Renumbered: fewer slots than ids ever inserted.
    #expect(set.index.slotCount < nextID)
  }

  enum Subject {
    case value(SiftValue)
    case string(String)

    var text: String {
      switch self {
      case .value(let v): v.jsonText
      case .string(let s): "string \(s.debugDescription)"
      }
    }
  }

  /// Builds `sets` sets of about `setSize` predicates from the pool, matches every subject
  /// against each (updating the set between rounds of subjects), and compares with the
  /// pool's own answers. Returns the number of (subject, set) cases compared.
  private func runDifferential(
    predicates: [SiftPredicate], subjects: [Subject], sets: Int, setSize: Int, random: inout SplitMix64
  ) throws -> Int {
    // Each predicate on each subject, once.
    let truth: [[Bool]] = predicates.map { p in
      subjects.map { subject in
        switch subject {
        case .value(let v): p.matches(v)
        case .string(let s): p.matches(s)
        }
      }
    }
    var cases = 0
    var matched = 0
    var indexed = 0
    var scanned = 0
    var mismatches: [String] = []
    for setIndex in 0..<sets {
      let set = SiftPredicateSet<Int>()
      // The model: ids in result order, each with its predicate's index in the pool.
      var model: [(id: Int, predicate: Int)] = []
      var nextID = 0
      func insert(_ id: Int, _ p: Int) {
        if let at = model.firstIndex(where: { $0.id == id }) { model[at].predicate = p } else { model.append((id, p)) }
      }
      let initial = (0..<setSize).map { id in (id, random.below(predicates.count)) }
      nextID = setSize
      if setIndex % 2 == 0 {
        set.insert(contentsOf: initial.map { (id: $0.0, predicate: predicates[$0.1]) })
      } else {
        for (id, p) in initial { set.insert(predicates[p], id: id) }
      }
      for (id, p) in initial { insert(id, p) }
      indexed += set.statistics.indexed
      scanned += set.statistics.scanned
      let rounds = 5
      let perRound = (subjects.count + rounds - 1) / rounds
      for round in 0..<rounds {
        if round > 0 {
          // Updates: new ids, replaced predicates, removals (some of ids not present).
          for _ in 0..<(setSize / 4) {
            switch random.below(4) {
            case 0:
              let p = random.below(predicates.count)
              set.insert(predicates[p], id: nextID)
              insert(nextID, p)
              nextID += 1
            case 1 where !model.isEmpty:
              let id = model[random.below(model.count)].id
              let p = random.below(predicates.count)
              set.insert(predicates[p], id: id)
              insert(id, p)
            case 2 where !model.isEmpty:
              let id = model[random.below(model.count)].id
              #expect(set.remove(id: id))
              model.removeAll { $0.id == id }
            default:
              #expect(!set.remove(id: nextID + 1_000))
            }
          }
        }
        #expect(set.count == model.count)
        for s in (round * perRound)..<min(subjects.count, (round + 1) * perRound) {
          let actual: [Int]
          switch subjects[s] {
          case .value(let v): actual = set.matches(v)
          case .string(let string): actual = set.matches(string)
          }
          let expected = model.filter { truth[$0.predicate][s] }.map(\.id)
          cases += 1
          matched += expected.count
          if actual != expected, mismatches.count < 10 {
            let missing = expected.filter { !actual.contains($0) }
            let extra = actual.filter { !expected.contains($0) }
            let describe = { (ids: [Int]) in
              ids.map { id in predicates[model.first { $0.id == id }?.predicate ?? 0].predicateFormat }
            }
            mismatches.append(
              "\(subjects[s].text): missing \(describe(missing)), extra \(describe(extra)), order \(actual) vs \(expected)"
            )
          }
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    print(
      "predicate set differential: \(cases) cases, \(matched) matches expected, \(indexed) predicates indexed, \(scanned) scanned"
    )
    return cases
  }

  // MARK: - Concurrency

  /// Readers match while a writer inserts batches of 50 (each one `insert(contentsOf:)`)
  /// and removes old batches one id at a time, in ascending order. Every predicate matches
  /// the value, so a result is the live ids: each batch must show as a whole or, while it
  /// is being removed, as a suffix of its ids, and the ids must be in insertion order.
  @Test func concurrentMatchesSeeConsistentSnapshots() throws {
    let set = SiftPredicateSet<Int>()
    let batchSize = 50
    let batches = 120
    let formats = ["SELF BEGINSWITH 'x'", "SELF CONTAINS 'y'", "SELF IN {'xyz', 'q'}", "SELF ==[c] 'XYZ'"]
    let compiled = try formats.map { try SiftPredicate(format: $0) }
    let flags = Flags()
    // Threads of their own: the test runner's pool may be busy with the other tests.
    let finished = DispatchSemaphore(value: 0)
    let readers = 3
    for _ in 0..<readers {
      let thread = Thread {
        while !flags.done.load(ordering: .acquiring) {
          let ids = set.matches("xyz")
          flags.observed.wrappingAdd(1, ordering: .relaxed)
          if !Self.isConsistent(ids, batchSize: batchSize) { flags.violations.wrappingAdd(1, ordering: .relaxed) }
        }
        finished.signal()
      }
      thread.start()
    }
    for b in 0..<batches {
      // Let the readers in between updates (on two cores the writer could finish first).
      let seen = flags.observed.load(ordering: .relaxed)
      let deadline = ContinuousClock.now + .milliseconds(50)
      while flags.observed.load(ordering: .relaxed) == seen && ContinuousClock.now < deadline { sched_yield() }
      let start = b * batchSize
      set.insert(contentsOf: (start..<start + batchSize).map { (id: $0, predicate: compiled[b % compiled.count]) })
      if b >= 3 {
        let old = (b - 3) * batchSize
        for id in old..<old + batchSize { set.remove(id: id) }
      }
    }
    flags.done.store(true, ordering: .releasing)
    for _ in 0..<readers { finished.wait() }
    #expect(flags.violations.load(ordering: .relaxed) == 0)
    #expect(flags.observed.load(ordering: .relaxed) > 0)
    print("observed \(flags.observed.load(ordering: .relaxed)) violations \(flags.violations.load(ordering: .relaxed))")
    #expect(set.count == 3 * batchSize)
    #expect(set.matches("xyz") == Array((batches - 3) * batchSize..<batches * batchSize))
  }

  final class Flags: Sendable {
    let done = Atomic(false)
    let violations = Atomic(0)
    let observed = Atomic(0)
  }

  private static func isConsistent(_ ids: [Int], batchSize: Int) -> Bool {
    guard ids == ids.sorted() else { return false }
    var byBatch: [Int: [Int]] = [:]
    for id in ids { byBatch[id / batchSize, default: []].append(id) }
    for (batch, members) in byBatch {
      // A suffix of the batch: from some id to its last, without gaps.
      let end = (batch + 1) * batchSize
      guard members.last == end - 1, members.count == end - members[0] else { return false }
    }
    return true
  }
}

/// Seeded random predicates over a small vocabulary (keys `s n x a.b missing tags nums
/// flag`, or `SELF` for string subjects), covering every indexable comparison, the
/// `[c]`/`[cd]` forms, OR, NOT, residual CONTAINS/ENDSWITH/LIKE/MATCHES/`!=`/ALL,
/// comparisons that fail on the wrong types, tiny step budgets; and records whose values
/// are often of the wrong type or missing.
enum RandomPredicates {
  enum Kind { case record, string }

  static let strings: [String] = [
    "abc", "ABC", "Abc", "ab", "a", "", "abd", "résumé", "RÉSUMÉ", "resume", "Resume", "re\u{301}sume\u{301}",
    "straße", "STRASSE", "strasse", "e\u{301}", "é", "E", "acct-1", "acct-2", "acct-10", "ＡＢＣ", "\r\n", "x\r\ny",
    "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", String(repeating: "ab", count: 40), "1", "3", "İ", "i̇",
  ]
  static let numbers: [SiftValue] = [
    0, 1, 2, 3, -1, 2.5, 1.0, 3.0, .bool(true), .bool(false), .int(9_007_199_254_740_993),
    .double(9_007_199_254_740_992), .int(Int.max), .double(-0.0), .double(.infinity),
  ]
  static let recordKeys = ["s", "n", "x", "a.b", "missing", "flag"]
  static let arrayKeys = ["tags", "nums", "x", "a.b"]

  static func string(_ r: inout SplitMix64) -> String {
    if r.chance(10) { return strings[r.below(strings.count)] + strings[r.below(strings.count)] }
    return r.pick(strings)
  }

  static func scalar(_ r: inout SplitMix64) -> SiftValue {
    switch r.below(8) {
    case 0, 1, 2: return .string(string(&r))
    case 3, 4: return r.pick(numbers)
    case 5: return .null
    case 6: return .date(secondsSinceReferenceDate: Double(r.below(3)))
    default: return r.chance(50) ? .double(.nan) : .int(r.int(-2...5))
    }
  }

  static func value(_ r: inout SplitMix64, depth: Int = 0) -> SiftValue {
    switch r.below(10) {
    case 0..<6: return scalar(&r)
    case 6, 7:
      return .array((0..<r.below(4)).map { _ in depth < 2 && r.chance(20) ? value(&r, depth: depth + 1) : scalar(&r) })
    case 8: return .array((0..<r.below(4)).map { _ in .string(string(&r)) })
    default: return depth < 2 ? .dictionary(["b": value(&r, depth: depth + 1)]) : .null
    }
  }

  static func record(_ r: inout SplitMix64) -> SiftValue {
    var d: [String: SiftValue] = [:]
    if r.chance(85) { d["s"] = r.chance(75) ? .string(string(&r)) : value(&r) }
    if r.chance(85) { d["n"] = r.chance(75) ? r.pick(numbers) : value(&r) }
    if r.chance(80) { d["x"] = value(&r) }
    if r.chance(80) { d["flag"] = r.chance(70) ? .bool(r.chance(50)) : value(&r) }
    if r.chance(85) {
      d["tags"] = r.chance(75) ? .array((0..<r.below(5)).map { _ in .string(string(&r)) }) : value(&r)
    }
    if r.chance(85) { d["nums"] = r.chance(75) ? .array((0..<r.below(5)).map { _ in r.pick(numbers) }) : value(&r) }
    if r.chance(80) {
      switch r.below(4) {
      case 0: d["a"] = .dictionary(["b": scalar(&r)])
      case 1: d["a"] = .array([.dictionary(["b": scalar(&r)]), .dictionary(["b": scalar(&r)])])
      case 2: d["a"] = .dictionary(["b": .array([.string(string(&r)), r.pick(numbers)])])
      default: d["a"] = value(&r)
      }
    }
    return .dictionary(d)
  }

  static func predicate(_ r: inout SplitMix64, subject: Kind) -> SiftPredicate {
    while true {
      var args: [SiftValue] = []
      var format = conjunction(&r, subject, &args)
      if r.chance(25) { format = "(\(format)) OR (\(conjunction(&r, subject, &args)))" }
      if r.chance(5) { format = "NOT (\(format))" }
      var options = CompileOptions()
      // Small budgets: where a shared program's variables cost more than constants.
      if r.chance(8) { options.limits.maxSteps = r.pick([0, 1, 3, 10, 40]) }
      if let p = try? SiftPredicate(format: format, arguments: args, options: options) { return p }
    }
  }

  private static func conjunction(_ r: inout SplitMix64, _ subject: Kind, _ args: inout [SiftValue]) -> String {
    let n = r.int(1...3)
    return (0..<n).map { _ in clause(&r, subject, &args) }.joined(separator: " AND ")
  }

  private static func clause(_ r: inout SplitMix64, _ subject: Kind, _ args: inout [SiftValue]) -> String {
    let key =
      subject == .string ? (r.chance(85) ? "SELF" : r.pick(["length", "SELF.length", "x"])) : r.pick(recordKeys)
    let arrayKey = subject == .string ? "SELF" : r.pick(arrayKeys)
    let options = r.pick(["", "", "", "[c]", "[cd]", "[d]", "[n]"])
    func arg(_ v: SiftValue) -> String {
      args.append(v)
      return "%@"
    }
    func stringSet() -> SiftValue {
      var elements = (0..<r.below(4)).map { _ in SiftValue.string(string(&r)) }
      if r.chance(20) { elements.append(r.pick(numbers)) }
      if r.chance(10) { elements.append(.null) }
      if r.chance(5) { elements.append(.double(.nan)) }
      if r.chance(5) { elements.append(.array(["abc"])) }
      return .array(elements)
    }
    func number() -> SiftValue { r.chance(5) ? .double(.nan) : r.pick(numbers) }
    let ordering = r.pick(["<", "<=", ">", ">=", "=<", "=>"])
    switch r.below(22) {
    case 0, 1: return "\(key) ==\(options) \(arg(.string(string(&r))))"
    case 2: return "\(key) == \(arg(number()))"
    case 3: return "\(arg(r.chance(50) ? .string(string(&r)) : number())) ==\(options) \(key)"
    case 4, 5: return "\(key) IN\(options) \(arg(stringSet()))"
    case 6: return "\(key) IN\(options) {'abc', 'Resume', 1, 3}"
    case 7, 8:
      return "\(key) BEGINSWITH\(options) \(arg(.string(r.chance(10) ? "" : String(string(&r).prefix(r.int(1...4))))))"
    case 9, 10: return "\(key) \(ordering) \(arg(number()))"
    case 11: return "\(arg(number())) \(ordering) \(key)"
    case 12:
      let lo = number()
      let bounds: SiftValue = r.chance(10) ? .array([lo, "z"]) : .array([lo, number()])
      return "\(key) BETWEEN \(arg(bounds))"
    case 13: return "\(key) BETWEEN {1, 3}"
    case 14:
      switch r.below(5) {
      case 0: return "ANY \(arrayKey) ==\(options) \(arg(.string(string(&r))))"
      case 1: return "ANY \(arrayKey) IN\(options) \(arg(stringSet()))"
      case 2: return "ANY \(arrayKey) BEGINSWITH\(options) \(arg(.string(String(string(&r).prefix(2)))))"
      case 3: return "ANY \(arrayKey) \(ordering) \(arg(number()))"
      default: return "SOME \(arrayKey) == \(arg(number()))"
      }
    case 15:
      switch r.below(4) {
      case 0: return "\(key) CONTAINS\(options) \(arg(.string(String(string(&r).prefix(2)))))"
      case 1: return "\(key) ENDSWITH\(options) \(arg(.string(String(string(&r).suffix(2)))))"
      case 2: return "\(key) LIKE\(options) '*b*'"
      default: return "\(key) MATCHES\(r.chance(50) ? "[c]" : "") '[a-c]+'"
      }
    case 16: return "\(key) != \(arg(r.chance(50) ? .string(string(&r)) : number()))"
    case 17: return "NOT (\(clause(&r, subject, &args)))"
    case 18: return r.pick(["ALL \(arrayKey) > 0", "NONE \(arrayKey) ==[c] 'abc'", "\(arrayKey).@count >= 2"])
    case 19: return r.pick(["\(key) + 1 > 2", "\(key)[0] == 'a'", "\(key) BEGINSWITH \(key)", "\(key) == \(key)"])
    case 20: return r.pick(["TRUEPREDICATE", "FALSEPREDICATE", "\(key) == nil", "\(key) != nil"])
    default: return "(\(clause(&r, subject, &args)) OR \(clause(&r, subject, &args)))"
    }
  }
}
