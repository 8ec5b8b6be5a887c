import Foundation
import Synchronization
import Testing

@testable import SiftFocus

/// What `perform()` saw, per status message (each test uses its own).
actor SystemPerformLog {
  static let shared = SystemPerformLog()
  private(set) var calls: [String] = []
  func record(_ line: String) { calls.append(line) }
  func lines(containing marker: String) -> [String] { calls.filter { $0.contains(marker) } }
}

/// The talk's chat filter for the system tests.
struct SystemChatFilter: FocusFilter {
  static let title = "Set account, status & look"

  @FocusParameter(title: "Use Dark Mode", default: false)
  var alwaysUseDarkMode: Bool

  @FocusParameter(title: "Status Message")
  var status: String?

  @FocusParameter(title: "Selected Account")
  var account: AccountEntity?

  var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: Self.title) }

  var appContext: FocusFilterAppContext { .allowing(account) }

  func perform() async throws {
    await SystemPerformLog.shared.record(
      "\(status ?? "-") account=\(account?.id ?? "-") dark=\(alwaysUseDarkMode)")
  }
}

// Not serialised: every system is its own, so the tests share nothing.
@Suite struct FocusSystemTests {
  static let app = "com.example.chat"

  static func slideFeedback() -> NotificationContent {
    var content = NotificationContent()
    content.title = "Curt Rothert"
    content.subtitle = "Slide Feedback"
    content.body = "The run through today was great. I had few comments about slide 22 and 28."
    content.filterCriteria = "work-account-identifier"
    return content
  }

  static func filter(_ marker: String, account: AccountEntity?, dark: Bool) -> SystemChatFilter {
    var f = SystemChatFilter()
    f.status = marker
    f.account = account
    f.alwaysUseDarkMode = dark
    return f
  }

