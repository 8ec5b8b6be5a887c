import Foundation
import Testing

extension SiftCLITests {
  @Suite("usage and help")
  struct Usage {
    static let parseHelp = """
      usage: sift parse [--ast] [--args JSON_ARRAY] [--] 'PREDICATE'
             sift parse --jsonl [--max-line-bytes N] < predicates.jsonl

      Parses an NSPredicate format string. Prints its canonical form (exit 0), or the
      diagnostic on stderr (exit 1).

        --ast              print the syntax tree (one node per line, with byte ranges)
        --args JSON_ARRAY  values for %@, %K and numeric specifiers, in order
        --jsonl            read {"id": …, "format": "…", "args": […]} per line from stdin and
                           write {"id": …, "canonical": "…"} or {"id": …, "error": {…}} per line,
                           in order (error stage "parse", or "input" for a line that is not a
                           JSON object with a string "format"); each answer is written before
                           a read that would wait
        --max-line-bytes N with --jsonl: the longest line read, in bytes without its ending
                           (default 16777216, 16 MiB); a longer line gets an "input" error
                           record and is skipped without being held in memory
        --                 end of options: the next argument is the predicate, even when it
                           starts with '-' (sift parse -- '-1 < x')

      """

    /// The overview lists every command, so it grows as commands are added; these tests
    /// check its shape and that every way of asking prints the same text.
    static func mainHelp() throws -> String {
      let r = try SiftProcess.run(["--help"])
      #expect(r.exited(0))
      #expect(r.stderr == "")
      return r.stdout
    }

    @Test func mainHelpText() throws {
      let help = try Self.mainHelp()
      #expect(
        help.hasPrefix(
          "usage: sift <command> [options]\n\nSift evaluates NSPredicate format strings on Linux.\n"))
      #expect(help.contains("\ncommands:\n"))
      #expect(help.contains("\n  parse     check a predicate; print its canonical form or its syntax tree\n"))
      #expect(help.hasSuffix("\nRun 'sift <command> --help' for a command's options.\n"))
    }

    static let commands = ["parse", "explain", "cases", "filter", "bench", "format", "check"]

    /// Every command is listed in the overview and answers --help with its own usage.
    @Test(arguments: Self.commands)
    func everyCommandHasHelp(_ command: String) throws {
      #expect(try Self.mainHelp().contains("\n  \(command) "))
      let r = try SiftProcess.run([command, "--help"])
      #expect(r.exited(0))
      #expect(r.stdout.hasPrefix("usage: sift \(command)"))
      #expect(r.stderr == "")
    }

    @Test("sift -h and sift help print the overview too", arguments: ["-h", "help"])
    func mainHelpSpellings(_ flag: String) throws {
      let r = try SiftProcess.run([flag])
      #expect(r.exited(0))
      #expect(r.stdout == (try Self.mainHelp()))
      #expect(r.stderr == "")
    }

    @Test(
      "sift parse --help prints the options on stdout",
      arguments: [
        ["parse", "--help"], ["parse", "-h"], ["parse", "--ast", "--help"], ["parse", "--help", "a =="],
      ])
    func parseHelpText(_ arguments: [String]) throws {
      let r = try SiftProcess.run(arguments)
      #expect(r.exited(0))
      #expect(r.stdout == Self.parseHelp)
      #expect(r.stderr == "")
    }

    @Test func noCommandPrintsTheOverviewOnStderr() throws {
      let r = try SiftProcess.run([])
      #expect(r.exited(2))
      #expect(r.stdout == "")
      #expect(r.stderr == (try Self.mainHelp()))
    }

    @Test(
      "an unknown command is a usage error followed by the overview",
      arguments: ["frob", "--version", "PARSE"])
    func unknownCommand(_ command: String) throws {
      let r = try SiftProcess.run([command, "a == 1"])
      #expect(r.exited(2))
      #expect(r.stdout == "")
      #expect(r.stderr == "sift: unknown command '\(command)'\n\n" + (try Self.mainHelp()))
    }

    static let usageErrors: [([String], String)] = [
      (["parse"], "sift: sift parse needs a predicate\n"),
      (["parse", "--ast"], "sift: sift parse needs a predicate\n"),
      (["parse", "--bogus", "a == 1"], "sift: unknown option --bogus for sift parse\n"),
      (["parse", "a == 1", "--json"], "sift: unknown option --json for sift parse\n"),
      (["parse", "a == 1", "b == 2"], "sift: sift parse takes one predicate\n"),
      (["parse", "a == %@", "--args"], "sift: --args needs a JSON array\n"),
      (
        ["parse", "--args", "[1,", "a == %@"],
        "sift: --args is not valid JSON: expected a JSON value, found end of input at offset 3\n"
      ),
      (["parse", "--args", #"{"a": 1}"#, "a == %@"], "sift: --args must be a JSON array\n"),
      (["parse", "--args", "1", "a == %@"], "sift: --args must be a JSON array\n"),
      (
        ["parse", "--jsonl", "a == 1"],
        "sift: --jsonl reads predicates from stdin; give no predicate or --args\n"
      ),
      (
        ["parse", "--jsonl", "--args", "[]"],
        "sift: --jsonl reads predicates from stdin; give no predicate or --args\n"
      ),
    ]

    @Test("usage errors exit 2 with a message on stderr", arguments: usageErrors)
    func usageError(_ arguments: [String], _ message: String) throws {
      let r = try SiftProcess.run(arguments)
      #expect(r.exited(2))
      #expect(r.stdout == "")
      #expect(r.stderr == message)
    }

    @Test func invalidUTF8InArgsIsAUsageError() throws {
      let r = try SiftProcess.shell(#"exec "$SIFT" parse --args "$(printf '["\377"]')" 'a == %@'"#)
      #expect(r.exited(2))
      #expect(r.stderr == "sift: --args is not valid JSON: string is not valid UTF-8 at offset 2\n")
    }
  }
}
