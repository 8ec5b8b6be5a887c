import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension SiftCLITests {
  /// `--max-line-bytes N`: every command that reads lines takes a line of exactly N bytes
  /// (without its ending), reports a line of N + 1 as an error in its own format with its
  /// line number, skips it without holding it, and goes on with the next line.
  @Suite("--max-line-bytes")
  struct LineLimit {
    /// `text` padded with spaces (which JSON and predicates allow) to `count` bytes.
    static func pad(_ text: String, _ count: Int) -> String {
      precondition(text.utf8.count <= count)
      return text + String(repeating: " ", count: count - text.utf8.count)
    }

    static let limit = 64
    static let over = "line is longer than the limit of 64 bytes (--max-line-bytes)"

    /// One command at the edge: the input, and everything it must write.
    struct Row: Sendable, CustomTestStringConvertible {
      var name: String
      /// `RULES` stands for a rules file with `{"id": 1, "predicate": "a > 0"}`.
      var arguments: [String]
      var input: String
      var stdout: [String]
      /// Lines standard error must hold, in order (it may hold more).
      var stderr: [String]
      var status: Int32
      var testDescription: String { name }
    }

    static let jsonEdge =
      pad(#"{"a":1}"#, limit) + "\n" + pad(#"{"a":2}"#, limit + 1) + "\n" + #"{"a":3}"# + "\n"

    static let rows: [Row] = [
      Row(
        name: "filter", arguments: ["filter", "--max-line-bytes", "64", "--threads", "1", "a > 0"], input: jsonEdge,
        stdout: [pad(#"{"a":1}"#, limit), #"{"a":3}"#], stderr: ["sift filter: line 2: \(over)"], status: 1),
      Row(
        name: "filter --threads 2", arguments: ["filter", "--max-line-bytes", "64", "--threads", "2", "a > 0"],
        input: jsonEdge, stdout: [pad(#"{"a":1}"#, limit), #"{"a":3}"#], stderr: ["sift filter: line 2: \(over)"],
        status: 1),
      Row(
        name: "filter --decisions", arguments: ["filter", "--decisions", "--max-line-bytes", "64", "a > 0"],
        input: jsonEdge,
        stdout: [
          #"{"line": 1, "match": true}"#, #"{"line": 2, "error": {"message": "\#(over)"}}"#,
          #"{"line": 3, "match": true}"#,
        ], stderr: ["sift filter: line 2: \(over)"], status: 1),
      Row(
        name: "filter --decisions --threads 2",
        arguments: ["filter", "--decisions", "--threads", "2", "--max-line-bytes", "64", "a > 0"], input: jsonEdge,
        stdout: [
          #"{"line": 1, "match": true}"#, #"{"line": 2, "error": {"message": "\#(over)"}}"#,
          #"{"line": 3, "match": true}"#,
        ], stderr: ["sift filter: line 2: \(over)"], status: 1),
      // The ending is not part of the line: CRLF after exactly the limit is within it.
      Row(
        name: "filter, CRLF endings", arguments: ["filter", "--max-line-bytes", "64", "a > 0"],
        input: pad(#"{"a":1}"#, limit) + "\r\n" + pad(#"{"a":2}"#, limit + 1) + "\r\n" + #"{"a":3}"# + "\r\n",
        stdout: [pad(#"{"a":1}"#, limit) + "\r", #"{"a":3}"# + "\r"], stderr: ["sift filter: line 2: \(over)"],
        status: 1),
      Row(
        name: "route", arguments: ["route", "--rules", "RULES", "--max-line-bytes", "64"], input: jsonEdge,
        stdout: [
          #"{"line": 1, "ids": [1]}"#, #"{"line": 2, "error": {"message": "\#(over)"}}"#, #"{"line": 3, "ids": [1]}"#,
        ], stderr: ["sift route: line 2: \(over)"], status: 1),
      Row(
        name: "check", arguments: ["check", "--max-line-bytes", "64", "-"],
        input: pad("a == 1", limit) + "\n" + pad("a == 2", limit + 1) + "\n" + "a == 3\n", stdout: [],
        stderr: ["<stdin>:2: error: \(over)", "<stdin>: 3 predicates, 1 invalid"], status: 1),
      Row(
        name: "cases", arguments: ["cases", "--max-line-bytes", "64"],
        input: pad(#"{"id": 1, "format": "a > 0", "object": {"a": 1}}"#, limit) + "\n"
          + pad(#"{"id": 2, "format": "a > 0"}"#, limit + 1) + "\n" + #"{"id": 3, "format": "a > 0"}"# + "\n",
        stdout: [
          #"{"id": 1, "canonical": "a > 0", "result": true}"#,
          #"{"id": null, "error": {"stage": "input", "message": "\#(over)", "offset": 64}}"#,
          #"{"id": 3, "canonical": "a > 0", "result": false}"#,
        ], stderr: [], status: 0),
      Row(
        name: "parse --jsonl", arguments: ["parse", "--jsonl", "--max-line-bytes", "64"],
        input: pad(#"{"id": 1, "format": "a > 0"}"#, limit) + "\n" + pad(#"{"id": 2, "format": "a > 0"}"#, limit + 1)
          + "\n" + #"{"id": 3, "format": "a > 0"}"# + "\n",
        stdout: [
          #"{"id": 1, "canonical": "a > 0"}"#,
          #"{"id": null, "error": {"stage": "input", "message": "\#(over)", "offset": 64}}"#,
          #"{"id": 3, "canonical": "a > 0"}"#,
        ], stderr: [], status: 0),
      Row(
        name: "format", arguments: ["format", "--max-line-bytes", "64"],
        input: pad("a == 1", limit) + "\n" + pad("a == 2", limit + 1) + "\n" + "a == 3\n",
        stdout: ["a == 1", "", "a == 3"], stderr: ["line 2: error: \(over)"], status: 1),
    ]

    static func rulesFile() throws -> TemporaryFile {
      try TemporaryFile(Array((#"{"id": 1, "predicate": "a > 0"}"# + "\n").utf8))
    }

    @Test(arguments: rows)
    func atTheEdge(_ row: Row) throws {
      let rules = try Self.rulesFile()
      let arguments = row.arguments.map { $0 == "RULES" ? rules.path : $0 }
      let result = try SiftProcess.run(arguments, input: .text(row.input))
      #expect(result.exited(row.status), "\(result.reason) \(result.status): \(result.stderr)")
      #expect(result.stdout == row.stdout.map { $0 + "\n" }.joined())
      let errors = result.stderr.split(separator: "\n").map(String.init)
      #expect(errors.filter { row.stderr.contains($0) } == row.stderr, "\(errors)")
    }

    /// A rule over the limit is a bad rule like any other: reported with its line, exit 2.
    @Test func rulesAtTheEdge() throws {
      let rules = try TemporaryFile(
        Array(
          (Self.pad(#"{"id": 1, "predicate": "a > 0"}"#, Self.limit) + "\n"
            + Self.pad(#"{"id": 2, "predicate": "a > 0"}"#, Self.limit + 1) + "\n"
            + #"{"id": 3, "predicate": "a > 0"}"# + "\n").utf8))
      let result = try SiftProcess.run(
        ["route", "--rules", rules.path, "--max-line-bytes", "64"], input: .text(#"{"a": 1}"# + "\n"))
      #expect(result.exited(2))
      #expect(result.stdout == "")
      #expect(
        result.stderr == "sift route: \(rules.path):2: \(Self.over)\n"
          + "sift route: 1 bad rule in \(rules.path); no input was read\n")
      // One byte less, and every rule loads.
      let within = try SiftProcess.run(
        ["route", "--rules", rules.path, "--max-line-bytes", "65"], input: .text(#"{"a": 1}"# + "\n"))
      #expect(within.exited(0))
      #expect(within.stdout == #"{"line": 1, "ids": [1, 2, 3]}"# + "\n")
    }

    /// The issue's reproducer, scaled down: 1,000 decided lines, then a line that never
    /// ends (4 MiB of NUL bytes and no newline, with a limit of 1,000 bytes). Every decided
    /// line is written, the long line is one error with its number, and the run ends
    /// normally instead of aborting on an allocation.
    struct Reproducer: Sendable, CustomTestStringConvertible {
      var name: String
      var arguments: [String]
      /// Line `i` of the 1,000.
      var line: @Sendable (Int) -> String
      /// Its answer on standard output (nil: nothing on standard output).
      var answer: @Sendable (Int) -> String?
      /// The last line of standard output (the long line's record), if there is one.
      var last: String?
      /// What standard error must hold.
      var stderr: String
      var status: Int32
      var testDescription: String { name }
    }

    static let over1000 = "line is longer than the limit of 1000 bytes (--max-line-bytes)"

    static let reproducers: [Reproducer] = [
      Reproducer(
        name: "filter", arguments: ["filter", "--threads", "1", "--max-line-bytes", "1000", "a >= 0"],
        line: { #"{"a":\#($0)}"# }, answer: { #"{"a":\#($0)}"# }, last: nil,
        stderr: "sift filter: line 1001: \(over1000)\n", status: 1),
      Reproducer(
        name: "filter --threads 2", arguments: ["filter", "--threads", "2", "--max-line-bytes", "1000", "a >= 0"],
        line: { #"{"a":\#($0)}"# }, answer: { #"{"a":\#($0)}"# }, last: nil,
        stderr: "sift filter: line 1001: \(over1000)\n", status: 1),
      Reproducer(
        name: "route", arguments: ["route", "--rules", "RULES", "--max-line-bytes", "1000"],
        line: { #"{"a":\#($0 + 1)}"# }, answer: { #"{"line": \#($0 + 1), "ids": [1]}"# },
        last: #"{"line": 1001, "error": {"message": "\#(over1000)"}}"#,
        stderr: "sift route: line 1001: \(over1000)\n", status: 1),
      Reproducer(
        name: "cases", arguments: ["cases", "--max-line-bytes", "1000"],
        line: { #"{"id": \#($0), "format": "a >= 0", "object": {"a": 1}}"# },
        answer: { #"{"id": \#($0), "canonical": "a >= 0", "result": true}"# },
        last: #"{"id": null, "error": {"stage": "input", "message": "\#(over1000)", "offset": 1000}}"#, stderr: "",
        status: 0),
      Reproducer(
        name: "parse --jsonl", arguments: ["parse", "--jsonl", "--max-line-bytes", "1000"],
        line: { #"{"id": \#($0), "format": "a>=\#($0)"}"# }, answer: { #"{"id": \#($0), "canonical": "a >= \#($0)"}"# },
        last: #"{"id": null, "error": {"stage": "input", "message": "\#(over1000)", "offset": 1000}}"#, stderr: "",
        status: 0),
      Reproducer(
        name: "format", arguments: ["format", "--max-line-bytes", "1000"], line: { "a>=\($0)" },
        answer: { "a >= \($0)" }, last: "", stderr: "line 1001: error: \(over1000)\n", status: 1),
      Reproducer(
        name: "check", arguments: ["check", "--max-line-bytes", "1000", "-"], line: { "a >= \($0)" },
        answer: { _ in nil }, last: nil,
        stderr: "<stdin>:1001: error: \(over1000)\n<stdin>: 1001 predicates, 1 invalid\n", status: 1),
    ]

    @Test(arguments: reproducers)
    func aLineThatNeverEnds(_ row: Reproducer) throws {
      let rules = try Self.rulesFile()
      let arguments = row.arguments.map { $0 == "RULES" ? rules.path : $0 }
      let lines = (0..<1000).map(row.line).joined(separator: "\n") + "\n"
      let input = Array(lines.utf8) + [UInt8](repeating: 0, count: 4 << 20)
      let result = try SiftProcess.run(arguments, input: .bytes(input))
      #expect(result.exited(row.status), "\(result.reason) \(result.status)")
      var expected = (0..<1000).compactMap(row.answer)
      if let last = row.last { expected.append(last) }
      #expect(result.lines == expected)
      #expect(result.stderr == row.stderr)
    }

    /// `route --rules` on a rules file whose last line never ends (the issue's
    /// `--rules /dev/zero`, cut to 4 MiB): that rule is reported, the others are not.
    @Test func rulesThatNeverEnd() throws {
      let rules = try TemporaryFile(
        Array((#"{"id": 1, "predicate": "a > 0"}"# + "\n" + #"{"id": 2, "predicate": "a > 1"}"# + "\n").utf8)
          + [UInt8](repeating: 0, count: 4 << 20))
      let result = try SiftProcess.run(
        ["route", "--rules", rules.path, "--max-line-bytes", "1000"], input: .text(#"{"a": 1}"# + "\n"))
      #expect(result.exited(2))
      #expect(
        result.stderr == "sift route: \(rules.path):3: \(Self.over1000)\n"
          + "sift route: 1 bad rule in \(rules.path); no input was read\n")
    }

    /// The peak resident memory of process `pid` and its resident memory now, in KiB.
    static func memory(_ pid: Int32) -> (peak: Int, now: Int)? {
      guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
      func field(_ name: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return nil }
        return Int(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).dropLast(3))
      }
      guard let peak = field("VmHWM"), let now = field("VmRSS") else { return nil }
      return (peak, now)
    }

    /// While a line over the limit is still arriving it is already reported, every line
    /// before it is written, and memory does not grow with it: 64 MiB of one line that
    /// has not ended raise the peak resident memory by far less than the line (the
    /// reader holds at most the limit and one block of 1 MiB).
    @Test(arguments: [
      ["filter", "--decisions", "--threads", "1"], ["filter", "--decisions", "--threads", "2"],
      ["route", "--rules", "RULES"],
    ])
    func memoryStaysBoundedWhileALongLineArrives(_ command: [String]) throws {
      let rules = try Self.rulesFile()
      let route = command[0] == "route"
      let arguments =
        command.map { $0 == "RULES" ? rules.path : $0 } + ["--max-line-bytes", "4096"] + (route ? [] : ["a > 0"])
      let sift = try SiftConversation(arguments)
      sift.send((1...1000).map { #"{"a":\#($0)}"# }.joined(separator: "\n") + "\n")
      let thousandth = route ? #"{"line": 1000, "ids": [1]}"# : #"{"line": 1000, "match": true}"#
      guard sift.waitFor(thousandth + "\n", on: sift.stdout) else {
        _ = sift.finish()
        return
      }
      let before = try #require(Self.memory(sift.processIdentifier))
      // Over the limit: reported before the line ends.
      sift.send([UInt8](repeating: 0, count: 8192))
      let record = #"{"line": 1001, "error": {"message": "line is longer than the limit of 4096 bytes"#
      sift.waitFor(record, on: sift.stdout)
      for _ in 0..<64 { sift.send([UInt8](repeating: 0, count: 1 << 20)) }
      // The pipe holds at most 64 KiB: sift has read nearly all of the 64 MiB by now.
      let during = try #require(Self.memory(sift.processIdentifier))
      #expect(during.peak - before.now < 16 << 10, "peak \(during.peak) KiB, \(before.now) KiB before the line")
      sift.send("\n" + #"{"a":7}"# + "\n")
      sift.waitFor(route ? #"{"line": 1002, "ids": [1]}"# : #"{"line": 1002, "match": true}"#, on: sift.stdout)
      let result = sift.finish()
      #expect(result.exited(1))
      #expect(
        result.stderr
          == "sift \(command[0]): line 1001: line is longer than the limit of 4096 bytes (--max-line-bytes)\n")
    }

    /// A line over the limit that keeps arriving at full speed (`/dev/zero`, where no read
    /// ever waits) is still answered at once: what was decided up to it, its own error
    /// record included, is written out before the reader starts skipping it.
    @Test(arguments: [
      (["cases"], #"{"id": null, "error": {"stage": "input", "message": "line is longer than the limit of 100 bytes"#),
      (["parse", "--jsonl"], #"{"id": null, "error": {"stage": "input", "message": "line is longer than the limit"#),
      (["filter", "--decisions", "--threads", "1", "a > 0"], #"{"line": 1, "error": {"message": "line is longer"#),
      (["filter", "--decisions", "--threads", "2", "a > 0"], #"{"line": 1, "error": {"message": "line is longer"#),
      (["route", "--rules", "RULES"], #"{"line": 1, "error": {"message": "line is longer"#),
      (["format"], "\n"),
    ])
    func anEndlessLineIsAnsweredAtOnce(_ command: [String], _ record: String) throws {
      let rules = try Self.rulesFile()
      let zero = try #require(FileHandle(forReadingAtPath: "/dev/zero"))
      let sift = try SiftConversation(
        command.map { $0 == "RULES" ? rules.path : $0 } + ["--max-line-bytes", "100"], standardInput: zero)
      sift.waitFor(record, on: sift.stdout)
      sift.kill()
      _ = sift.finish()
    }

    @Test(arguments: [
      ["filter", "--max-line-bytes", "0", "a > 0"], ["route", "--rules", "R", "--max-line-bytes", "x"],
      ["check", "--max-line-bytes", "4294967296", "-"], ["cases", "--max-line-bytes"],
      ["parse", "--max-line-bytes", "10", "a == 1"], ["format", "--max-line-bytes", "10", "a == 1"],
      ["explain", "--max-line-bytes", "10", "a == 1"],
    ])
    func badValuesAreUsageErrors(_ arguments: [String]) throws {
      let result = try SiftProcess.run(arguments)
      #expect(result.exited(2))
      #expect(result.stdout == "")
      #expect(result.stderr.contains("--max-line-bytes"))
    }
  }
}
