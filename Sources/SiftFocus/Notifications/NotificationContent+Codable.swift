import Sift

extension NotificationContent: Codable {
  private enum CodingKeys: String, CodingKey {
    case filterCriteria, senderIdentifier, targetContentIdentifier, title, subtitle, body, threadIdentifier, userInfo
    case relevanceScore, badge, interruptionLevel
  }

  /// Decodes content saved with ``encode(to:)`` (the delivery history); missing fields take
  /// their defaults and the relevance score is clamped as on every set.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      title: try c.decodeIfPresent(String.self, forKey: .title) ?? "",
      subtitle: try c.decodeIfPresent(String.self, forKey: .subtitle) ?? "",
      body: try c.decodeIfPresent(String.self, forKey: .body) ?? "",
      threadIdentifier: try c.decodeIfPresent(String.self, forKey: .threadIdentifier) ?? "",
      filterCriteria: try c.decodeIfPresent(String.self, forKey: .filterCriteria),
      targetContentIdentifier: try c.decodeIfPresent(String.self, forKey: .targetContentIdentifier),
      interruptionLevel: try c.decodeIfPresent(InterruptionLevel.self, forKey: .interruptionLevel) ?? .active,
      relevanceScore: try c.decodeIfPresent(Double.self, forKey: .relevanceScore) ?? 0,
      badge: try c.decodeIfPresent(Int.self, forKey: .badge),
      userInfo: try c.decodeIfPresent([String: SiftValue].self, forKey: .userInfo) ?? [:],
      senderIdentifier: try c.decodeIfPresent(String.self, forKey: .senderIdentifier))
  }

  /// Encodes the fields that differ from a fresh content's defaults.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeIfPresent(filterCriteria, forKey: .filterCriteria)
    try c.encodeIfPresent(senderIdentifier, forKey: .senderIdentifier)
    try c.encodeIfPresent(targetContentIdentifier, forKey: .targetContentIdentifier)
    if !title.isEmpty { try c.encode(title, forKey: .title) }
    if !subtitle.isEmpty { try c.encode(subtitle, forKey: .subtitle) }
    if !body.isEmpty { try c.encode(body, forKey: .body) }
    if !threadIdentifier.isEmpty { try c.encode(threadIdentifier, forKey: .threadIdentifier) }
    if !userInfo.isEmpty { try c.encode(userInfo, forKey: .userInfo) }
    if relevanceScore != 0 { try c.encode(relevanceScore, forKey: .relevanceScore) }
    try c.encodeIfPresent(badge, forKey: .badge)
    if interruptionLevel != .active { try c.encode(interruptionLevel, forKey: .interruptionLevel) }
  }
}

extension NotificationDecision: Codable {
  private enum CodingKeys: String, CodingKey { case outcome, reason, message }

  /// Decodes `{"outcome": …, "reason": code, "message": …}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let outcome = try c.decode(Outcome.self, forKey: .outcome)
    let code = try c.decode(String.self, forKey: .reason)
    let message = try c.decodeIfPresent(String.self, forKey: .message) ?? ""
    let reason: Reason
    switch code {
    case "noActiveFocus": reason = .noActiveFocus
    case "noFilter": reason = .noFilter
    case "matched": reason = .matched
    case "notMatched": reason = .notMatched
    case "noFilterCriteria": reason = .noFilterCriteria
    case "predicateError": reason = .predicateError(message)
    case "critical": reason = .critical
    case "timeSensitive": reason = .timeSensitive
    case "filterUnavailable": reason = .filterUnavailable(message)
    case "unknownUser": reason = .unknownUser
    case "silencedByFocus": reason = .silencedByFocus
    case "allowedSender": reason = .allowedSender
    default:
      throw DecodingError.dataCorruptedError(forKey: .reason, in: c, debugDescription: "unknown reason \(code)")
    }
    self.init(outcome: outcome, reason: reason)
  }

  /// Encodes the outcome, the reason's code and its message when it has one.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(outcome, forKey: .outcome)
    try c.encode(reason.code, forKey: .reason)
    switch reason {
    case .predicateError(let message), .filterUnavailable(let message): try c.encode(message, forKey: .message)
    case .noActiveFocus, .noFilter, .matched, .notMatched, .noFilterCriteria, .critical, .timeSensitive, .unknownUser,
      .silencedByFocus, .allowedSender:
      break
    }
  }
}
