import Foundation
import Synchronization
import Testing

@testable import SiftFocus

/// Apple's lifecycle and semantics, through a system: `perform()` with the defaults,
/// interruption levels, badges, app contexts that fail, the scene prefix.
@Suite struct FocusLifecycleTests {
  static let app = "com.example.mail"

  static func system(_ modes: [FocusMode] = FocusMode.builtIn, badges: BadgeRule = .apns) async throws
    -> FocusSystem
  {
    let system = FocusSystem(configuration: FocusConfiguration(modes: modes), badges: badges)
    // Allowed critical alerts (Apple's entitlement), so critical breaks through.
    try await system.register(MailFocusFilter.self, app: app, allowsCriticalAlerts: true)
    try await system.save(MailFocusFilter.configured([.work]), for: app, in: "Work")
    return system
  }

  /// perform() runs with the defaults when the Focus ends and when the new Focus has
  /// nothing saved for the app, so the app leaves its Work state.
  @Test func performGetsTheDefaultsWhenTheFocusEndsOrHasNothingSaved() async throws {
    let system = try await Self.system()
    let log = MailLog()
    try await MailLog.$current.withValue(log) {
      try await system.activate("Work")
      try await system.activate("Sleep")
      try await system.activate("Work")
      try await system.activate(nil)
    }
    #expect(
      log.all == [
        "perform mailboxes=[\"work-mail\"] badge=-", "perform mailboxes=[] badge=-",
        "perform mailboxes=[\"work-mail\"] badge=-", "perform mailboxes=[] badge=-",
      ])
    #expect(try await system.deliver(mail(.news), to: Self.app).decision == .noActiveFocus)
  }

  /// The extension handler receives the filter in force and runs perform() in the app's
  /// scope.
  @Test func theExtensionHandlerReceivesTheFilter() async throws {
    let system = FocusSystem()
    let seen = Mutex<[[MailboxEntity]]>([])
    try await system.register(MailFocusFilter.self, app: Self.app, isRunning: false) { change in
      let filter = try #require(change.filter as? MailFocusFilter)
      seen.withLock { $0.append(filter.mailboxes) }
      try await change.perform()
    }
    try await system.save(MailFocusFilter.configured([.family], badge: 3), for: Self.app, in: "Personal")
    #expect(try await system.activate("Personal").isEmpty)
    try await system.activate(nil)
    #expect(seen.withLock { $0 } == [[.family], []])
    // Apple's badge rule: the count perform() set under Personal stays; nothing recounts.
    #expect(await system.badgeCount(of: Self.app) == 3)
  }

  /// Critical always breaks through; time-sensitive when the Focus allows it (a per-Focus
  /// setting); passive and active follow the filter.
  @Test func interruptionLevels() async throws {
    let strict = FocusMode(name: "Exam", allowsTimeSensitive: false)
    let system = try await Self.system(FocusMode.builtIn + [strict])
    try await system.save(MailFocusFilter.configured([.work]), for: Self.app, in: "Exam")
    let table: [(String, InterruptionLevel, NotificationDecision.Reason)] = [
      ("Work", .critical, .critical), ("Work", .timeSensitive, .timeSensitive), ("Work", .active, .notMatched),
      ("Work", .passive, .notMatched), ("Exam", .critical, .critical), ("Exam", .timeSensitive, .notMatched),
    ]
    for (focus, level, reason) in table {
      try await system.activate(focus)
      let record = try await system.deliver(mail(.family, level: level), to: Self.app)
      #expect(record.decision.reason == reason, "\(focus) \(level)")
    }
  }

  /// `aps.badge` is absolute and 0 clears; muted notifications never touch the badge; the
  /// count covers only what was delivered; a hidden badge reads 0 while the filter is in force.
  @Test func badges() async throws {
    let system = try await Self.system(badges: .unreadCount)
    try await system.save(MailFocusFilter.configured([.work], hideBadges: true), for: Self.app, in: "Personal")
    try await system.activate("Work")
    try await system.deliver(mail(.work), to: Self.app)
    #expect(await system.badgeCount(of: Self.app) == 1)
    try await system.deliver(mail(.work, badge: 5), to: Self.app)
    #expect(await system.badgeCount(of: Self.app) == 5)
    try await system.deliver(mail(.family, badge: 9), to: Self.app)  // muted
    #expect(await system.badgeCount(of: Self.app) == 5)
    try await system.deliver(mail(.work, badge: 0), to: Self.app)
    #expect(await system.badgeCount(of: Self.app) == 0)
    try await system.deliver(mail(.work), to: Self.app)
    #expect(await system.badgeCount(of: Self.app) == 1)
    try await system.activate("Personal")
    #expect(await system.badgeCount(of: Self.app) == 0)  // hidden
    try await system.activate("Work")
    #expect(await system.badgeCount(of: Self.app) == 1)  // recount: badge 0, then one more
  }

  /// An app context whose predicate does not compile is an activation error naming the
  /// predicate and the diagnostic; the app's notifications are muted with the reason.
  @Test func aPredicateThatDoesNotCompileFailsClosed() async throws {
    let system = try await Self.system()
    var broken = MailFocusFilter()
    broken.predicateText = "SELF IN {"
    try await system.save(broken, for: Self.app, in: "Work")
    let failures = try await system.activate("Work")
    let failure = try #require(failures[Self.app])
    #expect(failure.contains("SELF IN {"))
    #expect(failure.contains("does not compile"))
    let record = try await system.deliver(mail(.work), to: Self.app)
    #expect(record.decision.outcome == .muted)
    guard case .filterUnavailable(let message) = record.decision.reason else {
      Issue.record("expected filterUnavailable, got \(record.decision.reason)")
      return
    }
    #expect(message == failure)
    #expect(try await system.deliver(mail(.work, level: .critical), to: Self.app).decision.reason == .critical)
  }

  /// A saved mailbox that no longer exists is left out of an array parameter; an entity
  /// the filter needs alone is an activation error, and the app fails closed.
  @Test func aFilterThatCannotBeBuiltFailsClosed() async throws {
    let system = FocusSystem()
    try await system.register(SystemChatFilter.self, app: "chat")
    try await system.save(SystemChatFilter(), for: "chat", in: "Work")
    var configuration = await system.configuration
    configuration.savedParameters["Work"]?["chat"] = ["account": .entity("deleted-account")]
    let restored = FocusSystem(configuration: configuration)
    try await restored.register(SystemChatFilter.self, app: "chat")
    let failures = try await restored.activate("Work")
    #expect(failures["chat"]?.contains("deleted-account") == true)
    let decision = try await restored.deliver(NotificationContent(filterCriteria: "x"), to: "chat").decision
    #expect(decision.outcome == .muted && decision.reason.code == "filterUnavailable")

    let mailboxes = try await MailFocusFilter(parameterValues: [
      "mailboxes": .array([.entity("gone"), .entity("family-mail"), .entity("work-mail")])
    ]).mailboxes
    #expect(mailboxes == [.family, .work])
  }

  /// The target-content prefix selects the scene; it mutes nothing.
  @Test func thePrefixSelectsTheScene() async throws {
    let filter = NotificationFilter(
      predicate: try SiftPredicate(format: "SELF == 'work-mail'"), targetContentIdentifierPrefix: "work/")
    let system = FocusSystem()
    try await system.register(MailFocusFilter.self, app: Self.app)
    try await system.activate("Work")
    #expect(filter.selectsScene("work/inbox") && !filter.selectsScene("home/inbox") && !filter.selectsScene(nil))
    let decision = filter.decide(mail(.work, target: "home/inbox"))
    #expect(decision.reason == .matched)
  }

  /// Arrays of entities and enums, Float and descriptions are listed with their kinds.
  @Test func parameterDescriptions() async throws {
    let parameters = MailFocusFilter.parameters
    let mailboxes = try #require(parameters.first { $0.key == "mailboxes" })
    #expect(mailboxes.kind == .array && mailboxes.elementKind == .entity)
    #expect(mailboxes.description == "Only mail in these mailboxes notifies.")
    #expect(parameters.first { $0.key == "hideBadges" }?.elementKind == nil)
    #expect(try await MailboxQuery().suggestedEntities() == [.work, .family, .news])
    #expect(try await AccountQueryWithoutSuggestions().suggestedEntities().isEmpty)

    let filter = try await ListsFilter(parameterValues: [
      "layouts": .array([.enumCase("roomy"), .enumCase("compact")]), "volume": .double(0.25),
    ])
    #expect(filter.layouts == [.roomy, .compact] && filter.volume == 0.25)
    #expect(filter.parameterValues["layouts"] == .array([.enumCase("roomy"), .enumCase("compact")]))
    await #expect(throws: FocusParameterError.self) {
      try await ListsFilter(parameterValues: ["layouts": .array([.enumCase("huge")])])
    }
    let data = try JSONEncoder().encode(filter.parameterValues)
    #expect(try JSONDecoder().decode([String: FocusParameterValue].self, from: data) == filter.parameterValues)
  }

  /// The app localises the summary phrase.
  @Test func theSummaryPhraseIsLocalisable() throws {
    let items = [
      (name: "Compte", value: "Travail"), (name: "Statut", value: "Occupé"), (name: "Look", value: "Sombre"),
    ]
    let french = try #require(
      DisplayRepresentation.summary(of: items, locale: Locale(identifier: "fr_FR"), titleFormat: "Régler %@"))
    #expect(french.title.hasPrefix("Régler Compte, Statut et Look"))
    #expect(!french.title.contains("Set"))
    let english = try #require(DisplayRepresentation.summary(of: items, locale: Locale(identifier: "en_US")))
    #expect(english.title.hasPrefix("Set "))
  }
}

/// A filter with lists and a Float.
struct ListsFilter: FocusFilter {
  static let title = "Lists"
  @FocusParameter(title: "Layouts", default: [])
  var layouts: [ChatLayout]
  @FocusParameter(title: "Volume", default: 1)
  var volume: Float
  var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: Self.title) }
  func perform() async throws {}
}

/// A query that only implements lookups: its suggestions default to none.
struct AccountQueryWithoutSuggestions: EntityQuery {
  func entities(for identifiers: [String]) async throws -> [AccountEntity] { [] }
}
