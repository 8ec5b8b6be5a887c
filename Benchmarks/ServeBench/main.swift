import SiftNATS
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

// The measuring half of Benchmarks/serve.sh (which starts the server and the workers):
//
//   ServeBench load URL SUBJECT FILE                  publish every line, wait for every ack
//   ServeBench rate URL STREAM CONSUMER COUNT         notifications/s the consumer's readers
//                                                     settle, between 10% and 90% of COUNT
//   ServeBench ack-only URL STREAM CONSUMER           a plain consumer: fetch 256, ack each
//   ServeBench latency URL SUBJECT FILE RATE OUT      publish at RATE/s; p50/p99 publish ->
//                                                     record on OUT (core subscription)
//   ServeBench rule-latency URL BUCKET PREFIX WORKERS put -> every worker reports the revision

func now() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func lines(_ path: String) -> [[UInt8]] {
  guard let file = fopen(path, "r") else { fatalError("cannot read \(path)") }
  defer { fclose(file) }
  var result: [[UInt8]] = []
  var buffer: UnsafeMutablePointer<CChar>?
  var capacity = 0
  while true {
    let n = getline(&buffer, &capacity, file)
    if n < 0 { break }
    var count = n
    if count > 0 && buffer![count - 1] == 10 { count -= 1 }
    result.append(Array(UnsafeRawBufferPointer(start: buffer!, count: count)))
  }
  free(buffer)
  return result
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func ms(_ seconds: Double) -> String {
  let v = seconds * 1000
  return String(Int(v)) + "." + String(Int((v - Double(Int(v))) * 100) + 100).dropFirst()
}

let args = CommandLine.arguments
guard args.count >= 3 else { fatalError("see the comment at the top of main.swift") }
let url = args[2]

do throws(NATSError) {
  switch args[1] {
  case "load":
    let connection = try NATSConnection(NATSConnection.Options(url: url))
    for (n, line) in lines(args[4]).enumerated() {
      try connection.publishAsync(OutgoingMessage(subject: args[3], data: line, headers: [("Nats-Msg-Id", "l\(n)")]))
    }
    let left = connection.waitForPublishes(timeoutMs: 120_000)
    if !left.isEmpty { fatalError("\(left.count) publishes unanswered") }
  case "rate":
    let connection = try NATSConnection(NATSConnection.Options(url: url))
    // The readers may not have made it yet.
    if try !connection.consumerExists(stream: args[3], name: args[4]) {
      try connection.addPullConsumer(stream: args[3], ConsumerConfig(durable: args[4]))
    }
    let total = Double(args[5])!
    var start: Double?
    while true {
      let backlog = try connection.consumerBacklog(stream: args[3], name: args[4])
      let done = total - Double(backlog.pending) - Double(backlog.unacked)
      let t = now()
      if start == nil && done >= 0.1 * total { start = t }
      if let s = start, done >= 0.9 * total {
        print(Int(0.8 * total / (t - s)))
        break
      }
      usleep(2000)
    }
  case "ack-only":
    let connection = try NATSConnection(NATSConnection.Options(url: url))
    if try !connection.consumerExists(stream: args[3], name: args[4]) {
      try connection.addPullConsumer(stream: args[3], ConsumerConfig(durable: args[4]))
    }
    let subscription = try connection.pullSubscription(stream: args[3], consumer: args[4])
    var idle = 0
    while idle < 20 {
      let batch = try subscription.fetch(batch: 256, timeoutMs: 100)
      idle = batch.isEmpty ? idle + 1 : 0
      for message in batch { try message.ack() }
    }
  case "latency":
    let connection = try NATSConnection(NATSConnection.Options(url: url))
    let input = lines(args[4])
    let rate = Double(args[5])!
    let stream = "IN"
    let base = try connection.streamMessageCount(stream) ?? 0
    // Send times by index, written before each publish and read once its record comes
    // back (after a round trip through the server, which orders the two).
    final class Times: @unchecked Sendable {
      let slots: UnsafeMutablePointer<Double>
      init(_ count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: 0, count: count)
      }
      subscript(i: Int) -> Double {
        get { slots[i] }
        set { slots[i] = newValue }
      }
    }
    let sent = Times(input.count + 1)
    let samples = Mutex<[Double]>([])
    let subscription = try connection.subscribe(args[6]) { message in
      let t = now()
      // {"seq": N, …}
      var seq = 0
      for byte in message.data.dropFirst(8) {
        guard byte >= 48 && byte <= 57 else { break }
        seq = seq * 10 + Int(byte - 48)
      }
      let index = seq - Int(base)
      if index >= 1 && index <= input.count && sent[index] > 0 {
        samples.withLock { $0.append(t - sent[index]) }
      }
    }
    let start = now()
    for (n, line) in input.enumerated() {
      let due = start + Double(n) / rate
      while now() < due { usleep(50) }
      sent[n + 1] = now()
      try connection.publishAsync(
        OutgoingMessage(subject: "in.bench", data: line, headers: [("Nats-Msg-Id", "t\(start)-\(n)")]))
    }
    _ = connection.waitForPublishes(timeoutMs: 60_000)
    let published = now() - start
    usleep(2_000_000)
    subscription.unsubscribe()
    let sorted = samples.withLock { $0 }.sorted()
    print(
      "published \(input.count) at \(Int(Double(input.count) / published))/s; \(sorted.count) records; "
        + "p50 \(ms(percentile(sorted, 0.5))) ms, p99 \(ms(percentile(sorted, 0.99))) ms, max \(ms(sorted.last ?? .nan)) ms"
    )
  case "rule-latency":
    let connection = try NATSConnection(NATSConnection.Options(url: url))
    let bucket = try connection.bucket(args[3])
    let prefix = args[4]
    let workers = Int(args[5])!
    var times: [Double] = []
    for i in 0..<20 {
      let t0 = now()
      let revision = try bucket.put("probe", Array("{\"predicate\": \"probe == \(i)\"}".utf8))
      while true {
        let inbox = connection.newInbox()
        let replies = try connection.subscribe(inbox)
        try connection.publish(prefix + ".ping", [], reply: inbox)
        var ready = 0
        var answered = 0
        while answered < workers + 1, let reply = try replies.next(timeoutMs: 200) {
          let text = String(decoding: reply.data, as: UTF8.self)
          guard text.contains("\"worker\"") else { continue }
          answered += 1
          if let r = text.split(separator: "\"rulesRevision\": ").dropFirst().first?.prefix(while: \.isNumber),
            UInt64(r)! >= revision
          {
            ready += 1
          }
          if answered == workers { break }
        }
        if ready == workers { break }
      }
      times.append(now() - t0)
    }
    try bucket.delete("probe")
    let sorted = times.sorted()
    print(
      "rule put -> in force on \(workers) workers: p50 \(ms(percentile(sorted, 0.5))) ms, max \(ms(sorted.last!)) ms (20 puts, ping round trip included)"
    )
  default:
    fatalError("unknown mode \(args[1])")
  }
} catch {
  fatalError("\(error)")
}
