import Foundation
import SiftFocus

/// An account the user can bind to a Focus, as in the talk's chat app.
struct AccountEntity: AppEntity {
  static let typeDisplayName = "Account"
  static var defaultQuery: AccountQuery { AccountQuery() }

  let id: String
  let displayName: String

  static let work = AccountEntity(id: "work-account-identifier", displayName: "Work")
  static let personal = AccountEntity(id: "personal-account-identifier", displayName: "Personal")
}

struct AccountQuery: EntityQuery {
  func entities(for identifiers: [String]) async throws -> [AccountEntity] {
    [AccountEntity.work, .personal].filter { identifiers.contains($0.id) }
  }

  func suggestedEntities() async throws -> [AccountEntity] { [.work, .personal] }
}

/// An app enum parameter, to cover raw-value storage.
enum ChatLayout: String, AppEnum {
  case compact, roomy
  static let typeDisplayName = "Layout"
  var displayName: String { rawValue.capitalized }
}

/// Collects what `perform()` receives, so a test can read it afterwards.
actor PerformLog {
  struct Entry: Equatable {
    var alwaysUseDarkMode: Bool
    var status: String?
    var account: AccountEntity?
  }

  static let shared = PerformLog()
  private(set) var entries: [String: Entry] = [:]

  func record(_ entry: Entry, tag: String) { entries[tag] = entry }
}

/// The talk's example filter, rebuilt with `@FocusParameter`.
struct ExampleChatAppFocusFilter: FocusFilter {
  static let title = "Set account, status & look"
  static var description: String? { "Select an account, set your status, and configure the look of Example Chat App." }

  @FocusParameter(title: "Use Dark Mode", default: false)
  var alwaysUseDarkMode: Bool

  @FocusParameter(title: "Status Message")
  var status: String?

  @FocusParameter(title: "Selected Account")
  var account: AccountEntity?

  @FocusParameter(title: "Layout")
  var layout: ChatLayout?

  /// Which test's `perform()` this is, so parallel tests do not read each other's entries.
  var tag = ""

  var localizedDarkModeString: String { alwaysUseDarkMode ? "Dark" : "Dynamic" }

  func displayRepresentation(locale: Locale) -> DisplayRepresentation {
    var items: [(name: String, value: String)] = []
    if let account { items.append(("Account", account.displayName)) }
    if let status { items.append(("Status", status)) }
    items.append(("Look", localizedDarkModeString))
    return DisplayRepresentation.summary(of: items, locale: locale)!
  }

  var displayRepresentation: DisplayRepresentation { displayRepresentation(locale: .current) }

  var appContext: FocusFilterAppContext { .allowing(account) }

  func perform() async throws {
    let entry = PerformLog.Entry(alwaysUseDarkMode: alwaysUseDarkMode, status: status, account: account)
    await PerformLog.shared.record(entry, tag: tag)
  }
}

/// A filter only the `current` test touches: the registry is process-wide and tests run in
/// parallel.
struct CurrentProbeFilter: FocusFilter {
  static let title = "Probe"
  @FocusParameter(title: "Level", default: 0)
  var level: Int
  @FocusParameter(title: "Ratio", default: 0.5)
  var ratio: Double

  var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "Level \(level)") }
  func perform() async throws {}
}

extension FocusFilterAppContext {
  /// The talk's context: only the selected account's notifications (`SELF IN %@` over its
  /// id); no account, no filter.
  static func allowing(_ account: AccountEntity?) -> FocusFilterAppContext {
    guard let account else { return FocusFilterAppContext() }
    let predicate = try! SiftPredicate(format: "SELF IN %@", arguments: [.array([.string(account.id)])])
    return FocusFilterAppContext(notificationFilterPredicate: predicate)
  }
}
