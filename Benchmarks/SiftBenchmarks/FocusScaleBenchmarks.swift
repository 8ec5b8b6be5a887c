import Foundation
import Sift
import SiftFocus

/// The `focus-scale` suite: a service holding 1,000,000 users (`--count` changes it), each
/// with an active Focus and a filter of the talk's shape (`SELF IN %@` with three of
/// 1,000,000 account ids), each notification addressed to a random user. Rows: decisions per
/// second on one core, resident bytes per user (state and filter, measured as the growth of
/// the process's resident set while the users are installed), users written to and loaded
/// from SQLite per second. Runs only when named (`SiftBenchmarks focus-scale`): it builds a
/// million users.
enum FocusScaleBenchmarks {
  static func run(_ options: BenchmarkOptions) {
    guard let filter = options.filter, "focus-scale".contains(filter) || filter.contains("focus-scale") else { return }
    let users = options.count ?? (options.quick ? 200_000 : 1_000_000)
    var random = SplitMix64(seed: 0x5EED)
    let userIDs = (0..<users).map { "user-\($0)" }
    let accounts = (0..<users).map { _ in (0..<3).map { _ in "acct-\(random.next() % 1_000_000)" } }
    let clock = ContinuousClock()

    // Install: compile each user's predicate (kept as its ids) and enter it in the table.
    let before = residentBytes()
    let service = FocusService()
    var compile = Duration.zero
    var batch: [(user: String, focus: String, app: String, filter: NotificationFilter)] = []
    batch.reserveCapacity(10_000)
    let build = clock.measure {
      for k in 0..<users {
        let predicate: SiftPredicate
        let start = clock.now
        do {
          predicate = try SiftPredicate(format: "SELF IN %@", accounts[k])
        } catch {
          fatalError("\(error)")
        }
        compile += clock.now - start
        batch.append((userIDs[k], "Work", "chat", NotificationFilter(predicate: predicate)))
        if batch.count == 10_000 || k == users - 1 {
          try! service.setFilters(batch)
          batch.removeAll(keepingCapacity: true)
        }
      }
    }
    let perUser = Double(residentBytes() - before) / Double(users)

    // Notifications: half for one of the user's accounts, half for another account. Each
    // carries its user's id, as a notification arriving at a service does.
    let notifications = (0..<1_000_000).map { _ -> (String, NotificationContent) in
      let user = Int(random.next() % UInt64(users))
      let id = random.next() % 2 == 0 ? accounts[user][Int(random.next() % 3)] : "acct-\(random.next() % 1_000_000)"
      return ("user-\(user)", NotificationContent(filterCriteria: id))
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
    report(options, "decisions per second, one call each (1 core)", rates.median, unit: "/s", target: "5000000")
    report(options, "decisions per second, batches of 1024 (1 core)", batchRates.median, unit: "/s", target: "5000000")
    report(options, "resident bytes per user", perUser, unit: "B", target: "1024")
    report(options, "users installed per second", Double(users) / build.seconds, unit: "/s", target: nil)
    report(options, "  of which compiling the predicates", Double(users) / compile.seconds, unit: "/s", target: nil)
    blackHole(delivered)

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
          ))
      }
      let store = try clock.measure { try database.storeFilters(entries) }
      entries = []
      report(options, "users stored in SQLite per second", Double(users) / store.seconds, unit: "/s", target: nil)
      var loaded: FocusService?
      let load = try clock.measure { loaded = try FocusService(database: FocusDatabase(path: path)) }
      report(options, "users loaded from SQLite per second", Double(users) / load.seconds, unit: "/s", target: "200000")
      // The loaded service decides as the installed one.
      var mismatches = 0
      for (user, content) in notifications.prefix(100_000)
      where loaded!.decide(content, user: user, app: "chat") != service.decide(content, user: user, app: "chat") {
        mismatches += 1
      }
      report(options, "mismatches after loading (of 100000)", Double(mismatches), unit: "", target: "0")
    } catch {
      print("focus-scale: \(error)")
    }
  }

  static func report(_ options: BenchmarkOptions, _ name: String, _ value: Double, unit: String, target: String?) {
    if options.json {
      print(JSONLine.make(suite: "focus-scale", name, value: Report.rounded(value), unit: unit, target: target))
    } else {
      let shown = "\(Int(value.rounded()))\(unit)".leftPadding(14)
      print("\("focus-scale \(name)".padding(56)) \(shown)\(target.map { "   target \($0)" } ?? "")")
    }
  }

  /// The resident set of this process, from /proc/self/statm.
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}

extension Duration {
  var seconds: Double {
    let (s, attoseconds) = components
    return Double(s) + Double(attoseconds) / 1e18
  }
}
