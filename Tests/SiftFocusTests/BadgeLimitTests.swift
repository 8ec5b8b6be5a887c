import Foundation
import Testing

@testable import SiftFocus

/// Badges are bounded: `aps.badge` 9223372036854775807 (or `setBadgeCount(Int.max)`) was
/// accepted, and the next delivery's `count + 1` trapped, taking down every user in the
/// process. Every badge is clamped to `0...NotificationContent.maximumBadge` (2³¹ − 1) and
/// counting stops there.
@Suite struct BadgeLimitTests {
  static let app = "com.example.mail"

  @Test(arguments: [
    ("2147483646", 2_147_483_646), ("2147483647", 2_147_483_647), ("2147483648", 2_147_483_647),
    ("9223372036854775807", 2_147_483_647), ("-1", 0), ("-9223372036854775808", 0), ("0", 0),
  ])
  func aPayloadBadgeIsClamped(text: String, badge: Int) throws {
    let content = try NotificationContent(apnsPayload: #"{"aps": {"badge": \#(text)}}"#)
    #expect(content.badge == badge)
    var local = NotificationContent(badge: Int.max)
    #expect(local.badge == NotificationContent.maximumBadge)
    local.badge = Int.min
    #expect(local.badge == 0)
  }

  /// At the bound, counting stays there, under both badge rules and through the service.
  @Test(arguments: [BadgeRule.apns, .unreadCount])
  func countingStopsAtTheBound(rule: BadgeRule) async throws {
    let system = FocusSystem(badges: rule)
    try await system.register(MailFocusFilter.self, app: Self.app)
    try await system.deliver(
      try NotificationContent(apnsPayload: #"{"aps": {"badge": 9223372036854775807}}"#), to: Self.app)
    #expect(await system.badgeCount(of: Self.app) == NotificationContent.maximumBadge)
    for _ in 0..<3 { try await system.deliver(NotificationContent(), to: Self.app) }
    #expect(await system.badgeCount(of: Self.app) == NotificationContent.maximumBadge)
    try await system.setBadgeCount(Int.max, for: Self.app)
    #expect(await system.badgeCount(of: Self.app) == NotificationContent.maximumBadge)
    try await system.setBadgeCount(NotificationContent.maximumBadge - 1, for: Self.app)
    try await system.deliver(NotificationContent(), to: Self.app)
    try await system.deliver(NotificationContent(), to: Self.app)
    let expected = rule == .unreadCount ? NotificationContent.maximumBadge : NotificationContent.maximumBadge - 1
    #expect(await system.badgeCount(of: Self.app) == expected)
    #expect(FocusSystem.badge(after: Int.max, NotificationContent()) == NotificationContent.maximumBadge)
  }

  /// A count stored beyond the bound (an older file) is clamped when it is read.
  @Test func aStoredBadgeIsClampedWhenRead() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    do {
      let system = try FocusSystem(database: FocusDatabase(path: path), user: "u")
      try await system.register(MailFocusFilter.self, app: Self.app)
      try await system.setBadgeCount(1, for: Self.app)
    }
    try SQLiteTests.raw(path, "UPDATE badges SET count = 9223372036854775807")
    let system = try FocusSystem(database: FocusDatabase(path: path), user: "u", badges: .unreadCount)
    try await system.register(MailFocusFilter.self, app: Self.app)
    #expect(await system.badgeCount(of: Self.app) == NotificationContent.maximumBadge)
    try await system.deliver(NotificationContent(), to: Self.app)
    #expect(await system.badgeCount(of: Self.app) == NotificationContent.maximumBadge)
  }
}
