import Foundation
import Sift
import Testing

extension SiftCLITests {
  @Suite("sift parse --jsonl")
  struct JSONLines {
    /// Runs `sift parse --jsonl` on `input` (through a pipe) and checks the invariants every
    /// run must keep: exit 0, nothing on stderr, one valid JSON object per input line.
    static func run(_ input: [UInt8], file: Bool = false) throws -> [String] {
      let r: SiftResult
      if file {
        let temporary = try TemporaryFile(input)
        r = try SiftProcess.run(["parse", "--jsonl"], input: .file(temporary.path))
      } else {
        r = try SiftProcess.run(["parse", "--jsonl"], input: .bytes(input))
      }
      #expect(r.exited(0))
      #expect(r.stderr == "")
      let lines = r.lines
      #expect(lines.count == inputLineCount(input), "one output line per input line")
      for line in lines {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
        #expect(object is [String: Any], "not a JSON object: \(line.prefix(200))")
        #expect(line.hasPrefix(#"{"id": "#), "the id comes first: \(line.prefix(200))")
      }
      return lines
    }

    static func run(_ lines: [String], terminator: String = "\n") throws -> [String] {
      try run(Array(lines.map { $0 + terminator }.joined().utf8))
    }

    /// Lines as `sift` counts them: split at `\n`; a last line without one still counts.
    static func inputLineCount(_ bytes: [UInt8]) -> Int {
      let newlines = bytes.count { $0 == UInt8(ascii: "\n") }
      return newlines + (bytes.last.map { $0 == UInt8(ascii: "\n") ? 0 : 1 } ?? 0)
    }

    static func inputError(_ message: String, _ offset: Int = 0, id: String = "null") -> String {
      #"{"id": \#(id), "error": {"stage": "input", "message": "\#(message)", "offset": \#(offset)}}"#
    }

    static func parseError(_ id: String, _ message: String, _ offset: Int) -> String {
      #"{"id": \#(id), "error": {"stage": "parse", "message": "\#(message)", "offset": \#(offset)}}"#
    }

    static let mixedInput = [
      #"{"id": 1, "format": "a = 1"}"#,
      #"{"id": "s-2", "format": "name == %@", "args": ["Jo"]}"#,
      #"{"format": "b > 2"}"#,
      #"{"id": 4, "format": "a =="}"#,
      #"{bad"#,
      #"[1, 2]"#,
      "",
      #"{"id": 8, "format": "TRUEPREDICATE"}"#,
    ]

    static let mixedOutput = [
      #"{"id": 1, "canonical": "a == 1"}"#,
      #"{"id": "s-2", "canonical": "name == \"Jo\""}"#,
      #"{"id": null, "canonical": "b > 2"}"#,
      parseError("4", "expected an expression after '==', found end of input", 4),
      inputError("line is not valid JSON: expected a string key", 1),
      inputError("line is not a JSON object"),
      inputError("line is not valid JSON: expected a JSON value, found end of input"),
      #"{"id": 8, "canonical": "TRUEPREDICATE"}"#,
    ]

    @Test func mixedStream() throws {
      #expect(try Self.run(Self.mixedInput) == Self.mixedOutput)
    }

    @Test func stdinFromAFile() throws {
      let input = Array(Self.mixedInput.map { $0 + "\n" }.joined().utf8)
      #expect(try Self.run(input, file: true) == Self.mixedOutput)
    }

    @Test func crlfLineEndingsAnswerLikeLF() throws {
      #expect(try Self.run(Self.mixedInput, terminator: "\r\n") == Self.mixedOutput)
    }

    @Test func lastLineWithoutNewline() throws {
      let input = Self.mixedInput.joined(separator: "\n")
      #expect(try Self.run(Array(input.utf8)) == Self.mixedOutput)
      // A last line of CRLF input without its line break.
      let crlf = Self.mixedInput.joined(separator: "\r\n") + "\r"
      #expect(try Self.run(Array(crlf.utf8)) == Self.mixedOutput)
    }

