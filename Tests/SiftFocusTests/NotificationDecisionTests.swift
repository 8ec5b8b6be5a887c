import Foundation
import SiftFocus
import Testing

/// The local notification from the "Meet Focus filters" session: a work message.
private let slideFeedback = NotificationContent(
  title: "Curt Rothert", subtitle: "Slide Feedback",
  body: "The run through today was great. I had few comments about slide 22 and 28.",
  filterCriteria: "work-account-identifier")

private func filter(_ format: String, prefix: String? = nil) throws -> NotificationFilter {
  NotificationFilter(predicate: try SiftPredicate(format: format), targetContentIdentifierPrefix: prefix)
}

@Test func slideFeedbackIsMutedUnderThePersonalFocus() throws {
  let personal = try filter(#"SELF IN {"personal-account-identifier"}"#)
  let decision = personal.decide(slideFeedback)
  #expect(decision == NotificationDecision(outcome: .muted, reason: .notMatched))
  #expect(decision.explanation(focus: "Personal") == "filterCriteria not allowed by the Personal Focus predicate")
}

@Test func slideFeedbackIsDeliveredUnderTheWorkFocus() throws {
  let work = try filter(#"SELF IN {"work-account-identifier", "shared-account-identifier"}"#)
  #expect(work.decide(slideFeedback) == NotificationDecision(outcome: .delivered, reason: .matched))
}

@Test func allowedAccountsBoundAsAnArgument() throws {
  let work = NotificationFilter(
    predicate: try SiftPredicate(format: "SELF IN %@", arguments: [["work-account-identifier"]]))
  #expect(work.decide(slideFeedback).outcome == .delivered)
}

/// One row per decision of the design: predicate, prefix, criteria, target, expected decision.
struct DecisionCase: Sendable, CustomTestStringConvertible {
  var name: String
  var predicate: String?
  var prefix: String? = nil
  var criteria: String?
  var target: String? = nil
  var level: InterruptionLevel = .active
  var allowsTimeSensitive = true
  var allowsCriticalAlerts = false
  var failure: String? = nil
  var outcome: NotificationDecision.Outcome
  var reason: NotificationDecision.Reason
  var testDescription: String { name }
}

let decisionCases: [DecisionCase] = [
  DecisionCase(name: "no predicate", predicate: nil, criteria: "work", outcome: .delivered, reason: .noFilter),
  DecisionCase(
    name: "no predicate ignores the prefix", predicate: nil, prefix: "work/", criteria: "work", target: "home/x",
    outcome: .delivered, reason: .noFilter),
  DecisionCase(
    name: "no filterCriteria", predicate: "SELF == 'work'", criteria: nil, outcome: .delivered,
    reason: .noFilterCriteria),
  DecisionCase(name: "matched", predicate: "SELF == 'work'", criteria: "work", outcome: .delivered, reason: .matched),
  DecisionCase(
    name: "not matched", predicate: "SELF == 'work'", criteria: "home", outcome: .muted, reason: .notMatched),
  DecisionCase(
    name: "evaluation error", predicate: "SELF > 3", criteria: "work", outcome: .muted,
    reason: .predicateError("")),
  DecisionCase(
    name: "prefix matches", predicate: "SELF == 'work'", prefix: "work/", criteria: "work", target: "work/inbox",
    outcome: .delivered, reason: .matched),
  // The prefix selects the scene a notification opens; it never mutes (Apple's semantics).
  DecisionCase(
    name: "prefix mismatch still delivers", predicate: "SELF == 'work'", prefix: "work/", criteria: "work",
    target: "home/inbox", outcome: .delivered, reason: .matched),
  DecisionCase(
    name: "critical breaks through", predicate: "SELF == 'work'", criteria: "home", level: .critical,
    allowsCriticalAlerts: true, outcome: .delivered, reason: .critical),
  DecisionCase(
    name: "critical breaks through when the Focus refuses time-sensitive", predicate: "SELF == 'work'",
    criteria: "home", level: .critical, allowsTimeSensitive: false, allowsCriticalAlerts: true, outcome: .delivered,
    reason: .critical),
  // Without the app's permission (Apple's entitlement) critical is an active notification.
  DecisionCase(
    name: "critical without permission follows the filter", predicate: "SELF == 'work'", criteria: "home",
    level: .critical, outcome: .muted, reason: .notMatched),
  DecisionCase(
    name: "critical without permission matched", predicate: "SELF == 'work'", criteria: "work", level: .critical,
    outcome: .delivered, reason: .matched),
  DecisionCase(
    name: "time-sensitive allowed", predicate: "SELF == 'work'", criteria: "home", level: .timeSensitive,
    outcome: .delivered, reason: .timeSensitive),
  DecisionCase(
    name: "time-sensitive refused follows the filter", predicate: "SELF == 'work'", criteria: "home",
    level: .timeSensitive, allowsTimeSensitive: false, outcome: .muted, reason: .notMatched),
  DecisionCase(
    name: "passive follows the filter", predicate: "SELF == 'work'", criteria: "home", level: .passive,
    outcome: .muted, reason: .notMatched),
  DecisionCase(
    name: "passive matched", predicate: "SELF == 'work'", criteria: "work", level: .passive, outcome: .delivered,
    reason: .matched),
  DecisionCase(
    name: "unavailable filter fails closed", predicate: nil, criteria: "work", failure: "bad predicate",
    outcome: .muted, reason: .filterUnavailable("bad predicate")),
  DecisionCase(
    name: "unavailable filter fails closed without criteria", predicate: nil, criteria: nil,
    failure: "bad predicate", outcome: .muted, reason: .filterUnavailable("bad predicate")),
  DecisionCase(
    name: "critical breaks through an unavailable filter", predicate: nil, criteria: "work", level: .critical,
    allowsCriticalAlerts: true, failure: "bad predicate", outcome: .delivered, reason: .critical),
  DecisionCase(
    name: "critical without permission stays closed", predicate: nil, criteria: "work", level: .critical,
    failure: "bad predicate", outcome: .muted, reason: .filterUnavailable("bad predicate")),
  DecisionCase(
    name: "no target is not affected by the prefix", predicate: "SELF == 'work'", prefix: "work/", criteria: "work",
    outcome: .delivered, reason: .matched),
  DecisionCase(
    name: "prefix checked after the predicate", predicate: "SELF == 'work'", prefix: "work/", criteria: "home",
    target: "home/inbox", outcome: .muted, reason: .notMatched),
]

@Test(arguments: decisionCases)
func everyDecisionReason(_ row: DecisionCase) throws {
  let predicate = try row.predicate.map { try SiftPredicate(format: $0) }
  var filter = NotificationFilter(
    predicate: predicate, targetContentIdentifierPrefix: row.prefix, allowsTimeSensitive: row.allowsTimeSensitive,
    allowsCriticalAlerts: row.allowsCriticalAlerts)
  if let failure = row.failure {
    filter = .unavailable(
      failure, allowsTimeSensitive: row.allowsTimeSensitive, allowsCriticalAlerts: row.allowsCriticalAlerts)
  }
  let content = NotificationContent(
    filterCriteria: row.criteria, targetContentIdentifier: row.target, interruptionLevel: row.level)
  let decision = filter.decide(content)
  #expect(decision.outcome == row.outcome)
  switch (decision.reason, row.reason) {
  case (.predicateError(let message), .predicateError):
    // The message is the engine's; only its presence is pinned here.
    #expect(!message.isEmpty)
  default:
    #expect(decision.reason == row.reason)
  }
  // The static entry point with an active Focus agrees with the instance method.
  #expect(NotificationFilter.decide(content, under: filter) == decision)
}

@Test func noActiveFocusDeliversEverything() throws {
  let muted = NotificationContent(filterCriteria: "home")
  #expect(NotificationFilter.decide(muted, under: nil) == .noActiveFocus)
  #expect(NotificationDecision.noActiveFocus == NotificationDecision(outcome: .delivered, reason: .noActiveFocus))
}

@Test func predicateErrorCarriesTheEvaluationMessage() throws {
  let predicate = try SiftPredicate(format: "SELF > 3")
  let expected: String
  do {
    _ = try predicate.evaluate(with: "work")
    Issue.record("expected an evaluation error")
    return
  } catch {
    expected = error.message
  }
  let decision = NotificationFilter(predicate: predicate).decide(NotificationContent(filterCriteria: "work"))
  #expect(decision == NotificationDecision(outcome: .muted, reason: .predicateError(expected)))
}

/// Catastrophic backtracking runs out of the step budget: the notification is muted with
/// the error as its reason, never dropped and never a crash.
@Test func regexLimitIsMutedWithThePredicateError() throws {
  // A back reference needs backtracking, whose tiers of match limit the budget pays for.
  let filter = try filter("SELF MATCHES '(a+)+b\\\\1c'")
  let content = NotificationContent(filterCriteria: String(repeating: "a", count: 30_000) + "bc")
  let decision = filter.decide(content)
  #expect(decision.outcome == .muted)
  guard case .predicateError(let message) = decision.reason else {
    Issue.record("expected predicateError, got \(decision.reason)")
    return
  }
  #expect(message.contains("step budget"))
  #expect(
    decision.explanation(focus: "Work")
      == "the Work Focus predicate failed: evaluation exceeded its step budget (EvaluationLimits.maxSteps)")
}

@Test(arguments: [
  (NotificationDecision.Reason.noActiveFocus, "noActiveFocus", "no Focus is active", "no Focus is active"),
  (.noFilter, "noFilter", "the app has no filter for the Focus", "the app has no filter for the Work Focus"),
  (
    .matched, "matched", "filterCriteria allowed by the Focus predicate",
    "filterCriteria allowed by the Work Focus predicate"
  ),
  (
    .notMatched, "notMatched", "filterCriteria not allowed by the Focus predicate",
    "filterCriteria not allowed by the Work Focus predicate"
  ),
  (
    .noFilterCriteria, "noFilterCriteria", "the notification has no filterCriteria",
    "the notification has no filterCriteria"
  ),
  (
    .predicateError("boom"), "predicateError", "the Focus predicate failed: boom",
    "the Work Focus predicate failed: boom"
  ),
  (
    .critical, "critical", "critical notifications break through the Focus",
    "critical notifications break through the Work Focus"
  ),
  (
    .timeSensitive, "timeSensitive", "the Focus lets time-sensitive notifications through",
    "the Work Focus lets time-sensitive notifications through"
  ),
  (
    .filterUnavailable("boom"), "filterUnavailable", "the app's filter for the Focus is unavailable: boom",
    "the app's filter for the Work Focus is unavailable: boom"
  ),
  (
    .unknownUser, "unknownUser", "the service has no Focus state for this user",
    "the service has no Focus state for this user"
  ),
  (.silencedByFocus, "silencedByFocus", "the Focus silences this app", "the Work Focus silences this app"),
  (.allowedSender, "allowedSender", "the Focus allows this sender", "the Work Focus allows this sender"),
])
func reasonPhrases(reason: NotificationDecision.Reason, code: String, plain: String, named: String) {
  #expect(reason.code == code)
  #expect(reason.description == plain)
  #expect(reason.explanation(focus: nil) == plain)
  #expect(reason.explanation(focus: "Work") == named)
}

/// The allow list that replaces `SELF IN {ids}` decides exactly as the compiled predicate:
/// random id lists and subjects (small and long strings, Unicode, near misses, duplicates),
/// checked against `SiftPredicate.evaluate` on the same subject.
@Test func allowListAgreesWithThePredicate() throws {
  var generator = SystemRandomNumberGenerator()
  let alphabet: [String] = ["a", "b", "é", "e\u{301}", "Z", "-", "0", "ß", "\u{1F}", "🙂"]
  func randomString() -> String {
    let count = Int.random(in: 0...20, using: &generator)
    return (0..<count).map { _ in alphabet.randomElement(using: &generator)! }.joined()
  }
  for _ in 0..<2_000 {
    let ids = (0..<Int.random(in: 0...5, using: &generator)).map { _ in randomString() }
    let predicate = try SiftPredicate(format: "SELF IN %@", arguments: [.array(ids.map { .string($0) })])
    let filter = NotificationFilter(predicate: predicate)
    for _ in 0..<10 {
      let subject =
        Bool.random(using: &generator) && !ids.isEmpty ? ids.randomElement(using: &generator)! : randomString()
      // Rebuilt with spare capacity half of the time, so the non-small path is taken too.
      var copy = subject
      if Bool.random(using: &generator) { copy.reserveCapacity(64) }
      let expected = try predicate.evaluate(with: copy)
      let decision = filter.decide(NotificationContent(filterCriteria: copy))
      #expect(decision.reason == (expected ? .matched : .notMatched), "ids \(ids) subject \(copy.debugDescription)")
    }
  }
}

@Test func allowListFilterKeepsItsPredicateReadable() throws {
  let filter = NotificationFilter(predicate: try SiftPredicate(format: #"SELF IN {"a", "b"}"#))
  let predicate = try #require(filter.predicate)
  #expect(predicate.matches("a") && !predicate.matches("c"))
  let data = try JSONEncoder().encode(filter)
  #expect(try JSONDecoder().decode(NotificationFilter.self, from: data) == filter)
}
