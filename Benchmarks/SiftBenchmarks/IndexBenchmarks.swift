import Foundation
import Sift

/// The `index` suite: ``SiftPredicateSet`` holding 1,000, 10,000, 100,000 and 1,000,000
/// predicates (`--count N` caps the largest, `--quick` stops at 100,000), matched against
/// notifications on one core. Workloads:
///
/// - `focus`: each predicate `filterCriteria IN {three of 1,000,000 account ids} AND
///   priority >= k`, a notification addressed to one account (half of them to an account
///   some predicate names), so it matches 0 to a few predicates;
/// - `w2`: W2's four clauses with three account ids of its own per predicate;
/// - `mixed`: equality with a residual CONTAINS, a `[c]` prefix with a residual MATCHES,
///   narrow `BETWEEN` ranges, `ANY tags IN`, an OR of two equalities, and ten predicates
///   with nothing to index (evaluated for every notification);
/// - `route`: the focus shape where 1 predicate in 1,000 names one of 8 popular ids and
///   every notification is addressed to a popular id (a topic with high fan-out: about
///   n / 8,000 candidates per notification, each checked by the VM).
///
/// Rows: matches per second through the set, and for the smaller sets by evaluating every
/// predicate (brute force) with the number of results that differ (must be 0); predicates
/// inserted per second (`insert(contentsOf:)` of compiled predicates; compiling them is
/// reported apart); resident bytes per predicate (the growth of the process's resident
/// set while the set is built, the compiled predicates dropped chunk by chunk). Runs only
/// when named (`SiftBenchmarks index`).
enum IndexBenchmarks {
  static func run(_ options: BenchmarkOptions) {
    guard let filter = options.filter, filter.hasPrefix("index") else { return }
    let largest = options.count ?? (options.quick ? 100_000 : 1_000_000)
    let sizes = [1_000, 10_000, 100_000, 1_000_000].filter { $0 <= largest }
    let bruteForceUpTo = options.quick ? 10_000 : 100_000
    for name in ["focus", "w2", "mixed", "route"] where filter == "index" || filter.contains(name) {
      let workload = Workload(name)
      var rates: [Int: Double] = [:]
      for n in sizes {
        rates[n] = measure(workload, n, bruteForce: n <= bruteForceUpTo, options)
      }
      if let small = rates[sizes[0]], let big = rates[sizes[sizes.count - 1]], sizes.count > 1 {
        report(
          options, "\(name) rate at \(sizes[sizes.count - 1]) / rate at \(sizes[0])", big / small, unit: "x",
          target: name == "focus" ? "0.5" : nil, decimals: true)
      }
    }
  }

