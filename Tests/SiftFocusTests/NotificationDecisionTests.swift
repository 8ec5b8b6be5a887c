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
  DecisionCase(
    name: "prefix mismatch", predicate: "SELF == 'work'", prefix: "work/", criteria: "work", target: "home/inbox",
    outcome: .muted, reason: .targetContentMismatch(prefix: "work/")),
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
  let filter = NotificationFilter(predicate: predicate, targetContentIdentifierPrefix: row.prefix)
  let content = NotificationContent(filterCriteria: row.criteria, targetContentIdentifier: row.target)
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
    .targetContentMismatch(prefix: "work/"), "targetContentMismatch",
    #"targetContentIdentifier does not start with "work/" as the Focus requires"#,
    #"targetContentIdentifier does not start with "work/" as the Work Focus requires"#
  ),
])
func reasonPhrases(reason: NotificationDecision.Reason, code: String, plain: String, named: String) {
  #expect(reason.code == code)
  #expect(reason.description == plain)
  #expect(reason.explanation(focus: nil) == plain)
  #expect(reason.explanation(focus: "Work") == named)
}
