import CNATS
import Sift
import SiftNATS
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One `sift serve` worker: follows the rules bucket on one thread, and on the calling
/// thread fetches the consumer's messages in batches, decides each, publishes its outputs
/// and acknowledges it once JetStream has acknowledged all of them.
final class ServeWorker: @unchecked Sendable {
  let options: ServeOptions
  let connection: NATSConnection
  let counters: ServeCounters
  let log: ServeLog
  let outcomes: PublishOutcomes
  let rules: ServeRules
  /// `host:pid`, in every record the worker writes.
  let name: String
  let stream: String
  let prefix: String
  /// Raised when the watcher should start a fresh watch (after a reconnection).
  let rewatch = Atomic<Bool>(false)
  /// Raised when the worker is stopping.
  let stopping = Atomic<Bool>(false)
  /// Decides messages on the fetch loop's thread (it owns a parser).
  private let decider: RouteDecider<String>

  init(
    options: ServeOptions, connection: NATSConnection, counters: ServeCounters, outcomes: PublishOutcomes, log: ServeLog
  ) {
    self.options = options
    self.connection = connection
    self.counters = counters
    self.outcomes = outcomes
    self.log = log
    stream = options.stream!
    prefix = options.outSubject
    var host = [CChar](repeating: 0, count: 256)
    gethostname(&host, host.count - 1)
    let hostName = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let name = "\(hostName):\(getpid())"
    self.name = name
    let prefix = options.outSubject
    rules = ServeRules(
      shard: options.shard, each: options.each, counters: counters,
      refuse: { [connection, log] key, revision, message in
        log.report("rule \(key) (revision \(revision)): \(message)")
        var record = "{\"worker\": "
        JSONWriter.writeString(name, to: &record)
        record += ", \"id\": "
        JSONWriter.writeString(key, to: &record)
        record += ", \"revision\": \(revision), \"error\": {\"message\": "
        JSONWriter.writeString(message, to: &record)
        record += "}}"
        try? connection.publish(prefix + ".rule-errors", Array(record.utf8))
      },
      warn: { [log] key, revision, message in log.report("rule \(key) (revision \(revision)): \(message)") })
    decider = RouteDecider(rules.set, noun: "message")
  }

  // MARK: Status

  /// The status record: what the worker holds and has done.
  func statusRecord() -> String {
    var record = "{\"worker\": "
    JSONWriter.writeString(name, to: &record)
    record += ", \"stream\": "
    JSONWriter.writeString(stream, to: &record)
    record += ", \"consumer\": "
    JSONWriter.writeString(options.consumer!, to: &record)
    record += ", \"shard\": \"\(options.shard.description)\""
    record += ", \"rulesLoaded\": \(counters.rulesLoaded.load(ordering: .relaxed))"
    record += ", \"rules\": \(counters.rules.load(ordering: .relaxed))"
    record += ", \"rulesRevision\": \(counters.rulesRevision.load(ordering: .relaxed))"
    record += ", \"ruleErrors\": \(counters.ruleErrors.load(ordering: .relaxed))"
    record += ", \"routed\": \(counters.routed.load(ordering: .relaxed))"
    record += ", \"outputs\": \(counters.outputs.load(ordering: .relaxed))"
    record += ", \"errors\": \(counters.errors.load(ordering: .relaxed))"
    record += ", \"retries\": \(counters.retries.load(ordering: .relaxed))"
    record += ", \"lag\": \(counters.lag.load(ordering: .relaxed))"
    record += ", \"connected\": \(connection.isConnected)}"
    return record
  }

  // MARK: Rules

  /// The watcher thread: reads the whole bucket, then follows its change feed until the
  /// worker stops. A watch that fails, or a reconnection, starts a fresh watch whose first
  /// read is reconciled with what the worker holds, so no change is missed or applied twice.
  func watchRules(_ bucket: KeyValueBucket) {
    var failures = 0
    while !stopping.load(ordering: .relaxed) {
      let watcher: KeyValueBucket.Watcher
      do throws(NATSError) {
        watcher = try bucket.watchAll()
      } catch {
        failures += 1
        if failures == 1 || failures % 20 == 0 {
          log.report("cannot watch bucket \(bucket.name) (will retry): \(error)")
        }
        pause(milliseconds: NATSConnection.reconnectDelay(attempt: failures))
        continue
      }
      rewatch.store(false, ordering: .relaxed)
      var snapshot: [String: KeyValueBucket.Entry] = [:]
      var latest: UInt64 = 0
      var initial = true
      watching: while !stopping.load(ordering: .relaxed) {
        do throws(NATSError) {
          switch try watcher.next(timeoutMs: 100) {
          case .entry(let entry):
            if initial {
              snapshot[entry.key] = entry
              latest = max(latest, entry.revision)
            } else {
              rules.apply(entry)
            }
          case .upToDate:
            rules.reconcile(snapshot, revision: latest)
            snapshot = [:]
            // The whole bucket is loaded, and from here on mostly read (see `HugePages`).
            HugePages.adviseHeap()
            initial = false
            failures = 0
            counters.rulesLoaded.store(true, ordering: .relaxed)
          case .timedOut:
            if rewatch.load(ordering: .relaxed) { break watching }
          }
        } catch {
          guard !stopping.load(ordering: .relaxed) else { break watching }
          failures += 1
          if failures == 1 || failures % 20 == 0 {
            log.report("watch of bucket \(bucket.name) failed (will watch again): \(error)")
          }
          pause(milliseconds: NATSConnection.reconnectDelay(attempt: failures))
          break watching
        }
      }
      watcher.stop()
    }
  }

