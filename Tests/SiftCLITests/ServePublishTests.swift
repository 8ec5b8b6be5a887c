import Foundation
import SiftNATS
import Testing

/// The publishing side of `sift serve`'s connection: outputs whose answer never comes.
@Suite(.serialized, .enabled(if: ServeSupport.natsServer != nil, ServeSupport.skipReason))
struct ServePublishTests {
  /// A publish whose answer never comes (a plain subscriber, not a stream, takes its
  /// subject, as when the answer is lost with a cluster node): the worker forgets it
  /// without waiting, then asks for the input again. It used to wait for ever, since
  /// libnats takes a wait of 0 as no limit, and a worker stopped routing after a node loss.
  @Test(arguments: [false, true])
  func unansweredPublishesAreForgottenWithoutWaiting(_ throughWait: Bool) throws {
    let server = try ServeSupport.Server("unanswered")
    defer { server.kill9() }
    try server.start()
    let connection = try NATSConnection(NATSConnection.Options(url: server.url))
    let silent = try connection.subscribe("silent.out")
    defer { silent.unsubscribe() }
    try connection.publishAsync(
      OutgoingMessage(subject: "silent.out", data: Array("{}".utf8), headers: [("Nats-Msg-Id", "m-1")]))
    let done = DispatchSemaphore(value: 0)
    let pending = PublishFailures()
    Thread.detachNewThread {
      let ids = throughWait ? connection.waitForPublishes(timeoutMs: 0) : connection.forgetPublishes()
      for id in ids { pending.note(id) }
      done.signal()
    }
    // A bound on a hang, not a measure of speed: either call returns at once.
    #expect(done.wait(timeout: .now() + 60) == .success)
    #expect(pending.messages == ["m-1"])
    // Forgotten: nothing is pending any more.
    #expect(connection.forgetPublishes() == [])
  }
}
