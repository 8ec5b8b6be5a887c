import Foundation
import Testing

@testable import SiftFocus

/// A service deciding for many users: each user's system feeds the decision table, a
/// restart loads it from SQLite, and a decision equals the user's own system's.
@Suite struct FocusServiceTests {
  static let app = "com.example.mail"

  @Test func decisionsFollowEachUsersSystemAndSurviveARestart() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let contents = [mail(.work), mail(.family), mail(.news), mail(.news, level: .critical), NotificationContent()]
    var expected: [String: [NotificationDecision]] = [:]
    do {
      let service = try FocusService(database: FocusDatabase(path: path))
      try service.register(MailFocusFilter.self, app: Self.app, allowsCriticalAlerts: true)
      let plan: [(String, [MailboxEntity], String?)] = [
        ("alice", [.work], "Work"), ("bob", [.family, .news], "Work"), ("carol", [.work], nil), ("dave", [], "Work"),
      ]
      for (user, mailboxes, focus) in plan {
        let system = try await service.system(for: user)
        try await system.save(MailFocusFilter.configured(mailboxes), for: Self.app, in: "Work")
        try await system.activate(focus)
        var decisions: [NotificationDecision] = []
        for content in contents {
          let own = await system.decision(for: content, app: Self.app)
          #expect(service.decide(content, user: user, app: Self.app) == own, "\(user)")
          decisions.append(own)
        }
        expected[user] = decisions
      }
      #expect(service.decide(mail(.work), user: "nobody", app: Self.app) == .unknownUser)
      #expect(service.decide(mail(.work), user: "alice", app: "other").reason == .noFilter)
      #expect(service.activeFocus(of: "bob") == "Work" && service.activeFocus(of: "carol") == nil)
    }
    // A restart: the table is loaded from the database before any system is made.
    let restarted = try FocusService(database: FocusDatabase(path: path))
    #expect(restarted.userCount == 4)
    for (user, decisions) in expected {
      #expect(contents.map { restarted.decide($0, user: user, app: Self.app) } == decisions, "\(user)")
    }
  }

  /// Filters installed directly (a service that builds predicates itself): the talk's shape
  /// is stored as its ids and loaded without a compile; other predicates through JSON.
  @Test func installedFiltersLoadBack() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let idsWithSeparator = ["a\u{1F}b", ""]
    let filters: [(user: String, focus: String, app: String, filter: NotificationFilter)] = try [
      ("u1", "Work", "chat", NotificationFilter(predicate: SiftPredicate(format: "SELF IN %@", ["x", "y", "z"]))),
      ("u2", "Work", "chat", NotificationFilter(predicate: SiftPredicate(format: "SELF BEGINSWITH 'team-'"))),
      (
        "u3", "Work", "chat",
        NotificationFilter(
          predicate: SiftPredicate(format: "SELF IN %@", arguments: [.array(idsWithSeparator.map { .string($0) })]))
      ),
      (
        "u4", "Work", "chat",
        NotificationFilter(predicate: SiftPredicate(format: "SELF IN %@", arguments: [.array([])]))
      ),
      (
        "u5", "Work", "chat",
        NotificationFilter(predicate: SiftPredicate(format: "SELF IN %@", arguments: [.array([.string("")])]))
      ),
    ]
    let service = try FocusService(database: FocusDatabase(path: path))
    try await service.setFilters(filters)
    let restarted = try FocusService(database: FocusDatabase(path: path))
    let subjects = ["x", "z", "w", "team-a", "a\u{1F}b", "", "a"]
    for entry in filters {
      for subject in subjects {
        let content = NotificationContent(filterCriteria: subject)
        #expect(restarted.decide(content, user: entry.user, app: "chat") == entry.filter.decide(content))
      }
    }
  }

  /// Enough users that the table grows while a restart loads it, ids short and long, one
  /// app or two, allow lists and other predicates: the loaded service, the one call and the
  /// batch call all decide as each user's own filter does.
  @Test func manyUsersDecideAsTheirFilters() async throws {
    let path = try FocusDatabaseTests.temporaryPath()
    let service = try FocusService(database: FocusDatabase(path: path))
    var entries: [(user: String, focus: String, app: String, filter: NotificationFilter)] = []
    var own: [String: [String: NotificationFilter]] = [:]
    for k in 0..<3_000 {
      let user = k % 7 == 0 ? "a-user-with-a-long-identifier-\(k)" : "u\(k)"
      let predicate =
        k % 5 == 0
        ? try SiftPredicate(format: "SELF BEGINSWITH %@", "acct-\(k % 10)")
        : try SiftPredicate(format: "SELF IN %@", ["acct-\(k)", "acct-\(k + 1)", "acct-\(k * 7)"])
      var filter = NotificationFilter(predicate: predicate, allowsTimeSensitive: k % 3 != 0)
      if k % 11 == 0 { filter = .unavailable("broken \(k)") }
      entries.append((user, k % 2 == 0 ? "Work" : "Personal", "chat", filter))
      own[user, default: [:]]["chat"] = filter
      if k % 13 == 0 {
        let mail = NotificationFilter(predicate: try SiftPredicate(format: "SELF == 'acct-\(k)'"))
        entries.append((user, k % 2 == 0 ? "Work" : "Personal", "mail", mail))
        own[user, default: [:]]["mail"] = mail
      }
    }
    try await service.setFilters(entries)
    let restarted = try FocusService(database: FocusDatabase(path: path))
    #expect(restarted.userCount == 3_000)
    var batch: [FocusService.Addressed] = []
    var expected: [NotificationDecision] = []
    for k in 0..<3_000 {
      let user = k % 7 == 0 ? "a-user-with-a-long-identifier-\(k)" : "u\(k)"
      for (criteria, level) in [
        ("acct-\(k)", InterruptionLevel.active), ("acct-\(k + 2)", .active), ("acct-\(k * 7)", .passive),
        ("acct-\(k + 3)", .timeSensitive), ("acct-\(k + 4)", .critical),
      ] {
        let content = NotificationContent(filterCriteria: criteria, interruptionLevel: level)
        for app in ["chat", "mail", "none"] {
          let want =
            own[user]?[app].map { $0.decide(content) } ?? NotificationDecision(outcome: .delivered, reason: .noFilter)
          #expect(service.decide(content, user: user, app: app) == want)
          #expect(restarted.decide(content, user: user, app: app) == want)
          batch.append(FocusService.Addressed(user: user, app: app, content: content))
          expected.append(want)
        }
      }
    }
    #expect(restarted.decide(batch[...]) == expected)
  }
}
