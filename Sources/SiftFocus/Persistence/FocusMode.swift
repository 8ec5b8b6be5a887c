/// A Focus the user can turn on: one of the system's own or one the user defined.
public struct FocusMode: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The name shown to the user and used as its key ("Work", "Reading").
  public var name: String
  /// Whether the system provides it (Work, Personal, Sleep, Do Not Disturb).
  public var isBuiltIn: Bool

  /// A Focus with this name; user-defined unless `isBuiltIn`.
  public init(name: String, isBuiltIn: Bool = false) {
    self.name = name
    self.isBuiltIn = isBuiltIn
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
