import Foundation
import Sift
import Testing

extension SiftCLITests {
  @Suite("sift filter")
  struct Filter {
    static let allowed = #"[["work", "family"]]"#
    static let stream = """
      {"id": 1, "filterCriteria": "work", "priority": 3}
      {"id":2,"filterCriteria":"play","priority":1}
      {  "id" : 3 , "filterCriteria" : "family" }
      {"id": 4, "priority": 5}

      """

    @Test func matchingLinesByteForByteInOrder() throws {
      let r = try SiftProcess.run(
        ["filter", "filterCriteria IN %@", "--args", Self.allowed], input: .text(Self.stream))
      #expect(r.exited(0), "\(r.stderr)")
      #expect(
        r.stdout == #"{"id": 1, "filterCriteria": "work", "priority": 3}"# + "\n"
          + #"{  "id" : 3 , "filterCriteria" : "family" }"# + "\n")
      #expect(r.stderr == "")
    }

    @Test(
      arguments: [
        (["--invert"], #"{"id":2,"filterCriteria":"play","priority":1}"# + "\n" + #"{"id": 4, "priority": 5}"# + "\n"),
        (["--count"], "2\n"),
        (["--count", "--invert"], "2\n"),
        (
          ["--decisions"],
          #"{"line": 1, "match": true}"# + "\n" + #"{"line": 2, "match": false}"# + "\n"
            + #"{"line": 3, "match": true}"# + "\n" + #"{"line": 4, "match": false}"# + "\n"
        ),
      ])
    func outputModes(_ options: [String], _ expected: String) throws {
      let r = try SiftProcess.run(
        ["filter", "SELF.filterCriteria IN %@", "--args", Self.allowed] + options, input: .text(Self.stream))
      #expect(r.exited(0), "\(r.stderr)")
      #expect(r.stdout == expected)
    }

    @Test func variablesAndNestedKeys() throws {
      let input = """
        {"p": 4, "aps": {"alert": {"title": "Slide Feedback"}}, "tags": ["a", "urgent"]}
        {"p": 1, "aps": {"alert": {"title": "Lunch"}}, "tags": []}
        {"p": 9, "aps": {"alert": {"title": "Slide Review"}}, "tags": ["urgent"]}

        """
      let r = try SiftProcess.run(
        [
          "filter", "p > $min AND aps.alert.title BEGINSWITH 'Slide' AND ANY tags == 'urgent'", "--vars",
          #"{"min": 3}"#,
        ], input: .text(input))
      #expect(r.exited(0), "\(r.stderr)")
      #expect(r.lines.map { $0.prefix(7) } == [#"{"p": 4"#, #"{"p": 9"#])
    }

    /// A predicate that reads SELF as a whole gets every line as a full value.
    @Test func wholeDocumentPredicates() throws {
      let input = #"{"a": 1, "b": 2}"# + "\n" + #"{"a": 1}"# + "\n" + "[1, 2]\n"
      let count = try SiftProcess.run(["filter", "SELF.@count == 2"], input: .text(input))
      #expect(count.lines == [#"{"a": 1, "b": 2}"#, "[1, 2]"])
      let itself = try SiftProcess.run(["filter", "SELF == %@", "--args", #"[{"a": 1}]"#], input: .text(input))
      #expect(itself.lines == [#"{"a": 1}"#])
    }

    @Test func apnsTakesSelfFromFilterCriteria() throws {
      let input = """
        {"aps": {"alert": {"title": "Slide Feedback"}, "filter-criteria": "work"}}
        {"aps": {"alert": "hi", "filter-criteria": "play"}}
        {"aps": {"badge": 1}}
        {"aps": {"filter-criteria": 7}}

        """
      let r = try SiftProcess.run(
        ["filter", "SELF IN %@", "--apns", "--args", Self.allowed, "--decisions"], input: .text(input))
      #expect(r.exited(0), "\(r.stderr)")
      #expect(
        r.lines == [
          #"{"line": 1, "match": true}"#, #"{"line": 2, "match": false}"#, #"{"line": 3, "match": false}"#,
          #"{"line": 4, "match": false}"#,
        ])
      let missing = try SiftProcess.run(["filter", "SELF == nil", "--apns", "--count"], input: .text(input))
      #expect(missing.stdout == "1\n")
    }

    /// Bad lines are reported on stderr (and with --errors to a file) with their line
    /// numbers; the stream goes on and the exit status is 1.
    @Test func badLinesAreReportedAndTheStreamGoesOn() throws {
      let input = """
        {"priority": 4}
        not json

        {"priority": "high"}
        {"priority": 5

        """
      let log = try TemporaryFile([])
      let r = try SiftProcess.run(
        ["filter", "priority > 3", "--errors", log.path, "--decisions"],
        input: .text(input + #"{"priority": 9}"# + "\n"))
      #expect(r.exited(1), "\(r.status) \(r.stderr)")
      let stderr = r.stderr.split(separator: "\n").map(String.init)
      #expect(stderr.count == 4)
      #expect(stderr[0].hasPrefix("sift filter: line 2: line is not valid JSON"))
      #expect(stderr[1] == "sift filter: line 3: line is empty (not a JSON value)")
      #expect(stderr[2].hasPrefix("sift filter: line 4: "))
      #expect(stderr[3].hasPrefix("sift filter: line 5: line is not valid JSON"))
      #expect(r.lines.count == 6)
      #expect(r.lines[0] == #"{"line": 1, "match": true}"#)
      #expect(r.lines[1].hasPrefix(#"{"line": 2, "error": {"message": "line is not valid JSON: "#))
      #expect(r.lines[1].hasSuffix(#", "offset": 0}}"#))
      #expect(r.lines[5] == #"{"line": 6, "match": true}"#)
      let logged = try String(contentsOfFile: log.path, encoding: .utf8).split(separator: "\n").map(String.init)
      #expect(logged == Array(r.lines[1...4]))
      for line in logged { #expect((try? SiftValue(json: line)) != nil, "not JSON: \(line)") }
    }

    @Test func lineEndingsAndLongLines() throws {
      let long = #"{"k": "work", "pad": ""# + String(repeating: "x", count: 1_500_000) + #""}"#
      var input = Array(#"{"k": "work"}"#.utf8) + [13, 10]  // CRLF kept as is
      input += Array(#"{"k": "play"}"#.utf8) + [10]
      input += Array(long.utf8) + [10]
      input += Array(#"{"k": "x\u00e9"}"#.utf8) + [10]
      input += [0x7B, 0x22, 0x6B, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D, 10]  // invalid UTF-8
      input += Array(#"{"k": "work"}"#.utf8)  // last line, no newline
      let r = try SiftProcess.run(["filter", "k == 'work'"], input: .bytes(input))
      #expect(r.exited(1))
      var expected = Array(#"{"k": "work"}"#.utf8) + [13, 10] + Array(long.utf8) + [10]
      expected += Array(#"{"k": "work"}"#.utf8) + [10]
      #expect(r.stdoutBytes == expected)
      #expect(r.stderr.hasPrefix("sift filter: line 5: line is not valid JSON"))
      let escaped = try SiftProcess.run(["filter", "k == 'xé'", "--count"], input: .bytes(input))
      #expect(escaped.stdout == "1\n")
    }

    @Test func filesAndStandardInput() throws {
      let a = try TemporaryFile(Array("{\"n\": 1}\n{\"n\": 2}\n".utf8))
      let b = try TemporaryFile(Array("{\"n\": 3}\n".utf8))
      let r = try SiftProcess.run(
        ["filter", "n >= 2", a.path, "-", "/nonexistent/sift-input", b.path], input: .text("{\"n\": 5}\n"))
      #expect(r.exited(1))
      #expect(r.lines == [#"{"n": 2}"#, #"{"n": 5}"#, #"{"n": 3}"#])
      #expect(r.stderr.contains("sift filter: cannot read /nonexistent/sift-input: No such file or directory"))
      let decisions = try SiftProcess.run(["filter", "n >= 2", "--decisions", "--", b.path])
      #expect(decisions.lines == [#"{"file": "\#(b.path)", "line": 1, "match": true}"#])
    }

    @Test func statsGoToStandardError() throws {
      let r = try SiftProcess.run(["filter", "priority > 3", "--stats"], input: .text(Self.stream + "{\n"))
      #expect(r.exited(1))
      #expect(r.stdout == #"{"id": 4, "priority": 5}"# + "\n")
      #expect(r.stderr.contains("sift filter: 5 lines (1 matched, 3 not matched, 1 errors) in "))
      #expect(r.stderr.contains(" M lines/s, "))
    }

    @Test(
      arguments: [
        (["filter"], "sift: sift filter needs a predicate\n"),
        (["filter", "a ==", "--count"], nil),
        (["filter", "a == 1", "--bogus"], "sift: unknown option --bogus for sift filter\n"),
        (["filter", "a == 1", "--count", "--decisions"], nil),
        (["filter", "a IN %@", "--args", "[1"], nil),
        (["filter", "a == $x", "--vars", "[1]"], "sift: --vars must be a JSON object\n"),
        (["filter", "a == 1", "--errors"], "sift: --errors needs a value\n"),
      ] as [([String], String?)])
    func badUsageExitsTwo(_ arguments: [String], _ message: String?) throws {
      let r = try SiftProcess.run(arguments, input: .text("{}\n"))
      #expect(r.exited(2), "\(r.status) \(r.stderr)")
      #expect(r.stdout == "")
      if let message { #expect(r.stderr == message) } else { #expect(!r.stderr.isEmpty) }
    }

    @Test func aBadPredicateShowsItsDiagnostic() throws {
      let r = try SiftProcess.run(["filter", "a == "], input: .text("{}\n"))
      #expect(r.exited(2))
      #expect(r.stderr == Library.diagnostic("a == "))
    }

    @Test func earlyCloseThroughHead() throws {
      var text = ""
      for i in 0..<300_000 { text += #"{"i": \#(i), "filterCriteria": "work"}"# + "\n" }
      let input = try TemporaryFile(Array(text.utf8))
      let r = try SiftProcess.shell(
        #"set -o pipefail; "$SIFT" filter "filterCriteria == 'work'" "$1" | head -n 2"#, arguments: [input.path])
      #expect(r.exited(0), "pipeline status \(r.status): \(r.stderr)")
      #expect(r.lines == [#"{"i": 0, "filterCriteria": "work"}"#, #"{"i": 1, "filterCriteria": "work"}"#])
      #expect(r.stderr == "")
    }

    /// The fast path (simdjson, only the keys the predicate reads) decides as the library does
    /// on Sift's own JSON value of the whole line.
    @Test(arguments: [
      "filterCriteria IN {'work', 'family'}", "priority > 2 AND unread == YES", "title CONTAINS[cd] 'resume'",
      "ANY tags == 'urgent'", "aps.alert.title BEGINSWITH 'Slide'", "n.@sum > 3", "big > 9223372036854775806",
      "x == 1.5", "SUBQUERY(items, $i, $i.k == 'a').@count > 0", "missing == nil", "dup == 2",
      // More keys than the record plan compares one by one: it looks them up in a hash.
      "k1 == 1 OR k2 == 2 OR k3 == 3 OR k4 == 4 OR k5 == 5 OR k6 == 6 OR k7 == 7 OR k8 == 8 OR k9 == 9 OR dup == 2",
      "k1 == nil AND k2 == nil AND k3 == nil AND k4 == nil AND k5 == nil AND k6 == nil AND k7 == nil AND k8 == nil AND k9 == nil",
    ])
    func fastPathAgreesWithTheLibrary(_ format: String) throws {
      let lines = [
        #"{"filterCriteria": "work", "priority": 3, "unread": true, "title": "Mon Résumé", "tags": ["urgent"]}"#,
        #"{"filterCriteria": "play", "priority": 1, "unread": false, "title": "RESUME", "tags": []}"#,
        #"{"aps": {"alert": {"title": "Slide Feedback"}}, "n": [1, 2, 3.5], "big": 9223372036854775807}"#,
        #"{"big": 18446744073709551615, "x": 1.5, "items": [{"k": "a"}, {"k": "b"}]}"#,
        #"{"dup": 1, "dup": 2, "title": "r\u00e9sum\u00e9", "x": 15e-1}"#,
        #"{"priority": "3", "tags": "urgent", "n": 4}"#,
        #"{"k9": 0, "k9": 9}"#, #"{"k1": 0, "k5": 4, "dup": 3, "dup": 2}"#, #"{"dup": 2, "dup": 1, "k3": null}"#,
        #"{"k8": 8, "k8": 7, "k2": [2], "k4": "4"}"#,
        "[1, 2, 3]", #""just a string""#, "null", "-0", "1e2",
      ]
      let r = try SiftProcess.run(
        ["filter", format, "--decisions"], input: .text(lines.joined(separator: "\n") + "\n"))
      let predicate = try SiftPredicate(format: format)
      for (index, line) in lines.enumerated() {
        let expected: String
        do {
          let matched = try predicate.evaluate(with: SiftValue(json: line))
          expected = #"{"line": \#(index + 1), "match": \#(matched)}"#
        } catch let error as EvaluationError {
          expected = #"{"line": \#(index + 1), "error": {"message": \#(SiftValue.string(error.message).jsonText)}}"#
        }
        #expect(index < r.lines.count && r.lines[index] == expected, "\(format) on \(line)")
      }
    }
  }
}

extension SiftCLITests {
  /// Defects that read out of bounds or lose data, each reproduced end to end.
  @Suite("sift filter keeps data safe")
  struct FilterDataSafety {
    /// A `%K` key holding a NUL is compared by its length, on the fast path and the slow one
    /// (a line simdjson refuses), as `sift cases` does.
    @Test func aKeyWithANulIsComparedWhole() throws {
      let input =
        #"{"a\u0000b":1}"# + "\n" + #"{"a":1}"# + "\n"
        + #"{"zz":1234567890123456789012345678901,"a\u0000b":1}"# + "\n" + #"{"a\u0000c":1}"# + "\n"
      let r = try SiftProcess.run(
        ["filter", "%K == 1", "--args", #"["a\u0000b"]"#, "--decisions"], input: .text(input))
      #expect(r.exited(0), "\(r.stderr)")
      #expect(
        r.lines == [
          #"{"line": 1, "match": true}"#, #"{"line": 2, "match": false}"#, #"{"line": 3, "match": true}"#,
          #"{"line": 4, "match": false}"#,
        ])
    }

    /// A last line that ends in a lone `\r` keeps it and gets a newline after it, so two
    /// such files in a row are two lines.
    @Test func aLoneCarriageReturnAtTheEndGetsANewline() throws {
      let file = try TemporaryFile(Array(#"{"a":1}"#.utf8) + [13])
      let r = try SiftProcess.run(["filter", "a == 1", file.path, file.path])
      #expect(r.exited(0), "\(r.stderr)")
      #expect(r.stdoutBytes == Array(#"{"a":1}"#.utf8) + [13, 10] + Array(#"{"a":1}"#.utf8) + [13, 10])
      let inverted = try SiftProcess.run(["filter", "a == 2", "--invert"], input: .bytes(Array("{\"a\":1}\r".utf8)))
      #expect(inverted.stdoutBytes == Array("{\"a\":1}\r\n".utf8))
    }

    /// `--errors` naming an input (by its name, another name, or as standard input) is
    /// refused before anything is opened for writing: the input is left as it was.
    @Test(arguments: ["same name", "another name", "standard input"])
    func errorsNamingAnInputIsRefused(_ how: String) throws {
      let content = Array("{\"a\":1}\nnot json\n".utf8)
      let file = try TemporaryFile(content)
      let other =
        (file.path as NSString).deletingLastPathComponent + "/./"
        + (file.path as NSString).lastPathComponent
      let r: SiftResult
      switch how {
      case "same name": r = try SiftProcess.run(["filter", "a == 1", "--errors", file.path, file.path])
      case "another name": r = try SiftProcess.run(["filter", "a == 1", "--errors", other, file.path])
      default: r = try SiftProcess.run(["filter", "a == 1", "--errors", file.path], input: .file(file.path))
      }
      #expect(r.exited(2), "\(r.status) \(r.stderr)")
      #expect(r.stdout == "")
      #expect(r.stderr.hasPrefix("sift: --errors "))
      #expect(r.stderr.contains("it would be overwritten"))
      #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file.path))) == content)
    }

    /// `/dev/null` or a pipe as `--errors` is not an input that can be destroyed.
    @Test func errorsToDevNullWithStandardInputFromDevNull() throws {
      let r = try SiftProcess.run(["filter", "a == 1", "--errors", "/dev/null"])
      #expect(r.exited(0), "\(r.status) \(r.stderr)")
    }

    /// With standard output or error closed, nothing lands in the `--errors` file: sift
    /// refuses to run (exit 2). A closed standard input is a read error, not an empty input.
    @Test(arguments: [
      (">&-", Int32(2), "sift: standard output is closed\n"), ("2>&-", Int32(2), ""),
      ("<&-", Int32(1), "sift filter: error reading standard input\n"),
    ])
    func closedStandardDescriptors(_ redirection: String, _ status: Int32, _ stderr: String) throws {
      let input = try TemporaryFile(Array("{\"a\":1}\nnot json\n".utf8))
      let log = try TemporaryFile([])
      let file = redirection == "<&-" ? "" : #" "$2""#
      let r = try SiftProcess.shell(
        #""$SIFT" filter 'a == 1' --errors "$1""# + file + " " + redirection, arguments: [log.path, input.path])
      #expect(r.exited(status), "\(r.status) \(r.stderr)")
      #expect(r.stderr == stderr)
      #expect(r.stdout == "")
      let logged = try String(contentsOfFile: log.path, encoding: .utf8)
      #expect(!logged.contains(#"{"a":1}"#), "matching lines went to the --errors file")
      #expect(!logged.contains("sift filter:"), "diagnostics went to the --errors file")
    }

    /// A write to the `--errors` file that fails is reported, and the status is not 0
    /// even when no input line was bad.
    @Test func aFailedWriteToTheErrorsFileIsReported() throws {
      let bad = try SiftProcess.run(
        ["filter", "a == 1", "--errors", "/dev/full"], input: .text("{\"a\":1}\nnot json\n"))
      #expect(bad.exited(1))
      #expect(bad.stdout == "{\"a\":1}\n")
      #expect(bad.stderr.contains("sift filter: error writing --errors /dev/full: No space left on device"))
      // A FIFO whose reader takes one byte and exits: the records after it are lost, which
      // is a failure here, not the quiet stop of a closed standard output. 10 MB of records
      // cannot all fit in the pipe before the reader has gone, so the outcome is fixed.
      let script = #"""
        dir=$(mktemp -d); mkfifo "$dir/f"
        head -c 1 "$dir/f" >/dev/null &
        yes x | head -n 100000 | "$SIFT" filter 'a == 1' --errors "$dir/f" 2>"$dir/err"; status=$?
        wait; grep -v '^sift filter: line' "$dir/err" >&2; rm -r "$dir"; exit $status
        """#
      let pipe = try SiftProcess.shell(script)
      #expect(pipe.exited(1), "\(pipe.status) \(pipe.stderr)")
      #expect(pipe.stderr.contains("error writing --errors"), "\(pipe.stderr)")
    }
  }
}
