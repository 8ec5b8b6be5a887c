import CNATS

#if canImport(Glibc)
  import Glibc
#endif

/// JetStream's error codes that callers tell apart.
package enum JetStreamCode {
  /// The consumer does not exist.
  package static let consumerNotFound = 10014
  /// The stream does not exist.
  package static let streamNotFound = 10059
}

/// A stream to create.
package struct StreamConfig: Sendable {
  package var name: String
  package var subjects: [String]
  /// File storage (survives a server restart) or memory.
  package var fileStorage = true
  package var replicas = 1
  /// The window within which a repeated `Nats-Msg-Id` is dropped, in nanoseconds (0: the
  /// server's default, two minutes).
  package var duplicateWindowNs: Int64 = 0
  /// The largest message the stream takes, in bytes (-1: the server's limit).
  package var maxMessageBytes: Int32 = -1

  package init(name: String, subjects: [String]) {
    self.name = name
    self.subjects = subjects
  }
}

/// A durable pull consumer to create.
package struct ConsumerConfig: Sendable {
  package var durable: String
  /// How long the server waits for an acknowledgement before delivering again, in ns (0: 30 s).
  package var ackWaitNs: Int64 = 0
  /// How many deliveries at most (-1: no limit).
  package var maxDeliver: Int64 = -1
  package var maxAckPending: Int64 = 0
  package var replicas: Int64 = 0

  package init(durable: String) { self.durable = durable }
}

extension NATSConnection {
  /// Creates a stream (or finds the same one already there).
  package func addStream(_ config: StreamConfig) throws(NATSError) {
    var cfg = jsStreamConfig()
    jsStreamConfig_Init(&cfg)
    let name = strdup(config.name)
    let subjects = config.subjects.map { UnsafePointer(strdup($0)) }
    defer {
      free(name)
      subjects.forEach { free(UnsafeMutablePointer(mutating: $0)) }
    }
    var list: [UnsafePointer<CChar>?] = subjects
    var code = jsErrCode(0)
    var info: UnsafeMutablePointer<jsStreamInfo>?
    let status = list.withUnsafeMutableBufferPointer { buffer in
      cfg.Name = UnsafePointer(name)
      cfg.Subjects = buffer.baseAddress
      cfg.SubjectsLen = Int32(buffer.count)
      cfg.Storage = config.fileStorage ? js_FileStorage : js_MemoryStorage
      cfg.Replicas = Int64(config.replicas)
      cfg.Duplicates = config.duplicateWindowNs
      cfg.MaxMsgSize = config.maxMessageBytes
      return js_AddStream(&info, jetStream, &cfg, nil, &code)
    }
    jsStreamInfo_Destroy(info)
    try check(status, code: code, "cannot create stream \(config.name)")
  }

  /// The number of messages a stream holds, or nil when there is no such stream.
  package func streamMessageCount(_ stream: String) throws(NATSError) -> UInt64? {
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var code = jsErrCode(0)
    let status = js_GetStreamInfo(&info, jetStream, stream, nil, &code)
    defer { jsStreamInfo_Destroy(info) }
    if status == NATS_NOT_FOUND || Int(code.rawValue) == JetStreamCode.streamNotFound { return nil }
    try check(status, code: code, "stream \(stream)")
    return info!.pointee.State.Msgs
  }

  /// Deletes a stream.
  package func deleteStream(_ stream: String) throws(NATSError) {
    var code = jsErrCode(0)
    try check(js_DeleteStream(jetStream, stream, nil, &code), code: code, "cannot delete stream \(stream)")
  }

  /// The name of the stream whose subjects take `subject`, or nil when none does.
  package func streamName(capturing subject: String) throws(NATSError) -> String? {
    var request = "{\"subject\":"
    Self.appendJSONString(subject, to: &request)
    request += "}"
    let reply = try self.request("$JS.API.STREAM.NAMES", Array(request.utf8), timeoutMs: 5000)
    // {"type":…,"total":1,"offset":0,"limit":1024,"streams":["NAME"]} or "streams":null.
    let text = Array(reply.data)
    let marker = Array("\"streams\":[\"".utf8)
    guard text.count >= marker.count,
      let start = (0...(text.count - marker.count)).first(where: { text[$0..<$0 + marker.count].elementsEqual(marker) })
    else { return nil }
    let rest = text[(start + marker.count)...]
    guard let end = rest.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
    return String(decoding: rest[..<end], as: UTF8.self)
  }

