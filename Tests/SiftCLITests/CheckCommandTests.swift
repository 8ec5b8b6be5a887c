import Foundation
import Sift
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension SiftCLITests {
  @Suite("sift check")
  struct Check {
    static let help = """
      usage: sift check [--args JSON_ARRAY] [--max-line-bytes N] [--] FILE

      Parses and compiles each line of FILE ('-' for stdin) as a predicate; blank lines and
      comment lines, whose first characters after any blanks are '//', are skipped (no
      predicate starts with '/'; '#' starts predicates such as #"fill-opacity" == 1). Every
      invalid line's diagnostic goes to stderr as 'FILE:LINE: …', then a summary
      'FILE: N predicates, M invalid'.
      Exit 0 if all are valid, 1 if any is invalid, 2 if FILE cannot be read.

        --args JSON_ARRAY  values for %@, %K and numeric specifiers, in order, bound to
                           every line; a line with fewer specifiers than values gets a
                           warning (Apple ignores the rest, and so does Sift), not an error
        --max-line-bytes N the longest line read, in bytes without its ending (default
                           16777216, 16 MiB); a longer line is invalid, and is skipped
                           without being held in memory
        --                 end of options: the next argument is FILE, even when it starts
                           with '-'

      """

    /// One file to check and everything `sift check` must say about it. In `stderr`,
    /// `FILE` stands for the path of the temporary file the content is written to.
    struct Case: Sendable, CustomTestStringConvertible {
      var name: String
      var content: [UInt8]
      var arguments: [String] = []
      var stderr: String
      var status: Int32

      init(_ name: String, _ content: String, arguments: [String] = [], stderr: String, status: Int32) {
        self.init(name, bytes: Array(content.utf8), arguments: arguments, stderr: stderr, status: status)
      }

      init(_ name: String, bytes: [UInt8], arguments: [String] = [], stderr: String, status: Int32) {
        self.name = name
        content = bytes
        self.arguments = arguments
        self.stderr = stderr
        self.status = status
      }

      var testDescription: String { name }
    }

    static let cases: [Case] = [
      Case("an empty file", "", stderr: "FILE: 0 predicates, 0 invalid\n", status: 0),
      Case(
        "only comments and blank lines", "// a comment\n\n   \n//another\n\t\n  \t// indented\n//\n",
        stderr: "FILE: 0 predicates, 0 invalid\n", status: 0),
      Case("one valid predicate", "a == 1\n", stderr: "FILE: 1 predicate, 0 invalid\n", status: 0),
      Case(
        "valid predicates between comments, last line without a newline",
        "// users\nname BEGINSWITH 'J'\n\n// ages\nage > 3 AND age < 10\nSUBQUERY(x, $y, $y > 1).@count > 0",
        stderr: "FILE: 3 predicates, 0 invalid\n", status: 0),
      Case(
        "a syntax error names the file and line and shows the caret",
        "// header\na == 1\n\nb ==\n",
        stderr: """
          FILE:4: 1:5: error: expected an expression after '==', found end of input
          b ==
              ^
          FILE: 2 predicates, 1 invalid

          """,
        status: 1),
      Case(
        "every invalid line is reported, not just the first",
        "a ==\nb == 1\nc == 'x\nd == 2\nname == AND x\n",
        stderr: """
          FILE:1: 1:5: error: expected an expression after '==', found end of input
          a ==
              ^
          FILE:3: 1:6: error: unterminated string
          c == 'x
               ^
          hint: the string that starts here has no closing '
          FILE:5: 1:9: error: expected an expression after '==', found keyword AND
          name == AND x
                  ^~~
          FILE: 5 predicates, 3 invalid

          """,
        status: 1),
      Case(
        "a compile-time error: an invalid constant regex",
        "name MATCHES 'a.*'\nname MATCHES '('\n",
        stderr: """
          FILE:2: 1:14: error: invalid MATCHES pattern: missing closing parenthesis
          name MATCHES '('
                       ^~~
          FILE: 2 predicates, 1 invalid

          """,
        status: 1),
      Case(
        "CRLF line endings: line numbers count, carets carry no carriage return",
        "// crlf\r\na == 1\r\n\r\nb ==\r\n",
        stderr: """
          FILE:4: 1:5: error: expected an expression after '==', found end of input
          b ==
              ^
          FILE: 2 predicates, 1 invalid

          """,
        status: 1),
      Case(
        "invalid UTF-8 is reported at its byte, not repaired",
        bytes: Array("a == 1\n".utf8) + [0x61, 0x20, 0x3D, 0x3D, 0x20, 0x22, 0xFF, 0x22, 0x0A],
        stderr: """
          FILE:2: 1:7: error: input is not valid UTF-8
          a == "\u{FFFD}"
                ^
          hint: the byte at offset 6 does not start or continue a UTF-8 sequence
          FILE: 2 predicates, 1 invalid

          """,
        status: 1),
      Case(
        "'#' starts a predicate, never a comment, in any column",
        "#like == 1\n (#like == 1)\n  # not a comment\n",
        stderr: """
          FILE:3: 1:3: error: expected a key after '#'
            # not a comment
            ^
          hint: '#' makes a reserved word usable as a key, as in #like, and any text a key, as in #"fill-opacity"
          FILE: 3 predicates, 1 invalid

          """,
        status: 1),
      Case(
        "a specifier without --args",
        "a == %@\n",
        stderr: """
          FILE:1: 1:6: error: no argument for this format specifier: it is number 1, but 0 arguments were given
          a == %@
               ^~
          hint: pass one argument per %@, %K or numeric specifier, in order
          FILE: 1 predicate, 1 invalid

          """,
        status: 1),
      Case(
        "--args binds every line", "a == %@\n%K == 'x'\n", arguments: ["--args", #"["name"]"#],
        stderr: "FILE: 2 predicates, 0 invalid\n", status: 0),
      Case(
        "--args beyond a line's specifiers is a warning: Apple ignores them",
        "a == %@\nb == 1\n%K == %@\n", arguments: ["--args", #"["x", 2]"#],
        stderr: """
          FILE:1: warning: 1 of the 2 arguments is unused: the line has 1 format specifier
          FILE:2: warning: 2 of the 2 arguments are unused: the line has 0 format specifiers
          FILE: 3 predicates, 0 invalid

          """,
        status: 0),
      Case(
        "--args binds before compiling: a bad regex from an argument is caught",
        "name MATCHES %@\n", arguments: ["--args", #"["[a-"]"#],
        stderr: """
          FILE:1: 1:14: error: invalid MATCHES pattern: missing terminating ] for character class
          name MATCHES %@
                       ^~
          FILE: 1 predicate, 1 invalid

          """,
        status: 1),
    ]

    @Test("checks each line of the file", arguments: cases)
    func checksFile(_ check: Case) throws {
      let file = try TemporaryFile(check.content)
      let r = try SiftProcess.run(["check", file.path] + check.arguments)
      #expect(r.exited(check.status), "\(r.stderr)")
      #expect(r.stdout == "")
      #expect(r.stderr == check.stderr.replacingOccurrences(of: "FILE", with: file.path))
    }

    /// The issue's file: `#"key"` predicates are checked, valid or not, and so is the text
    /// the canonical printer writes for a key that needs quoting; only `//` lines are
    /// comments, and a single `/` is not one.
    @Test func hashPredicatesAreCheckedAndSlashesAreComments() throws {
      let printed = try SiftProcess.run(["format", "--args", #"["fill-opacity"]"#, "%K == 1"])
      #expect(printed.exited(0))
      let canonical = String(printed.stdout.dropLast())
      #expect(canonical == #"#"fill-opacity" == 1"#)
      let lines = [
        #"#"fill-opacity" == "#, "#AND == ==", "a == 1", canonical, "// a comment", "  // an indented comment",
        "/ a == 1", "#like == 1",
      ]
      let file = try TemporaryFile(Array((lines.joined(separator: "\n") + "\n").utf8))
      let r = try SiftProcess.run(["check", file.path])
      #expect(r.exited(1))
      var expected = ""
      for (n, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        if let diagnostic = Library.diagnostic(line) { expected += "\(file.path):\(n + 1): \(diagnostic)" }
      }
      #expect(expected.contains(":1: ") && expected.contains(":2: ") && expected.contains(":7: "))
      expected += "\(file.path): 6 predicates, 3 invalid\n"
      #expect(r.stderr == expected)
    }

    @Test func argsMayComeBeforeTheFile() throws {
      let file = try TemporaryFile(Array("a == %d\n".utf8))
      let r = try SiftProcess.run(["check", "--args", "[3]", file.path])
      #expect(r.exited(0))
      #expect(r.stderr == "\(file.path): 1 predicate, 0 invalid\n")
    }

    /// Compile errors are the library's; the CLI only passes them through.
    @Test(
      "compile-time errors carry the library's diagnostic",
      arguments: ["name MATCHES '('", "name MATCHES '*'", "name MATCHES[c] 'a{2,1}'"])
    func compileDiagnosticIsTheLibrarys(_ predicate: String) throws {
      let expected: String
      do {
        _ = try SiftPredicate(format: predicate)
        Issue.record("\(predicate) compiles; expected a compile error")
        return
      } catch {
        expected = error.description
      }
      #expect((try? PredicateSyntax(parsing: predicate)) != nil, "a compile error, not a syntax error")
      let file = try TemporaryFile(Array((predicate + "\n").utf8))
      let r = try SiftProcess.run(["check", file.path])
      #expect(r.exited(1))
      #expect(r.stderr == "\(file.path):1: \(expected)\n\(file.path): 1 predicate, 1 invalid\n")
    }

    // MARK: Standard input

    @Test func dashReadsStandardInput() throws {
      let r = try SiftProcess.run(["check", "-"], input: .text("// c\na == 1\r\nb ==\r\n"))
      #expect(r.exited(1))
      #expect(r.stdout == "")
      #expect(
        r.stderr == """
          <stdin>:3: 1:5: error: expected an expression after '==', found end of input
          b ==
              ^
          <stdin>: 2 predicates, 1 invalid

          """)
    }

    @Test func dashWithArgsAndAFileOnStdin() throws {
      let file = try TemporaryFile(Array("a == %@\nb != %@\n".utf8))
      let r = try SiftProcess.run(["check", "-", "--args", #"["x"]"#], input: .file(file.path))
      #expect(r.exited(0))
      #expect(r.stderr == "<stdin>: 2 predicates, 0 invalid\n")
    }

    @Test func emptyStandardInput() throws {
      let r = try SiftProcess.run(["check", "-"])
      #expect(r.exited(0))
      #expect(r.stderr == "<stdin>: 0 predicates, 0 invalid\n")
    }

    /// More than one 1 MiB read block: line numbers stay right across block boundaries.
    @Test func manyLinesAreNumberedAcrossReadBlocks() throws {
      let count = 40_000
      var text = ""
      var bad: [Int] = []
      for i in 1...count {
        if i % 4_999 == 0 {
          text += "age > \(i) AND\n"
          bad.append(i)
        } else {
          text += #"name == "n\#(i)" AND age > \#(i)"# + "\n"
        }
      }
      #expect(text.utf8.count > 1 << 20)
      let file = try TemporaryFile(Array(text.utf8))
      let r = try SiftProcess.run(["check", file.path])
      #expect(r.exited(1))
      let lines = r.stderr.split(separator: "\n").map(String.init)
      let reported = lines.filter { $0.hasPrefix("\(file.path):") && $0.contains(": error: ") }
      #expect(reported.map { String($0.split(separator: ":")[1]) } == bad.map(String.init))
      #expect(lines.last == "\(file.path): \(count) predicates, \(bad.count) invalid")
    }

    // MARK: Files that cannot be read

    @Test func missingFileIsExit2() throws {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-missing-\(UUID())").path
      let r = try SiftProcess.run(["check", path])
      #expect(r.exited(2))
      #expect(r.stdout == "")
      #expect(r.stderr == "sift: cannot open \(path): No such file or directory\n")
    }

    @Test func directoryIsExit2() throws {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-dir-\(UUID())").path
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let r = try SiftProcess.run(["check", path])
      #expect(r.exited(2))
      #expect(r.stdout == "")
      #expect(r.stderr == "sift: cannot read \(path): Is a directory\n")
    }

    @Test func unreadableStandardInputIsExit2() throws {
      let r = try SiftProcess.shell(#"exec "$SIFT" check - < "$1""#, arguments: [NSTemporaryDirectory()])
      #expect(r.exited(2))
      #expect(r.stdout == "")
      #expect(r.stderr == "sift: cannot read <stdin>: Is a directory\n")
    }

    /// Root reads any file whatever its mode, so this only means something for other users.
    @Test(.enabled(if: geteuid() != 0, "root can read a file with mode 000"))
    func unreadableFileIsExit2() throws {
      let file = try TemporaryFile(Array("a == 1\n".utf8))
      #expect(chmod(file.path, 0) == 0)
      let r = try SiftProcess.run(["check", file.path])
      #expect(r.exited(2))
      #expect(r.stdout == "")
      #expect(r.stderr == "sift: cannot open \(file.path): Permission denied\n")
    }

    /// Runs where the test above cannot: a path through a regular file fails in `open`
    /// with the OS's own reason, which must reach stderr unchanged.
    @Test func pathThroughAFileIsExit2() throws {
      let file = try TemporaryFile(Array("a == 1\n".utf8))
      let r = try SiftProcess.run(["check", file.path + "/x"])
      #expect(r.exited(2))
      #expect(r.stderr == "sift: cannot open \(file.path)/x: Not a directory\n")
    }

    // MARK: Help and usage

    @Test(
      "--help prints the options on stdout and exits 0",
      arguments: [
        ["check", "--help"], ["check", "-h"], ["check", "missing.txt", "--help"], ["check", "--args", "[", "-h"],
      ])
    func helpText(_ arguments: [String]) throws {
      let r = try SiftProcess.run(arguments)
      #expect(r.exited(0))
      #expect(r.stdout == Self.help)
      #expect(r.stderr == "")
    }

    static let usageErrors: [([String], String)] = [
      (["check"], "sift: sift check needs a file ('-' for stdin)\n"),
      (["check", "--args", "[]"], "sift: sift check needs a file ('-' for stdin)\n"),
      (["check", "a.txt", "b.txt"], "sift: sift check takes one file\n"),
      (["check", "--bogus", "a.txt"], "sift: unknown option --bogus for sift check\n"),
      (["check", "a.txt", "--args"], "sift: --args needs a JSON array\n"),
      (
        ["check", "a.txt", "--args", "[1,"],
        "sift: --args is not valid JSON: expected a JSON value, found end of input at offset 3\n"
      ),
      (["check", "a.txt", "--args", #"{"a": 1}"#], "sift: --args must be a JSON array\n"),
    ]

    @Test("usage errors exit 2 with a message on stderr", arguments: usageErrors)
    func usageError(_ arguments: [String], _ message: String) throws {
      let r = try SiftProcess.run(arguments)
      #expect(r.exited(2))
      #expect(r.stdout == "")
      #expect(r.stderr == message)
    }
  }
}
