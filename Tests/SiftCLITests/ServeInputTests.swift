import Foundation
import SiftNATS
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `sift serve` on bad input: messages that are not JSON or too large, rules that are not
/// rules, rule changes while streaming, usage errors.
@Suite(.serialized, .enabled(if: ServeSupport.natsServer != nil, ServeSupport.skipReason))
struct ServeInputTests {
  /// Invalid messages get `{"seq", "error"}` on PREFIX.errors with the message and offset
  /// `sift route` gives the same line, and the stream goes on.
  @Test func invalidMessagesAreReportedAsRouteReportsThem() throws {
    let server = try ServeSupport.Server("invalid")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    let rule = ServeFixture.Rule(id: "all", value: "{\"predicate\": \"TRUEPREDICATE\"}")
    try fixture.putRules([rule])
    let lines = ["{\"a\": 1}", "{\"a\": ", "not json", "   ", "[1, 2", "{\"a\": 1}}", "\"é\"", "{\"b\": 2}"]
    let route = try fixture.routeLines([rule], lines)
    try fixture.startWorker()
    try ServeSupport.publishLines(fixture.connection, subject: "in.notify", lines)
    try fixture.waitUntilConsumed()
    let stored = try ServeSupport.storedMessages(fixture.connection, stream: fixture.output, count: lines.count)
    for (n, routeRecord) in route.enumerated() {
      let seq = n + 1
      if let routeError = routeRecord["error"] as? [String: Any] {
        let record = stored.first {
          $0.subject == fixture.prefix + ".errors" && ServeSupport.json($0)["seq"] as? Int == seq
        }
        let error = record.map { ServeSupport.json($0)["error"] as? [String: Any] ?? [:] } ?? [:]
        let routeMessage = (routeError["message"] as? String ?? "").replacingOccurrences(of: "line ", with: "message ")
        #expect(error["message"] as? String == routeMessage, "seq \(seq)")
        #expect(error["offset"] as? Int == routeError["offset"] as? Int, "seq \(seq)")
        #expect(record?.header("Nats-Msg-Id") == "IN-\(seq).error")
      } else {
        let record = stored.first { $0.subject == fixture.prefix && ServeSupport.json($0)["seq"] as? Int == seq }
        #expect(record.map { ServeSupport.json($0)["ids"] as? [String] } == ["all"], "seq \(seq)")
      }
    }
    #expect(
      stored.filter { $0.subject == fixture.prefix + ".errors" }.count == route.filter { $0["error"] != nil }.count)
  }

  /// A message over sift route's line limit (16 MiB) is an error record, as the line is; an
  /// `--each` output over the server's max_payload (the input plus its Nats-Msg-Id header)
  /// is reported instead of retried for ever; the worker goes on. The server takes 16 bytes
  /// more than the limit, so both fit one configuration.
  @Test func oversizedMessagesAreErrors() throws {
    let limit = 16 << 20
    let maxPayload = limit + 16
    let server = try ServeSupport.Server("oversized", extraConfig: "max_payload: \(maxPayload)")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    try fixture.putRules([ServeFixture.Rule(id: "big", value: "{\"predicate\": \"n > 0\"}")])
    func payload(_ bytes: Int) -> String {
      let head = "{\"n\": 1, \"pad\": \""
      return head + String(repeating: "x", count: bytes - head.count - 2) + "\"}"
    }
    // Over the limit; at the limit, but its output with a header is over max_payload;
    // under it by enough for the header; small.
    let lines = [payload(limit + 1), payload(limit), payload(limit - 100), "{\"n\": 2}"]
    try fixture.startWorker(["--each"])
    try ServeSupport.publishLines(fixture.connection, subject: "in.notify", lines)
    try fixture.waitUntilConsumed()
    let stored = try ServeSupport.storedMessages(fixture.connection, stream: fixture.output, count: 4)
    let errors = stored.filter { $0.subject == fixture.prefix + ".errors" }.map { ServeSupport.json($0) }
    let bySeq = Dictionary(
      errors.map { (($0["seq"] as? Int) ?? -1, ($0["error"] as? [String: Any])?["message"] as? String ?? "") }
    ) { a, _ in a }
    #expect(bySeq[1] == "message is longer than the limit of 16777216 bytes")
    #expect(bySeq[2] == "an output is over the server's max_payload of \(maxPayload) bytes")
    #expect(bySeq.count == 2)
    let routed = stored.filter { $0.subject == fixture.prefix + ".big" }
    #expect(routed.map { $0.header("Nats-Msg-Id") ?? "" }.sorted() == ["IN-3-big", "IN-4-big"])
    #expect(stored.filter { $0.subject == fixture.prefix + ".rule-errors" }.isEmpty)
  }

  /// A bucket holding garbage: each bad value reported on PREFIX.rule-errors and stderr
  /// with its key and revision, the good rules loaded, the worker routing; garbage put
  /// later is reported too and replaces (drops) the key's earlier rule.
  @Test func aRulesBucketHoldingGarbage() throws {
    let server = try ServeSupport.Server("garbage")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    let bad: [(String, String, String)] = [
      ("notjson", "{\"predicate\": ", "not valid JSON"),
      ("array", "[1, 2]", "a rule is a JSON object with \"predicate\""),
      ("empty", "", "empty value (a rule is a JSON object)"),
      ("nopredicate", "{\"args\": []}", "the rule has no string \"predicate\""),
      ("badpredicate", "{\"predicate\": \"a ==\"}", "the predicate does not compile"),
      ("badargs", "{\"predicate\": \"a == %@\", \"args\": 3}", "\"args\" must be a JSON array"),
      ("badvariables", "{\"predicate\": \"a == $x\", \"variables\": [1]}", "\"variables\" must be a JSON object"),
      ("nevermatches", "{\"predicate\": \"$unbound == 1\"}", "the predicate can never match"),
      ("binary", "\u{01}\u{02}\u{FF}", "not valid JSON"),
    ]
    for (key, value, _) in bad { try fixture.bucket.put(key, Array(value.utf8)) }
    try fixture.putRules([
      ServeFixture.Rule(id: "good", value: "{\"predicate\": \"a == 1\"}"),
      ServeFixture.Rule(id: "bound", value: "{\"predicate\": \"a == $x\", \"variables\": {\"x\": 2}}"),
    ])
    let ruleErrors = try fixture.connection.subscribe(fixture.prefix + ".rule-errors")
    let worker = try fixture.startWorker()
    var reported: [String: String] = [:]
    try ServeSupport.wait(30, "a rule error per bad value") {
      while let message = try ruleErrors.next(timeoutMs: 10) {
        let json = ServeSupport.json(message)
        reported[json["id"] as? String ?? ""] = (json["error"] as? [String: Any])?["message"] as? String
        #expect(json["revision"] is NSNumber && json["worker"] is String)
      }
      return reported.count >= bad.count
    }
    for (key, _, message) in bad {
      #expect(reported[key]?.hasPrefix(message) == true, "\(key): \(reported[key] ?? "nothing")")
      #expect(worker.output.contains("sift serve: rule \(key) (revision "))
    }
    let status = try ServeSupport.ping(fixture.connection, prefix: fixture.prefix, workers: 1)
    #expect(status.first?["rules"] as? Int == 2)
    #expect(status.first?["ruleErrors"] as? Int == bad.count)
    // Garbage over a good rule: reported, and the good rule is gone.
    let revision = try fixture.bucket.put("good", Array("{\"predicate\": 7}".utf8))
    try ServeSupport.waitForRevision(fixture.connection, prefix: fixture.prefix, workers: 1, revision)
    try ServeSupport.publishLines(fixture.connection, subject: "in.notify", ["{\"a\": 1}", "{\"a\": 2}"])
    try fixture.waitUntilConsumed()
    let routed = try fixture.routedRecords(expected: 1)
    #expect(routed.map { ServeSupport.json($0)["ids"] as? [String] ?? [] } == [["bound"]])
    #expect(routed.map { ServeSupport.json($0)["seq"] as? Int } == [2])
    #expect(worker.process.isRunning)
  }

  /// Puts and deletes while streaming take effect in the bucket's order: a message
  /// published after the workers report a revision is decided by the rules of that
  /// revision, on both workers, for a run of changes to the same keys.
  @Test func rulePutsAndDeletesTakeEffectInOrder() throws {
    let server = try ServeSupport.Server("order")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    try fixture.startWorker()
    try fixture.startWorker()
    // Each step: a change, then a probe message decided after both workers have it.
    let steps: [(change: (String, String?), expect: [String])] = [
      (("r1", "{\"predicate\": \"k == 1\"}"), ["r1"]),
      (("r2", "{\"predicate\": \"k >= 1\"}"), ["r1", "r2"]),
      (("r1", "{\"predicate\": \"k == 2\"}"), ["r2"]),
      (("r2", nil), []),
      (("r1", "{\"predicate\": \"k == 1\"}"), ["r1"]),
      (("r1", nil), []),
    ]
    var expected: [Int: Set<String>] = [:]
    // The bucket's revision: its stream's sequence, one per change (this test alone writes).
    var revision: UInt64 = 0
    for step in steps {
      if let value = step.change.1 {
        revision = try fixture.bucket.put(step.change.0, Array(value.utf8))
      } else {
        try fixture.bucket.delete(step.change.0)
        revision += 1
      }
      try ServeSupport.waitForRevision(fixture.connection, prefix: fixture.prefix, workers: 2, revision)
      // Several probes, so both workers decide some.
      for _ in 0..<8 {
        let seq = try ServeSupport.publishLines(fixture.connection, subject: "in.notify", ["{\"k\": 1}"])[0]
        if !step.expect.isEmpty { expected[Int(seq)] = Set(step.expect) }
      }
      try fixture.waitUntilConsumed()
    }
    // A burst of 200 changes to two keys, then one probe decided after the last.
    var last: UInt64 = 0
    for i in 0..<200 {
      let key = "b\(i % 2)"
      last = try fixture.bucket.put(key, Array("{\"predicate\": \"k == \(i % 5)\"}".utf8))
    }
    try fixture.bucket.delete("b0")
    try ServeSupport.waitForRevision(fixture.connection, prefix: fixture.prefix, workers: 2, last + 1)
    for _ in 0..<8 {
      // b1's last value is k == 199 % 5 == 4.
      let seq = try ServeSupport.publishLines(fixture.connection, subject: "in.notify", ["{\"k\": 4}"])[0]
      expected[Int(seq)] = ["b1"]
    }
    try fixture.waitUntilConsumed()
    let answers = ServeFixture.answers(try fixture.routedRecords(expected: expected.count))
    #expect(answers == expected)
  }

  /// An output JetStream keeps refusing (here: over the output stream's max_msg_size) is
  /// delivered again with a growing delay, then after `--max-deliver` deliveries the
  /// message is terminated and reported on PREFIX.errors; the worker goes on.
  @Test func aMessageThatKeepsFailingIsTerminatedAfterMaxDeliver() throws {
    let server = try ServeSupport.Server("maxdeliver")
    defer { server.kill9() }
    try server.start()
    let connection = try NATSConnection(NATSConnection.Options(url: server.url))
    try connection.addStream(StreamConfig(name: "IN", subjects: ["in.>"]))
    var routed = StreamConfig(name: "OUT", subjects: ["sift.routed"])
    routed.maxMessageBytes = 64
    try connection.addStream(routed)
    try connection.addStream(StreamConfig(name: "ERR", subjects: ["sift.routed.errors"]))
    let bucket = try connection.createBucket("rules")
    for i in 0..<10 { try bucket.put("rule-with-a-long-id-\(i)", Array("{\"predicate\": \"k == 1\"}".utf8)) }
    try bucket.put("short", Array("{\"predicate\": \"k == 2\"}".utf8))
    let directory = ServeSupport.temporaryDirectory("maxdeliver")
    let worker = try ServeSupport.startWorker(
      ["--nats", server.url, "--rules-bucket", "rules", "--stream", "IN", "--consumer", "w", "--max-deliver", "3"],
      log: directory.appendingPathComponent("worker.log"))
    defer { worker.kill9() }
    // The first record is 10 long ids (over 64 bytes); the second is small.
    try ServeSupport.publishLines(connection, subject: "in.x", ["{\"k\": 1}", "{\"k\": 2}"])
    let errors = try ServeSupport.storedMessages(connection, stream: "ERR", count: 1)
    let record = errors.map { ServeSupport.json($0) }.first ?? [:]
    #expect(record["seq"] as? Int == 1)
    let message = (record["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(message.hasPrefix("given up after 3 deliveries: "), "\(message)")
    let stored = try ServeSupport.storedMessages(connection, stream: "OUT", count: 1)
    #expect(stored.map { ServeSupport.json($0)["ids"] as? [String] ?? [] } == [["short"]])
    try ServeSupport.wait(30, "nothing pending") {
      try connection.consumerBacklog(stream: "IN", name: "w") == (0, 0)
    }
    #expect(worker.output.contains("seq 1: given up after 3 deliveries"))
    #expect(worker.process.isRunning)
  }

  /// Usage errors exit 2 with a message, before any connection.
  @Test(arguments: [
    ([String](), "sift serve needs --nats"),
    (["--nats", "x", "--rules-bucket", "r", "--stream", "s"], "sift serve needs --consumer"),
    (["--shard", "2/2"], "--shard needs I/N with 0 <= I < N"),
    (["--batch", "0"], "--batch needs a whole number from 1 to 10000"),
    (["--max-deliver", "x"], "--max-deliver needs a whole number"),
    (["--stream", "a.b"], "is not a JetStream name"),
    (["--out-subject", "a.*"], "is not a subject without wildcards"),
    (["--bogus"], "unknown option --bogus"),
  ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    let result = try SiftProcess.run(["serve"] + arguments)
    #expect(result.exited(2))
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  /// No server, or no output stream: exit 1 with a clear message.
  @Test func cannotStartWithoutAServerOrAnOutputStream() throws {
    let port = ServeSupport.freePort()
    let none = try SiftProcess.run([
      "serve", "--nats", "nats://127.0.0.1:\(port)", "--rules-bucket", "r", "--stream", "s", "--consumer", "c",
    ])
    #expect(none.exited(1))
    #expect(none.stderr.contains("cannot connect to nats://127.0.0.1:\(port)"), "\(none.stderr)")
    let server = try ServeSupport.Server("nooutput")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    let other = try SiftProcess.run([
      "serve", "--nats", server.url, "--rules-bucket", "rules", "--stream", "IN", "--consumer", "c",
      "--out-subject", "elsewhere",
    ])
    #expect(other.exited(1))
    #expect(other.stderr.contains("no stream captures elsewhere"), "\(other.stderr)")
    _ = fixture
  }
}

extension ServeFixture {
  /// `sift route`'s record for each line (`{"line", "ids"}` or `{"line", "error"}`).
  func routeLines(_ rules: [Rule], _ lines: [String]) throws -> [[String: Any]] {
    let rulesFile = directory.appendingPathComponent("rules-lines.jsonl")
    let linesFile = directory.appendingPathComponent("lines-lines.jsonl")
    try (rules.map(\.routeLine).joined(separator: "\n") + "\n").write(to: rulesFile, atomically: true, encoding: .utf8)
    try (lines.joined(separator: "\n") + "\n").write(to: linesFile, atomically: true, encoding: .utf8)
    let result = try SiftProcess.run(["route", "--rules", rulesFile.path, linesFile.path])
    return result.lines.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:] }
  }
}
