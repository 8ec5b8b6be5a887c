import Sift
import SiftNATS

#if canImport(Glibc)
  import Glibc
#endif

/// `sift serve`: a worker that routes a JetStream stream through a rule set kept in a
/// JetStream key-value bucket (README, "Beyond one machine").
enum ServeCommand {
  static let help = """
    usage: sift serve --nats URL --rules-bucket BUCKET --stream STREAM --consumer NAME
                      [--out-subject PREFIX] [--each] [--batch N] [--max-deliver N] [--shard I/N]

    Routes the messages of a JetStream stream, as sift route routes lines, through the rules
    of a JetStream key-value bucket, and publishes what it decides to JetStream.

    Rules: key = rule id, value = {"predicate": "…", "args": […], "variables": {…}} (sift
    route's rule without the id; "args" and "variables" optional). The worker reads the
    whole bucket, then follows its changes; a value that is not a rule, or does not
    compile, or can never match, is reported on PREFIX.rule-errors as
      {"worker": W, "id": KEY, "revision": R, "error": {"message": "…"}}
    and on stderr, and skipped (the key's earlier rule is dropped too).
    Input: the durable pull consumer NAME on STREAM (created with explicit acks if absent;
    workers with one NAME share its messages), fetched --batch at a time. Each message is
    decided as sift route decides a line, and acknowledged only after JetStream has stored
    every output of it. Output, for a message that matches some rules:
      {"seq": SEQ, "ids": [ID, …]}   on PREFIX, header Nats-Msg-Id: STREAM-SEQ
    (STREAM-SEQ@I/N under --shard I/N, N > 1: each shard's record is its own)
    or with --each the message itself on PREFIX.ID once per match, Nats-Msg-Id:
    STREAM-SEQ-ID. A message that is not JSON, or over 16777216 bytes, gives
      {"seq": SEQ, "error": {"message": "…", "offset": N}}   on PREFIX.errors
    (Nats-Msg-Id: STREAM-SEQ.error), and is acknowledged. A stream must capture PREFIX and
    PREFIX.errors (PREFIX.> with --each); with the same ids, it drops the repeats that a
    redelivery makes.

      --nats URL          the server(s), comma-separated (nats://127.0.0.1:4222)
      --rules-bucket B    the key-value bucket of rules
      --stream S          the stream of messages to route
      --consumer NAME     the durable pull consumer to read (and create if absent)
      --out-subject P     the prefix of every subject written (default sift.routed)
      --each              publish each matching message on P.ID instead of one record
      --batch N           messages fetched at a time (default 256, at most 10000)
      --max-deliver N     deliveries of a message whose output JetStream keeps refusing
                          before it is given up: terminated and reported on P.errors
                          (default 5). A failure of the connection never counts.
      --shard I/N         keep only the rules whose id hashes to I modulo N (64-bit FNV-1a
                          of the key's bytes); N groups of workers, each with its own
                          consumer, hold N times the rules of one

    A status record {"worker", "rules", "rulesRevision", "routed", "errors", "lag", …} is
    published on PREFIX.status every 5 seconds, and sent in reply to any request on
    PREFIX.ping. The worker reconnects with back-off when the server goes away, and on
    SIGTERM or SIGINT stops fetching, finishes the batch in flight, and exits 0.
    Exit 1 when it cannot start (no server, stream, bucket or output stream) or the
    connection closes for good; 2 for bad usage.
    """

  static func run(_ arguments: [CommandLineArgument]) throws(UsageError) -> ExitCode {
    guard let options = try ServeOptions.parse(arguments) else {
      Console.out.writeLine(help)
      return .success
    }
    StopSignal.install()
    let log = ServeLog()
    let counters = ServeCounters()
    let outcomes = PublishOutcomes()
    // The worker is made after the connection, but the connection's callbacks need it:
    // they reach it through this box, empty until then.
    let worker = WorkerBox()
    var connectionOptions = NATSConnection.Options(url: options.nats!)
    connectionOptions.name = "sift serve \(options.consumer!)"
    connectionOptions.onPublishAck = { outcomes.answer($0) }
    connectionOptions.onEvent = { event in
      switch event {
      case .disconnected:
        counters.connected.store(false, ordering: .relaxed)
        // Closing at the end disconnects too; that is not news.
        if worker.value?.stopping.load(ordering: .relaxed) != true {
          log.report("disconnected from the server; reconnecting")
        }
      case .reconnected(let url):
        counters.connected.store(true, ordering: .relaxed)
        log.report("reconnected to \(url)")
        worker.value?.rewatch.store(true, ordering: .relaxed)
      case .closed:
        counters.connected.store(false, ordering: .relaxed)
      }
    }
    let connection: NATSConnection
    do throws(NATSError) {
      connection = try NATSConnection(connectionOptions)
    } catch {
      log.report("\(error)")
      return .failure
    }
    let serve = ServeWorker(
      options: options, connection: connection, counters: counters, outcomes: outcomes, log: log)
    worker.value = serve
    let stream = options.stream!
    let consumer = options.consumer!
    let prefix = options.outSubject
    let bucket: KeyValueBucket
    let subscription: PullSubscription
    let ping: Subscription
    do throws(NATSError) {
      guard try connection.streamMessageCount(stream) != nil else {
        log.report("there is no stream \(stream) to route")
        return .failure
      }
      for subject in options.each ? [prefix + ".errors"] : [prefix, prefix + ".errors"] {
        guard try connection.streamName(capturing: subject) != nil else {
          log.report(
            "no stream captures \(subject): the outputs must be stored to be acknowledged; create one whose "
              + "subjects include \(options.each ? prefix + ".>" : prefix + " and " + prefix + ".errors")")
          return .failure
        }
      }
      bucket = try connection.bucket(options.rulesBucket!)
      if try !connection.consumerExists(stream: stream, name: consumer) {
        // No server-side limit on deliveries: the worker itself gives up after
        // --max-deliver refusals, and never for an outage (see ServeWorker.settle).
        try connection.addPullConsumer(stream: stream, ConsumerConfig(durable: consumer))
      }
      subscription = try connection.pullSubscription(stream: stream, consumer: consumer)
      ping = try connection.subscribe(prefix + ".ping") { [weak serve, weak connection] request in
        guard let serve, let connection, let reply = request.reply else { return }
        try? connection.publish(reply, Array(serve.statusRecord().utf8))
      }
    } catch {
      log.report("\(error)")
      return .failure
    }
    let watcher = ServeThread.start { serve.watchRules(bucket) }
    // Nothing is fetched before the whole bucket is read: every message sees every rule.
    while !counters.rulesLoaded.load(ordering: .relaxed) && StopSignal.requested == nil {
      usleep(2000)
    }
    var code = ExitCode.success
    if StopSignal.requested == nil {
      log.report(
        "routing \(stream) through \(counters.rules.load(ordering: .relaxed)) rules of \(options.rulesBucket!)"
          + " (shard \(options.shard.description)) as \(serve.name)")
      code = serve.consume(subscription)
    }
    // Drain: the batch in flight is acknowledged (consume returns between batches); stop
    // the watcher and the ping replies, send what is buffered, close.
    serve.stopping.store(true, ordering: .relaxed)
    watcher.join()
    ping.unsubscribe()
    try? connection.publish(prefix + ".status", Array(serve.statusRecord().utf8))
    connection.close()
    if code == .success { log.report("stopped: \(counters.routed.load(ordering: .relaxed)) messages routed") }
    return code
  }

  /// The worker, for callbacks registered before it exists.
  private final class WorkerBox: @unchecked Sendable {
    var value: ServeWorker?
  }
}
