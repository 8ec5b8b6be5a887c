import SiftFocus

/// The talk's focus filter: dark mode, a status message and the account a Focus shows.
struct ExampleChatAppFocusFilter: FocusFilter {
  static let title = "Set account, status & look"
  static var description: String? {
    "Select an account, set your status, and configure the look of Example Chat App."
  }

  @FocusParameter(title: "Use Dark Mode", default: false)
  var alwaysUseDarkMode: Bool

  @FocusParameter(title: "Status Message")
  var status: String?

  @FocusParameter(title: "Selected Account")
  var account: AccountEntity?

  var displayRepresentation: DisplayRepresentation {
    var items: [(name: String, value: String)] = []
    if let account { items.append(("Account", account.displayName)) }
    if let status { items.append(("Status", status)) }
    items.append(("Look", alwaysUseDarkMode ? "Dark" : "Dynamic"))
    return DisplayRepresentation.summary(of: items) ?? DisplayRepresentation(title: Self.title)
  }

  /// Only the selected account's notifications get through: `SELF IN %@` over its id. A
  /// predicate that did not compile would be an activation error, never filtering off.
  var appContext: FocusFilterAppContext {
    get throws {
      guard let account else { return FocusFilterAppContext() }
      let allowedAccountList = [account.identifier]
      return try FocusFilterAppContext(predicateFormat: "SELF IN %@", allowedAccountList)
    }
  }

  func perform() async throws {
    await ChatModel.shared.update(darkMode: alwaysUseDarkMode, status: status, account: account)
  }
}
