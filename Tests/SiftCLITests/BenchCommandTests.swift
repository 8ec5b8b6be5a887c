import Foundation
import Testing

extension SiftCLITests {
  @Suite("sift bench")
  struct Bench {
    @Test func roundsAndMedian() throws {
      let file = try TemporaryFile(Array("{\"n\": 1}\n{\"n\": 2}\r\n{\"n\": 3}\nnot json\n{\"n\": 4}".utf8))
      let r = try SiftProcess.run(["bench", "n > 1", file.path, "--rounds", "2"])
      #expect(r.exited(0), "\(r.stderr)")
      #expect(r.lines.count == 3)
      #expect(r.lines[0].hasPrefix("round 1: 5 lines (3 matched, 1 not matched, 1 errors) in "))
      #expect(r.lines[1].hasPrefix("round 2: 5 lines (3 matched, 1 not matched, 1 errors) in "))
      #expect(r.lines[2].hasPrefix("median: "))
      #expect(r.lines[2].hasSuffix("(3 matched, 1 not matched, 1 errors per round)"))
      #expect(r.stderr == "")
    }

    /// On a terminal (a pty from `script`) each round is announced on stderr and the line
    /// cleared; piped, stderr stays empty (`roundsAndMedian`).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressOnATerminal() throws {
      let file = try TemporaryFile(Array("{\"n\": 2}\n".utf8))
      let r = try SiftProcess.shell(
        #"/usr/bin/script -qec "\"$SIFT\" bench 'n > 1' \"$1\" --rounds 2" /dev/null"#, arguments: [file.path])
      #expect(r.exited(0), "\(r.status) \(r.stderr)")
      #expect(r.stdout.contains("\rround 1 of 2… \r\u{1B}[K"))
      #expect(r.stdout.contains("\rround 2 of 2… \r\u{1B}[K"))
      #expect(r.stdout.contains("median: "))
    }

    @Test func apnsAndArguments() throws {
      let file = try TemporaryFile(
        Array(#"{"aps": {"filter-criteria": "work"}}"#.utf8) + [10] + Array(#"{"aps": {}}"#.utf8) + [10])
      let r = try SiftProcess.run([
        "bench", "SELF IN %@", file.path, "--apns", "--args", #"[["work"]]"#, "--rounds", "1",
      ])
      #expect(r.exited(0), "\(r.stderr)")
      #expect(r.lines.first?.hasPrefix("round 1: 2 lines (1 matched, 1 not matched, 0 errors)") == true)
    }

    @Test(
      arguments: [
        (["bench"], 2, "sift: sift bench needs a predicate\n"),
        (["bench", "n > 1"], 2, "sift: sift bench needs a file\n"),
        (
          ["bench", "n > 1", "/nonexistent/sift-bench", "--rounds", "1"], 1,
          "sift bench: cannot read /nonexistent/sift-bench: No such file or directory\n"
        ),
        (["bench", "n > 1", "f", "--rounds", "0"], 2, "sift: --rounds needs a positive integer\n"),
        (["bench", "n > 1", "f", "g"], 2, "sift: sift bench takes one predicate and one file\n"),
      ] as [([String], Int32, String)])
    func badUsage(_ arguments: [String], _ status: Int32, _ message: String) throws {
      let r = try SiftProcess.run(arguments)
      #expect(r.exited(status), "\(r.status) \(r.stderr)")
      #expect(r.stderr == message)
    }

    @Test func aBadPredicateShowsItsDiagnostic() throws {
      let r = try SiftProcess.run(["bench", "n >", "f"])
      #expect(r.exited(2))
      #expect(r.stderr == Library.diagnostic("n >"))
    }
  }
}
