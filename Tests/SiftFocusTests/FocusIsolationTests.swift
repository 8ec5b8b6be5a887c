import Foundation
import Testing

@testable import SiftFocus

/// Many users and apps in one process: every static call reaches its own system and app.
@Suite struct FocusIsolationTests {
  static let app = "com.example.mail"

  static func system(work: MailFocusFilter) async throws -> FocusSystem {
    let system = FocusSystem(badges: .unreadCount)
    try await system.register(MailFocusFilter.self, app: app)
    try await system.save(work, for: app, in: "Work")
    return system
  }

  /// Alice's perform() sets her badge to 0; Bob's badge is untouched, and `current` inside
  /// Alice's activation is Alice's mailbox.
  @Test func setBadgeCountAndCurrentReachTheirOwnUser() async throws {
    let alice = try await Self.system(work: .configured([.news], badge: 0))
    let bob = try await Self.system(work: .configured([.news, .family]))
    for _ in 0..<2 { try await alice.deliver(mail(.news), to: Self.app) }
    try await bob.deliver(mail(.news), to: Self.app)
    #expect(await alice.badgeCount(of: Self.app) == 2)

    let log = MailLog()
    let failures = try await MailLog.$current.withValue(log) {
      [try await bob.activate("Work"), try await alice.activate("Work")]
    }
    #expect(failures.allSatisfy { $0.isEmpty })
    // Alice's perform() reset her badge; Bob keeps his recount of one news mail.
    #expect(await alice.badgeCount(of: Self.app) == 0)
    #expect(await bob.badgeCount(of: Self.app) == 1)
    #expect(
      log.all == [
        "perform mailboxes=[\"news-mail\", \"family-mail\"] badge=-", "perform mailboxes=[\"news-mail\"] badge=0",
      ])
  }

  /// Four apps sharing one filter type in one system: each perform() sets its own app's
  /// badge, every run.
  @Test func fourAppsSharingAFilterTypeKeepTheirOwnBadges() async throws {
    let system = FocusSystem()
    let apps = ["a", "b", "c", "d"]
    for (k, app) in apps.enumerated() {
      try await system.register(MailFocusFilter.self, app: app)
      try await system.save(MailFocusFilter.configured([.work], badge: 10 + k), for: app, in: "Work")
    }
    for _ in 0..<5 {
      try await system.activate("Work")
      for (k, app) in apps.enumerated() { #expect(await system.badgeCount(of: app) == 10 + k) }
      try await system.activate(nil)
    }
  }

  /// Tasks of different users interleave freely (no suite serialisation, nothing shared):
  /// 20 users flip Focus concurrently and each ends with their own state.
  @Test func manyUsersConcurrently() async throws {
    let users = try await withThrowingTaskGroup(of: (Int, FocusSystem).self) { group in
      for k in 0..<20 {
        group.addTask {
          let system = try await Self.system(work: .configured([k % 2 == 0 ? .work : .family], badge: k))
          for _ in 0..<3 {
            try await system.activate("Work")
            try await system.activate("Personal")
          }
          try await system.activate("Work")
          return (k, system)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    for (k, system) in users {
      #expect(await system.badgeCount(of: Self.app) == k)
      let expected: NotificationDecision.Reason = k % 2 == 0 ? .matched : .notMatched
      #expect(try await system.deliver(mail(.work), to: Self.app).decision.reason == expected)
    }
  }
}