  /// Work → Personal → no Focus, as in the talk: perform() sees each Focus's values, the
  /// work notification is delivered under Work, muted under Personal, delivered with no
  /// Focus, and the badge follows.
  @Test func theTalkEndToEnd() async throws {
    // The badge the talk recommends: what matters under the Focus, recounted at each change.
    let system = FocusSystem(badges: .unreadCount)
    try await system.register(SystemChatFilter.self, app: Self.app)
    try await system.save(Self.filter("e2e-work", account: .work, dark: false), for: Self.app, in: "Work")
    try await system.save(Self.filter("e2e-personal", account: .personal, dark: true), for: Self.app, in: "Personal")

    #expect(try await system.activate("Work").isEmpty)
    let underWork = try await system.deliver(Self.slideFeedback(), to: Self.app)
    #expect(underWork.decision.outcome == .delivered && underWork.decision.reason == .matched)
    #expect(await system.badgeCount(of: Self.app) == 1)

    try await system.activate("Personal")
    #expect(await system.badgeCount(of: Self.app) == 0)  // the work message does not matter now
    let underPersonal = try await system.deliver(Self.slideFeedback(), to: Self.app)
    #expect(underPersonal.decision.outcome == .muted && underPersonal.decision.reason == .notMatched)
    #expect(await system.badgeCount(of: Self.app) == 0)

    try await system.activate(nil)
    let noFocus = try await system.deliver(Self.slideFeedback(), to: Self.app)
    #expect(noFocus.decision == .noActiveFocus)
    #expect(await system.badgeCount(of: Self.app) == 3)  // nothing is filtered without a Focus

    let history = try await system.history(of: Self.app)
    #expect(history.map(\.focus) == ["Work", "Personal", nil])
    #expect(history.map(\.sequence) == [1, 2, 3])
    let performed = await SystemPerformLog.shared.lines(containing: "e2e-")
    #expect(
      performed == [
        "e2e-work account=work-account-identifier dark=false",
        "e2e-personal account=personal-account-identifier dark=true",
      ])
    try await system.markAllRead(app: Self.app)
    #expect(await system.badgeCount(of: Self.app) == 0)
  }

  /// `current` reads the active Focus's saved values through the system, and
  /// `invalidateFocusFilterAppContext()` makes the system read the app context again.
  @Test func currentAndInvalidationGoThroughTheSystem() async throws {
    let system = FocusSystem()
    try await system.register(SystemChatFilter.self, app: Self.app)
    try await system.save(Self.filter("current-work", account: .work, dark: false), for: Self.app, in: "Work")
    try await system.activate("Work")
    #expect(try await system.withApp(Self.app) { try await SystemChatFilter.current.status } == "current-work")

    // The user picks the personal account for Work; the app asks the system to re-read.
    try await system.save(Self.filter("current-work", account: .personal, dark: false), for: Self.app, in: "Work")
    #expect(try await system.deliver(Self.slideFeedback(), to: Self.app).decision.reason == .matched)
    // The values in force, not the saved ones, are re-read: Work's filter is unchanged
    // until Work is activated again.
    try await system.reloadAppContext(for: Self.app)
    #expect(try await system.deliver(Self.slideFeedback(), to: Self.app).decision.reason == .matched)
    try await system.activate("Work")
    #expect(try await system.deliver(Self.slideFeedback(), to: Self.app).decision.reason == .notMatched)
    #expect(try await system.withApp(Self.app) { try await SystemChatFilter.current.account } == .personal)
  }

  @Test func aFocusWithoutSavedValuesDoesNotFilterTheApp() async throws {
    let system = FocusSystem()
    try await system.register(SystemChatFilter.self, app: Self.app)
    try await system.activate("Personal")
    let record = try await system.deliver(Self.slideFeedback(), to: Self.app)
    #expect(record.decision.outcome == .delivered && record.decision.reason == .noFilter)
  }

  @Test func anAppThatIsNotRunningGetsTheChangeThroughItsExtension() async throws {
    let system = FocusSystem()
    let received = Mutex<[FocusChange]>([])
    try await system.register(SystemChatFilter.self, app: Self.app, isRunning: false) { change in
      received.withLock { $0.append(change) }
    }
    try await system.save(Self.filter("ext-work", account: .work, dark: false), for: Self.app, in: "Work")
    try await system.activate("Work")
    try await system.activate(nil)
    let changes = received.withLock { $0 }
    #expect(changes.map(\.focus) == ["Work", nil])
    #expect(changes.first?.parameterValues["status"] == .string("ext-work"))
    #expect(await SystemPerformLog.shared.lines(containing: "ext-work").isEmpty)  // perform() not called
    // The filter still applies to notifications.
    try await system.activate("Work")
    #expect(try await system.deliver(Self.slideFeedback(), to: Self.app).decision.reason == .matched)
  }

  @Test func unknownFocusIsAnError() async throws {
    let system = FocusSystem()
    await #expect(throws: FocusSystemError.self) { try await system.activate("Gardening") }
    await #expect(throws: FocusSystemError.self) {
      try await system.save(SystemChatFilter(), for: Self.app, in: "Gardening")
    }
    try await system.addFocus(FocusMode(name: "Gardening"))
    try await system.activate("Gardening")
    #expect(await system.activeFocus == "Gardening")
  }

  @Test func theConfigurationSurvivesARestart() async throws {
    let store = try FocusStoreTests.temporaryStore()
    do {
      let system = try FocusSystem(store: store)
      try await system.register(SystemChatFilter.self, app: Self.app)
      try await system.addFocus(FocusMode(name: "Reading"))
      try await system.save(Self.filter("restart", account: .work, dark: true), for: Self.app, in: "Reading")
      try await system.activate("Reading")
    }
    let restarted = try FocusSystem(store: store)
    #expect(await restarted.activeFocus == "Reading")
    let saved = await restarted.configuration.savedParameters["Reading"]?[Self.app]
    #expect(saved?["account"] == .entity("work-account-identifier"))
    #expect(saved?["alwaysUseDarkMode"] == .bool(true))
    // A corrupt file stops the system from starting instead of resetting it.
    try Data("{".utf8).write(to: store.url)
    #expect(throws: FocusStoreError.self) { try FocusSystem(store: store) }
  }

  /// Deliveries from many tasks while the Focus flips: nothing is lost or duplicated, and
  /// each decision matches the Focus recorded with it.
  @Test func deliveriesRaceAFocusChangeSafely() async throws {
    let system = FocusSystem()
    try await system.register(SystemChatFilter.self, app: Self.app)
    try await system.save(Self.filter("race-work", account: .work, dark: false), for: Self.app, in: "Work")
    try await system.save(Self.filter("race-personal", account: .personal, dark: true), for: Self.app, in: "Personal")
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for k in 0..<40 { try await system.activate(k % 2 == 0 ? "Work" : "Personal") }
      }
      for t in 0..<8 {
        group.addTask {
          for k in 0..<250 {
            var content = Self.slideFeedback()
            content.senderIdentifier = "\(t)-\(k)"
            try await system.deliver(content, to: Self.app)
          }
        }
      }
      try await group.waitForAll()
    }
    let history = try await system.history(of: Self.app)
    #expect(history.count == 2000)
    #expect(Set(history.map(\.content.senderIdentifier)).count == 2000)
    for record in history {
      switch record.focus {
      case "Work": #expect(record.decision.reason == .matched)
      case "Personal": #expect(record.decision.reason == .notMatched)
      default: #expect(record.decision == .noActiveFocus)
      }
    }
  }
}
