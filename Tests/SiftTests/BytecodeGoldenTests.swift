import Foundation
import Testing

@testable import Sift

/// The code the compiler emits for the reference predicates and a few other shapes,
/// compared in full with `Golden/NAME.txt` (what `sift explain` prints).
@Suite struct BytecodeGoldenTests {
  static let accounts: SiftValue = ["acct-1", "acct-4", "acct-7"]

  static let cases: [(name: String, format: String, arguments: [SiftValue])] = [
    ("W1-self-in", "SELF IN %@", [accounts]),
    (
      "W2-compound",
      "account IN %@ AND priority >= 3 AND NOT (sender ENDSWITH[c] '@spam.example') AND ANY tags == 'urgent'",
      [accounts]
    ),
    ("W3-matches", "subject MATCHES '.*invoice [0-9]+.*'", []),
    ("W4-contains-cd", "title CONTAINS[cd] 'résumé'", []),
    ("folding", "(2 + 3) * 4 == 20 AND x BETWEEN {1, 5} AND TRUEPREDICATE", []),
    ("large-set", "SELF IN[c] %@", [["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]]),
    ("ternary-subquery", "TERNARY(a > 1, 'x', 'y') == 'x' OR SUBQUERY(items, $i, $i.price > 10).@count > 0", []),
    ("arithmetic", "-score * 2 + sum(nums) / 4 < recipients[FIRST].age AND $v := 3 == 3", []),
  ]

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

  @Test(arguments: cases.map(\.name))
  func listing(name: String) throws {
    let c = try #require(Self.cases.first { $0.name == name })
    let predicate = try SiftPredicate(format: c.format, arguments: c.arguments)
    let actual = "predicate: \(predicate.predicateFormat)\n\(predicate.bytecodeListing)\n"
    let file = Self.directory.appendingPathComponent("\(name).txt")
    // SIFT_UPDATE_GOLDEN=1 swift test --filter BytecodeGoldenTests rewrites the files;
    // review the diff before committing it.
    if ProcessInfo.processInfo.environment["SIFT_UPDATE_GOLDEN"] != nil {
      try actual.write(to: file, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: file, encoding: .utf8)
    #expect(actual == expected)
  }

  /// Nested AND/OR with a NOT computes the right boolean function for all eight inputs.
  @Test func nestedShortCircuits() throws {
    let p = try SiftPredicate(format: "(a == 'x' OR NOT (b == 'y')) AND c == 'z'")
    for a in [true, false] {
      for b in [true, false] {
        for c in [true, false] {
          let object: SiftValue = ["a": a ? "x" : "-", "b": b ? "y" : "-", "c": c ? "z" : "-"]
          #expect(try p.evaluate(with: object) == ((a || !b) && c), "\(a) \(b) \(c)")
        }
      }
    }
  }

  @Test func instructionsRoundTripTheirOperands() {
    for op in Opcode.allCases {
      let i = Instruction(op, a: 65_535, b: 1, c: 40_000, d: 255)
      #expect(i.opcode == op)
      #expect(i.a == 65_535 && i.b == 1 && i.c == 40_000 && i.d == 255)
    }
  }

  @Test func verifierRejectsAnOutOfRangeOperand() throws {
    var builder = ProgramBuilder()
    builder.code = [Instruction(.loadConst, a: 0, b: 99), Instruction(.ret)]
    builder.ranges = [.at(0), .at(0)]
    builder.constants = [.int(1)]
    builder.registerCount = 1
    #expect(throws: SyntaxError.self) {
      try Verifier.verify(Program(builder, functions: SiftFunctions()), range: .at(0))
    }
    builder.code[0] = Instruction(.loadConst, a: 0, b: 0)
    #expect(throws: Never.self) { try Verifier.verify(Program(builder, functions: SiftFunctions()), range: .at(0)) }
    var jump = builder
    jump.code.insert(Instruction(.jump, b: 500), at: 0)
    jump.ranges.insert(.at(0), at: 0)
    #expect(throws: SyntaxError.self) { try Verifier.verify(Program(jump, functions: SiftFunctions()), range: .at(0)) }
    var subject = builder
    subject.code[0] = Instruction(.inStrings, a: 3, d: SubjectSource.register.modifier(quantifier: 0))
    #expect(throws: SyntaxError.self) {
      try Verifier.verify(Program(subject, functions: SiftFunctions()), range: .at(0))
    }
  }
}
