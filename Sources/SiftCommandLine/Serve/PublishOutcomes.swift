import SiftNATS

#if canImport(Glibc)
  import Glibc
#endif

/// The answers JetStream gives to one batch's outputs, gathered from the library's
/// callback thread for the fetch loop, which waits for all of them before acknowledging
/// any input.
///
/// Outputs are known by their `Nats-Msg-Id` (unique within a batch: it names the stream
/// sequence, and for `--each` the rule). An answer for an id the batch does not expect
/// (a late one from an earlier batch, given up on) is dropped.
final class PublishOutcomes: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  /// Each expected output's message: its index in the batch.
  private var expected: [String: Int] = [:]
  /// The first failure of each message, by index.
  private var failures: [Int: NATSError] = [:]
  private var unanswered = 0

  init() {
    pthread_mutex_init(&mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(&condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(&condition)
    pthread_mutex_destroy(&mutex)
  }

  private func locked<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return body()
  }

  /// Starts a new batch.
  func reset() {
    locked {
      expected.removeAll(keepingCapacity: true)
      failures.removeAll(keepingCapacity: true)
      unanswered = 0
    }
  }

  /// Notes an output about to be published for message `index`.
  func expect(_ messageID: String, for index: Int) {
    locked {
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
    locked {
      guard let index = expected.removeValue(forKey: messageID) else { return }
      if let error, failures[index] == nil { failures[index] = error }
      unanswered -= 1
      if unanswered == 0 { pthread_cond_broadcast(&condition) }
    }
  }

  /// Waits until every output has an answer, at most `milliseconds`; then every output
  /// still unanswered counts as failed with `timeout`, and the failures are returned by
  /// message index.
  func finish(milliseconds: Int, timeout: NATSError) -> [Int: NATSError] {
    var deadline = timespec()
    clock_gettime(CLOCK_MONOTONIC, &deadline)
    let nanoseconds = Int(deadline.tv_nsec) + (milliseconds % 1000) * 1_000_000
    deadline.tv_sec += milliseconds / 1000 + nanoseconds / 1_000_000_000
    deadline.tv_nsec = nanoseconds % 1_000_000_000
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    while unanswered > 0 {
      if pthread_cond_timedwait(&condition, &mutex, &deadline) != 0 { break }
    }
    for (_, index) in expected where failures[index] == nil { failures[index] = timeout }
    expected.removeAll(keepingCapacity: true)
    unanswered = 0
    return failures
  }
}