  /// Whether consumer `name` exists on `stream`.
  package func consumerExists(stream: String, name: String) throws(NATSError) -> Bool {
    var info: UnsafeMutablePointer<jsConsumerInfo>?
    var code = jsErrCode(0)
    let status = js_GetConsumerInfo(&info, jetStream, stream, name, nil, &code)
    defer { jsConsumerInfo_Destroy(info) }
    if status == NATS_NOT_FOUND || Int(code.rawValue) == JetStreamCode.consumerNotFound { return false }
    try check(status, code: code, "consumer \(name) on stream \(stream)")
    return true
  }

  /// The number of messages consumer `name` has yet to deliver, and of those delivered
  /// but not acknowledged.
  package func consumerBacklog(stream: String, name: String) throws(NATSError) -> (pending: UInt64, unacked: Int64) {
    var info: UnsafeMutablePointer<jsConsumerInfo>?
    var code = jsErrCode(0)
    let status = js_GetConsumerInfo(&info, jetStream, stream, name, nil, &code)
    defer { jsConsumerInfo_Destroy(info) }
    try check(status, code: code, "consumer \(name) on stream \(stream)")
    return (info!.pointee.NumPending, info!.pointee.NumAckPending)
  }

  /// Creates a durable pull consumer with explicit acknowledgements (or finds the same one).
  package func addPullConsumer(stream: String, _ config: ConsumerConfig) throws(NATSError) {
    var cfg = jsConsumerConfig()
    jsConsumerConfig_Init(&cfg)
    let durable = strdup(config.durable)
    defer { free(durable) }
    cfg.Durable = UnsafePointer(durable)
    cfg.AckPolicy = js_AckExplicit
    cfg.DeliverPolicy = js_DeliverAll
    cfg.AckWait = config.ackWaitNs
    cfg.MaxDeliver = config.maxDeliver
    cfg.MaxAckPending = config.maxAckPending
    cfg.Replicas = config.replicas
    var info: UnsafeMutablePointer<jsConsumerInfo>?
    var code = jsErrCode(0)
    let status = js_AddConsumer(&info, jetStream, stream, &cfg, nil, &code)
    jsConsumerInfo_Destroy(info)
    try check(status, code: code, "cannot create consumer \(config.durable) on stream \(stream)")
  }

  /// Binds to the existing durable pull consumer `name` on `stream`.
  package func pullSubscription(stream: String, consumer: String) throws(NATSError) -> PullSubscription {
    var so = jsSubOptions()
    jsSubOptions_Init(&so)
    let s = strdup(stream)
    let c = strdup(consumer)
    defer {
      free(s)
      free(c)
    }
    so.Stream = UnsafePointer(s)
    so.Consumer = UnsafePointer(c)
    so.ManualAck = true
    var sub: OpaquePointer?
    var code = jsErrCode(0)
    try check(
      js_PullSubscribe(&sub, jetStream, nil, consumer, nil, &so, &code), code: code,
      "cannot bind to consumer \(consumer) on stream \(stream)")
    return PullSubscription(sub!)
  }

  /// Publishes to JetStream and waits for the stream's acknowledgement; returns the
  /// stream sequence and whether the stream dropped it as a duplicate.
  @discardableResult
  package func publishSync(_ message: OutgoingMessage, timeoutMs: Int64 = 5000) throws(NATSError) -> (
    sequence: UInt64, duplicate: Bool
  ) {
    let msg = try message.make()
    defer { natsMsg_Destroy(msg) }
    var options = jsPubOptions()
    jsPubOptions_Init(&options)
    options.MaxWait = timeoutMs
    var ack: UnsafeMutablePointer<jsPubAck>?
    var code = jsErrCode(0)
    let status = js_PublishMsg(&ack, jetStream, msg, &options, &code)
    defer { jsPubAck_Destroy(ack) }
    try check(status, code: code, "publish on \(message.subject)")
    return (ack!.pointee.Sequence, ack!.pointee.Duplicate)
  }

  /// Publishes to JetStream without waiting; the answer goes to ``Options/onPublishAck``.
  package func publishAsync(_ message: OutgoingMessage) throws(NATSError) {
    var msg: OpaquePointer? = try message.make()
    let status = js_PublishMsgAsync(jetStream, &msg, nil)
    // On success the library owns the message and has cleared `msg`.
    natsMsg_Destroy(msg)
    try check(status, "publish on \(message.subject)")
  }

  /// Waits until every asynchronous publish has its answer, at most `timeoutMs` (at least
  /// 1: libnats takes a wait of 0 as no limit at all, and would wait for ever on an answer
  /// lost with a server). On a time-out, returns the `Nats-Msg-Id` of each publish still
  /// unanswered, which the library forgets (``forgetPublishes()``).
  package func waitForPublishes(timeoutMs: Int64) -> [String] {
    var options = jsPubOptions()
    jsPubOptions_Init(&options)
    options.MaxWait = max(timeoutMs, 1)
    guard js_PublishAsyncComplete(jetStream, &options) != NATS_OK else { return [] }
    return forgetPublishes()
  }

