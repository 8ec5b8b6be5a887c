import Foundation
import SiftReference
import Testing

@testable import Sift

/// The VM's tiers and fast paths against its general ones: the test chain against the
/// plain boolean bytecode, the small-string word comparisons against bytes, the unboxing of
/// `Any` against casts.
@Suite("Fast paths")
struct FastPathTests {
  @Test(arguments: [
    ("account IN %@ AND priority >= 3 AND NOT (sender ENDSWITH[c] '@spam.example') AND ANY tags == 'urgent'", true),
    ("a == 1 OR (b == 2 AND NOT c == 3) OR TRUEPREDICATE", true), ("NOT a == 1", true),
    // No test at all: the plain code is two instructions already.
    ("TRUEPREDICATE", false),
    ("a == 1 AND b + 1 == 2", false), ("SUBQUERY(xs, $x, $x == 1).@count > 0", false), ("a == $v", false),
  ])
  func testChainsAreChosenForTestsOnly(_ format: String, _ expected: Bool) throws {
    let p = try SiftPredicate(format: format, arguments: format.contains("%@") ? [["a"]] : [])
    #expect(p.program.code.isTestChain == expected, "\(format)\n\(p.bytecodeListing)")
    // A chain is test, branch, test, branch, …
    if expected {
      let code = p.program.code.code
      #expect(code.count % 2 == 0)
      for (pc, i) in code.enumerated() { #expect(i.opcode.mode.isSubjectTest == (pc % 2 == 0)) }
    }
  }

  /// Every random predicate of the differential test whose code the compiler made a test
  /// chain: the chain (by its own runner and by the dispatch loop) and the plain bytecode
  /// give the same result or error kind, and the error the same range.
  @Test func theChainAgreesWithThePlainBytecode() throws {
    var chains = 0
    // Programs that are only flag moves (folded to TRUEPREDICATE or FALSEPREDICATE): no
    // test to chain, so they stay plain.
    var testless = 0
    for (format, object) in RandomCases.make(seed: 77, count: 20_000) {
      guard let p = try? SiftPredicate(format: format) else { continue }
      if !p.program.code.code.contains(where: { !$0.opcode.mode.isControl }) { testless += 1 }
      guard p.program.code.isTestChain else { continue }
      let plain = try Compiler.compile(p.syntax, slots: nil, limits: p.options.limits, tiers: false)
      #expect(!plain.code.isTestChain)
      chains += 1
      let viaChain = Self.run(p.program, object, chain: true)
      let viaLoop = Self.run(p.program, object, chain: false)
      let viaPlain = Self.run(plain, object, chain: false)
      #expect("\(viaChain)" == "\(viaPlain)", "\(format) on \(object.jsonText)")
      #expect("\(viaLoop)" == "\(viaPlain)", "\(format) on \(object.jsonText)")
    }
    #expect(chains > 1_000)
    // The programs the former decision graph covered: chains and test-free code.
    #expect(chains + testless > 2_000)
  }

  static func run(_ p: Program, _ object: SiftValue, chain: Bool) -> Result<Bool, EvaluationError> {
    withUnsafePointer(to: object) { v in
      var env = Environment(variables: nil, stepsLeft: p.maxSteps)
      return Result { () throws(EvaluationError) in
        chain
          ? try Machine.runTestChain(p.executable, ValueReader(root: v), &env)
          : try Machine.runBytecode(p.executable, input: ValueReader(root: v), environment: &env)
      }
    }
  }

  /// Strings in every representation: small, made with spare capacity (not small), long,
  /// non-ASCII, decomposed; members likewise.
  @Test func smallStringWordsAgreeWithBytes() throws {
    #expect(SmallStringBits.isAvailable)
    func variants(_ s: String) -> [String] {
      var spare = s
      spare.reserveCapacity(64)
      return [s, spare, String(decoding: Array(s.utf8), as: UTF8.self), String(s[...])]
    }
    let words = ["", "a", "acct-1", "urgent", "Urgent", "123456789012345", "1234567890123456", "é", "e\u{301}", "zoë"]
    for members in [["acct-1", "acct-4"], ["é", "1234567890123456", ""], ["urgent"], words] {
      let set = StringSet(members, options: [])
      for word in words {
        for subject in variants(word) {
          let expected = members.contains { $0.utf8.elementsEqual(subject.utf8) }
          #expect(set.contains(subject) == expected, "\(subject.debugDescription) IN \(members)")
          for member in members {
            let needle = StringNeedle(member, options: [])
            #expect(needle.matches(subject) == member.utf8.elementsEqual(subject.utf8), "\(subject) == \(member)")
          }
        }
      }
    }
  }

  @Test func unboxingAgreesWithCasts() {
    #expect(ExistentialPayload.isAvailable)
    let values: [Any] = ["short", String(repeating: "x", count: 50), 42, 2.5, true, ["a"], ["k": 1] as [String: Any]]
    #expect(ExistentialPayload.load(values[0], as: String.self) == "short")
    #expect(ExistentialPayload.load(values[1], as: String.self) == String(repeating: "x", count: 50))
    #expect(ExistentialPayload.load(values[2], as: Int.self) == 42)
    #expect(ExistentialPayload.load(values[5], as: [String].self) == ["a"])
    // An Any inside an Any: the container holds a box, so the cast is taken.
    func twice<T>(_ x: T) -> Any { x as Any }
    let nested = twice(values[0] as Any)
    #expect(ExistentialPayload.typeID(nested) != ObjectIdentifier(String.self))
    #expect(ExistentialPayload.load(nested, as: String.self) == "short")
  }
}
