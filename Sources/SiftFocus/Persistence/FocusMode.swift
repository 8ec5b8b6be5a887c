/// A Focus the user can turn on: one of the system's own or one the user defined, with
/// what it lets through, as Focus settings on Apple platforms have it: the apps allowed to
/// notify (the rest are silenced), the people allowed whatever app they write from, and
/// whether time-sensitive notifications break through.
public struct FocusMode: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The name shown to the user and used as its key ("Work", "Reading"); compared by its
  /// UTF-8 bytes, like every identifier in SiftFocus.
  public var name: String
  /// Whether the system provides it (Work, Personal, Sleep, Do Not Disturb).
  public var isBuiltIn: Bool
  /// Whether `timeSensitive` notifications break through this Focus (Focus settings'
  /// "Time Sensitive Notifications" switch; on by default, as on Apple platforms).
  /// `critical` notifications of an app allowed them always do.
  public var allowsTimeSensitive: Bool
  /// The apps that may notify while this Focus is on; a notification of any other app is
  /// muted (``NotificationDecision/Reason/silencedByFocus``) unless it is critical,
  /// time-sensitive under a Focus that allows those, or from an allowed sender. Do Not
  /// Disturb and Sleep allow no app by default; Work, Personal and user-defined modes allow
  /// every app, whose focus filters then decide.
  public var allowedApps: AllowedApps
  /// The senders (``NotificationContent/senderIdentifier``) whose notifications break
  /// through a Focus that silences their app: the "allowed people" of Focus settings.
  /// Compared by bytes; empty by default.
  public var allowedSenders: [String]

  /// A Focus with this name; user-defined unless `isBuiltIn`. By default it allows every
  /// app and no particular sender.
  public init(
    name: String, isBuiltIn: Bool = false, allowsTimeSensitive: Bool = true, allowedApps: AllowedApps = .all,
    allowedSenders: [String] = []
  ) {
    self.name = name
    self.isBuiltIn = isBuiltIn
    self.allowsTimeSensitive = allowsTimeSensitive
    self.allowedApps = allowedApps
    self.allowedSenders = allowedSenders
  }

  private enum CodingKeys: String, CodingKey { case name, isBuiltIn, allowsTimeSensitive, allowedApps, allowedSenders }

  /// Decodes a mode; files written before `allowsTimeSensitive` existed read as allowing,
  /// and before `allowedApps` existed as the built-in default for the name (Do Not Disturb
  /// and Sleep allow no app, every other mode every app).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    name = try c.decode(String.self, forKey: .name)
    isBuiltIn = try c.decode(Bool.self, forKey: .isBuiltIn)
    allowsTimeSensitive = try c.decodeIfPresent(Bool.self, forKey: .allowsTimeSensitive) ?? true
    allowedApps =
      try c.decodeIfPresent(AllowedApps.self, forKey: .allowedApps)
      ?? Self.defaultAllowedApps(name: name, isBuiltIn: isBuiltIn)
    allowedSenders = try c.decodeIfPresent([String].self, forKey: .allowedSenders) ?? []
  }

  /// Encodes the mode; the allowed apps and senders only when they differ from the default.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(name, forKey: .name)
    try c.encode(isBuiltIn, forKey: .isBuiltIn)
    try c.encode(allowsTimeSensitive, forKey: .allowsTimeSensitive)
    if allowedApps != Self.defaultAllowedApps(name: name, isBuiltIn: isBuiltIn) {
      try c.encode(allowedApps, forKey: .allowedApps)
    }
    if !allowedSenders.isEmpty { try c.encode(allowedSenders, forKey: .allowedSenders) }
  }

  /// What a mode allows when nothing says otherwise: Do Not Disturb and Sleep silence every
  /// app, as on Apple platforms; every other mode lets each app's filter decide.
  static func defaultAllowedApps(name: String, isBuiltIn: Bool) -> AllowedApps {
    guard isBuiltIn else { return .all }
    let silencing = [FocusMode.doNotDisturbName, FocusMode.sleepName]
    return silencing.contains(where: { $0.utf8.elementsEqual(name.utf8) }) ? .only([]) : .all
  }

  static let doNotDisturbName = "Do Not Disturb"
  static let sleepName = "Sleep"

  /// The Work Focus.
  public static let work = FocusMode(name: "Work", isBuiltIn: true)
  /// The Personal Focus.
  public static let personal = FocusMode(name: "Personal", isBuiltIn: true)
  /// The Sleep Focus: silences every app (add apps or senders to let them through).
  public static let sleep = FocusMode(name: sleepName, isBuiltIn: true, allowedApps: .only([]))
  /// Do Not Disturb: silences every app (add apps or senders to let them through).
  public static let doNotDisturb = FocusMode(name: doNotDisturbName, isBuiltIn: true, allowedApps: .only([]))
  /// The four Focus modes every system starts with.
  public static let builtIn: [FocusMode] = [.doNotDisturb, .personal, .sleep, .work]

  /// The name.
  public var description: String { name }

  /// What the decisions need of the mode.
  var policy: FocusPolicy {
    FocusPolicy(allowsTimeSensitive: allowsTimeSensitive, allowedApps: allowedApps, allowedSenders: allowedSenders)
  }
}

/// Which apps a Focus lets notify.
public enum AllowedApps: Sendable, Hashable, Codable {
  /// Every app (its focus filter decides).
  case all
  /// Only these app identifiers; every other app is silenced.
  case only([String])
  /// Every app but these.
  case allExcept([String])

  /// Whether `app` may notify; identifiers are compared by their UTF-8 bytes.
  public func allows(_ app: String) -> Bool {
    switch self {
    case .all: return true
    case .only(let apps): return apps.contains { $0.utf8.elementsEqual(app.utf8) }
    case .allExcept(let apps): return !apps.contains { $0.utf8.elementsEqual(app.utf8) }
    }
  }

  private enum CodingKeys: String, CodingKey { case only, allExcept }

  /// Decodes `"all"`, `{"only": [...]}` or `{"allExcept": [...]}`.
  public init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
      guard text == "all" else {
        throw DecodingError.dataCorruptedError(
          in: single, debugDescription: "allowed apps are \"all\", {\"only\": [...]} or {\"allExcept\": [...]}")
      }
      self = .all
      return
    }
    let c = try decoder.container(keyedBy: CodingKeys.self)
    if let apps = try c.decodeIfPresent([String].self, forKey: .only) {
      self = .only(apps)
    } else if let apps = try c.decodeIfPresent([String].self, forKey: .allExcept) {
      self = .allExcept(apps)
    } else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "allowed apps are \"all\", {\"only\": [...]} or {\"allExcept\": [...]}"))
    }
  }

  /// Encodes `"all"`, `{"only": [...]}` or `{"allExcept": [...]}`.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .all:
      var single = encoder.singleValueContainer()
      try single.encode("all")
    case .only(let apps):
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(apps, forKey: .only)
    case .allExcept(let apps):
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(apps, forKey: .allExcept)
    }
  }
}
