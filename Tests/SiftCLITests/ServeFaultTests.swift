import Foundation
import SiftNATS
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `sift serve` under faults: a worker killed with SIGKILL, a server restarted, a cluster
/// node lost, SIGTERM. Each checks that every notification is routed (nothing lost) and
/// that the output stream holds each record once (nothing duplicated after the stream's
/// duplicate detection), against `sift route`'s answers.
@Suite(.serialized, .enabled(if: ServeSupport.natsServer != nil, ServeSupport.skipReason))
struct ServeFaultTests {
  static let notifications = ServeSupport.full ? 100_000 : 10_000
  static let ruleCount = ServeSupport.full ? 10_000 : 1_000

  /// Publishes the lines, runs `fault` once a quarter of the expected records are stored,
  /// and checks the stored records against `sift route`.
  private func routeThrough(
    _ fixture: ServeFixture, workers: Int, fault: (ServeFixture, [ServeSupport.Child]) throws -> Void
  ) throws {
    let rules = ServeFixture.rules(Self.ruleCount)
    let lines = ServeFixture.notifications(Self.notifications)
    try fixture.putRules(rules)
    let expected = try fixture.routeAnswers(rules, lines)
    let started = try (0..<workers).map { _ in try fixture.startWorker() }
    let publisher = try NATSConnection(NATSConnection.Options(url: fixture.url))
    // Published from another thread, so the fault lands mid-stream.
    let done = DispatchSemaphore(value: 0)
    let failures = PublishFailures()
    Thread.detachNewThread {
      for (n, line) in lines.enumerated() {
        // A publish refused during the fault (no leader yet, server away) is retried: the
        // test is about the worker, and a publisher of its own would do the same. For up to
        // a minute: on a loaded machine the cluster has taken over 10 s to elect a new
        // stream leader after losing a node ("No responders available" meanwhile).
        let deadline = Date().addingTimeInterval(60)
        while true {
          do {
            // With an id, so that a retry of a publish the stream did store is dropped.
            try publisher.publishSync(
              OutgoingMessage(subject: "in.notify", data: Array(line.utf8), headers: [("Nats-Msg-Id", "line-\(n)")]))
            break
          } catch {
            if Date() > deadline {
              failures.note("\(error)")
              break
            }
            usleep(50_000)
          }
        }
      }
      done.signal()
    }
    ServeSupport.wait(120, "a quarter of the records") {
      ((try? fixture.connection.streamMessageCount(fixture.output)) ?? 0) >= UInt64(expected.count / 4)
    }
    try fault(fixture, started)
    done.wait()
    #expect(failures.messages.isEmpty, "publishes failed: \(failures.messages.prefix(3))")
    let records = try fixture.routedRecords(expected: expected.count)
    let answers = ServeFixture.answers(records)
    #expect(answers.count == expected.count, "lost \(Set(expected.keys).subtracting(answers.keys).count)")
    #expect(answers == expected)
    try fixture.waitUntilConsumed()
    // Nothing came after: the stream holds exactly one record per routed sequence.
    #expect(try fixture.routedRecords(expected: expected.count).count == expected.count)
  }

  /// SIGKILL of one of two workers mid-stream: its unacknowledged messages come again to
  /// the other after the ack wait, and the outputs it had already stored are dropped as
  /// duplicates.
  @Test func killNineOfAWorkerLosesAndDuplicatesNothing() throws {
    let server = try ServeSupport.Server("kill")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    try routeThrough(fixture, workers: 2) { _, workers in workers[0].kill9() }
  }

  /// The server (file store) stopped and started again on the same port mid-stream: the
  /// workers reconnect, and the stream, consumer and bucket are still there.
  @Test func serverRestartIsSurvived() throws {
    let server = try ServeSupport.Server("restart")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    try routeThrough(fixture, workers: 2) { _, workers in
      server.kill9()
      try server.start()
      for worker in workers {
        ServeSupport.wait(60, "the worker to reconnect") { worker.output.contains("reconnected to") }
      }
    }
  }

  /// A three-node cluster, everything with three replicas: one node killed mid-stream.
  @Test func lossOfOneClusterNodeIsSurvived() throws {
    let cluster = try ServeSupport.Cluster("nodes")
    defer { cluster.killAll() }
    try cluster.start()
    let fixture = try ServeFixture(url: cluster.url, replicas: 3)
    try routeThrough(fixture, workers: 2) { _, _ in
      // The first server in the URL list: the one every client connected to.
      cluster.servers[0].kill9()
    }
  }

  /// SIGTERM or SIGINT: the worker stops fetching, acknowledges its batch, exits 0; a
  /// worker started after it routes the rest, and nothing is lost or repeated.
  @Test(arguments: [SIGTERM, SIGINT])
  func aStopSignalDrainsAndExitsZero(_ signal: Int32) throws {
    let server = try ServeSupport.Server("drain")
    defer { server.kill9() }
    try server.start()
    let fixture = try ServeFixture(url: server.url)
    try routeThrough(fixture, workers: 1) { fixture, workers in
      workers[0].send(signal)
      #expect(workers[0].exitStatus(within: 30) == 0)
      #expect(workers[0].output.contains("sift serve: stopped:"))
      try fixture.startWorker()
    }
  }
}

/// Failures noted by the publishing thread.
final class PublishFailures: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [String] = []
  func note(_ message: String) { lock.withLock { list.append(message) } }
  var messages: [String] { lock.withLock { list } }
}
