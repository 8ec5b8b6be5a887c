import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension SiftCLITests {
  /// Everything decided is written before a read that would wait: each test sends a line,
  /// waits for its answer, and only then sends the next, so a command that held answers
  /// back until its input ended (or a buffer filled) never gives the first one.
  @Suite("slow streams get their answers as lines arrive")
  struct SlowStreams {
    /// One command, and the answers its lines must get, step by step.
    struct Row: Sendable, CustomTestStringConvertible {
      var name: String
      /// `RULES` stands for a rules file with `{"id": 1, "predicate": "a > 0"}`.
      var arguments: [String]
      /// What is sent, and what must then be on standard output (or standard error).
      var steps: [(send: String, expect: String)]
      var onStderr = false
      var status: Int32 = 0
      var testDescription: String { name }
    }

    static let rows: [Row] = [
      Row(
        name: "filter --threads 1", arguments: ["filter", "--threads", "1", "a > 0"],
        steps: [(#"{"a":1}"# + "\n", #"{"a":1}"# + "\n"), (#"{"a":0}"# + "\n" + #"{"a":2}"# + "\n", #"{"a":2}"#)]),
      Row(
        name: "filter --threads 2", arguments: ["filter", "--threads", "2", "a > 0"],
        steps: [(#"{"a":1}"# + "\n", #"{"a":1}"# + "\n"), (#"{"a":0}"# + "\n" + #"{"a":2}"# + "\n", #"{"a":2}"#)]),
      Row(
        name: "filter --threads 2 --invert", arguments: ["filter", "--threads", "2", "--invert", "a > 0"],
        steps: [(#"{"a":0}"# + "\n", #"{"a":0}"# + "\n"), (#"{"a":-1}"# + "\n", #"{"a":-1}"#)]),
      Row(
        name: "filter --decisions --threads 1", arguments: ["filter", "--decisions", "--threads", "1", "a > 0"],
        steps: [
          (#"{"a":1}"# + "\n", #"{"line": 1, "match": true}"# + "\n"),
          ("not json\n", #"{"line": 2, "error": {"message": "line is not valid JSON"#),
        ], status: 1),
      Row(
        name: "filter --decisions --threads 2", arguments: ["filter", "--decisions", "--threads", "2", "a > 0"],
        steps: [
          (#"{"a":1}"# + "\n", #"{"line": 1, "match": true}"# + "\n"),
          ("not json\n", #"{"line": 2, "error": {"message": "line is not valid JSON"#),
        ], status: 1),
      Row(
        name: "route", arguments: ["route", "--rules", "RULES"],
        steps: [
          (#"{"a":1}"# + "\n", #"{"line": 1, "ids": [1]}"# + "\n"),
          (#"{"a":0}"# + "\n", #"{"line": 2, "ids": []}"# + "\n"),
        ]),
      Row(
        name: "route --each", arguments: ["route", "--each", "--rules", "RULES"],
        steps: [
          (#"{"a":1}"# + "\n", #"{"id": 1, "line": {"a":1}}"# + "\n"),
          (#"{"a":2}"# + "\n", #"{"id": 1, "line": {"a":2}}"# + "\n"),
        ]),
      Row(
        name: "cases", arguments: ["cases"],
        steps: [
          (
            #"{"id": 1, "format": "a > 0", "object": {"a": 1}}"# + "\n",
            #"{"id": 1, "canonical": "a > 0", "result": true}"# + "\n"
          ),
          (#"{"id": 2, "format": "a >"}"# + "\n", #"{"id": 2, "error": {"stage": "parse""#),
        ]),
      Row(
        name: "parse --jsonl", arguments: ["parse", "--jsonl"],
        steps: [
          (#"{"id": 1, "format": "a=1"}"# + "\n", #"{"id": 1, "canonical": "a == 1"}"# + "\n"),
          (#"{"id": 2, "format": "b>2"}"# + "\n", #"{"id": 2, "canonical": "b > 2"}"# + "\n"),
        ]),
      Row(
        name: "format", arguments: ["format"],
        steps: [("a=1\n", "a == 1\n"), ("b  >  2\n", "a == 1\nb > 2\n")]),
      // Diagnostics go to stderr as they are found (this held before, and is kept).
      Row(
        name: "check", arguments: ["check", "-"],
        steps: [("a ==\n", "<stdin>:1: "), ("a == 1\nb ==\n", "<stdin>:3: ")], onStderr: true, status: 1),
    ]

    @Test(arguments: rows)
    func answersComeAsLinesArrive(_ row: Row) throws {
      let rules = try TemporaryFile(Array((#"{"id": 1, "predicate": "a > 0"}"# + "\n").utf8))
      let arguments = row.arguments.map { $0 == "RULES" ? rules.path : $0 }
      let sift = try SiftConversation(arguments)
      for step in row.steps {
        sift.send(step.send)
        guard sift.waitFor(step.expect, on: row.onStderr ? sift.stderr : sift.stdout) else { break }
      }
      let result = sift.finish()
      #expect(result.exited(row.status), "\(result.reason) \(result.status): \(result.stderr)")
    }

    /// The `--errors` file gets each bad line's record before the next read waits too (a
    /// FIFO stands in for the file, so the test sees each record as it is written).
    @Test(arguments: ["1", "2"])
    func errorRecordsComeAsLinesArrive(_ threads: String) throws {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-fifo-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let fifo = directory.appendingPathComponent("errors").path
      #expect(mkfifo(fifo, 0o600) == 0)
      // Opened for reading first (without waiting), so that sift's open for writing does not wait.
      let reader = open(fifo, O_RDONLY | O_NONBLOCK)
      #expect(reader >= 0)
      defer { close(reader) }
      let sift = try SiftConversation(["filter", "--threads", threads, "--errors", fifo, "a > 0"], extra: [reader])
      sift.send("bad 1\n")
      sift.waitFor(#"{"line": 1, "error": {"message": "line is not valid JSON"#, on: reader)
      sift.send(#"{"a":1}"# + "\n" + "bad 3\n")
      sift.waitFor(#"{"line": 3, "error""#, on: reader)
      sift.waitFor(#"{"a":1}"# + "\n", on: sift.stdout)
      let result = sift.finish()
      #expect(result.exited(1))
    }
  }
}
