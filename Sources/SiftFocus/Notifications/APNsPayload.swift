extension NotificationContent {
  /// Reads an APNs payload (a JSON object with an `aps` dictionary), with Sift's own JSON reader.
  ///
  /// Mapped keys: `aps.alert` (a dictionary whose `title`, `subtitle` and `body` are strings,
  /// or a string that is the body), `aps.filter-criteria`, `aps.target-content-id` and
  /// `aps.thread-id` (strings), `aps.badge` (an integer, clamped to
  /// `0...NotificationContent.maximumBadge`), `aps.interruption-level` (one of
  /// ``InterruptionLevel``'s raw values) and `aps.relevance-score` (a number, clamped to `0...1`).
  ///
  /// Nothing else is lost: every top-level key other than `aps` is copied to ``userInfo``
  /// under its own name, and the `aps` keys that have no field (`sound`, `category`, an
  /// alert's `launch-image`, …) are kept in `userInfo["aps"]`, a dictionary of just those
  /// leftovers (an alert dictionary's unmapped keys under `userInfo["aps"]["alert"]`).
  /// `userInfo["aps"]` is absent when nothing is left over. Keeping the leftovers nested
  /// rather than flattened means a custom top-level key can never collide with an `aps` key.
  ///
  /// - Throws: ``APNsPayloadError`` for malformed JSON (with the byte offset), a payload that
  ///   is not an object or has no `aps` object, a mapped key of the wrong type (`null`
  ///   included), and an unknown interruption level.
  public init(apnsPayload text: String) throws(APNsPayloadError) {
    let value: SiftValue
    do {
      value = try SiftValue(json: text)
    } catch {
      throw APNsPayloadError(message: "malformed JSON: \(error.message)", offset: error.offset)
    }
    try self.init(apnsPayloadValue: value)
  }

  /// Reads an APNs payload from UTF-8 bytes; see ``init(apnsPayload:)-(String)``.
  public init(apnsPayload bytes: some Collection<UInt8>) throws(APNsPayloadError) {
    let parsed: Result<SiftValue, JSONError>? = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(JSONError) in try SiftValue(json: buffer) }
    }
    // Non-contiguous collections are copied once; the common `[UInt8]` path reads in place.
    let result =
      parsed
      ?? Array(bytes).withUnsafeBufferPointer { buffer in
        Result { () throws(JSONError) in try SiftValue(json: buffer) }
      }
    switch result {
    case .success(let value):
      try self.init(apnsPayloadValue: value)
    case .failure(let error):
      throw APNsPayloadError(message: "malformed JSON: \(error.message)", offset: error.offset)
    }
  }

  /// Maps an already-parsed payload.
  init(apnsPayloadValue value: SiftValue) throws(APNsPayloadError) {
    guard case .dictionary(var topLevel) = value else {
      throw APNsPayloadError(message: "an APNs payload must be a JSON object, not \(Self.kindPhrase(value))")
    }
    guard let apsValue = topLevel.removeValue(forKey: "aps") else {
      throw APNsPayloadError(message: "an APNs payload must have an aps object")
    }
    guard case .dictionary(var aps) = apsValue else {
      throw APNsPayloadError(message: "aps must be an object, not \(Self.kindPhrase(apsValue))")
    }
    self.init(userInfo: topLevel)

    if let alert = aps.removeValue(forKey: "alert") {
      switch alert {
      case .string(let text):
        body = text
      case .dictionary(var fields):
        title = try Self.string(fields.removeValue(forKey: "title"), key: "aps.alert.title") ?? ""
        subtitle = try Self.string(fields.removeValue(forKey: "subtitle"), key: "aps.alert.subtitle") ?? ""
        body = try Self.string(fields.removeValue(forKey: "body"), key: "aps.alert.body") ?? ""
        if !fields.isEmpty { aps["alert"] = .dictionary(fields) }
      case .null, .bool, .int, .double, .date, .array:
        throw Self.wrongType(key: "aps.alert", expected: "an object or a string", alert)
      }
    }
    filterCriteria = try Self.string(aps.removeValue(forKey: "filter-criteria"), key: "aps.filter-criteria")
    targetContentIdentifier = try Self.string(
      aps.removeValue(forKey: "target-content-id"), key: "aps.target-content-id")
    threadIdentifier = try Self.string(aps.removeValue(forKey: "thread-id"), key: "aps.thread-id") ?? ""

    if let badgeValue = aps.removeValue(forKey: "badge") {
      guard case .int(let count) = badgeValue else {
        throw Self.wrongType(key: "aps.badge", expected: "an integer", badgeValue)
      }
      badge = count
    }
    if let level = try Self.string(aps.removeValue(forKey: "interruption-level"), key: "aps.interruption-level") {
      guard let known = InterruptionLevel(rawValue: level) else {
        let allowed = InterruptionLevel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        throw APNsPayloadError(message: "aps.interruption-level \"\(level)\" is not one of \(allowed)")
      }
      interruptionLevel = known
    }
    if let score = aps.removeValue(forKey: "relevance-score") {
      switch score {
      case .int(let number): relevanceScore = Double(number)
      case .double(let number): relevanceScore = number
      case .null, .bool, .string, .date, .array, .dictionary:
        throw Self.wrongType(key: "aps.relevance-score", expected: "a number", score)
      }
    }
    if !aps.isEmpty { userInfo["aps"] = .dictionary(aps) }
  }

  /// The string at a mapped key, `nil` when the key is absent; any other type is an error.
  private static func string(_ value: SiftValue?, key: String) throws(APNsPayloadError) -> String? {
    guard let value else { return nil }
    guard case .string(let text) = value else { throw wrongType(key: key, expected: "a string", value) }
    return text
  }

  private static func wrongType(key: String, expected: String, _ value: SiftValue) -> APNsPayloadError {
    APNsPayloadError(message: "\(key) must be \(expected), not \(kindPhrase(value))")
  }

  /// Names JSON kinds the way a payload author thinks of them (the reader never yields dates).
  private static func kindPhrase(_ value: SiftValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "a Boolean"
    case .int: "an integer"
    case .double: "a number"
    case .string: "a string"
    case .date: "a date"
    case .array: "an array"
    case .dictionary: "an object"
    }
  }
}
