/// The app's state that a Focus changes: which account is shown, the status message, the look.
actor ChatModel {
  static let shared = ChatModel()

  struct State: Sendable, Equatable {
    var account: String = "All accounts"
    var status: String = "Available"
    var appearance: String = "Dynamic"
  }

  private(set) var state = State()

  /// Called from the filter's perform(): the same path `current` would feed.
  func update(darkMode: Bool, status: String?, account: AccountEntity?) {
    state = State(
      account: account?.displayName ?? "All accounts", status: status ?? "Available",
      appearance: darkMode ? "Dark" : "Dynamic")
  }
}
