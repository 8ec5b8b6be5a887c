import CNATS

/// A failed call into the NATS C client: its status, JetStream's error code when the
/// server answered with one, and the text the library gave.
package struct NATSError: Error, CustomStringConvertible, Sendable {
  /// The library's status for the call.
  package var status: natsStatus
  /// JetStream's API error code (10059 "stream not found", …), 0 when there was none.
  package var code: Int
  /// What failed and why, for a report.
  package var description: String

  package init(_ status: natsStatus, code: Int = 0, _ what: String) {
    self.status = status
    self.code = code
    var last = NATS_OK
    let detail = nats_GetLastError(&last).map { String(cString: $0) } ?? ""
    let text = String(cString: natsStatus_GetText(status))
    let why = detail.isEmpty || detail == text ? text : "\(text): \(detail)"
    description = "\(what): \(why)" + (code == 0 ? "" : " (JetStream error \(code))")
  }

  /// True for failures of the connection rather than of the request: the server is away,
  /// restarting, electing a leader, or did not answer in time. Such a request is worth
  /// repeating later as it was; it says nothing about the message it carried.
  package var isTransient: Bool {
    switch status {
    case NATS_TIMEOUT, NATS_NO_RESPONDERS, NATS_CONNECTION_CLOSED, NATS_CONNECTION_DISCONNECTED, NATS_NO_SERVER,
      NATS_IO_ERROR, NATS_STALE_CONNECTION, NATS_SLOW_CONSUMER, NATS_DRAINING, NATS_ILLEGAL_STATE:
      return code == 0
    default:
      return false
    }
  }
}

/// Throws unless `status` is `NATS_OK`.
@inline(__always)
func check(_ status: natsStatus, code: jsErrCode = jsErrCode(0), _ what: @autoclosure () -> String) throws(NATSError) {
  guard status != NATS_OK else { return }
  throw NATSError(status, code: Int(code.rawValue), what())
}
