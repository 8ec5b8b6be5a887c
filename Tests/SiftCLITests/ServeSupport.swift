import Foundation
import SiftNATS
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What the `sift serve` tests need around a real `nats-server`: servers and clusters
/// started on loopback ports in temporary directories, workers as child processes, and
/// waits on what can be observed (a log line, a count in a stream), never on the clock.
enum ServeSupport {
  /// The `nats-server` executable, or nil when it is not installed.
  static let natsServer: String? = {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for directory in paths + ["/usr/sbin", "/usr/bin"] {
      let candidate = "\(directory)/nats-server"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  /// Why the tests are skipped, shown by the test runner.
  static let skipReason: Comment =
    "nats-server is not installed (Scripts/system-packages.sh installs it): the sift serve tests need a real server"

  /// True when `SIFT_SERVE_FULL=1` asks for the issue's full sizes.
  static let full = ProcessInfo.processInfo.environment["SIFT_SERVE_FULL"] == "1"

  /// A loopback port nobody listens on now (the kernel's choice for a port-0 bind).
  static func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Waits until `condition` holds, checking every few milliseconds, at most `seconds`;
  /// returns whether it held. The condition is what the test observes (a line in a log,
  /// a count in a stream); the interval only bounds how often it is looked at.
  @discardableResult
  static func wait(_ seconds: Double, _ what: String, _ condition: () throws -> Bool) rethrows -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if try condition() { return true }
      usleep(5000)
    }
    if try condition() { return true }
    Issue.record("timed out after \(seconds) s waiting for \(what)")
    return false
  }

