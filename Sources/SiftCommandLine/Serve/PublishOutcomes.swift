import SiftNATS

/// The answers JetStream gives to one batch's outputs, gathered from the library's
/// callback thread for the fetch loop, which waits for all of them before acknowledging
/// any input.
///
/// Outputs are known by their `Nats-Msg-Id` (unique within a batch: it names the stream
/// sequence, and for `--each` the rule). An answer for an id the batch does not expect
/// (a late one from an earlier batch, given up on) is dropped.
final class PublishOutcomes: @unchecked Sendable {
  private let lock = MonotonicCondition()
  /// Each expected output's message: its index in the batch.
  private var expected: [String: Int] = [:]
  /// The first failure of each message, by index.
  private var failures: [Int: NATSError] = [:]
  private var unanswered = 0

  /// Starts a new batch.
  func reset() {
    lock.locked {
      expected.removeAll(keepingCapacity: true)
      failures.removeAll(keepingCapacity: true)
      unanswered = 0
    }
  }

  /// Notes an output about to be published for message `index`.
  func expect(_ messageID: String, for index: Int) {
    lock.locked {
      expected[messageID] = index
      unanswered += 1
    }
  }

  /// Notes that the publish of `messageID` failed before it left (no answer will come).
  func failed(_ messageID: String, _ error: NATSError) {
    record(messageID, error)
  }

  /// The library's callback: one output answered.
  func answer(_ ack: NATSConnection.PublishAck) {
    record(ack.messageID, ack.error)
  }

  private func record(_ messageID: String, _ error: NATSError?) {
    lock.locked {
      guard let index = expected.removeValue(forKey: messageID) else { return }
      if let error, failures[index] == nil { failures[index] = error }
      unanswered -= 1
      if unanswered == 0 { lock.broadcast() }
    }
  }

  /// Waits until every output has an answer, at most `milliseconds`; then every output
  /// still unanswered counts as failed with `timeout`, and the failures are returned by
  /// message index.
  func finish(milliseconds: Int, timeout: NATSError) -> [Int: NATSError] {
    lock.wait(milliseconds: milliseconds, until: { unanswered == 0 }) {
      for (_, index) in expected where failures[index] == nil { failures[index] = timeout }
      expected.removeAll(keepingCapacity: true)
      unanswered = 0
      return failures
    }
  }
}