  /// Waits `milliseconds`, or less when the worker stops.
  private func pause(milliseconds: Int64) {
    let end = monotonicMilliseconds() + milliseconds
    while !stopping.load(ordering: .relaxed) && StopSignal.requested == nil {
      let left = end - monotonicMilliseconds()
      guard left > 0 else { return }
      usleep(UInt32(min(left, 50) * 1000))
    }
  }

  // MARK: Messages

  /// One fetched message and what became of it.
  private struct InFlight {
    let message: NATSMessage
    let sequence: UInt64
    let delivered: UInt64
    /// How many outputs were published for it.
    var outputs = 0
    /// Its output is an error record (not JSON): counted as an error, not as routed.
    var isError = false
  }

  /// The fetch loop, until a stop signal; returns the exit status.
  func consume(_ subscription: PullSubscription) -> ExitCode {
    var failures = 0
    var lastStatus = monotonicMilliseconds()
    while StopSignal.requested == nil {
      let now = monotonicMilliseconds()
      if now - lastStatus >= 5000 {
        lastStatus = now
        try? connection.publish(prefix + ".status", Array(statusRecord().utf8))
      }
      let messages: [NATSMessage]
      do throws(NATSError) {
        messages = try subscription.fetch(batch: options.batch, timeoutMs: 500)
      } catch {
        if error.status == NATS_CONNECTION_CLOSED {
          log.report("the connection is closed: \(error)")
          return .failure
        }
        failures += 1
        if failures == 1 || failures % 20 == 0 { log.report("fetch failed (will retry): \(error)") }
        pause(milliseconds: NATSConnection.reconnectDelay(attempt: failures))
        continue
      }
      failures = 0
      if !messages.isEmpty { process(messages) }
    }
    return .success
  }

  /// Decides a batch, publishes its outputs, waits for JetStream's answers, then
  /// acknowledges each message whose outputs were all stored (or asks for it again).
  private func process(_ messages: [NATSMessage]) {
    outcomes.reset()
    var batch: [InFlight] = []
    batch.reserveCapacity(messages.count)
    for message in messages {
      let meta: NATSMessage.Metadata
      do throws(NATSError) {
        meta = try message.metadata()
      } catch {
        // Not a consumer's message: nothing to route, nothing to acknowledge.
        log.report("a fetched message has no JetStream metadata: \(error)")
        continue
      }
      counters.lag.store(meta.pending, ordering: .relaxed)
      var item = InFlight(message: message, sequence: meta.streamSequence, delivered: meta.delivered)
      decide(&item, index: batch.count)
      batch.append(item)
    }
    let timeout = NATSError(NATS_TIMEOUT, "no answer from JetStream for an output")
    let failures = outcomes.finish(milliseconds: 10_000, timeout: timeout)
    if !failures.isEmpty {
      // Forget what the library still waits for: those messages are asked for again below.
      // Without waiting: an answer lost with a server never comes.
      _ = connection.forgetPublishes()
    }
    for (index, item) in batch.enumerated() {
      guard let failure = failures[index] else {
        acknowledge(item)
        continue
      }
      settle(item, failure)
    }
  }

  /// Decides one message and publishes its outputs.
  private func decide(_ item: inout InFlight, index: Int) {
    let data = item.message.data
    let seq = item.sequence
    if data.count > ServeOptions.maxMessageBytes {
      reportError(
        &item, index: index, message: "message is longer than the limit of \(ServeOptions.maxMessageBytes) bytes",
        offset: nil)
      return
    }
    // Copied into a padded buffer (a message's bytes end where its memory does) and
    // decided as `sift route` decides a line.
    switch decider.decideCopying(data) {
    case .error(let message, let offset):
      reportError(&item, index: index, message: message, offset: offset)
    case .matched(let ids):
      guard !ids.isEmpty else { return }
      if options.each {
        let payload = Array(data)
        for id in ids {
          publish(
            OutgoingMessage(
              subject: prefix + "." + id, data: payload, headers: [("Nats-Msg-Id", "\(stream)-\(seq)-\(id)")]),
            for: &item, index: index)
        }
      } else {
        // Built as bytes: a record names tens of ids, and String appends were a tenth of
        // a worker's time.
        var record: [UInt8] = []
        record.reserveCapacity(24 + ids.count * 12)
        record.append(contentsOf: "{\"seq\": \(seq), \"ids\": [".utf8)
        for (n, id) in ids.enumerated() {
          if n > 0 { record.append(contentsOf: ", ".utf8) }
          JSONWriter.writeString(id, to: &record)
        }
        record.append(contentsOf: "]}".utf8)
        publish(
          OutgoingMessage(subject: prefix, data: record, headers: [("Nats-Msg-Id", recordID(seq))]),
          for: &item, index: index)
      }
    }
  }

