import SiftNATS

#if canImport(Glibc)
  import Glibc
#endif

// `sift-nats`: the few JetStream operations the README's walk-through and the serve
// benchmark need (Debian ships nats-server but no NATS command-line client):
//
//   sift-nats [--nats URL] stream add NAME SUBJECT… [--replicas N] [--memory]
//   sift-nats [--nats URL] stream count NAME
//   sift-nats [--nats URL] kv add BUCKET [--replicas N]
//   sift-nats [--nats URL] kv put BUCKET KEY VALUE
//   sift-nats [--nats URL] kv del BUCKET KEY
//   sift-nats [--nats URL] kv load BUCKET         (KEY<TAB>VALUE lines of standard input)
//   sift-nats [--nats URL] pub SUBJECT            (each line of standard input, to JetStream)
//   sift-nats [--nats URL] sub SUBJECT [COUNT]    (print payloads of core NATS messages)
//   sift-nats [--nats URL] req SUBJECT [REPLIES]  (print the replies to an empty request)

let usage = """
  usage: sift-nats [--nats URL] stream add NAME SUBJECT… [--replicas N] [--memory]
         sift-nats [--nats URL] stream count NAME
         sift-nats [--nats URL] kv add BUCKET [--replicas N]
         sift-nats [--nats URL] kv put BUCKET KEY VALUE
         sift-nats [--nats URL] kv del BUCKET KEY
         sift-nats [--nats URL] kv load BUCKET        KEY<TAB>VALUE lines of stdin, each put
         sift-nats [--nats URL] pub SUBJECT           each line of stdin, stored in JetStream
         sift-nats [--nats URL] sub SUBJECT [COUNT]   payloads of messages on SUBJECT
         sift-nats [--nats URL] req SUBJECT [REPLIES] replies to an empty request (1 s)
  """

func fail(_ message: String) -> Never {
  let line = Array("sift-nats: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(message == usage ? 2 : 1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var url = "nats://127.0.0.1:4222"
if arguments.first == "--nats" {
  guard arguments.count >= 2 else { fail(usage) }
  url = arguments[1]
  arguments.removeFirst(2)
}
/// Takes `--name VALUE` out of the arguments.
func option(_ name: String, from arguments: inout [String]) -> String? {
  guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
  let value = arguments[i + 1]
  arguments.removeSubrange(i...(i + 1))
  return value
}
let replicas = option("--replicas", from: &arguments).flatMap { Int($0) } ?? 1
let memory = arguments.contains("--memory")
arguments.removeAll { $0 == "--memory" }

do throws(NATSError) {
  let connection = try NATSConnection(NATSConnection.Options(url: url))
  switch (arguments.first, arguments.dropFirst().first) {
  case ("stream", "add") where arguments.count >= 4:
    var config = StreamConfig(name: arguments[2], subjects: Array(arguments[3...]))
    config.replicas = replicas
    config.fileStorage = !memory
    try connection.addStream(config)
  case ("stream", "count") where arguments.count == 3:
    guard let count = try connection.streamMessageCount(arguments[2]) else { fail("no stream \(arguments[2])") }
    print(count)
  case ("kv", "add") where arguments.count == 3:
    _ = try connection.createBucket(arguments[2], replicas: replicas, fileStorage: !memory)
  case ("kv", "put") where arguments.count == 5:
    print(try connection.bucket(arguments[2]).put(arguments[3], Array(arguments[4].utf8)))
  case ("kv", "del") where arguments.count == 4:
    try connection.bucket(arguments[2]).delete(arguments[3])
  case ("kv", "load") where arguments.count == 3:
    let bucket = try connection.bucket(arguments[2])
    while let line = readLine(strippingNewline: true) {
      guard let tab = line.firstIndex(of: "\t") else { fail("a line without a tab: \(line.prefix(80))") }
      try bucket.put(String(line[..<tab]), Array(line[line.index(after: tab)...].utf8))
    }
  case ("pub", _) where arguments.count == 2:
    while let line = readLine(strippingNewline: true) {
      try connection.publishSync(OutgoingMessage(subject: arguments[1], data: Array(line.utf8)))
    }
  case ("sub", _) where arguments.count == 2 || arguments.count == 3:
    let limit = arguments.count == 3 ? Int(arguments[2]) ?? Int.max : Int.max
    let subscription = try connection.subscribe(arguments[1])
    var seen = 0
    while seen < limit {
      guard let message = try subscription.next(timeoutMs: 60_000) else { continue }
      // Written at once (not buffered): a reader sees each message as it comes.
      let line = Array("\(message.subject) \(String(decoding: message.data, as: UTF8.self))\n".utf8)
      _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
      seen += 1
    }
  case ("req", _) where arguments.count == 2 || arguments.count == 3:
    let limit = arguments.count == 3 ? Int(arguments[2]) ?? 1 : 1
    let inbox = connection.newInbox()
    let replies = try connection.subscribe(inbox)
    try connection.publish(arguments[1], [], reply: inbox)
    for _ in 0..<limit {
      guard let reply = try replies.next(timeoutMs: 1000) else { break }
      print(String(decoding: reply.data, as: UTF8.self))
    }
  default:
    fail(usage)
  }
  connection.close()
} catch {
  fail("\(error)")
}
