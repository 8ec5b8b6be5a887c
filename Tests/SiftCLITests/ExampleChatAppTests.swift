import Foundation
import Sift
import Testing

/// The example chat app, run as built: Work → Personal → no Focus, one JSON line per decision.
@Suite("ExampleChatApp")
struct ExampleChatAppTests {
  static func run(_ arguments: [String]) throws -> SiftResult {
    let executable = try SiftProcess.binary().deletingLastPathComponent().appendingPathComponent("ExampleChatApp")
    return try SiftProcess.run(executable: executable, arguments, input: .none)
  }

  @Test func jsonLinesFollowTheFocusSequence() throws {
    let result = try Self.run(["--json"])
    #expect(result.exited(0))
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let decisions = try lines.map { line -> [String: SiftValue] in
      guard case .dictionary(let d) = try SiftValue(json: line) else { throw SyntaxError("not an object", at: .at(0)) }
      return d
    }
    #expect(decisions.count == 12)
    let focuses: [SiftValue?] = decisions.map { $0["focus"] }
    let expected: [SiftValue?] =
      Array(repeating: "Work", count: 4) + Array(repeating: "Personal", count: 4) + Array(repeating: .null, count: 4)
    #expect(focuses == expected)
    // The talk's case: the work account's "Slide Feedback" under the Personal Focus is muted.
    let muted = decisions.first { $0["focus"] == "Personal" && $0["filterCriteria"] == "work-account-identifier" }
    #expect(muted?["decision"] == "muted")
    #expect(muted?["reason"] == "filterCriteria not allowed by the Personal Focus predicate")
    #expect(decisions.filter { $0["focus"] == .null }.allSatisfy { $0["decision"] == "delivered" })
    #expect(decisions.filter { $0["filterCriteria"] == .null }.allSatisfy { $0["decision"] == "delivered" })
    // The build bot's payload carries `"badge": 1`, which sets the badge (APNs badges are
    // absolute); every other delivered notification adds one, muted ones nothing.
    #expect(decisions.map { $0["badge"] } == [1, 1, 1, 2, 2, 3, 3, 4, 3, 4, 1, 2].map { SiftValue.int($0) })
  }

  @Test func readableSummaryShowsTheAppFollowingTheFocus() throws {
    let result = try Self.run([])
    #expect(result.exited(0))
    let text = result.stdout
    #expect(text.contains(#"Focus: Work  (app shows Work, status "In a meeting", Dynamic)"#))
    #expect(text.contains(#"Focus: Personal  (app shows Personal, status "Available", Dark)"#))
    #expect(text.contains("Set Account, Status, and Look — Work, In a meeting, and Dynamic"))
  }

  @Test func helpPrintsTheUsageAndRunsNothing() throws {
    for flag in ["--help", "-h"] {
      let result = try Self.run([flag])
      #expect(result.exited(0))
      #expect(result.stdout.hasPrefix("usage: ExampleChatApp [--json]"))
      #expect(!result.stdout.contains("Focus: Work"))
    }
  }

  @Test(arguments: ["--jsn", "extra", "-x"])
  func anUnknownArgumentIsAnError(_ argument: String) throws {
    let result = try Self.run([argument])
    #expect(result.exited(2))
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("unknown argument '\(argument)'"))
  }
}