  /// Builds a set of `n` predicates of `workload`, reports its rows, returns its rate.
  static func measure(_ workload: Workload, _ n: Int, bruteForce: Bool, _ options: BenchmarkOptions) -> Double {
    let clock = ContinuousClock()
    let notifications = (0..<(n >= 1_000_000 ? 400_000 : 200_000)).map { workload.notification($0, predicates: n) }

    // Build in chunks: compile a chunk, insert it, drop it (as a service loading its
    // subscriptions would), so the resident growth is the set's.
    let set = SiftPredicateSet<Int>()
    let before = FocusScaleBenchmarks.residentBytes()
    var inserting = Duration.zero
    var compiling = Duration.zero
    let chunk = 10_000
    var start = 0
    while start < n {
      let end = min(n, start + chunk)
      var batch: [(id: Int, predicate: SiftPredicate)] = []
      batch.reserveCapacity(end - start)
      compiling += clock.measure {
        for i in start..<end { batch.append((i, workload.predicate(i))) }
      }
      inserting += clock.measure { set.insert(contentsOf: batch) }
      start = end
    }
    let perPredicate = Double(FocusScaleBenchmarks.residentBytes() - before) / Double(n)
    // The same predicates from their text (`insert(format:arguments:id:)`: parsed, taken
    // apart and bound, never compiled alone), as a service loading rules would.
    var fromText: Double? = nil
    if workload.name == "focus" || workload.name == "route" {
      let texts = (0..<n).map(workload.arguments)
      let other = SiftPredicateSet<Int>()
      let elapsed = clock.measure {
        for (i, args) in texts.enumerated() {
          try? other.insert(format: "filterCriteria IN %@ AND priority >= %d", arguments: args, id: i)
        }
      }
      fromText = Double(n) / elapsed.seconds
      precondition(other.count == n)
    }

    var rates: [Double] = []
    var found = 0
    for _ in 0..<(options.quick ? 3 : 5) {
      found = 0
      let elapsed = clock.measure {
        for value in notifications { found += set.matches(value).count }
      }
      rates.append(Double(notifications.count) / elapsed.seconds)
    }
    let rate = rates.median
    let name = "\(workload.name) \(n)"
    report(options, "\(name) matches per second (1 core)", rate, unit: "/s", target: target(workload, n))
    if workload.name == "route" {
      // Each notification's candidates: the predicates that name its popular id.
      let candidates = notifications.indices.reduce(0) { $0 + workload.popularCount($1, predicates: n) }
      report(
        options, "\(name) candidates checked per second", rate * Double(candidates) / Double(notifications.count),
        unit: "/s", target: n == 1_000_000 ? "30000000" : nil)
    }
    report(
      options, "\(name) results per notification", Double(found) / Double(notifications.count), unit: "",
      target: nil, decimals: true)
    if bruteForce {
      let predicates = (0..<n).map(workload.predicate)
      let sample = notifications.prefix(max(20, min(20_000, 40_000_000 / n / 10)))
      var mismatches = 0
      var expected: [[Int]] = []
      expected.reserveCapacity(sample.count)
      let elapsed = clock.measure {
        for value in sample { expected.append(predicates.indices.filter { predicates[$0].matches(value) }) }
      }
      for (value, ids) in zip(sample, expected) where set.matches(value) != ids { mismatches += 1 }
      report(
        options, "\(name) brute force matches per second", Double(sample.count) / elapsed.seconds, unit: "/s",
        target: nil)
      report(
        options, "\(name) mismatches vs brute force (of \(sample.count))", Double(mismatches), unit: "", target: "0")
    }
    report(
      options, "\(name) predicates inserted per second", Double(n) / inserting.seconds, unit: "/s",
      target: workload.name == "focus" ? "200000" : nil)
    report(options, "\(name)   compiling them, per second", Double(n) / compiling.seconds, unit: "/s", target: nil)
    if let fromText {
      report(
        options, "\(name) inserted from rule text per second", fromText, unit: "/s",
        target: n == 1_000_000 && workload.name == "focus" ? "500000" : nil)
    }
    if n >= 100_000 {
      report(
        options, "\(name) resident bytes per predicate", perPredicate, unit: "B",
        target: workload.name == "focus" ? "400" : nil)
    }
    let stats = set.statistics
    if n == 1_000 || n >= 1_000_000 {
      report(
        options, "\(name) indexed / scanned / shapes / own programs",
        Double(stats.indexed), unit: " / \(stats.scanned) / \(stats.sharedShapes) / \(stats.ownPrograms)", target: nil)
    }
    blackHole(found)
    return rate
  }

  static func target(_ workload: Workload, _ n: Int) -> String? {
    workload.name == "focus" && n == 1_000_000 ? "1000000" : nil
  }

  static func report(
    _ options: BenchmarkOptions, _ name: String, _ value: Double, unit: String, target: String?,
    decimals: Bool = false
  ) {
    if options.json {
      print(JSONLine.make(suite: "index", name, value: Report.rounded(value), unit: unit, target: target))
    } else {
      let number = decimals ? "\(Report.rounded(value * 10) / 10)" : "\(Int(value.rounded()))"
      let shown = "\(number)\(unit)".leftPadding(14)
      print("\("index \(name)".padding(62)) \(shown)\(target.map { "   target \($0)" } ?? "")")
    }
  }

  /// A workload's predicates and notifications, each a pure function of its number, so a
  /// million of them need not be held to be rebuilt.
  struct Workload {
    let name: String

    init(_ name: String) { self.name = name }

    /// A well-mixed number from `i` and a stream tag.
    static func mix(_ i: Int, _ stream: UInt64) -> Int {
      var z = UInt64(truncatingIfNeeded: i) &+ stream &* 0x9E37_79B9_7F4A_7C15
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
    }

    static func account(_ k: Int) -> String { "acct-\(k % 1_000_000)" }
    /// Account `j` (of three) of predicate `i`.
    static func account(_ i: Int, _ j: Int) -> String { account(mix(i * 3 + j, 1)) }
    static let words = ["invoice", "meeting", "urgent", "report", "lunch", "deploy", "review", "offer"]

    /// The arguments of focus-shape predicate `i` (`route`: with its popular id).
    func arguments(_ i: Int) -> [SiftValue] {
      var ids = (0..<3).map { SiftValue.string(Self.account(i, $0)) }
      if name == "route" && i % 1_000 == 0 { ids[0] = .string("pop-\((i / 1_000) % 8)") }
      return [.array(ids), .int(Self.mix(i, 2) % 6)]
    }

