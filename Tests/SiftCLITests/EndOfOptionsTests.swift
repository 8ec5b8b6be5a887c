import Foundation
import Testing

extension SiftCLITests {
  /// `--` ends the options of every command: what follows is a predicate or a file even
  /// when it starts with `-`, and every command's help says so.
  @Suite("'--' ends the options")
  struct EndOfOptions {
    /// One run and what it must print.
    struct Case: Sendable, CustomTestStringConvertible {
      var arguments: [String]
      var input = ""
      var status: Int32 = 0
      /// Standard output, or its beginning when `prefixOnly`.
      var stdout: String
      var prefixOnly = false

      var testDescription: String { "sift " + arguments.joined(separator: " ") }
    }

    static let predicates: [Case] = [
      Case(arguments: ["parse", "--", "-1 < 2"], stdout: "-1 < 2\n"),
      Case(arguments: ["parse", "--ast", "--", "-1 < 2"], stdout: "", prefixOnly: true),
      Case(arguments: ["parse", "--args", "[3]", "--", "-1 < %@"], stdout: "-1 < 3\n"),
      Case(arguments: ["format", "--", "-1<x"], stdout: "-1 < x\n"),
      Case(arguments: ["explain", "--", "-1 < x"], stdout: "predicate: -1 < x\n", prefixOnly: true),
      Case(arguments: ["filter", "--count", "--", "-1 < a"], input: "{\"a\": 0}\n{\"a\": -5}\n", stdout: "1\n"),
      Case(
        arguments: ["filter", "--", "-1 < a", "-"], input: "{\"a\": 0}\n{\"a\": -5}\n", stdout: "{\"a\": 0}\n"),
      Case(
        arguments: ["cases", "--"], input: #"{"id": 1, "format": "-1 < 2"}"# + "\n",
        stdout: #"{"id": 1, "canonical": "-1 < 2", "result": true}"# + "\n"),
      // After `--` an option's spelling is an operand too.
      Case(arguments: ["parse", "--", "--ast"], status: 1, stdout: ""),
      Case(arguments: ["explain", "--", "--help"], status: 1, stdout: ""),
    ]

    @Test("a predicate that starts with '-' after '--'", arguments: predicates)
    func predicateAfterDoubleDash(_ c: Case) throws {
      let r = try SiftProcess.run(c.arguments, input: .text(c.input))
      #expect(r.exited(c.status), "\(r.status) \(r.stderr)")
      if c.prefixOnly {
        #expect(r.stdout.hasPrefix(c.stdout), "\(r.stdout)")
        #expect(!r.stdout.isEmpty)
      } else {
        #expect(r.stdout == c.stdout)
      }
      if c.status == 0 { #expect(r.stderr == "") }
    }

    /// Without `--` such a predicate is taken for an option, which is why `--` is there.
    @Test func withoutDoubleDashADashPredicateIsAnOption() throws {
      let r = try SiftProcess.run(["filter", "-1 < a"], input: .text("{}\n"))
      #expect(r.exited(2))
      #expect(r.stderr == "sift: unknown option -1 < a for sift filter\n")
    }

    /// Files whose names start with `-`, in the working directory, after `--`.
    static let files: [Case] = [
      Case(arguments: ["check", "--", "-preds.txt"], stdout: ""),
      Case(arguments: ["filter", "a == 1", "--", "-in.jsonl"], stdout: "{\"a\": 1}\n"),
      Case(
        arguments: ["filter", "--", "a == 1", "-in.jsonl", "-"], input: "{\"a\": 1, \"b\": 2}\n",
        stdout: "{\"a\": 1}\n{\"a\": 1, \"b\": 2}\n"),
      Case(
        arguments: ["bench", "--rounds", "1", "--", "-1 < a", "-in.jsonl"],
        stdout: "round 1: 2 lines (2 matched, 0 not matched, 0 errors) in ", prefixOnly: true),
    ]

    @Test("a file that starts with '-' after '--'", arguments: files)
    func fileAfterDoubleDash(_ c: Case) throws {
      let directory = try TemporaryDirectory()
      try directory.write("-preds.txt", "a == 1\n-1 < b\n")
      try directory.write("-in.jsonl", "{\"a\": 1}\n{\"a\": 2}\n")
      let r = try SiftProcess.shell(
        #"cd "$1" && shift && exec "$SIFT" "$@""#, arguments: [directory.path] + c.arguments,
        input: .text(c.input))
      #expect(r.exited(c.status), "\(r.status) \(r.stderr)")
      if c.prefixOnly {
        #expect(r.stdout.hasPrefix(c.stdout), "\(r.stdout)")
      } else {
        #expect(r.stdout == c.stdout)
      }
      if c.arguments[0] == "check" {
        #expect(r.stderr == "-preds.txt: 2 predicates, 0 invalid\n")
      } else {
        #expect(r.stderr == "")
      }
    }

    @Test(
      "operands after '--' are counted as usual",
      arguments: [
        (["parse", "--", "a == 1", "b == 2"], "sift: sift parse takes one predicate\n"),
        (["format", "--", "a == 1", "--args"], "sift: sift format takes one predicate\n"),
        (["check", "--", "a.txt", "-b.txt"], "sift: sift check takes one file\n"),
        (["cases", "--", "--help"], "sift: unknown argument --help for sift cases\n"),
        (["bench", "--", "a == 1", "f", "--rounds"], "sift: sift bench takes one predicate and one file\n"),
        (["filter", "--"], "sift: sift filter needs a predicate\n"),
      ] as [([String], String)])
    func tooManyOperands(_ arguments: [String], _ message: String) throws {
      let r = try SiftProcess.run(arguments)
      #expect(r.exited(2), "\(r.status) \(r.stderr)")
      #expect(r.stderr == message)
    }

    /// Every command's usage line shows `[--]` and its options list `--`.
    @Test(arguments: Usage.commands)
    func everyHelpMentionsDoubleDash(_ command: String) throws {
      let r = try SiftProcess.run([command, "--help"])
      #expect(r.exited(0))
      let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.first?.contains(" [--] ") == true, "\(lines.first ?? "")")
      #expect(lines.contains { $0.hasPrefix("  --  ") }, "\(r.stdout)")
    }

    /// The records `--help` shows for `--decisions` are the records it writes for a named
    /// file: "file" first.
    @Test func decisionsHelpShowsTheRecordsAsWritten() throws {
      let help = try SiftProcess.run(["filter", "--help"]).stdout
      let shown = help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { $0.hasPrefix("{") }
      #expect(
        shown == [
          #"{"file": "NAME", "line": N, "match": true|false}"#,
          #"{"file": "NAME", "line": N, "error": {"message": "…", "offset": N}}"#,
        ])
      guard shown.count == 2 else { return }
      let file = try TemporaryFile(Array("{\"a\": 1}\n{\"a\": 2}\nnot json\n".utf8))
      let r = try SiftProcess.run(["filter", "--decisions", "a == 1", file.path])
      #expect(r.exited(1))
      func filled(_ template: String, line: Int, _ match: String = "") -> String {
        template.replacingOccurrences(of: "NAME", with: file.path)
          .replacingOccurrences(of: #""line": N"#, with: #""line": \#(line)"#)
          .replacingOccurrences(of: "true|false", with: match)
      }
      #expect(r.lines.count == 3)
      guard r.lines.count == 3 else { return }
      #expect(r.lines[0] == filled(shown[0], line: 1, "true"))
      #expect(r.lines[1] == filled(shown[0], line: 2, "false"))
      let error = filled(shown[1], line: 3)
      #expect(r.lines[2].hasPrefix(String(error.prefix(upTo: error.range(of: "…")!.lowerBound))))
      #expect(r.lines[2].hasSuffix(#"", "offset": 0}}"#))
    }
  }
}

/// A temporary directory that is removed, with what it holds, when the test is done.
final class TemporaryDirectory {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent("sift-cli-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  }

  func write(_ name: String, _ content: String) throws {
    guard FileManager.default.createFile(atPath: path + "/" + name, contents: Data(content.utf8)) else {
      throw CocoaError(.fileWriteUnknown)
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
