import Foundation
import Sift
import Testing

extension SiftCLITests {
  @Suite("sift format")
  struct Format {
    static let help = """
      usage: sift format [--args JSON_ARRAY] [--] 'PREDICATE'
             sift format [--args JSON_ARRAY] [--max-line-bytes N] < predicates.txt

      Prints the canonical form of an NSPredicate format string (exit 0), or the
      diagnostic on stderr (exit 1).

      With no predicate, reads one predicate per line from stdin and writes one line per
      input line, in order: its canonical form, or an empty line for an empty line or a line
      that does not parse or is over --max-line-bytes. The diagnostic of such a line goes to
      stderr as 'line N: …'. Each answer is written before a read that would wait.
      Exit 0, or 1 if any line did not parse.

        --args JSON_ARRAY  values for %@, %K and numeric specifiers, in order (with stdin,
                           bound to every line)
        --max-line-bytes N with stdin: the longest line read, in bytes without its ending
                           (default 16777216, 16 MiB); a longer line is skipped without
                           being held in memory
        --                 end of options: the next argument is the predicate, even when it
                           starts with '-'

      """

    // MARK: One predicate as an argument

    static let canonical: [(String, String)] = [
      ("a = 1", "a == 1"),
      ("a=1&&b<>2||!(c==3)", "a == 1 AND (b != 2 OR NOT c == 3)"),
      ("name LIKE[c] 'J*'", #"name LIKE[c] "J*""#),
      (#"x in {1,2.5,"s"} && not y beginswith[cd] "é""#, #"x IN {1, 2.5, "s"} AND NOT y BEGINSWITH[cd] "é""#),
      ("SUBQUERY(items, $x, $x.price > 10).@count > 0", "SUBQUERY(items, $x, $x.price > 10).@count > 0"),
      // Formatting only parses: a pattern that would not compile still has a canonical form.
      ("name MATCHES '('", #"name MATCHES "(""#),
    ]

    @Test("prints the canonical form on stdout and exits 0", arguments: canonical)
    func printsCanonicalForm(_ input: String, _ expected: String) throws {
      let r = try SiftProcess.run(["format", input])
      #expect(r.exited(0), "\(r.stderr)")
      #expect(r.stdout == expected + "\n")
      #expect(r.stderr == "")
    }

    static let bindings: [([String], String)] = [
      (["--args", #"["Jo"]"#, "name BEGINSWITH %@"], #"name BEGINSWITH "Jo""#),
      (["name BEGINSWITH %@", "--args", #"["Jo"]"#], #"name BEGINSWITH "Jo""#),
      (["--args", #"["name", 3]"#, "%K == %d"], "name == 3"),
      (["--args", "[]", "a == 1"], "a == 1"),
    ]

    @Test("--args binds specifiers, before or after the predicate", arguments: bindings)
    func bindsArguments(_ arguments: [String], _ expected: String) throws {
      let r = try SiftProcess.run(["format"] + arguments)
      #expect(r.exited(0), "\(r.stderr)")
      #expect(r.stdout == expected + "\n")
      #expect(r.stderr == "")
    }

    static let diagnostics: [([String], String)] = [
      (
        ["name == AND x"],
        """
        1:9: error: expected an expression after '==', found keyword AND
        name == AND x
                ^~~

        """
      ),
      (
        ["x == %@"],
        """
        1:6: error: no argument for this format specifier: it is number 1, but 0 arguments were given
        x == %@
             ^~
        hint: pass one argument per %@, %K or numeric specifier, in order

        """
      ),
    ]

    @Test("a bad predicate prints the diagnostic on stderr and exits 1", arguments: diagnostics)
    func printsDiagnostic(_ arguments: [String], _ expected: String) throws {
      let r = try SiftProcess.run(["format"] + arguments)
      #expect(r.exited(1))
      #expect(r.stdout == "")
      #expect(r.stderr == expected)
    }

    @Test func invalidUTF8ArgumentIsADiagnostic() throws {
      let r = try SiftProcess.shell(#"exec "$SIFT" format "$(printf 'a == "\377"')""#)
      #expect(r.exited(1))
      #expect(r.stdout == "")
      #expect(r.stderr.hasPrefix("1:7: error: input is not valid UTF-8\n"))
      #expect(r.stderr.hasSuffix("hint: the byte at offset 6 does not start or continue a UTF-8 sequence\n"))
    }

    @Test func agreesWithParse() throws {
      let input = #"a=1 and (b<>2 or c in {1,"x"}) and d like[c] 'q*'"#
      let format = try SiftProcess.run(["format", input])
      let parse = try SiftProcess.run(["parse", input])
      #expect(format.exited(0))
      #expect(format.stdout == parse.stdout)
    }

    // MARK: Predicates from stdin

    /// (what the case shows, stdin, extra arguments, stdout, stderr, exit status)
    static let streams: [(String, String, [String], String, String, Int32)] = [
      ("empty input", "", [], "", "", 0),
      ("one line per line", "a=1\nb<>2\n", [], "a == 1\nb != 2\n", "", 0),
      ("last line without a newline", "a=1\nb<>2", [], "a == 1\nb != 2\n", "", 0),
      ("CRLF line endings", "a=1\r\nname == 'x'\r\n", [], "a == 1\nname == \"x\"\n", "", 0),
      ("empty and blank lines answer with an empty line", "\na=1\n\n  \t\nb=2\n", [], "\na == 1\n\n\nb == 2\n", "", 0),
      ("a blank CRLF line", "a=1\r\n\r\nb=2\r\n", [], "a == 1\n\nb == 2\n", "", 0),
      (
        "a bad line answers with an empty line and its diagnostic, numbered",
        "a=1\nb ==\nc<>2\n", [], "a == 1\n\nc != 2\n",
        """
        line 2: 1:5: error: expected an expression after '==', found end of input
        b ==
            ^

        """,
        1
      ),
      (
        "every bad line is reported, the stream goes on",
        "(a\nb == 1\nc == 'x\n", [], "\nb == 1\n\n",
        """
        line 1: 1:3: error: expected a comparison operator after the expression
        (a
          ^
        hint: a format string is a predicate, not a value: compare it, as in a == …
        line 3: 1:6: error: unterminated string
        c == 'x
             ^
        hint: the string that starts here has no closing '

        """,
        1
      ),
      (
        "a bad CRLF line: the caret line has no carriage return",
        "a ==\r\n", [], "\n",
        """
        line 1: 1:5: error: expected an expression after '==', found end of input
        a ==
            ^

        """,
        1
      ),
      ("--args binds every line", "a == %@\nb != %@\n", ["--args", #"["x"]"#], "a == \"x\"\nb != \"x\"\n", "", 0),
      (
        "--args beyond a line's specifiers are ignored, as Apple ignores them",
        "a == %@\nb == 1\n", ["--args", "[2]"], "a == 2\nb == 1\n", "", 0
      ),
      (
        "canonical lines stay as they are", "a == 1 AND (b != 2 OR NOT c == 3)\n", [],
        "a == 1 AND (b != 2 OR NOT c == 3)\n", "", 0
      ),
    ]

    @Test("with no predicate, formats each line of stdin", arguments: streams)
    func formatsEachLine(
      _ what: String, _ input: String, _ arguments: [String], _ stdout: String, _ stderr: String, _ status: Int32
    ) throws {
      let r = try SiftProcess.run(["format"] + arguments, input: .text(input))
      #expect(r.exited(status), "\(what): \(r.stderr)")
      #expect(r.stdout == stdout, "\(what)")
      #expect(r.stderr == stderr, "\(what)")
    }

    @Test func invalidUTF8LineIsReportedWithItsOffset() throws {
      let input = Array("a == 1\n".utf8) + [UInt8(ascii: "x"), 0x20, 0x3D, 0x3D, 0x20, 0x22, 0xC3, 0x28, 0x22, 0x0A]
      let r = try SiftProcess.run(["format"], input: .bytes(input))
      #expect(r.exited(1))
      #expect(r.lines == ["a == 1", ""])
      #expect(r.stderr.hasPrefix("line 2: 1:7: error: input is not valid UTF-8\n"))
      #expect(r.stderr.hasSuffix("hint: the byte at offset 6 does not start or continue a UTF-8 sequence\n"))
    }

    /// More than one read block (1 MiB) of input: lines split across blocks stay whole and
    /// every answer keeps its input line's position.
    @Test func manyLinesKeepTheirOrder() throws {
      let count = 50_000
      var input = ""
      var expected: [String] = []
      var expectedErrors: [String] = []
      for i in 0..<count {
        if i % 997 == 500 {
          input += "age > \(i) AND\n"
          expected.append("")
          expectedErrors.append("line \(i + 1): ")
        } else {
          input += "name=\"n\(i)\"&&age>\(i)\n"
          expected.append(#"name == "n\#(i)" AND age > \#(i)"#)
        }
      }
      #expect(input.utf8.count > 1 << 20)
      let r = try SiftProcess.run(["format"], input: .text(input))
      #expect(r.exited(1))
      #expect(r.lines == expected)
      let reported = r.stderr.split(separator: "\n").filter { $0.hasPrefix("line ") }
      #expect(reported.map { String($0.prefix { $0 != ":" }) + ": " } == expectedErrors)
    }

    @Test func outputIsAFixedPoint() throws {
      let input = "a=1&&b<>2||!(c==3)\n\nx in {1,2}\n"
      let first = try SiftProcess.run(["format"], input: .text(input))
      let again = try SiftProcess.run(["format"], input: .text(first.stdout))
      #expect(first.exited(0) && again.exited(0))
      #expect(again.stdout == first.stdout)
      #expect(first.lines == ["a == 1 AND (b != 2 OR NOT c == 3)", "", "x IN {1, 2}"])
    }

    @Test func stdinFromAFile() throws {
      let file = try TemporaryFile(Array("a=1\r\nb ==\r\n".utf8))
      let r = try SiftProcess.run(["format"], input: .file(file.path))
      #expect(r.exited(1))
      #expect(r.stdout == "a == 1\n\n")
      #expect(r.stderr.hasPrefix("line 2: 1:5: error: expected an expression after '==', found end of input\n"))
    }

    @Test func readErrorOnStdinIsReported() throws {
      let r = try SiftProcess.shell(#"exec "$SIFT" format < "$1""#, arguments: [NSTemporaryDirectory()])
      #expect(r.exited(1))
      #expect(r.stdout == "")
      #expect(r.stderr == "sift format: error reading standard input: Is a directory\n")
    }

    @Test func writeErrorOnStdoutIsReported() throws {
      let r = try SiftProcess.shell(#"printf 'a=1\n' | "$SIFT" format > /dev/full"#)
      #expect(r.exited(1))
      #expect(r.stderr == "sift: error writing standard output: No space left on device\n")
    }

    // MARK: Help and usage

    @Test(
      "--help prints the options on stdout and exits 0",
      arguments: [
        ["format", "--help"], ["format", "-h"], ["format", "--args", "[1]", "--help"],
        ["format", "a ==", "--help"],
      ])
    func helpText(_ arguments: [String]) throws {
      let r = try SiftProcess.run(arguments)
      #expect(r.exited(0))
      #expect(r.stdout == Self.help)
      #expect(r.stderr == "")
    }

    static let usageErrors: [([String], String)] = [
      (["format", "--bogus", "a == 1"], "sift: unknown option --bogus for sift format\n"),
      (["format", "a == 1", "--ast"], "sift: unknown option --ast for sift format\n"),
      (["format", "a == 1", "b == 2"], "sift: sift format takes one predicate\n"),
      (["format", "a == %@", "--args"], "sift: --args needs a JSON array\n"),
      (
        ["format", "--args", "[1,", "a == %@"],
        "sift: --args is not valid JSON: expected a JSON value, found end of input at offset 3\n"
      ),
      (["format", "--args", #"{"a": 1}"#, "a == %@"], "sift: --args must be a JSON array\n"),
      // Bad --args is a usage error in the stdin mode too, before any line is read.
      (["format", "--args", "1"], "sift: --args must be a JSON array\n"),
    ]

    @Test("usage errors exit 2 with a message on stderr", arguments: usageErrors)
    func usageError(_ arguments: [String], _ message: String) throws {
      let r = try SiftProcess.run(arguments, input: .text("a == 1\n"))
      #expect(r.exited(2))
      #expect(r.stdout == "")
      #expect(r.stderr == message)
    }
  }
}