  /// Without waiting: the `Nats-Msg-Id` of each asynchronous publish still unanswered,
  /// which the library forgets (an answer arriving later is not reported).
  package func forgetPublishes() -> [String] {
    var pending = natsMsgList()
    guard js_PublishAsyncGetPendingList(&pending, jetStream) == NATS_OK else { return [] }
    defer { natsMsgList_Destroy(&pending) }
    return (0..<Int(pending.Count)).map { NATSMessage.header(of: pending.Msgs[$0], "Nats-Msg-Id") ?? "" }
  }

  /// A subscription whose messages are read with ``Subscription/next(timeoutMs:)``.
  package func subscribe(_ subject: String) throws(NATSError) -> Subscription {
    var sub: OpaquePointer?
    try check(natsConnection_SubscribeSync(&sub, raw, subject), "cannot subscribe to \(subject)")
    _ = natsSubscription_SetPendingLimits(sub, -1, -1)
    return Subscription(sub!)
  }

  /// A subscription whose messages go to `handler` on the library's thread.
  package func subscribe(_ subject: String, handler: @escaping @Sendable (NATSMessage) -> Void) throws(NATSError)
    -> Subscription
  {
    let box = Unmanaged.passRetained(Handler(handler))
    var sub: OpaquePointer?
    let status = natsConnection_Subscribe(
      &sub, raw, subject,
      { _, _, msg, closure in
        Unmanaged<Handler>.fromOpaque(closure!).takeUnretainedValue().body(NATSMessage(msg!))
      }, box.toOpaque())
    guard status == NATS_OK else {
      box.release()
      throw NATSError(status, "cannot subscribe to \(subject)")
    }
    // The handler is released when the library says no call of it will come any more.
    _ = natsSubscription_SetOnCompleteCB(
      sub, { closure in Unmanaged<Handler>.fromOpaque(closure!).release() }, box.toOpaque())
    return Subscription(sub!)
  }

  /// Appends `s` as a JSON string (for the few requests built here).
  static func appendJSONString(_ s: String, to out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20:
        out +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}

/// The closure of an asynchronous subscription.
final class Handler: Sendable {
  let body: @Sendable (NATSMessage) -> Void
  init(_ body: @escaping @Sendable (NATSMessage) -> Void) { self.body = body }
}

/// A core NATS subscription.
package final class Subscription: @unchecked Sendable {
  let raw: OpaquePointer

  init(_ raw: OpaquePointer) { self.raw = raw }

  deinit {
    _ = natsSubscription_Unsubscribe(raw)
    natsSubscription_Destroy(raw)
  }

  /// The next message, or nil after `timeoutMs` without one.
  package func next(timeoutMs: Int64) throws(NATSError) -> NATSMessage? {
    var msg: OpaquePointer?
    let status = natsSubscription_NextMsg(&msg, raw, timeoutMs)
    if status == NATS_TIMEOUT { return nil }
    try check(status, "next message")
    return NATSMessage(msg!)
  }

  /// Stops the subscription now.
  package func unsubscribe() { _ = natsSubscription_Unsubscribe(raw) }
}

/// A pull subscription bound to a durable consumer.
package final class PullSubscription: @unchecked Sendable {
  let raw: OpaquePointer
  init(_ raw: OpaquePointer) { self.raw = raw }
  deinit {
    // Unsubscribing a durable's subscription leaves the consumer in place (only deleting it
    // removes it): other workers of the same name go on.
    natsSubscription_Destroy(raw)
  }

  /// Up to `batch` messages, waiting at most `timeoutMs` for the first; an empty list on a
  /// time-out.
  package func fetch(batch: Int, timeoutMs: Int64) throws(NATSError) -> [NATSMessage] {
    var list = natsMsgList()
    var code = jsErrCode(0)
    let status = natsSubscription_Fetch(&list, raw, Int32(batch), timeoutMs, &code)
    defer { natsMsgList_Destroy(&list) }
    if status == NATS_TIMEOUT { return [] }
    try check(status, code: code, "fetch")
    var messages: [NATSMessage] = []
    messages.reserveCapacity(Int(list.Count))
    for i in 0..<Int(list.Count) {
      guard let msg = list.Msgs[i] else { continue }
      messages.append(NATSMessage(msg))
      // Owned by the wrapper now: the list's destruction must not destroy it.
      list.Msgs[i] = nil
    }
    return messages
  }
}
