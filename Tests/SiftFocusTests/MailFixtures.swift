import Foundation
import SiftFocus
import Synchronization

/// A mailbox of the second app the tests write: a mail app with mailboxes and a "Hide
/// Badges" switch.
struct MailboxEntity: AppEntity {
  static let typeDisplayName = "Mailbox"
  static var defaultQuery: MailboxQuery { MailboxQuery() }

  let id: String
  let displayName: String

  static let work = MailboxEntity(id: "work-mail", displayName: "Work")
  static let family = MailboxEntity(id: "family-mail", displayName: "Family")
  static let news = MailboxEntity(id: "news-mail", displayName: "News")
}

/// Lists every mailbox; a lookup waits at ``Gate/current`` when a test armed one, which is
/// how the race tests hold an activation or a re-read at its `await`.
struct MailboxQuery: EnumerableEntityQuery {
  typealias Entity = MailboxEntity
  func allEntities() async throws -> [MailboxEntity] {
    if let gate = Gate.current { await gate.pass() }
    return [.work, .family, .news]
  }
}

/// A one-shot barrier: the first task to ``pass()`` signals ``entered()`` and waits until
/// ``open()``. Bound per task with `Gate.$current`, so only the call a test wraps waits.
actor Gate {
  @TaskLocal static var current: Gate?

  private var hasEntered = false
  private var isOpen = false
  private var enteredWaiters: [CheckedContinuation<Void, Never>] = []
  private var openWaiters: [CheckedContinuation<Void, Never>] = []

  func pass() async {
    hasEntered = true
    for waiter in enteredWaiters { waiter.resume() }
    enteredWaiters = []
    guard !isOpen else { return }
    await withCheckedContinuation { openWaiters.append($0) }
  }

  /// Returns once some task is waiting at the gate.
  func entered() async {
    guard !hasEntered else { return }
    await withCheckedContinuation { enteredWaiters.append($0) }
  }

  func open() {
    isOpen = true
    for waiter in openWaiters { waiter.resume() }
    openWaiters = []
  }
}

/// What `perform()` saw, per test (bound with `MailLog.$current` around the calls that
/// activate).
final class MailLog: Sendable {
  @TaskLocal static var current: MailLog?
  private let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}

/// The mail app's filter: several mailboxes (an array of entities), a switch that hides
/// badges, a badge count to set from `perform()`, and an optional predicate text (to
/// exercise an app context that does not compile).
struct MailFocusFilter: FocusFilter {
  static let title = "Set mailboxes"

  @FocusParameter(title: "Mailboxes", description: "Only mail in these mailboxes notifies.", default: [])
  var mailboxes: [MailboxEntity]

  @FocusParameter(title: "Hide Badges", default: false)
  var hideBadges: Bool

  @FocusParameter(title: "Badge")
  var badge: Int?

  @FocusParameter(title: "Predicate")
  var predicateText: String?

  var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(title: "Mailboxes", subtitle: mailboxes.map(\.displayName).joined(separator: ", "))
  }

  var appContext: FocusFilterAppContext {
    get throws {
      if let predicateText {
        return try FocusFilterAppContext(predicateFormat: predicateText, hidesBadges: hideBadges)
      }
      guard !mailboxes.isEmpty else { return FocusFilterAppContext(hidesBadges: hideBadges) }
      return try FocusFilterAppContext(
        predicateFormat: "SELF IN %@", arguments: [.array(mailboxes.map { .string($0.id) })], hidesBadges: hideBadges)
    }
  }

  func perform() async throws {
    // `current` inside perform() is this user's and this app's filter in force.
    let current = try await Self.current
    MailLog.current?.append("perform mailboxes=\(current.mailboxes.map(\.id)) badge=\(badge.map(String.init) ?? "-")")
    if let badge { try await Self.setBadgeCount(badge) }
  }

  static func configured(_ mailboxes: [MailboxEntity], hideBadges: Bool = false, badge: Int? = nil) -> Self {
    var filter = Self()
    filter.mailboxes = mailboxes
    filter.hideBadges = hideBadges
    filter.badge = badge
    return filter
  }
}

/// A mail notification for one mailbox.
func mail(_ mailbox: MailboxEntity, badge: Int? = nil, level: InterruptionLevel = .active, target: String? = nil)
  -> NotificationContent
{
  NotificationContent(
    title: "mail", filterCriteria: mailbox.id, targetContentIdentifier: target, interruptionLevel: level, badge: badge)
}