    /// How many of `n` route predicates name the popular id of notification `k`.
    func popularCount(_ k: Int, predicates n: Int) -> Int {
      // Predicates 1,000·j with j ≡ k (mod 8), below n.
      let js = (n + 999) / 1_000
      let p = k % 8
      return js > p ? (js - p + 7) / 8 : 0
    }

    func predicate(_ i: Int) -> SiftPredicate {
      let accounts = SiftValue.array((0..<3).map { .string(Self.account(i, $0)) })
      let level = SiftValue.int(Self.mix(i, 2) % 6)
      do {
        switch name {
        case "route":
          return try SiftPredicate(format: "filterCriteria IN %@ AND priority >= %d", arguments: arguments(i))
        case "focus":
          return try SiftPredicate(format: "filterCriteria IN %@ AND priority >= %d", arguments: [accounts, level])
        case "w2":
          return try SiftPredicate(
            format:
              "account IN %@ AND priority >= 3 AND NOT (sender ENDSWITH[c] '@spam.example') AND ANY tags == 'urgent'",
            arguments: [accounts])
        default:
          return try mixedPredicate(i, accounts, level)
        }
      } catch {
        fatalError("\(error)")
      }
    }

    private func mixedPredicate(_ i: Int, _ accounts: SiftValue, _ level: SiftValue) throws -> SiftPredicate {
      // Ten predicates with nothing to index, whatever the size.
      if i < 10 {
        return try SiftPredicate(format: "subject CONTAINS[c] %@", arguments: [.string(Self.words[i % 8] + "!")])
      }
      let word = SiftValue.string(Self.words[Self.mix(i, 3) % Self.words.count])
      switch Self.mix(i, 4) % 10 {
      case 0, 1, 2:
        return try SiftPredicate(
          format: "account == %@ AND subject CONTAINS[c] %@", arguments: [.string(Self.account(i, 0)), word])
      case 3, 4:
        return try SiftPredicate(
          format: "sender BEGINSWITH[c] %@ AND NOT (subject MATCHES '.*unsubscribe.*')",
          arguments: [.string("U\(Self.mix(i, 5) % 100_000)@")])
      case 5, 6:
        let low = Self.mix(i, 6) % 10_000_000
        return try SiftPredicate(
          // `bytes`, not `size`: SIZE is a reserved word (`xs[SIZE]`).
          format: "bytes BETWEEN %@ AND priority >= %d",
          arguments: [.array([.int(low), .int(low + Self.mix(i, 7) % 1_000)]), level])
      case 7, 8:
        let tags = SiftValue.array([.string("t\(Self.mix(i, 8) % 100_000)"), .string("t\(Self.mix(i, 9) % 100_000)")])
        return try SiftPredicate(format: "ANY tags IN %@ AND priority >= %d", arguments: [tags, level])
      default:
        return try SiftPredicate(
          format: "category ==[c] %@ OR account IN %@",
          arguments: [.string("Cat-\(Self.mix(i, 10) % 100_000)"), accounts])
      }
    }

    /// Notification `k` for a set of `n` predicates: half addressed to an account of a
    /// random predicate, half to a random account.
    func notification(_ k: Int, predicates n: Int) -> SiftValue {
      if name == "route" {
        return [
          "filterCriteria": .string("pop-\(k % 8)"), "priority": .int(Self.mix(k, 15) % 6),
          "sender": .string("u\(Self.mix(k, 17) % 100_000)@example.com"),
        ]
      }
      let account =
        Self.mix(k, 11) % 2 == 0
        ? Self.account(Self.mix(k, 12) % n, Self.mix(k, 13) % 3) : Self.account(Self.mix(k, 14))
      let priority = SiftValue.int(Self.mix(k, 15) % 6)
      let tagged = Self.mix(k, 16) % 4 == 0
      var fields: [String: SiftValue] = [
        "filterCriteria": .string(account), "account": .string(account), "priority": priority,
        "sender": .string("u\(Self.mix(k, 17) % 100_000)@example.com"),
        "tags": .array(tagged ? ["urgent", "work"] : ["work"]),
      ]
      if name == "mixed" {
        fields["subject"] = .string("Re: \(Self.words[Self.mix(k, 18) % Self.words.count]) for \(k)")
        fields["bytes"] = .int(Self.mix(k, 19) % 10_000_000)
        fields["tags"] = .array((0..<3).map { .string("t\(Self.mix(k * 3 + $0, 20) % 100_000)") })
        fields["category"] = .string("cat-\(Self.mix(k, 21) % 100_000)")
      }
      return .dictionary(fields)
    }
  }
}