  /// A fresh temporary directory.
  static func temporaryDirectory(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sift-serve-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A child process whose standard error goes to a file the test reads.
  final class Child: @unchecked Sendable {
    let process = Process()
    let log: URL

    init(_ executable: String, _ arguments: [String], log: URL) throws {
      self.log = log
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
      let handle = try FileHandle(forWritingTo: log)
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = handle
      process.standardError = handle
      try process.run()
      try handle.close()
    }

    deinit { kill9() }

    /// The log so far.
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Sends `signal`.
    func send(_ signal: Int32) {
      if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Kills the process at once and waits for it.
    func kill9() {
      guard process.isRunning else { return }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }

    /// Waits for the process to exit, at most `seconds`; its status, or nil.
    func exitStatus(within seconds: Double) -> Int32? {
      let ok = ServeSupport.wait(seconds, "\(process.arguments ?? []) to exit") { !process.isRunning }
      return ok ? process.terminationStatus : nil
    }
  }

  /// One `nats-server` with JetStream, on a loopback port, its store in `directory`.
  final class Server: @unchecked Sendable {
    let port: Int
    let directory: URL
    let config: URL
    private(set) var child: Child?
    private var starts = 0

    var url: String { "nats://127.0.0.1:\(port)" }

    /// `extraConfig` is added to the server's configuration file (max_payload, cluster).
    init(_ name: String, port: Int = ServeSupport.freePort(), directory: URL? = nil, extraConfig: String = "") throws {
      self.port = port
      self.directory = directory ?? ServeSupport.temporaryDirectory(name)
      config = self.directory.appendingPathComponent("server.conf")
      let text = """
        listen: 127.0.0.1:\(port)
        server_name: \(name)
        jetstream { store_dir: "\(self.directory.appendingPathComponent("store").path)" }
        \(extraConfig)
        """
      try text.write(to: config, atomically: true, encoding: .utf8)
    }

    /// Starts it and waits until it says it is ready.
    func start(waitReady: Bool = true) throws {
      starts += 1
      let log = directory.appendingPathComponent("server-\(starts).log")
      child = try Child(ServeSupport.natsServer!, ["-c", config.path], log: log)
      if waitReady {
        ServeSupport.wait(20, "nats-server on port \(port) to be ready") { child!.output.contains("Server is ready") }
      }
    }

    /// Stops it cleanly (SIGTERM: a file store is written out) and waits.
    func stop() {
      child?.send(SIGTERM)
      _ = child?.exitStatus(within: 20)
    }

    /// Kills it at once.
    func kill9() { child?.kill9() }

    deinit {
      child?.kill9()
      try? FileManager.default.removeItem(at: directory)
    }
  }

  /// Three servers in one JetStream cluster.
  final class Cluster: @unchecked Sendable {
    let servers: [Server]

    var url: String { servers.map(\.url).joined(separator: ",") }

    init(_ name: String) throws {
      let clusterPorts = (0..<3).map { _ in ServeSupport.freePort() }
      let routes = clusterPorts.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", ")
      servers = try (0..<3).map { i in
        try Server(
          "\(name)-\(i)",
          extraConfig: """
            cluster { name: \(name), listen: 127.0.0.1:\(clusterPorts[i]), routes: [\(routes)] }
            """)
      }
    }

    /// Kills the three (a test's `defer`: nothing is left running whatever holds the servers).
    func killAll() { servers.forEach { $0.kill9() } }

    /// Starts the three and waits until JetStream answers (a meta leader is elected).
    func start() throws {
      for server in servers { try server.start() }
      for server in servers {
        ServeSupport.wait(30, "JetStream on \(server.url)") {
          guard let c = try? NATSConnection(NATSConnection.Options(url: server.url)) else { return false }
          // An answer, even "no such stream", says JetStream has a leader.
          do {
            _ = try c.streamMessageCount("none-such")
            return true
          } catch {
            return false
          }
        }
      }
    }
  }

  /// A `sift serve` worker.
  static func startWorker(_ arguments: [String], log: URL) throws -> Child {
    let child = try Child(SiftProcess.binary().path, ["serve"] + arguments, log: log)
    wait(60, "sift serve \(arguments) to start routing") {
      child.output.contains("sift serve: routing") || !child.process.isRunning
    }
    return child
  }

  /// Every message stored in `stream`, read through a fresh consumer; waits until there
  /// are `count` (or, with nil, takes what is there).
  static func storedMessages(_ connection: NATSConnection, stream: String, count: Int? = nil, seconds: Double = 120)
    throws -> [NATSMessage]
  {
    if let count {
      try wait(seconds, "\(count) messages in stream \(stream)") {
        try (connection.streamMessageCount(stream) ?? 0) >= UInt64(count)
      }
    }
    let total = Int(try connection.streamMessageCount(stream) ?? 0)
    let name = "check\(UInt32.random(in: 0...UInt32.max))"
    // The reader's own consumer: in a cluster that has just lost a node, its creation can
    // time out while the replicas elect a leader. Asked again under the same name (the
    // same configuration is accepted again), as any reader of the stream would.
    for attempt in 1... {
      do throws(NATSError) {
        try connection.addPullConsumer(stream: stream, ConsumerConfig(durable: name))
        break
      } catch {
        guard error.isTransient, attempt < 10 else { throw error }
        usleep(500_000)
      }
    }
    let subscription = try connection.pullSubscription(stream: stream, consumer: name)
    var messages: [NATSMessage] = []
    // An empty fetch is asked again a few times: a fresh consumer in a cluster that has
    // just lost a node may deliver nothing until its replicas have a leader.
    var empty = 0
    while messages.count < total {
      let batch = try subscription.fetch(batch: 1000, timeoutMs: 5000)
      if batch.isEmpty {
        empty += 1
        if empty == 6 { break }
        continue
      }
      empty = 0
      for message in batch { try message.ack() }
      messages += batch
    }
    return messages
  }

  /// Publishes each line to JetStream on `subject`, waiting for every acknowledgement;
  /// returns the stream sequences in order.
  @discardableResult
  static func publishLines(_ connection: NATSConnection, subject: String, _ lines: [String]) throws -> [UInt64] {
    var sequences: [UInt64] = []
    sequences.reserveCapacity(lines.count)
    for line in lines {
      sequences.append(try connection.publishSync(OutgoingMessage(subject: subject, data: Array(line.utf8))).sequence)
    }
    return sequences
  }

  /// The JSON object of a message's payload.
  static func json(_ message: NATSMessage) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(message.bytes))) as? [String: Any] ?? [:]
  }

  /// The status records of every worker answering `PREFIX.ping` within `milliseconds`.
  static func ping(_ connection: NATSConnection, prefix: String, workers: Int, milliseconds: Int64 = 2000) throws
    -> [[String: Any]]
  {
    let inbox = connection.newInbox()
    let replies = try connection.subscribe(inbox)
    try connection.publish(prefix + ".ping", [], reply: inbox)
    var records: [[String: Any]] = []
    let end = Date().addingTimeInterval(Double(milliseconds) / 1000)
    while records.count < workers, Date() < end {
      guard let reply = try replies.next(timeoutMs: 100) else { continue }
      let record = json(reply)
      // A stream capturing PREFIX.> answers the request too, with its acknowledgement.
      if record["worker"] != nil { records.append(record) }
    }
    return records
  }

  /// Waits until every one of `workers` reports having applied bucket revision `revision`.
  static func waitForRevision(_ connection: NATSConnection, prefix: String, workers: Int, _ revision: UInt64) throws {
    try wait(30, "\(workers) workers at rules revision \(revision)") {
      let records = try ping(connection, prefix: prefix, workers: workers, milliseconds: 500)
      return records.count == workers
        && records.allSatisfy { (($0["rulesRevision"] as? NSNumber)?.uint64Value ?? 0) >= revision }
    }
  }
}
