import SiftFocus

/// The chat app's accounts, as the system lists them for the "Selected Account" parameter.
struct AccountEntity: AppEntity {
  static let typeDisplayName = "Account"
  static var defaultQuery: AccountQuery { AccountQuery() }

  let id: String
  let displayName: String
  /// The talk's name for the account's id.
  var identifier: String { id }

  static let work = AccountEntity(id: "work-account-identifier", displayName: "Work")
  static let personal = AccountEntity(id: "personal-account-identifier", displayName: "Personal")
  static let all = [work, personal]
}

/// What the system asks to resolve saved identifiers and to offer choices.
struct AccountQuery: EntityQuery {
  func entities(for identifiers: [String]) async throws -> [AccountEntity] {
    AccountEntity.all.filter { identifiers.contains($0.id) }
  }

  func suggestedEntities() async throws -> [AccountEntity] { AccountEntity.all }
}
