import Foundation
import SiftNATS
import SiftTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A server (or cluster) set up as `sift serve` expects: an input stream `IN` on
/// `in.>`, an output stream `OUT` capturing `PREFIX` and `PREFIX.>`, a rules bucket.
final class ServeFixture: @unchecked Sendable {
  let url: String
  let connection: NATSConnection
  let bucket: KeyValueBucket
  let directory: URL
  let prefix = "sift.routed"
  let stream = "IN"
  let output = "OUT"
  let consumer = "workers"
  private var workers: [ServeSupport.Child] = []

  /// `replicas` 3 for a cluster; `ackWaitSeconds` is how soon an unacknowledged message
  /// comes again (a killed worker's).
  init(url: String, replicas: Int = 1, ackWaitSeconds: Int64 = 2, maxMessageBytes: Int32 = -1) throws {
    self.url = url
    directory = ServeSupport.temporaryDirectory("fixture")
    var options = NATSConnection.Options(url: url)
    options.name = "sift serve test"
    connection = try NATSConnection(options)
    var input = StreamConfig(name: stream, subjects: ["in.>"])
    input.replicas = replicas
    input.maxMessageBytes = maxMessageBytes
    try connection.addStream(input)
    var out = StreamConfig(name: output, subjects: [prefix, prefix + ".>"])
    out.replicas = replicas
    try connection.addStream(out)
    bucket = try connection.createBucket("rules", replicas: replicas)
    var consumerConfig = ConsumerConfig(durable: consumer)
    consumerConfig.ackWaitNs = ackWaitSeconds * 1_000_000_000
    consumerConfig.replicas = Int64(replicas)
    try connection.addPullConsumer(stream: stream, consumerConfig)
  }

  deinit {
    for worker in workers { worker.kill9() }
    try? FileManager.default.removeItem(at: directory)
  }

  /// Starts a worker with the fixture's names and `extra` options.
  @discardableResult
  func startWorker(_ extra: [String] = [], consumer: String? = nil) throws -> ServeSupport.Child {
    let log = directory.appendingPathComponent("worker-\(workers.count).log")
    let worker = try ServeSupport.startWorker(
      ["--nats", url, "--rules-bucket", "rules", "--stream", stream, "--consumer", consumer ?? self.consumer] + extra,
      log: log)
    workers.append(worker)
    return worker
  }

  /// Puts rules (`{"id": …, …}` objects) in the bucket, the id as key; returns the last revision.
  @discardableResult
  func putRules(_ rules: [ServeFixture.Rule]) throws -> UInt64 {
    var revision: UInt64 = 0
    for rule in rules { revision = try bucket.put(rule.id, Array(rule.value.utf8)) }
    return revision
  }

  /// Waits until the consumer has delivered everything and every delivery is acknowledged.
  func waitUntilConsumed(seconds: Double = 180) throws {
    try ServeSupport.wait(seconds, "consumer \(consumer) to have nothing pending or unacknowledged") {
      let backlog = try connection.consumerBacklog(stream: stream, name: consumer)
      return backlog.pending == 0 && backlog.unacked == 0
    }
  }

  /// The stored outputs on `PREFIX` (not errors, not status), by stream sequence of the input;
  /// read again until `expected` of them are there (or two minutes passed). The stream also
  /// holds the workers' status records, so its count can reach `expected` while the last
  /// routed records are still on their way (seen once in a full run: 9,717 of 9,718).
  func routedRecords(expected: Int) throws -> [NATSMessage] {
    let deadline = Date().addingTimeInterval(120)
    while true {
      let routed = try ServeSupport.storedMessages(connection, stream: output, count: expected).filter {
        $0.subject == prefix
      }
      if routed.count >= expected || Date() > deadline { return routed }
      usleep(200_000)
    }
  }

  /// A rule: its id and its bucket value.
  struct Rule {
    var id: String
    var value: String
    /// The line of a `sift route --rules` file.
    var routeLine: String {
      "{\"id\": \"\(id)\", " + value.dropFirst()
    }
  }

  /// `count` rules: mostly the focus shape (`filterCriteria IN %@ AND priority >= N`),
  /// some `BEGINSWITH`, some OR; deterministic.
  static func rules(_ count: Int, accounts: Int = 500) -> [Rule] {
    var generator = SplitMix64(seed: 26)
    return (0..<count).map { i in
      let id = "r\(i)"
      switch i % 10 {
      case 8:
        return Rule(
          id: id,
          value:
            "{\"predicate\": \"sender BEGINSWITH %@ AND priority >= \(generator.next() % 5)\", \"args\": [\"s\(generator.next() % 50)\"]}"
        )
      case 9:
        return Rule(
          id: id,
          value:
            "{\"predicate\": \"filterCriteria == %@ OR urgent == YES\", \"args\": [\"acct-\(generator.next() % UInt64(accounts))\"]}"
        )
      default:
        let accountsOfRule = (0..<3).map { _ in "\"acct-\(generator.next() % UInt64(accounts))\"" }.joined(
          separator: ", ")
        return Rule(
          id: id,
          value:
            "{\"predicate\": \"filterCriteria IN %@ AND priority >= \(generator.next() % 6)\", \"args\": [[\(accountsOfRule)]]}"
        )
      }
    }
  }

  /// `count` notification lines; deterministic.
  static func notifications(_ count: Int, accounts: Int = 500) -> [String] {
    var generator = SplitMix64(seed: 2026)
    return (0..<count).map { i in
      let urgent = generator.next() % 200 == 0 ? "true" : "false"
      return "{\"n\": \(i), \"filterCriteria\": \"acct-\(generator.next() % UInt64(accounts))\", \"priority\": "
        + "\(generator.next() % 6), \"sender\": \"s\(generator.next() % 60)@example.com\", \"urgent\": \(urgent)}"
    }
  }

  /// `sift route` on the same rules and lines: the ids of each line that matches some, by line number.
  func routeAnswers(_ rules: [Rule], _ lines: [String]) throws -> [Int: Set<String>] {
    let rulesFile = directory.appendingPathComponent("rules.jsonl")
    let linesFile = directory.appendingPathComponent("lines.jsonl")
    try (rules.map(\.routeLine).joined(separator: "\n") + "\n").write(to: rulesFile, atomically: true, encoding: .utf8)
    try (lines.joined(separator: "\n") + "\n").write(to: linesFile, atomically: true, encoding: .utf8)
    let result = try SiftProcess.run(["route", "--rules", rulesFile.path, linesFile.path])
    #expect(result.exited(0), "sift route: \(result.stderr)")
    var answers: [Int: Set<String>] = [:]
    for line in result.lines {
      let record = (try JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
      let ids = record["ids"] as? [String] ?? []
      if !ids.isEmpty { answers[(record["line"] as? NSNumber)?.intValue ?? -1] = Set(ids) }
    }
    return answers
  }

  /// The routed records as ids by input sequence; records a failure for a sequence seen twice.
  static func answers(_ records: [NATSMessage]) -> [Int: Set<String>] {
    var answers: [Int: Set<String>] = [:]
    for record in records {
      let json = ServeSupport.json(record)
      let seq = (json["seq"] as? NSNumber)?.intValue ?? -1
      #expect(answers[seq] == nil, "sequence \(seq) routed twice: a duplicate the stream did not drop")
      #expect(record.header("Nats-Msg-Id") == "IN-\(seq)")
      answers[seq] = Set(json["ids"] as? [String] ?? [])
    }
    return answers
  }
}
