import Foundation
import MallocCounter
import Sift
import SiftFocus
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The `focus-scale` suite: a service holding 1,000,000 users (`--count` changes it), each
/// with an active Focus and a filter of the talk's shape (`SELF IN %@` with three of
/// 1,000,000 account ids), each notification addressed to a random user; run once with
/// short user ids (`user-123456`) and once with 36-byte UUIDs. Rows: decisions per second
/// on one core (one call each, and batches), heap bytes per user (state and filter: the
/// growth of the allocator's bytes in use while the users are installed, or loaded), users
/// written to and loaded from SQLite per second. Then the paths through users' systems
/// (`system(for:)`, a save and an activation): heap bytes per user while the systems are
/// live, after a database-backed service released them, and for a memory-only service.
/// Runs only when named (`SiftBenchmarks focus-scale`): it builds a million users twice.
enum FocusScaleBenchmarks {
  static func run(_ options: BenchmarkOptions) {
    guard let filter = options.filter, "focus-scale".contains(filter) || filter.contains("focus-scale") else { return }
    let users = options.count ?? (options.quick ? 200_000 : 1_000_000)
    for kind in [IDKind.short, .uuid] { runTable(kind, users: users, options) }
    runSystems(options)
  }

  enum IDKind: String {
    case short, uuid

    func id(_ k: Int) -> String {
      switch self {
      case .short: return "user-\(k)"
      case .uuid:
        // A version-4 UUID's text, derived from k (36 bytes).
        var random = SplitMix64(seed: UInt64(k) &* 0x9E37_79B9_7F4A_7C15)
        let a = random.next()
        let b = random.next()
        func hex(_ value: UInt64, _ digits: Int) -> String {
          let text = String(value & ((1 << (4 * UInt64(digits))) &- 1), radix: 16)
          return String(repeating: "0", count: digits - text.count) + text
        }
        return "\(hex(a >> 32, 8))-\(hex(a >> 16, 4))-4\(hex(a, 3))-\(hex(8 | (b >> 62), 1))\(hex(b >> 48, 3))-"
          + hex(b, 12)
      }
    }
  }

