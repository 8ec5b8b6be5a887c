// The talk's chat app end to end: Work and Personal Focus configured differently, a
// stream of notifications from both accounts, and the decisions the system makes for
// Work -> Personal -> no Focus. `--json` prints one line per decision.
import Foundation
import SiftFocus

let usage = """
  usage: ExampleChatApp [--json]

  The chat app of the "Meet Focus filters" session on SiftFocus: the Work and Personal
  Focus are configured with different accounts, then a stream of notifications from both
  accounts is delivered under Work, Personal and no Focus, and each decision is shown with
  its reason and the app's badge.

  options:
    --json      one JSON object per decision (focus, filterCriteria, title, decision,
                reason, badge) instead of the readable summary
    -h, --help  show this help

  """

/// Reads the arguments: true for `--json`; `--help` prints the usage and exits 0; anything
/// else is an error (exit status 2), so a typo never runs the demo silently.
func parseArguments(_ arguments: ArraySlice<String>) -> Bool {
  var json = false
  for argument in arguments {
    switch argument {
    case "--json": json = true
    case "-h", "--help":
      print(usage, terminator: "")
      exit(0)
    default:
      FileHandle.standardError.write(Data("ExampleChatApp: unknown argument '\(argument)'\n\(usage)".utf8))
      exit(2)
    }
  }
  return json
}

/// Run as a function: top-level closures in main.swift would be MainActor closures.
func runExample() async throws {
  let json = parseArguments(CommandLine.arguments.dropFirst())
  let app = "com.example.chat"
  // The talk's badge: what matters under the Focus, recounted at each change.
  let system = FocusSystem(badges: .unreadCount)
  try await system.register(ExampleChatAppFocusFilter.self, app: app)

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
    // perform() ran with the defaults when the Focus ended, so the model is back to them.
    let shown = await ChatModel.shared.state
    if !json {
      print(
        "\nFocus: \(focus ?? "none")  (app shows \(shown.account), status \"\(shown.status)\", \(shown.appearance))")
    }
    for content in Notifications.stream {
      let record = try await system.deliver(content, to: app)
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
