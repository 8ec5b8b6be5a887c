import Foundation
import Sift
import Testing

extension SiftCLITests {
  @Suite("sift cases and sift explain")
  struct CasesAndExplain {
    static func cases(_ lines: [String]) throws -> [String] {
      let r = try SiftProcess.run(["cases"], input: .text(lines.map { $0 + "\n" }.joined()))
      #expect(r.exited(0))
      #expect(r.stderr == "")
      #expect(r.lines.count == lines.count, "one output line per input line")
      return r.lines
    }

    @Test("one answer per line, in order, for results, errors and bad lines")
    func answers() throws {
      let out = try Self.cases([
        #"{"id": 1, "format": "SELF IN %@", "args": [["work", "family"]], "object": "work"}"#,
        #"{"id": "b", "format": "account.tier + 1 == 3", "object": {"account": {"tier": 2}}}"#,
        #"{"id": 3, "format": "priority < '10'", "object": {"priority": 3}}"#,
        #"{"id": 4, "format": "a ==", "object": {}}"#,
        #"{"id": 5, "format": "x > $min", "object": {"x": 5}, "variables": {"min": 4}}"#,
        "not json",
        #"{"id": 7}"#,
        #"{"format": "TRUEPREDICATE"}"#,
      ])
      #expect(
        out == [
          #"{"id": 1, "canonical": "SELF IN {\"work\", \"family\"}", "result": true}"#,
          #"{"id": "b", "canonical": "account.tier + 1 == 3", "result": true}"#,
          #"{"id": 3, "canonical": "priority < \"10\"", "error": {"stage": "evaluate", "message": "cannot order number and string", "offset": 0}}"#,
          #"{"id": 4, "error": {"stage": "parse", "message": "expected an expression after '==', found end of input", "offset": 4}}"#,
          #"{"id": 5, "canonical": "x > $min", "result": true}"#,
          #"{"id": null, "error": {"stage": "input", "message": "line is not valid JSON: expected null", "offset": 0}}"#,
          #"{"id": 7, "error": {"stage": "input", "message": "line has no string \"format\"", "offset": 0}}"#,
          #"{"id": null, "canonical": "TRUEPREDICATE", "result": true}"#,
        ])
    }

    @Test("explain prints the canonical form and the bytecode listing")
    func explain() throws {
      let r = try SiftProcess.run(["explain", "--args", #"[["a", "b"]]"#, "SELF IN %@"])
      #expect(r.exited(0))
      #expect(
        r.stdout == """
          predicate: SELF IN {"a", "b"}
          registers: 0
             0  inStrings SELF, o0                           ; 0..<10
             1  branch true else false                       ; 0..<10
          constants:
            [0] {"a", "b"}
          comparisons:
            [0] IN, k0
          objects:
            [0] set of 2 strings, linear

          """)
    }

    @Test("explain reports syntax and compile errors with exit 1")
    func explainErrors() throws {
      let r = try SiftProcess.run(["explain", "name MATCHES '('"])
      #expect(r.exited(1))
      #expect(r.stderr.contains("invalid MATCHES pattern"))
      let usage = try SiftProcess.run(["explain"])
      #expect(usage.exited(2))
    }

    @Test("help texts")
    func help() throws {
      for command in ["cases", "explain"] {
        let r = try SiftProcess.run([command, "--help"])
        #expect(r.exited(0))
        #expect(r.stdout.hasPrefix("usage: sift \(command)"))
      }
    }
  }
}
