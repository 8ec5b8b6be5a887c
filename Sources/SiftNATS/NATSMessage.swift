import CNATS

/// One received message; destroyed with the last reference.
package final class NATSMessage: @unchecked Sendable {
  /// The C message.
  package let raw: OpaquePointer

  /// Takes ownership of `raw`.
  package init(_ raw: OpaquePointer) { self.raw = raw }
  deinit { natsMsg_Destroy(raw) }

  /// The subject it was published on.
  package var subject: String { String(cString: natsMsg_GetSubject(raw)) }

  /// The reply subject, if any.
  package var reply: String? { natsMsg_GetReply(raw).map { String(cString: $0) } }

  /// The payload, valid while the message lives.
  package var data: UnsafeBufferPointer<UInt8> {
    let count = Int(natsMsg_GetDataLength(raw))
    guard count > 0, let base = natsMsg_GetData(raw) else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: UnsafeRawPointer(base).assumingMemoryBound(to: UInt8.self), count: count)
  }

  /// A copy of the payload.
  package var bytes: [UInt8] { Array(data) }

  /// The first value of header `key`.
  package func header(_ key: String) -> String? { Self.header(of: raw, key) }

  /// The first value of header `key` of a C message.
  static func header(of raw: OpaquePointer?, _ key: String) -> String? {
    var value: UnsafePointer<CChar>?
    guard natsMsgHeader_Get(raw, key, &value) == NATS_OK, let value else { return nil }
    return String(cString: value)
  }

  /// Where a JetStream message sits in its stream and its consumer.
  package struct Metadata: Sendable {
    /// The stream sequence.
    package var streamSequence: UInt64
    /// How many times the consumer has delivered it, this time included.
    package var delivered: UInt64
    /// How many messages the consumer had left to deliver after this one.
    package var pending: UInt64
    /// When the stream stored it, in nanoseconds since 1970.
    package var timestamp: Int64
  }

  /// The JetStream metadata of a message delivered by a consumer.
  package func metadata() throws(NATSError) -> Metadata {
    var meta: UnsafeMutablePointer<jsMsgMetaData>?
    try check(natsMsg_GetMetaData(&meta, raw), "message metadata")
    defer { jsMsgMetaData_Destroy(meta) }
    let m = meta!.pointee
    return Metadata(
      streamSequence: m.Sequence.Stream, delivered: m.NumDelivered, pending: m.NumPending, timestamp: m.Timestamp)
  }

  /// Acknowledges it (fire and forget: a lost acknowledgement means a redelivery).
  package func ack() throws(NATSError) { try check(natsMsg_Ack(raw, nil), "ack") }

  /// Acknowledges it and waits for the server to confirm.
  package func ackSync() throws(NATSError) {
    var code = jsErrCode(0)
    try check(natsMsg_AckSync(raw, nil, &code), code: code, "ack")
  }

  /// Asks for a redelivery after `delayMs`.
  package func nak(delayMs: Int64) throws(NATSError) {
    try check(natsMsg_NakWithDelay(raw, delayMs, nil), "nak")
  }

  /// Tells the server never to deliver it again.
  package func term() throws(NATSError) { try check(natsMsg_Term(raw, nil), "term") }

  /// Tells the server the message is still being worked on (its ack wait starts again).
  package func inProgress() throws(NATSError) { try check(natsMsg_InProgress(raw, nil), "in progress") }
}

/// A message to publish: subject, payload and headers.
package struct OutgoingMessage: Sendable {
  /// The subject.
  package var subject: String
  /// The payload.
  package var data: [UInt8]
  /// The headers, in order.
  package var headers: [(String, String)]

  package init(subject: String, data: [UInt8], headers: [(String, String)] = []) {
    self.subject = subject
    self.data = data
    self.headers = headers
  }

  /// A new C message; the caller owns it.
  func make() throws(NATSError) -> OpaquePointer {
    var msg: OpaquePointer?
    let status = data.withUnsafeBytes { buffer in
      natsMsg_Create(&msg, subject, nil, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count))
    }
    try check(status, "message on \(subject)")
    for (key, value) in headers {
      let set = natsMsgHeader_Add(msg, key, value)
      guard set == NATS_OK else {
        natsMsg_Destroy(msg)
        throw NATSError(set, "header \(key)")
      }
    }
    return msg!
  }
}
