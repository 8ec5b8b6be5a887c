import SiftTestSupport
import Testing

@testable import SiftSyntax

/// Token-level mutations of canonical text (drop, duplicate, swap, insert): whatever the
/// result, parsing must not crash; if it parses, its canonical text must parse back to the
/// same tree; if not, the error must point inside the text and render.
@Suite struct MutationFuzzTests {
  static let vocabulary = [
    "(", ")", "{", "}", "[", "]", ",", ".", "==", "=", "!=", "<", "<=", ">=", "+", "-", "*", "/", "**", "&",
    "|", "^",
    "~", ":=", ":", "AND", "OR", "NOT", "!", "ANY", "ALL", "NONE", "SOME", "IN", "LIKE", "BETWEEN",
    "CONTAINS[cd]",
    "FIRST", "LAST", "SIZE", "SELF", "nil", "TRUE", "TRUEPREDICATE", "SUBQUERY", "TERNARY", "FUNCTION",
    "CAST",
    "sum", "add:to:", "now()", "a", "#like", "@count", "$x", "1", "-2.5", "'s'", "\"t\"", "%%", "?", "\n",
  ]

  @Test(arguments: Array(UInt64(0)..<8))
  func mutatedCanonicalText(_ batch: UInt64) throws {
    var generator = SyntaxTreeGenerator(seed: 0x5EED &+ batch)
    var rng = SplitMix64(seed: 0xD1CE &+ batch)
    var parsedCount = 0
    for i in 0..<400 {
      let text = generator.predicate(depth: 1 + i % 4).predicateFormat
      var pieces = try lexAll(text).dropLast().map { slice(text, $0.range) }
      for _ in 0..<(1 + rng.below(3)) {
        let at = pieces.isEmpty ? 0 : rng.below(pieces.count)
        switch rng.below(4) {
        case 0: if !pieces.isEmpty { pieces.remove(at: at) }
        case 1: if !pieces.isEmpty { pieces.insert(pieces[at], at: at) }
        case 2: if at + 1 < pieces.count { pieces.swapAt(at, at + 1) }
        default: pieces.insert(rng.pick(Self.vocabulary), at: at)
        }
      }
      let mutated = pieces.joined(separator: " ")
      do {
        let p = try parse(mutated)
        parsedCount += 1
        let canonical = p.predicateFormat
        let again = try parse(canonical)
        #expect(again == p, "\(mutated)\n→ \(canonical)\n→ \(again.predicateFormat)")
        #expect(again.predicateFormat == canonical)
      } catch {
        let length = mutated.utf8.count
        #expect(error.error.range.start >= 0 && error.error.range.end <= length, "\(mutated)\n\(error)")
        let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 3, "\(error)")
        #expect(lines[0].contains(": error: "), "\(error)")
        #expect(lines[2].contains("^"), "\(error)")
      }
    }
    // Some mutations still parse (e.g. swapping operands), so both paths are exercised.
    #expect(parsedCount > 5)
  }
}
