/// Why an APNs payload could not be turned into ``NotificationContent``.
public struct APNsPayloadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, in one sentence naming the key (for example
  /// `aps.badge must be an integer, not a string`).
  public var message: String
  /// The UTF-8 byte offset of the problem when the JSON text itself is malformed;
  /// `nil` for well-formed JSON with a wrong shape (the key in `message` locates it).
  public var offset: Int?

  /// Creates an error.
  public init(message: String, offset: Int? = nil) {
    self.message = message
    self.offset = offset
  }

  /// `message`, followed by `at offset N` when there is an offset.
  public var description: String {
    guard let offset else { return message }
    return "\(message) at offset \(offset)"
  }
}
