// The talk's chat app end to end: Work and Personal Focus configured differently, a
// stream of notifications from both accounts, and the decisions the system makes for
// Work -> Personal -> no Focus. `--json` prints one line per decision.
import SiftFocus

/// Run as a function: top-level closures in main.swift would be MainActor closures.
func runExample() async throws {
  let json = CommandLine.arguments.dropFirst().contains("--json")
  let app = "com.example.chat"
  let system = FocusSystem()
  await system.register(ExampleChatAppFocusFilter.self, app: app)

  var work = ExampleChatAppFocusFilter()
  work.account = .work
  work.status = "In a meeting"
  try await system.save(work, for: app, in: "Work")
  var personal = ExampleChatAppFocusFilter()
  personal.account = .personal
  personal.alwaysUseDarkMode = true
  try await system.save(personal, for: app, in: "Personal")

  if !json {
    print("\(ExampleChatAppFocusFilter.title)")
    print("  Work:     \(work.displayRepresentation.title) — \(work.displayRepresentation.subtitle ?? "")")
    print("  Personal: \(personal.displayRepresentation.title) — \(personal.displayRepresentation.subtitle ?? "")")
  }

  for focus in ["Work", "Personal", nil] as [String?] {
    let failures = try await system.activate(focus)
    for (failedApp, error) in failures { print("\(failedApp): \(error)") }
    let state = await ChatModel.shared.state
    if focus == nil { await ChatModel.shared.reset() }
    if !json {
      let shown = focus == nil ? ChatModel.State() : state
      print(
        "\nFocus: \(focus ?? "none")  (app shows \(shown.account), status \"\(shown.status)\", \(shown.appearance))")
    }
    for content in Notifications.stream {
      let record = await system.deliver(content, to: app)
      let badge = await system.badgeCount(of: app)
      if json {
        let line: SiftValue = [
          "focus": focus.map { .string($0) } ?? .null,
          "filterCriteria": content.filterCriteria.map { .string($0) } ?? .null,
          "title": .string(content.subtitle.isEmpty ? content.title : content.subtitle),
          "decision": .string(record.decision.outcome.rawValue),
          "reason": .string(record.decision.explanation(focus: focus)),
          "badge": .int(badge),
        ]
        print(line.jsonText)
      } else {
        let what = content.subtitle.isEmpty ? content.title : content.subtitle
        print(
          "  \(record.decision.outcome.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) "
            + "\(what.padding(toLength: 22, withPad: " ", startingAt: 0)) "
            + "\(record.decision.explanation(focus: focus))  [badge \(badge)]")
      }
    }
  }
}

try await runExample()
