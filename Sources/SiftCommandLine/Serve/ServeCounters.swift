import Synchronization

/// What a worker has done, read by its status records from other threads.
final class ServeCounters: Sendable {
  /// Messages decided and acknowledged (with or without matches).
  let routed = Atomic<Int>(0)
  /// Messages reported on `PREFIX.errors` (not JSON, or given up after `--max-deliver`).
  let errors = Atomic<Int>(0)
  /// Outputs published and acknowledged by JetStream.
  let outputs = Atomic<Int>(0)
  /// Redeliveries asked for (an output that failed).
  let retries = Atomic<Int>(0)
  /// Rules held now.
  let rules = Atomic<Int>(0)
  /// Rule values refused (did not compile, not a rule).
  let ruleErrors = Atomic<Int>(0)
  /// The bucket revision of the last change applied.
  let rulesRevision = Atomic<UInt64>(0)
  /// Messages the consumer had left after the last one fetched.
  let lag = Atomic<UInt64>(0)
  /// Whether the connection is up.
  let connected = Atomic<Bool>(true)
  /// Whether the whole bucket has been read once (the worker consumes only after that).
  let rulesLoaded = Atomic<Bool>(false)
}
