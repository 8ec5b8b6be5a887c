import Foundation
import Sift
import Testing

/// All end-to-end suites run one at a time: each test spawns processes with pipes, and
/// serial runs keep one test's pipe ends from leaking into another test's child.
@Suite("sift CLI", .serialized)
enum SiftCLITests {}

extension SiftCLITests {
  @Suite("sift parse PREDICATE")
  struct Parse {
    static let canonical: [(String, String)] = [
      (#"name == "x" AND age > 3"#, #"name == "x" AND age > 3"#),
      ("a = 1", "a == 1"),
      ("a=1&&b<>2||!(c==3)", "a == 1 AND (b != 2 OR NOT c == 3)"),
      ("a == 1 or b == 2 and c == 3", "(a == 1 OR b == 2) AND c == 3"),
      (#"x in {1,2.5,"s"} && not y beginswith[cd] "é""#, #"x IN {1, 2.5, "s"} AND NOT y BEGINSWITH[cd] "é""#),
      ("name LIKE[c] 'J*'", #"name LIKE[c] "J*""#),
      ("TRUEPREDICATE", "TRUEPREDICATE"),
      ("a == $var", "a == $var"),
      ("SUBQUERY(items, $x, $x.price > 10).@count > 0", "SUBQUERY(items, $x, $x.price > 10).@count > 0"),
    ]

    @Test("prints the canonical form on stdout and exits 0", arguments: canonical)
    func printsCanonicalForm(_ input: String, _ expected: String) throws {
      let r = try SiftProcess.run(["parse", input])
      #expect(r.exited(0))
      #expect(r.stdout == expected + "\n")
      #expect(r.stderr == "")
    }

    @Test func canonicalFormIsAFixedPoint() throws {
      let first = try SiftProcess.run(["parse", "a=1&&b<>2||!(c==3)"])
      let again = try SiftProcess.run(["parse", String(first.stdout.dropLast())])
      #expect(again.exited(0))
      #expect(again.stdout == first.stdout)
    }

    static let diagnostics: [(String, String)] = [
      (
        "name == AND x",
        """
        1:9: error: expected an expression after '==', found keyword AND
        name == AND x
                ^~~

        """
      ),
      (
        #"a == "unterminated"#,
        """
        1:6: error: unterminated string
        a == "unterminated
             ^
        hint: the string that starts here has no closing "

        """
      ),
      (
        "a == 1 AND\n  b ==",
        """
        2:7: error: expected an expression after '==', found end of input
          b ==
              ^

        """
      ),
      (
        "é == ü ==",
        """
        1:8: error: unexpected '==' after the end of the predicate
        é == ü ==
               ^~
        hint: join predicates with AND or OR

        """
      ),
    ]

    @Test("prints the rendered diagnostic on stderr and exits 1", arguments: diagnostics)
    func printsDiagnostic(_ input: String, _ expected: String) throws {
      let r = try SiftProcess.run(["parse", input])
      #expect(r.exited(1))
      #expect(r.stdout == "")
      #expect(r.stderr == expected)
    }

    static let badPredicates: [(String, String?)] = [
      ("", nil),
      ("   ", nil),
      ("a ==", nil),
      ("a == 1 AND", nil),
      ("(a == 1", nil),
      ("a == 1)", nil),
      ("a == 'it''s'", nil),
      ("a BETWEEN", nil),
      ("ANY", nil),
      ("a == %@", "[]"),
      ("a == %d", #"["s"]"#),
      ("%K == 1", "[1]"),
      ("a == 1\nAND b == \"x\" AND\n c ==", nil),
    ]

    @Test("stderr carries the library's rendered diagnostic", arguments: badPredicates)
    func diagnosticIsTheLibrarys(_ input: String, _ args: String?) throws {
      let r = try SiftProcess.run(["parse", input] + (args.map { ["--args", $0] } ?? []))
      let values = try args.map { text -> [SiftValue] in
        guard case .array(let values) = try SiftValue(json: text) else { return [] }
        return values
      }
      let expected = try #require(Library.diagnostic(input, values ?? []))
      #expect(r.exited(1))
      #expect(r.stdout == "")
      #expect(r.stderr == expected)
    }

    @Test func diagnosticKeepsTabsInTheGutter() throws {
      let r = try SiftProcess.run(["parse", "\ta ==\t@"])
      #expect(r.exited(1))
      #expect(
        r.stderr == """
          1:7: error: expected a name after '@'
          \ta ==\t@
          \t    \t^
          hint: collection operators are written @count, @sum, @avg, …

          """)
    }

    @Test func invalidUTF8ArgumentIsADiagnosticNotARepair() throws {
      // `Process` only passes valid UTF-8, so the byte goes through the shell.
      let r = try SiftProcess.shell(#"exec "$SIFT" parse "$(printf 'a == "\377"')""#)
      #expect(r.exited(1))
      #expect(r.stdout == "")
      #expect(r.stderr.hasPrefix("1:7: error: input is not valid UTF-8\n"))
      #expect(r.stderr.hasSuffix("hint: the byte at offset 6 does not start or continue a UTF-8 sequence\n"))
    }

    @Test func astDump() throws {
      let r = try SiftProcess.run([
        "parse", "--ast", #"a.b >= 1.5 AND NOT name BEGINSWITH[cd] "x" AND t == $v"#,
      ])
      #expect(r.exited(0))
      #expect(r.stderr == "")
      #expect(
        r.stdout == """
          and @0..<54
            comparison >= @0..<10
              keyPath a.b @0..<3
              constant number 1.5 @7..<10
            not @15..<42
              comparison BEGINSWITH[cd] @19..<42
                keyPath name @19..<23
                constant string "x" @39..<42
            comparison == @47..<54
              keyPath t @47..<48
              variable $v @52..<54

          """)
    }

    static let astInputs = [
      #"NOT (a.b[c] >= 1.5 OR ANY t IN {1, "s"}) AND f CONTAINS[c] $v AND @count.x < 3"#,
      "SUBQUERY(items, $x, $x.price > 10 AND $x.name LIKE 'a*').@count > 0",
      "a = 1 || b = 2 && c = 3",
      "FUNCTION(a, 'uppercase:') == 'X' OR -x + 2 * y BETWEEN {1, 3}",
    ]

    @Test("--ast prints the library's tree dump", arguments: astInputs)
    func astIsTheLibrarys(_ input: String) throws {
      let r = try SiftProcess.run(["parse", "--ast", input])
      let expected = try PredicateSyntax(parsing: input).treeDump
      #expect(r.exited(0), "\(r.stderr)")
      #expect(r.stdout == expected + "\n")
    }

    @Test func astOptionMayFollowThePredicate() throws {
      let r = try SiftProcess.run(["parse", "a == 1", "--ast"])
      #expect(r.exited(0))
      #expect(
        r.stdout == """
          comparison == @0..<6
            keyPath a @0..<1
            constant number 1 @5..<6

          """)
    }

    @Test func astWithArguments() throws {
      let r = try SiftProcess.run(["parse", "--ast", "--args", #"["name", "x"]"#, "%K == %@"])
      #expect(r.exited(0))
      #expect(
        r.stdout == """
          comparison == @0..<8
            keyPath name @0..<2
            constant string "x" @6..<8

          """)
    }

    @Test func astOfABadPredicateIsTheDiagnostic() throws {
      let r = try SiftProcess.run(["parse", "--ast", "a =="])
      #expect(r.exited(1))
      #expect(r.stdout == "")
      #expect(r.stderr.hasPrefix("1:5: error: expected an expression after '==', found end of input\n"))
    }

    static let bindings: [(String, String, String)] = [
      (#"["Jo"]"#, "name BEGINSWITH %@", #"name BEGINSWITH "Jo""#),
      (#"["a.b"]"#, "%K == 1", "a.b == 1"),
      (#"["name", "Jo"]"#, "%K == %@", #"name == "Jo""#),
      ("[3]", "a == %d", "a == 3"),
      ("[3]", "a == %i", "a == 3"),
      ("[2.5]", "a > %f", "a > 2.5"),
      ("[[1, 2]]", "id IN %@", "id IN {1, 2}"),
      ("[null, true]", "x == %@ AND y == %@", "x == nil AND y == TRUE"),
      (#"["x\"y\\z\u00e9"]"#, "a == %@", #"a == "x\"y\\zé""#),
      ("[]", "a == 1", "a == 1"),
      (
        #"["name", "Jo", 42, 2.5, [1, 2]]"#, "%K BEGINSWITH %@ AND age == %d AND score > %f AND id IN %@",
        #"name BEGINSWITH "Jo" AND age == 42 AND score > 2.5 AND id IN {1, 2}"#
      ),
    ]

    @Test("--args binds %@, %K and numeric specifiers in order", arguments: bindings)
    func bindsArguments(_ args: String, _ format: String, _ expected: String) throws {
      let r = try SiftProcess.run(["parse", "--args", args, format])
      #expect(r.exited(0), "\(r.stderr)")
      #expect(r.stdout == expected + "\n")
      #expect(r.stderr == "")
    }

    @Test func argumentsMayFollowThePredicate() throws {
      let r = try SiftProcess.run(["parse", "a == %@", "--args", "[1]"])
      #expect(r.exited(0))
      #expect(r.stdout == "a == 1\n")
    }

    @Test func writeErrorOnStdoutIsReported() throws {
      let r = try SiftProcess.shell(#"exec "$SIFT" parse 'a == 1' > /dev/full"#)
      #expect(r.exited(1))
      #expect(r.stderr == "sift: error writing standard output: No space left on device\n")
    }
  }
}
