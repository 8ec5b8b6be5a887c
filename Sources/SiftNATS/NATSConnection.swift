import CNATS
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One connection to a NATS server (or cluster) through the C client, with its JetStream
/// context. The library runs its own threads (reading, flushing, callbacks); every method
/// here may be called from any thread, as the library's own functions may.
package final class NATSConnection: @unchecked Sendable {
  /// What the connection reports as it goes away and comes back.
  package enum Event: Sendable {
    case disconnected
    case reconnected(url: String)
    case closed
  }

  /// How to connect, and what to tell the caller.
  package struct Options: Sendable {
    /// The server URLs, comma-separated (`nats://127.0.0.1:4222,nats://127.0.0.1:4223`).
    package var url: String
    /// The client name the server shows for the connection.
    package var name = "sift"
    /// Reconnect for ever, waiting longer after each failed attempt (``reconnectDelay(attempt:)``).
    /// Otherwise the connection closes when the server goes away.
    package var reconnect = true
    /// Keep trying the first connection too, as after a disconnection.
    package var retryFirstConnection = false
    /// How long a JetStream API request (stream info, publish acknowledgement) may take, in ms.
    package var requestTimeoutMs: Int64 = 5000
    /// Called on the library's thread for every connection event.
    package var onEvent: (@Sendable (Event) -> Void)?
    /// Called on the library's thread for the server's answer to every asynchronous
    /// JetStream publish (``publishAsync(_:)``).
    package var onPublishAck: (@Sendable (PublishAck) -> Void)?

    package init(url: String) { self.url = url }
  }

  /// The server's answer to an asynchronous publish, or the library's reason for having none.
  package struct PublishAck: Sendable {
    /// The `Nats-Msg-Id` header of the published message.
    package var messageID: String
    /// The stream sequence the message was stored at; nil when it failed.
    package var sequence: UInt64?
    /// True when the stream already held a message with this id and dropped this one.
    package var duplicate: Bool
    /// Why it failed, when it did.
    package var error: NATSError?
  }

  /// The C connection.
  package let raw: OpaquePointer
  /// The C JetStream context over it.
  package let jetStream: OpaquePointer
  private let callbacks: Unmanaged<Callbacks>

  /// What the C callbacks reach through their closure pointer.
  private final class Callbacks: Sendable {
    let onEvent: (@Sendable (Event) -> Void)?
    let onPublishAck: (@Sendable (PublishAck) -> Void)?
    init(_ options: Options) {
      onEvent = options.onEvent
      onPublishAck = options.onPublishAck
    }
  }

  /// The wait before reconnect attempt `attempt` (from 1): 50 ms doubling to at most 2 s,
  /// plus up to a quarter more at random, so that workers that lost the same server do not
  /// all come back in the same millisecond.
  package static func reconnectDelay(attempt: Int) -> Int64 {
    let base = Int64(50) << Int64(min(max(attempt - 1, 0), 6))
    let capped = min(base, 2000)
    return capped + Int64.random(in: 0...(capped / 4))
  }

  /// Connects; throws when the server cannot be reached (unless ``Options/retryFirstConnection``).
  package init(_ options: Options) throws(NATSError) {
    var opts: OpaquePointer?
    try check(natsOptions_Create(&opts), "cannot create NATS options")
    defer { natsOptions_Destroy(opts) }
    let box = Unmanaged.passRetained(Callbacks(options))
    let closure = box.toOpaque()
    do throws(NATSError) {
      try check(natsOptions_SetServers(opts, nil, 0), "options")
      let urls = options.url.split(separator: ",").map { strdup(String($0))! }
      defer { urls.forEach { free($0) } }
      var pointers: [UnsafePointer<CChar>?] = urls.map { UnsafePointer($0) }
      try check(natsOptions_SetServers(opts, &pointers, Int32(pointers.count)), "bad --nats URL '\(options.url)'")
      try check(natsOptions_SetName(opts, options.name), "options")
      try check(natsOptions_SetTimeout(opts, 2000), "options")
      try check(natsOptions_SetNoRandomize(opts, true), "options")
      if options.reconnect {
        try check(natsOptions_SetAllowReconnect(opts, true), "options")
        try check(natsOptions_SetMaxReconnect(opts, -1), "options")
        try check(
          natsOptions_SetCustomReconnectDelay(
            opts, { _, attempts, _ in NATSConnection.reconnectDelay(attempt: Int(attempts)) }, nil), "options")
        // What is published while the server is away waits in this buffer (acks included).
        try check(natsOptions_SetReconnectBufSize(opts, 64 << 20), "options")
      } else {
        try check(natsOptions_SetAllowReconnect(opts, false), "options")
      }
      if options.retryFirstConnection {
        try check(natsOptions_SetRetryOnFailedConnect(opts, true, nil, nil), "options")
      }
      // A dead server is noticed within a few seconds rather than the default two minutes.
      try check(natsOptions_SetPingInterval(opts, 1000), "options")
      try check(natsOptions_SetMaxPingsOut(opts, 3), "options")
      try check(natsOptions_SetMaxPendingMsgs(opts, 1 << 20), "options")
      try check(
        natsOptions_SetDisconnectedCB(
          opts,
          { _, closure in
            Unmanaged<Callbacks>.fromOpaque(closure!).takeUnretainedValue().onEvent?(.disconnected)
          }, closure), "options")
      try check(
        natsOptions_SetReconnectedCB(
          opts,
          { nc, closure in
            var buffer = [CChar](repeating: 0, count: 256)
            _ = natsConnection_GetConnectedUrl(nc, &buffer, buffer.count)
            let url = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            Unmanaged<Callbacks>.fromOpaque(closure!).takeUnretainedValue().onEvent?(.reconnected(url: url))
          }, closure), "options")
      try check(
        natsOptions_SetClosedCB(
          opts,
          { _, closure in
            Unmanaged<Callbacks>.fromOpaque(closure!).takeUnretainedValue().onEvent?(.closed)
          }, closure), "options")
      var nc: OpaquePointer?
      try check(natsConnection_Connect(&nc, opts), "cannot connect to \(options.url)")
      var jsOptions = jsOptions()
      jsOptions_Init(&jsOptions)
      jsOptions.Wait = options.requestTimeoutMs
      jsOptions.PublishAsync.MaxPending = 1 << 16
      jsOptions.PublishAsync.StallWait = options.requestTimeoutMs
      if options.onPublishAck != nil {
        jsOptions.PublishAsync.AckHandler = { _, msg, ack, failure, closure in
          let callbacks = Unmanaged<Callbacks>.fromOpaque(closure!).takeUnretainedValue()
          var result = PublishAck(
            messageID: NATSMessage.header(of: msg, "Nats-Msg-Id") ?? "", sequence: nil, duplicate: false, error: nil)
          if let ack {
            result.sequence = ack.pointee.Sequence
            result.duplicate = ack.pointee.Duplicate
          } else if let failure {
            var error = NATSError(failure.pointee.Err, code: Int(failure.pointee.ErrCode.rawValue), "publish")
            if let text = failure.pointee.ErrText { error.description = "publish: \(String(cString: text))" }
            result.error = error
          }
          callbacks.onPublishAck?(result)
          natsMsg_Destroy(msg)
        }
        jsOptions.PublishAsync.AckHandlerClosure = closure
      }
      var js: OpaquePointer?
      let status = natsConnection_JetStream(&js, nc, &jsOptions)
      guard status == NATS_OK, let nc, let js else {
        natsConnection_Destroy(nc)
        throw NATSError(status, "cannot open JetStream on \(options.url)")
      }
      raw = nc
      jetStream = js
      callbacks = box
    } catch {
      box.release()
      throw error
    }
  }

  deinit {
    jsCtx_Destroy(jetStream)
    natsConnection_Close(raw)
    natsConnection_Destroy(raw)
    // Not released: the library calls the closed callback (and may still deliver a
    // publish acknowledgement) on its own threads after Close returns, and nothing tells
    // when the last call is over. One small object per connection is the price of never
    // calling into freed memory.
    _ = callbacks
  }

  /// Closes the connection now (what is buffered is sent first when the server is there).
  package func close() {
    _ = natsConnection_FlushTimeout(raw, 2000)
    natsConnection_Close(raw)
  }

  /// Whether the connection is up now (not reconnecting, not closed).
  package var isConnected: Bool { natsConnection_Status(raw) == NATS_CONN_STATUS_CONNECTED }

  /// The largest payload the server takes, in bytes.
  package var maxPayload: Int { Int(natsConnection_GetMaxPayload(raw)) }

  /// Sends everything buffered and waits for the server to have it.
  package func flush(timeoutMs: Int64 = 5000) throws(NATSError) {
    try check(natsConnection_FlushTimeout(raw, timeoutMs), "flush")
  }

  /// Publishes `data` on `subject` through core NATS: no acknowledgement, no headers.
  package func publish(_ subject: String, _ data: some Collection<UInt8>, reply: String? = nil) throws(NATSError) {
    let bytes = Array(data)
    let status = bytes.withUnsafeBytes { buffer in
      // PublishRequest refuses a NULL reply subject.
      guard let reply else { return natsConnection_Publish(raw, subject, buffer.baseAddress, Int32(buffer.count)) }
      return natsConnection_PublishRequest(raw, subject, reply, buffer.baseAddress, Int32(buffer.count))
    }
    try check(status, "publish on \(subject)")
  }

  /// Sends a request and waits for the first reply.
  package func request(_ subject: String, _ data: some Collection<UInt8>, timeoutMs: Int64) throws(NATSError)
    -> NATSMessage
  {
    let bytes = Array(data)
    var reply: OpaquePointer?
    let status = bytes.withUnsafeBytes { buffer in
      natsConnection_Request(&reply, raw, subject, buffer.baseAddress, Int32(buffer.count), timeoutMs)
    }
    try check(status, "request on \(subject)")
    return NATSMessage(reply!)
  }

  /// A fresh inbox subject for replies.
  package func newInbox() -> String {
    var inbox: UnsafeMutablePointer<CChar>?
    guard natsInbox_Create(&inbox) == NATS_OK, let inbox else {
      return "_INBOX.sift\(UInt64.random(in: 0...UInt64.max))"
    }
    defer { natsInbox_Destroy(inbox) }
    return String(cString: inbox)
  }
}
