import Foundation
import SiftTestSupport
import Testing

@testable import Sift

/// Typed values against the value tree: the random predicates of the differential test
/// over random values of a struct with a field of every kind, compiled for the struct
/// (fields read in place) and compiled plain (evaluated on the struct's dictionary). Same
/// results, same error kinds.
@Suite("Typed values: differential")
struct TypedDifferentialTests {
  struct Item: SiftTyped {
    var name: String
    var price: Double?
    static let siftFields = SiftFields<Item>().field("name", \.name).field("price", \.price)
  }

  struct Nested: SiftTyped {
    var x: Int
    var y: String
    var list: [[String: Int]]
    static let siftFields = SiftFields<Nested>().field("x", \.x).field("y", \.y).field("list", \.list)
  }

  struct Doc: SiftTyped {
    var a: Int
    var b: Double?
    var name: String?
    var code: String
    var tags: [String]
    var nums: [Int]
    var nested: Nested
    var items: [Item]
    var flag: Bool
    var when: Date?
    var big: Int
    var missing: String?
    var grid: [[Int]]

    static let siftFields = SiftFields<Doc>()
      .field("a", \.a).field("b", \.b).field("name", \.name).field("code", \.code).field("tags", \.tags)
      .field("nums", \.nums).field("nested", \.nested).field("items", \.items).field("flag", \.flag)
      .field("when", \.when).field("big", \.big).field("missing", \.missing).field("grid", \.grid)
  }

  static func doc(_ rng: inout SplitMix64) -> Doc {
    let words = RandomCaseGenerator.words
    let ascii = RandomCaseGenerator.asciiWords
    return Doc(
      a: rng.int(-5...10), b: rng.chance(20) ? nil : Double(rng.int(-50...100)) / 10,
      name: rng.chance(10) ? nil : rng.pick(words), code: rng.pick(ascii),
      tags: (0..<rng.below(5)).map { _ in rng.pick(ascii + ["café", "Straße", "σοφία"]) },
      nums: (0..<rng.below(6)).map { _ in rng.int(-5...10) },
      nested: Nested(
        x: rng.int(-5...10), y: rng.pick(words), list: (0..<rng.below(3)).map { _ in ["v": rng.int(-5...10)] }),
      items: (0..<rng.below(4)).map { _ in
        Item(name: rng.pick(words), price: rng.chance(85) ? Double(rng.int(0...100)) / 4 : nil)
      },
      flag: rng.chance(50),
      when: rng.chance(40) ? Date(timeIntervalSinceReferenceDate: Double(rng.int(0...1000))) : nil,
      big: rng.chance(15) ? (rng.chance(50) ? Int.max : Int.min) : rng.int(0...3), missing: nil,
      grid: (0..<rng.below(3)).map { _ in (0..<rng.below(3)).map { _ in rng.int(0...4) } })
  }

  @Test(arguments: [UInt64(11), 12, 13, 14])
  func typedAgreesWithTheValueTree(seed: UInt64) {
    var generator = RandomCaseGenerator(rng: SplitMix64(seed: seed))
    var values = SplitMix64(seed: seed &* 31)
    var compared = 0
    var rejected = 0
    var mismatches: [String] = []
    for _ in 0..<10_000 {
      generator.bound = []
      let format = generator.predicate(depth: 2)
      guard let plain = try? SiftPredicate(format: format) else { continue }
      let doc = Self.doc(&values)
      let typed: SiftPredicate
      do {
        typed = try SiftPredicate(format: format, for: Doc.self)
      } catch {
        rejected += 1
        continue
      }
      let tree = doc.siftValue
      let expected = Result { () throws(EvaluationError) in try plain.evaluate(with: tree) }
      let actual = Result { () throws(EvaluationError) in try typed.evaluate(with: doc) }
      compared += 1
      switch (expected, actual) {
      case (.success(let x), .success(let y)) where x == y: continue
      case (.failure(let x), .failure(let y)) where x.kind == y.kind: continue
      default:
        if mismatches.count < 10 {
          mismatches.append("\(format) on \(tree.jsonText): tree \(expected), typed \(actual)")
        }
      }
    }
    #expect(compared > 6_000, "compared \(compared), rejected at compile time \(rejected)")
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
  }
}