    @Test func emptyInputWritesNothing() throws {
      #expect(try Self.run([UInt8]()) == [])
    }

    @Test func blankLinesEachGetARecord() throws {
      let empty = Self.inputError("line is not valid JSON: expected a JSON value, found end of input")
      #expect(try Self.run(Array("\n\n\r\n".utf8)) == [empty, empty, empty])
      #expect(
        try Self.run(["   ", "\t"]) == [
          Self.inputError("line is not valid JSON: expected a JSON value, found end of input", 3),
          Self.inputError("line is not valid JSON: expected a JSON value, found end of input", 1),
        ])
    }

    static let ids: [(String, String)] = [
      ("7", "7"),
      ("-3", "-3"),
      ("0", "0"),
      ("9223372036854775807", "9223372036854775807"),
      // Numbers are echoed exactly as written, even beyond Int.
      ("2.5", "2.5"),
      ("2.50", "2.50"),
      ("1e2", "1e2"),
      ("-0", "-0"),
      ("12345678901234567890", "12345678901234567890"),
      (#""abc""#, #""abc""#),
      (#""""#, #""""#),
      (#""q\"uote\\ \u00e9 \ud83d\ude00 \t""#, #""q\"uote\\ é 😀 \t""#),
      ("true", "true"),
      ("false", "false"),
      ("null", "null"),
      ("[1, \"x\", [null]]", #"[1,"x",[null]]"#),
      (#"{"b": 1, "a": {"d": [], "c": 2}}"#, #"{"a":{"c":2,"d":[]},"b":1}"#),
    ]

    @Test("ids of every JSON type are echoed", arguments: ids)
    func echoesIds(_ id: String, _ expected: String) throws {
      let lines = try Self.run([
        #"{"id": \#(id), "format": "a == 1"}"#,
        #"{"format": "a ==", "id": \#(id)}"#,
        #"{"id": \#(id), "format": 1}"#,
      ])
      #expect(
        lines == [
          #"{"id": \#(expected), "canonical": "a == 1"}"#,
          Library.parseErrorRecord(id: expected, "a =="),
          Self.inputError(#"line has no string \"format\""#, id: expected),
        ])
    }

    @Test func missingIdIsNull() throws {
      #expect(
        try Self.run([#"{"format": "a == 1"}"#, #"{"format": "a =="}"#, #"{"args": []}"#]) == [
          #"{"id": null, "canonical": "a == 1"}"#,
          Library.parseErrorRecord(id: "null", "a =="),
          Self.inputError(#"line has no string \"format\""#),
        ])
    }

    @Test func repeatedIdKeepsTheLastOne() throws {
      #expect(
        try Self.run([#"{"id": 1, "id": 2.50, "format": "a == 1"}"#]) == [
          #"{"id": 2.50, "canonical": "a == 1"}"#
        ])
    }

    @Test func arguments() throws {
      let lines = try Self.run([
        #"{"id": 1, "format": "%K == %@ AND n > %d AND x < %f", "args": ["name", "Jo", 3, 2.5]}"#,
        #"{"id": 2, "format": "id IN %@ AND z == %@", "args": [[1, 2], null]}"#,
        #"{"id": 3, "format": "a == %@", "args": []}"#,
        #"{"id": 4, "format": "a == 1", "args": ["extra"]}"#,
        #"{"id": 5, "format": "a == %d", "args": ["s"]}"#,
        #"{"id": 6, "format": "a == 1", "args": null}"#,
        #"{"id": 7, "format": "a == %@", "args": "x"}"#,
        #"{"id": 8, "format": "a == %@", "args": {"0": 1}}"#,
      ])
      #expect(
        lines == [
          #"{"id": 1, "canonical": "name == \"Jo\" AND n > 3 AND x < 2.5"}"#,
          #"{"id": 2, "canonical": "id IN {1, 2} AND z == nil"}"#,
          Library.parseErrorRecord(id: "3", "a == %@"),
          #"{"id": 4, "canonical": "a == 1", "unused_arguments": 1}"#,
          Library.parseErrorRecord(id: "5", "a == %d", ["s"]),
          #"{"id": 6, "canonical": "a == 1"}"#,
          Self.inputError(#"\"args\" must be an array"#, id: "7"),
          Self.inputError(#"\"args\" must be an array"#, id: "8"),
        ])
    }

    @Test func parseErrorOffsetsAreUTF8Bytes() throws {
      let lines = try Self.run([#"{"id": 1, "format": "é == ü =="}"#])
      #expect(lines == [Library.parseErrorRecord(id: "1", "é == ü ==")])
      #expect(lines.first?.hasSuffix(#", "offset": 9}}"#) == true)
    }

    @Test func malformedLinesDoNotStopTheRun() throws {
      let lines = try Self.run([
        #"{"id": 1, "format": "a == 1""#,
        #"{"id": 2 "format": "a == 1"}"#,
        #"{"id": 3, "format": "a == 1"} trailing"#,
        #"{"id": 4, "format": "a == 1",}"#,
        #"{'id': 5}"#,
        #"{"id": 6, "format": "a == 1"}"#,
      ])
      #expect(
        lines == [
          Self.inputError("line is not valid JSON: expected ',' or '}'", 28),
          Self.inputError("line is not valid JSON: expected ',' or '}'", 9),
          Self.inputError("line is not valid JSON: unexpected text after the JSON value", 30),
          Self.inputError("line is not valid JSON: expected a string key", 29),
          Self.inputError("line is not valid JSON: expected a string key", 1),
          #"{"id": 6, "canonical": "a == 1"}"#,
        ])
    }

    @Test func nonObjectLines() throws {
      let notObject = Self.inputError("line is not a JSON object")
      #expect(
        try Self.run([#"[{"id": 1, "format": "a == 1"}]"#, #""a == 1""#, "42", "null", "true"])
          == Array(repeating: notObject, count: 5))
    }

    @Test func objectsThatAreNotRequests() throws {
      #expect(
        try Self.run([
          #"{}"#, #"{"id": 2, "format": null}"#, #"{"id": 3, "format": ["a == 1"]}"#,
          #"{"id": 4, "format": "a == 1", "variables": [1]}"#,
        ]) == [
          Self.inputError(#"line has no string \"format\""#),
          Self.inputError(#"line has no string \"format\""#, id: "2"),
          Self.inputError(#"line has no string \"format\""#, id: "3"),
          Self.inputError(#"\"variables\" must be an object"#, id: "4"),
        ])
    }

    @Test func invalidUTF8() throws {
      var input: [UInt8] = []
      input += Array(##"{"id": 1, "format": "a == \""##.utf8) + [0xFF] + Array(#"\""}"#.utf8) + [0x0A]
      input +=
        Array(#"{"id": "#.utf8) + [0x22, 0xC3, 0x28, 0x22] + Array(#", "format": "a == 1"}"#.utf8) + [0x0A]
      input += [0xFF, 0xFE, 0x0A]
      input += Array(#"{"id": 4, "format": "a == \"é\""}"#.utf8) + [0x0A]
      input += Array(#"{"id": 5, "format": "a == 1"}"#.utf8) + [0xC3, 0x0A]
      #expect(
        try Self.run(input) == [
          Self.inputError("line is not valid JSON: string is not valid UTF-8", 28),
          Self.inputError("line is not valid JSON: string is not valid UTF-8", 8),
          Self.inputError("line is not valid JSON: expected a JSON value"),
          #"{"id": 4, "canonical": "a == \"é\""}"#,
          Self.inputError("line is not valid JSON: unexpected text after the JSON value", 29),
        ])
    }

    @Test func controlCharactersInTheFormat() throws {
      let lines = try Self.run([
        #"{"id": 1, "format": "a == \"x\ty\u0001\u001f\u007f\""}"#,
        #"{"id": 2, "format": "a ==\tb\r\n"}"#,
        #"{"id": 3, "format": "\u0000"}"#,
      ])
      #expect(
        lines == [
          #"{"id": 1, "canonical": "a == \"x\\ty\\u0001\\u001f\\u007f\""}"#,
          #"{"id": 2, "canonical": "a == b"}"#,
          Library.parseErrorRecord(id: "3", "\u{0}"),
        ])
    }

    @Test func formatOverTheInputLimitIsOneErrorRecord() throws {
      let big = String(repeating: "x", count: 1 << 20)
      let lines = try Self.run([
        #"{"id": "big", "format": "a == \"\#(big)\""}"#,
        #"{"id": "after", "format": "a == 1"}"#,
      ])
      #expect(
        lines == [
          Library.parseErrorRecord(id: #""big""#, "a == \"\(big)\""),
          #"{"id": "after", "canonical": "a == 1"}"#,
        ])
      #expect(lines.first?.hasPrefix(#"{"id": "big", "error": {"stage": "parse", "message": "#) == true)
      #expect(lines.first?.contains("limit") == true)
    }

    @Test func longLinesWithinTheLimitAreAnswered() throws {
      // A 3 MB line (several read blocks) whose format is small, then a 1 MB format just under the limit.
      let args = "[" + Array(repeating: #""0123456789abcdef""#, count: 160_000).joined(separator: ",") + "]"
      let element = String(repeating: "y", count: (1 << 20) - 8)
      let lines = try Self.run([
        #"{"id": 1, "format": "a == 1", "padding": \#(args)}"#,
        #"{"id": 2, "format": "a == \"\#(element)\""}"#,
        #"{"id": 3, "format": "b == 2"}"#,
      ])
      #expect(lines.count == 3)
      #expect(lines.first == #"{"id": 1, "canonical": "a == 1"}"#)
      #expect(lines.dropFirst().first == #"{"id": 2, "canonical": "a == \"\#(element)\""}"#)
      #expect(lines.last == #"{"id": 3, "canonical": "b == 2"}"#)
    }

    @Test func lineCountAndOrderArePreservedOnABigStream() throws {
      // 30,000 lines of every kind, through a pipe (reads end mid-line) and from a file.
      var input: [String] = []
      var expected: [String] = []
      for i in 0..<30_000 {
        switch i % 6 {
        case 0:
          input.append(#"{"id": \#(i), "format": "n == \#(i)"}"#)
          expected.append(#"{"id": \#(i), "canonical": "n == \#(i)"}"#)
        case 1:
          input.append(#"{"id": "\#(i)", "format": "s == %@", "args": ["v\#(i)"]}"#)
          expected.append(#"{"id": "\#(i)", "canonical": "s == \"v\#(i)\""}"#)
        case 2:
          input.append(#"{"id": \#(i), "format": "n =="}"#)
          expected.append(Library.parseErrorRecord(id: "\(i)", "n =="))
        case 3:
          input.append("")
          expected.append(
            Self.inputError("line is not valid JSON: expected a JSON value, found end of input"))
        case 4:
          let line = #"{"id": \#(i),"#
          input.append(line)
          expected.append(Self.inputError("line is not valid JSON: expected a string key", line.utf8.count))
        default:
          input.append(#"{"id": [\#(i)], "format": "TRUEPREDICATE"}\#r"#)
          expected.append(#"{"id": [\#(i)], "canonical": "TRUEPREDICATE"}"#)
        }
      }
      let bytes = Array(input.map { $0 + "\n" }.joined().utf8)
      let piped = try Self.run(bytes)
      #expect(piped.count == expected.count)
      #expect(piped == expected)
      let fromFile = try Self.run(bytes, file: true)
      #expect(fromFile == expected)
    }
  }
}