  static func runTable(_ kind: IDKind, users: Int, _ options: BenchmarkOptions) {
    var random = SplitMix64(seed: 0x5EED)
    let userIDs = (0..<users).map { kind.id($0) }
    let accounts = (0..<users).map { _ in (0..<3).map { _ in "acct-\(random.next() % 1_000_000)" } }
    let clock = ContinuousClock()
    let tag = kind == .short ? "short ids" : "UUID ids"

    // Install: compile each user's predicate (kept as its ids) and enter it in the table.
    let before = heapBytes()
    // A `let`: the timed loops read it with no unwrap; it is freed when this function returns.
    let service = FocusService()
    var compile = Duration.zero
    var batch: [(user: String, focus: String, app: String, filter: NotificationFilter)] = []
    batch.reserveCapacity(10_000)
    let build = clock.measure {
      for k in 0..<users {
        let start = clock.now
        let predicate = try! SiftPredicate(format: "SELF IN %@", accounts[k])
        compile += clock.now - start
        batch.append((userIDs[k], "Work", "chat", NotificationFilter(predicate: predicate)))
        if batch.count == 10_000 || k == users - 1 {
          let entries = batch
          try! blocking { try await service.setFilters(entries) }
          batch.removeAll(keepingCapacity: true)
        }
      }
    }
    let perUser = Double(heapBytes() - before) / Double(users)

    // Notifications: half for one of the user's accounts, half for another account. Each
    // carries its user's id, as a notification arriving at a service does.
    let notifications = (0..<1_000_000).map { _ -> (String, NotificationContent) in
      let user = Int(random.next() % UInt64(users))
      let id = random.next() % 2 == 0 ? accounts[user][Int(random.next() % 3)] : "acct-\(random.next() % 1_000_000)"
      return (kind.id(user), NotificationContent(filterCriteria: id))
    }
    var rates: [Double] = []
    var delivered = 0
    for _ in 0..<(options.quick ? 3 : 7) {
      delivered = 0
      let elapsed = clock.measure {
        for (user, content) in notifications
        where service.decide(content, user: user, app: "chat").outcome == .delivered {
          delivered += 1
        }
      }
      rates.append(Double(notifications.count) / elapsed.seconds)
    }
    // The same notifications through the batch call, 1,024 at a time.
    let addressed = notifications.map { FocusService.Addressed(user: $0.0, app: "chat", content: $0.1) }
    var batchRates: [Double] = []
    var batchDelivered = 0
    for _ in 0..<(options.quick ? 3 : 7) {
      batchDelivered = 0
      let elapsed = clock.measure {
        var start = 0
        while start < addressed.count {
          let end = min(start + 1024, addressed.count)
          for decision in service.decide(addressed[start..<end]) where decision.outcome == .delivered {
            batchDelivered += 1
          }
          start = end
        }
      }
      batchRates.append(Double(addressed.count) / elapsed.seconds)
    }
    precondition(batchDelivered == delivered, "the batch call decided differently")
    report(options, "\(tag): decisions per second, one call each (1 core)", rates.median, unit: "/s", target: "5000000")
    report(
      options, "\(tag): decisions per second, batches of 1024 (1 core)", batchRates.median, unit: "/s",
      target: "5000000")
    report(options, "\(tag): heap bytes per user, setFilters in memory", perUser, unit: "B", target: "1024")
    report(options, "\(tag): users installed per second", Double(users) / build.seconds, unit: "/s", target: nil)
    report(
      options, "\(tag):   of which compiling the predicates", Double(users) / compile.seconds, unit: "/s",
      target: nil)
    blackHole(delivered)
    compareEvaluators(accounts: accounts, &random, tag: tag, options)

    // SQLite: store every user, then load a service from the file.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-focus-scale-\(getpid()).sqlite").path
    defer {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    do {
      let database = try FocusDatabase(path: path)
      var entries: [(user: String, focus: String, app: String, filter: NotificationFilter)] = []
      entries.reserveCapacity(users)
      for k in 0..<users {
        entries.append(
          (
            userIDs[k], "Work", "chat",
            NotificationFilter(predicate: try SiftPredicate(format: "SELF IN %@", accounts[k]))
          )
        )
      }
      let store = try clock.measure { try database.storeFilters(entries) }
      entries = []
      report(
        options, "\(tag): users stored in SQLite per second", Double(users) / store.seconds, unit: "/s",
        target: nil)
      let beforeLoad = heapBytes()
      var loaded: FocusService?
      var opened: FocusDatabase?
      let open = try clock.measure { opened = try FocusDatabase(path: path) }
      let load = try clock.measure { loaded = try FocusService(database: opened!) }
      let loadedPerUser = Double(heapBytes() - beforeLoad) / Double(users)
      report(
        options, "\(tag): users loaded from SQLite per second (open and load)",
        Double(users) / (open + load).seconds, unit: "/s", target: "200000")
      report(
        options, "\(tag):   the open alone (integrity check of every page), users/s", Double(users) / open.seconds,
        unit: "/s", target: nil)
      report(options, "\(tag): heap bytes per user, loaded from SQLite", loadedPerUser, unit: "B", target: "1024")
      // The loaded service decides as the installed one.
      var mismatches = 0
      for (user, content) in notifications.prefix(100_000)
      where loaded!.decide(content, user: user, app: "chat") != service.decide(content, user: user, app: "chat") {
        mismatches += 1
      }
      report(options, "\(tag): mismatches after loading (of 100000)", Double(mismatches), unit: "", target: "0")
      loaded = nil
    } catch {
      print("focus-scale: \(error)")
    }
  }

  /// The paths through users' systems: `system(for:)`, a save and an activation per user.
  /// Bytes per user are the growth of the allocator's bytes in use from before the service
  /// was made, divided by the users; SQLite's own memory (its page cache, bounded by
  /// cache_size: 2 MiB per connection, whatever the number of users) is left out and
  /// reported on its own.
  static func runSystems(_ options: BenchmarkOptions) {
    let databaseUsers = options.quick ? 2_000 : 10_000
    let memoryUsers = options.quick ? 10_000 : 40_000
    let clock = ContinuousClock()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-focus-systems-\(getpid()).sqlite")
      .path
    defer {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    func appBytes() -> Int { heapBytes() - FocusDatabase.sqliteMemoryInUse }
    do {
      let before = appBytes()
      let service = try FocusService(database: FocusDatabase(path: path), liveSystemLimit: Int.max)
      try service.register(AccountsFilter.self, app: "chat")
      let elapsed = try clock.measure {
        try blocking { try await configure(service, users: 0..<databaseUsers, kind: .uuid) }
      }
      let live = Double(appBytes() - before) / Double(databaseUsers)
      let released = service.releaseIdleSystems()
      precondition(released == databaseUsers, "released \(released) of \(databaseUsers) systems")
      let after = Double(appBytes() - before) / Double(databaseUsers)
      report(
        options, "systems: users configured per second (SQLite, 2 commits each)",
        Double(databaseUsers) / elapsed.seconds, unit: "/s", target: nil)
      report(
        options, "systems: SQLite's own memory at \(databaseUsers) users, KiB",
        Double(FocusDatabase.sqliteMemoryInUse) / 1024, unit: "", target: nil)
      report(options, "systems: heap bytes per user but SQLite's, systems live", live, unit: "B", target: nil)
      report(
        options, "systems: heap bytes per user but SQLite's, systems released", after, unit: "B", target: "1024")
    } catch {
      print("focus-scale: \(error)")
    }
    let before = heapBytes()
    let memory = FocusService()
    try! memory.register(AccountsFilter.self, app: "chat")
    try! blocking { try await configure(memory, users: 0..<memoryUsers, kind: .uuid) }
    let perUser = Double(heapBytes() - before) / Double(memoryUsers)
    report(options, "systems: heap bytes per user, memory only (systems kept)", perUser, unit: "B", target: nil)
  }

  /// For each user: the system, a saved Work filter with three accounts, Work turned on.
  static func configure(_ service: FocusService, users: Range<Int>, kind: IDKind) async throws {
    for k in users {
      let system = try await service.system(for: kind.id(k))
      var filter = AccountsFilter()
      filter.accounts = ["acct-\(k)", "acct-\(k + 1)", "acct-\(k + 2)"]
      try await system.save(filter, for: "chat", in: "Work")
      try await system.activate("Work")
    }
  }

  static func report(_ options: BenchmarkOptions, _ name: String, _ value: Double, unit: String, target: String?) {
    if options.json {
      print(JSONLine.make(suite: "focus-scale", name, value: Report.rounded(value), unit: unit, target: target))
    } else {
      let shown = "\(Int(value.rounded()))\(unit)".leftPadding(14)
      print("\("focus-scale \(name)".padding(70)) \(shown)\(target.map { "   target \($0)" } ?? "")")
    }
  }

  /// The bytes the allocator has handed out and not had back (small blocks and mapped
  /// ones), from `mallinfo2`: unlike the resident set, it goes down when memory is freed,
  /// so each measurement is its own.
  /// Why SiftFocus keeps evaluators of its own for the talk's shape (an allow list in a
  /// `NotificationFilter`, three inline ids in the service's table) rather than each
  /// user's compiled predicate on the VM: the same users' filters held both ways, with heap
  /// bytes per user and decisions per second on the same notifications (criteria only, no
  /// user lookup, so the VM's row is not charged the service's table).
  static func compareEvaluators(
    accounts: [[String]], _ random: inout SplitMix64, tag: String, _ options: BenchmarkOptions
  ) {
    let clock = ContinuousClock()
    let users = min(accounts.count, 100_000)
    let notifications = (0..<1_000_000).map { _ -> (Int, String) in
      let user = Int(random.next() % UInt64(users))
      let id = random.next() % 2 == 0 ? accounts[user][Int(random.next() % 3)] : "acct-\(random.next() % 1_000_000)"
      return (user, id)
    }
    let contents = notifications.map { NotificationContent(filterCriteria: $0.1) }
    var before = heapBytes()
    let predicates = (0..<users).map { try! SiftPredicate(format: "SELF IN %@", accounts[$0]) }
    let predicateBytes = Double(heapBytes() - before) / Double(users)
    before = heapBytes()
    let filters = (0..<users).map {
      NotificationFilter(predicate: try! SiftPredicate(format: "SELF IN %@", accounts[$0]))
    }
    let filterBytes = Double(heapBytes() - before) / Double(users)
    var vmRates: [Double] = []
    var filterRates: [Double] = []
    var vmMatched = 0
    var filterMatched = 0
    for _ in 0..<(options.quick ? 3 : 7) {
      vmMatched = 0
      filterMatched = 0
      let vm = clock.measure {
        for (user, criteria) in notifications where predicates[user].matches(criteria) { vmMatched += 1 }
      }
      let list = clock.measure {
        for (k, content) in contents.enumerated()
        where filters[notifications[k].0].decide(content).outcome == .delivered {
          filterMatched += 1
        }
      }
      vmRates.append(Double(notifications.count) / vm.seconds)
      filterRates.append(Double(notifications.count) / list.seconds)
    }
    precondition(vmMatched == filterMatched, "the VM and the allow list decided differently")
    report(
      options, "\(tag): each user's SiftPredicate on the VM, matches per second (1 core)", vmRates.median, unit: "/s",
      target: nil)
    report(
      options, "\(tag): each user's NotificationFilter (allow list), decisions per second (1 core)",
      filterRates.median, unit: "/s", target: nil)
    report(options, "\(tag): heap bytes per user, a SiftPredicate each", predicateBytes, unit: "B", target: nil)
    report(options, "\(tag): heap bytes per user, a NotificationFilter each", filterBytes, unit: "B", target: nil)
    blackHole(predicates.count + filters.count)
  }

  static func heapBytes() -> Int { Int(sift_bench_heap_bytes()) }

  /// The resident set of this process, from /proc/self/statm.
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}

/// The benchmark's filter: the accounts a Focus lets through, as `SELF IN %@`.
struct AccountsFilter: FocusFilter {
  static let title = "Accounts"
  @FocusParameter(title: "Accounts", default: [])
  var accounts: [String]
  var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: Self.title) }
  var appContext: FocusFilterAppContext {
    get throws { try FocusFilterAppContext(predicateFormat: "SELF IN %@", accounts) }
  }
  func perform() async throws {}
}

/// Runs `body` to completion from synchronous benchmark code (the main thread is not one
/// of the concurrency pool's, so waiting on it blocks nothing the task needs).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let result = Mutex<Result<T, any Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    do {
      let value = try await body()
      result.withLock { $0 = .success(value) }
    } catch {
      result.withLock { $0 = .failure(error) }
    }
    done.signal()
  }
  done.wait()
  return try result.withLock { $0! }.get()
}

extension Duration {
  var seconds: Double {
    let (s, attoseconds) = components
    return Double(s) + Double(attoseconds) / 1e18
  }
}
