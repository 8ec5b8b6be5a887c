/// A Focus the user can turn on: one of the system's own or one the user defined.
public struct FocusMode: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The name shown to the user and used as its key ("Work", "Reading").
  public var name: String
  /// Whether the system provides it (Work, Personal, Sleep, Do Not Disturb).
  public var isBuiltIn: Bool
  /// Whether `timeSensitive` notifications break through this Focus (Focus settings'
  /// "Time Sensitive Notifications" switch; on by default, as on Apple platforms).
  /// `critical` notifications always do.
  public var allowsTimeSensitive: Bool

  /// A Focus with this name; user-defined unless `isBuiltIn`.
  public init(name: String, isBuiltIn: Bool = false, allowsTimeSensitive: Bool = true) {
    self.name = name
    self.isBuiltIn = isBuiltIn
    self.allowsTimeSensitive = allowsTimeSensitive
  }

  private enum CodingKeys: String, CodingKey { case name, isBuiltIn, allowsTimeSensitive }

  /// Decodes a mode; files written before `allowsTimeSensitive` existed read as allowing.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    name = try c.decode(String.self, forKey: .name)
    isBuiltIn = try c.decode(Bool.self, forKey: .isBuiltIn)
    allowsTimeSensitive = try c.decodeIfPresent(Bool.self, forKey: .allowsTimeSensitive) ?? true
  }

  /// The Work Focus.
  public static let work = FocusMode(name: "Work", isBuiltIn: true)
  /// The Personal Focus.
  public static let personal = FocusMode(name: "Personal", isBuiltIn: true)
  /// The Sleep Focus.
  public static let sleep = FocusMode(name: "Sleep", isBuiltIn: true)
  /// Do Not Disturb.
  public static let doNotDisturb = FocusMode(name: "Do Not Disturb", isBuiltIn: true)
  /// The four Focus modes every system starts with.
  public static let builtIn: [FocusMode] = [.doNotDisturb, .personal, .sleep, .work]

  /// The name.
  public var description: String { name }
}
