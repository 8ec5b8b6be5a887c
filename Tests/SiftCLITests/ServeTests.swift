import Foundation
import SiftNATS
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `sift serve` against a real `nats-server` started here on loopback ports; skipped only
/// when `nats-server` is not installed. The large cases are scaled to run in a minute or
/// two; `SIFT_SERVE_FULL=1` runs the sizes (100,000 notifications, 10,000 rules).
@Suite(.serialized, .enabled(if: ServeSupport.natsServer != nil, ServeSupport.skipReason))
struct ServeTests {
  /// Two workers on one consumer route exactly what `sift route` routes, as sets of ids per
  /// stream sequence, each sequence once.
  @Test func twoWorkersRouteAsRouteDoes() throws {
    let (notifications, ruleCount) = ServeSupport.full ? (100_000, 10_000) : (20_000, 2_000)
    let server = try ServeSupport.Server("equal")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    let rules = ServeFixture.rules(ruleCount)
    let lines = ServeFixture.notifications(notifications)
    try fixture.putRules(rules)
    let expected = try fixture.routeAnswers(rules, lines)
    #expect(expected.count > notifications / 10, "the data should match often")
    try fixture.startWorker()
    try fixture.startWorker()
    let sequences = try ServeSupport.publishLines(fixture.connection, subject: "in.notify", lines)
    #expect(sequences == (1...UInt64(notifications)).map { $0 })
    try fixture.waitUntilConsumed()
    let records = try fixture.routedRecords(expected: expected.count)
    let answers = ServeFixture.answers(records)
    #expect(answers.count == expected.count)
    #expect(answers == expected)
    // Both workers took part.
    let status = try ServeSupport.ping(fixture.connection, prefix: fixture.prefix, workers: 2)
    #expect(status.count == 2)
    #expect(status.allSatisfy { (($0["routed"] as? NSNumber)?.intValue ?? 0) > 0 })
    #expect(status.allSatisfy { ($0["rules"] as? NSNumber)?.intValue == ruleCount })
  }

  /// `--each`: the message itself on `PREFIX.ID` once per match, with `STREAM-SEQ-ID`.
  @Test func eachPublishesTheMessagePerMatch() throws {
    let server = try ServeSupport.Server("each")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    let rules = ServeFixture.rules(200)
    let lines = ServeFixture.notifications(2_000)
    try fixture.putRules(rules)
    let expected = try fixture.routeAnswers(rules, lines)
    try fixture.startWorker(["--each", "--batch", "32"])
    try ServeSupport.publishLines(fixture.connection, subject: "in.notify", lines)
    try fixture.waitUntilConsumed()
    let total = expected.values.reduce(0) { $0 + $1.count }
    let stored = try ServeSupport.storedMessages(fixture.connection, stream: fixture.output, count: total)
      .filter { $0.subject.hasPrefix(fixture.prefix + ".r") }
    var seen: [Int: Set<String>] = [:]
    for message in stored {
      let id = String(message.subject.dropFirst(fixture.prefix.count + 1))
      let json = ServeSupport.json(message)
      let n = (json["n"] as? NSNumber)?.intValue ?? -1
      #expect(message.header("Nats-Msg-Id") == "IN-\(n + 1)-\(id)")
      #expect(String(decoding: message.bytes, as: UTF8.self) == lines[n])
      #expect(seen[n + 1, default: []].insert(id).inserted, "\(id) twice for line \(n + 1)")
    }
    #expect(stored.count == total)
    #expect(seen == expected)
  }

  /// `--shard I/N`: each of two shards (own consumer) holds the rules whose FNV-1a hash of
  /// the id is I mod 2; together they route what one would.
  @Test func shardsSplitTheRules() throws {
    let server = try ServeSupport.Server("shard")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    let rules = ServeFixture.rules(400)
    let lines = ServeFixture.notifications(3_000)
    try fixture.putRules(rules)
    let expected = try fixture.routeAnswers(rules, lines)
    try fixture.connection.addPullConsumer(stream: fixture.stream, ConsumerConfig(durable: "shard1"))
    try fixture.startWorker(["--shard", "0/2"])
    try fixture.startWorker(["--shard", "1/2"], consumer: "shard1")
    let status = try ServeSupport.ping(fixture.connection, prefix: fixture.prefix, workers: 2)
    let held = status.map { ($0["shard"] as? String ?? "", ($0["rules"] as? NSNumber)?.intValue ?? -1) }
    let inShard0 = rules.filter { fnv1a64($0.id) % 2 == 0 }.count
    #expect(Set(held.map { "\($0.0)=\($0.1)" }) == ["0/2=\(inShard0)", "1/2=\(rules.count - inShard0)"])
    try ServeSupport.publishLines(fixture.connection, subject: "in.notify", lines)
    try fixture.waitUntilConsumed()
    try ServeSupport.wait(60, "shard1 to finish") {
      try fixture.connection.consumerBacklog(stream: fixture.stream, name: "shard1") == (0, 0)
    }
    // Each shard writes its own record of a sequence, under its own Nats-Msg-Id.
    let stored = try ServeSupport.storedMessages(fixture.connection, stream: fixture.output)
      .filter { $0.subject == fixture.prefix }
    var union: [Int: Set<String>] = [:]
    var seen: Set<String> = []
    for record in stored {
      let json = ServeSupport.json(record)
      let seq = (json["seq"] as? NSNumber)?.intValue ?? -1
      let id = record.header("Nats-Msg-Id") ?? ""
      #expect(id == "IN-\(seq)@0/2" || id == "IN-\(seq)@1/2")
      #expect(seen.insert(id).inserted, "\(id) twice")
      union[seq, default: []].formUnion(json["ids"] as? [String] ?? [])
    }
    #expect(union == expected)
  }

  /// The documented hash: FNV-1a, 64 bits, over the key's bytes.
  @Test(arguments: [
    ("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8),
  ])
  func shardHashIsFNV1a(_ key: String, _ hash: UInt64) {
    #expect(fnv1a64(key) == hash)
  }

  private func fnv1a64(_ key: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
  }
}
