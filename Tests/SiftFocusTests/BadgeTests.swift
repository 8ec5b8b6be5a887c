import Testing

@testable import SiftFocus

/// A filter that sets its own badge from `perform()`, as the talk recommends: the number of
/// chats that matter under the Focus (here, the one account's unread chats).
struct BadgeSettingFilter: FocusFilter {
  static let title = "Badge per account"

  @FocusParameter(title: "Selected Account")
  var account: AccountEntity?

  var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: Self.title) }

  var appContext: FocusFilterAppContext { .allowing(account) }

  func perform() async throws {
    try await Self.setBadgeCount(account == .work ? 7 : 2)
  }
}

/// Never registered with any system.
struct UnregisteredFilter: FocusFilter {
  static let title = "Nobody registered me"
  var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: Self.title) }
  func perform() async throws {}
}

// Nested in the system suite (each test makes its own system).
extension FocusSystemTests {
  @Suite struct BadgeTests {
    static let app = "com.example.badges"

    static func system() async throws -> FocusSystem {
      let system = FocusSystem(badges: .unreadCount)
      try await system.register(BadgeSettingFilter.self, app: app)
      var work = BadgeSettingFilter()
      work.account = .work
      try await system.save(work, for: app, in: "Work")
      var personal = BadgeSettingFilter()
      personal.account = .personal
      try await system.save(personal, for: app, in: "Personal")
      return system
    }

    static func message(_ criteria: String) -> NotificationContent {
      NotificationContent(title: "hello", filterCriteria: criteria)
    }

    /// The count the app sets in perform() wins over the system's recount, and delivered
    /// notifications add to it; muted ones do not.
    @Test func theAppsCountFromPerformWins() async throws {
      let system = try await Self.system()
      #expect(try await system.activate("Work").isEmpty)
      #expect(await system.badgeCount(of: Self.app) == 7)
      try await system.deliver(Self.message("work-account-identifier"), to: Self.app)
      #expect(await system.badgeCount(of: Self.app) == 8)
      try await system.deliver(Self.message("personal-account-identifier"), to: Self.app)
      #expect(await system.badgeCount(of: Self.app) == 8)

      #expect(try await system.activate("Personal").isEmpty)
      #expect(await system.badgeCount(of: Self.app) == 2)
    }

    /// Without a running app the system's recount stands: one delivered work message.
    @Test func withoutPerformTheRecountStands() async throws {
      let system = try await Self.system()
      await system.setRunning(false, app: Self.app)
      try await system.activate("Work")
      #expect(await system.badgeCount(of: Self.app) == 0)
      try await system.deliver(Self.message("work-account-identifier"), to: Self.app)
      try await system.activate("Personal")
      #expect(await system.badgeCount(of: Self.app) == 0)
      try await system.activate("Work")
      #expect(await system.badgeCount(of: Self.app) == 1)
    }

    @Test(arguments: [-1, Int.min])
    func aNegativeCountIsAnError(_ count: Int) async throws {
      let system = try await Self.system()
      await #expect(throws: FocusFilterError.negativeBadgeCount(count)) {
        try await BadgeSettingFilter.setBadgeCount(count)
      }
      await #expect(throws: FocusSystemError.self) { try await system.setBadgeCount(count, for: Self.app) }
      #expect(await system.badgeCount(of: Self.app) == 0)
    }

    @Test func aFilterNoSystemKnowsIsAnError() async throws {
      _ = try await Self.system()
      await #expect(throws: FocusFilterError.notRegistered(filter: String(reflecting: UnregisteredFilter.self))) {
        try await UnregisteredFilter.setBadgeCount(1)
      }
    }

    /// The system-side call an app without a filter type would use; zero clears the badge.
    @Test func theSystemSideCallSetsAndClears() async throws {
      let system = try await Self.system()
      try await system.setBadgeCount(4, for: Self.app)
      #expect(await system.badgeCount(of: Self.app) == 4)
      try await system.setBadgeCount(0, for: Self.app)
      #expect(await system.badgeCount(of: Self.app) == 0)
    }
  }
}