  /// The `Nats-Msg-Id` of a message's record: `STREAM-SEQ`, and under `--shard I/N` with
  /// N > 1 `STREAM-SEQ@I/N`, since each shard writes its own record of every message and
  /// one id for all of them would make the output stream keep only the first. (`@` is in
  /// no bucket key, so no `--each` id is ever the same.)
  private func recordID(_ seq: UInt64) -> String {
    options.shard.count == 1 ? "\(stream)-\(seq)" : "\(stream)-\(seq)@\(options.shard.description)"
  }

  /// The record of a message that cannot be routed.
  private func errorRecord(seq: UInt64, message: String, offset: Int?) -> OutgoingMessage {
    var record = "{\"seq\": \(seq), \"error\": {\"message\": "
    JSONWriter.writeString(message, to: &record)
    if let offset { record += ", \"offset\": \(offset)" }
    record += "}}"
    // Its own id: a routed record of the same message (stored before a give-up) must not
    // make the stream drop it.
    return OutgoingMessage(
      subject: prefix + ".errors", data: Array(record.utf8), headers: [("Nats-Msg-Id", "\(stream)-\(seq).error")])
  }

  private func reportError(_ item: inout InFlight, index: Int, message: String, offset: Int?) {
    log.report("\(stream) seq \(item.sequence): \(message)" + (offset.map { " (at byte \($0))" } ?? ""))
    item.isError = true
    publish(errorRecord(seq: item.sequence, message: message, offset: offset), for: &item, index: index)
  }

  private func publish(_ output: OutgoingMessage, for item: inout InFlight, index: Int) {
    let id = output.headers[0].1
    item.outputs += 1
    outcomes.expect(id, for: index)
    do throws(NATSError) {
      try connection.publishAsync(output)
    } catch {
      outcomes.failed(id, error)
    }
  }

  /// Every output of `item` is stored: acknowledge it.
  private func acknowledge(_ item: InFlight) {
    do throws(NATSError) {
      try item.message.ack()
    } catch {
      // Redelivered later; its outputs will be dropped as duplicates then.
      log.report("ack of \(stream) seq \(item.sequence) failed (it will come again): \(error)")
      return
    }
    if item.isError {
      counters.errors.add(1, ordering: .relaxed)
    } else {
      counters.routed.add(1, ordering: .relaxed)
    }
    counters.outputs.add(item.outputs, ordering: .relaxed)
  }

  /// An output of `item` was not stored: decide between another delivery and giving up.
  private func settle(_ item: InFlight, _ failure: NATSError) {
    if failure.status == NATS_MAX_PAYLOAD {
      // The output can never be published: say so instead, once, and stop there.
      let message = "an output is over the server's max_payload of \(connection.maxPayload) bytes"
      log.report("\(stream) seq \(item.sequence): \(message)")
      giveUp(item, message: message, term: false)
      return
    }
    if !failure.isTransient && Int(item.delivered) >= options.maxDeliver {
      let message = "given up after \(item.delivered) deliveries: \(failure)"
      log.report("\(stream) seq \(item.sequence): \(message)")
      giveUp(item, message: message, term: true)
      return
    }
    counters.retries.add(1, ordering: .relaxed)
    // Another delivery after a pause that grows with the deliveries so far. A failure of
    // the connection or of the server's availability never counts toward --max-deliver:
    // the message is not at fault, and would otherwise be lost to an outage.
    let delay = min(Int64(100) << Int64(min(item.delivered, 6)), 5000)
    try? item.message.nak(delayMs: delay)
  }

  /// Publishes the error record of `item` and, once it is stored, ends the message.
  private func giveUp(_ item: InFlight, message: String, term: Bool) {
    do throws(NATSError) {
      try connection.publishSync(errorRecord(seq: item.sequence, message: message, offset: nil))
    } catch {
      log.report("the error record of \(stream) seq \(item.sequence) was not stored (it will come again): \(error)")
      try? item.message.nak(delayMs: 1000)
      return
    }
    counters.errors.add(1, ordering: .relaxed)
    if term { try? item.message.term() } else { try? item.message.ack() }
  }
}
