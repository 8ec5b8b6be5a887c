import Foundation
import SiftTestSupport
import Testing

@testable import Sift

/// `Encodable` values with no field table: only the keys a predicate reads are encoded.
@Suite("Encodable values")
struct EncodableInputTests {
  /// Encoding it throws: a key a predicate does not read is never encoded.
  struct Bomb: Encodable {
    struct Exploded: Error {}
    func encode(to encoder: any Encoder) throws { throw Exploded() }
  }

  enum Kind: String, Codable { case message, alert }

  struct Item: Codable { var name: String; var price: Double? }

  struct Mail: Encodable {
    var sender: String
    var priority: Int
    var tags: [String]
    var thread: String?
    var sent: Date
    var link: URL
    var kind: Kind
    var items: [Item]
    var meta: [String: Int]
    var small: UInt8
    var attachment = Bomb()
  }

  /// Encodes itself by hand, with nested containers.
  struct Manual: Encodable {
    enum Keys: String, CodingKey { case id, point, list, skipped }
    enum PointKeys: String, CodingKey { case x, y }
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: Keys.self)
      try c.encode("m-1", forKey: .id)
      var point = c.nestedContainer(keyedBy: PointKeys.self, forKey: .point)
      try point.encode(3, forKey: .x)
      try point.encode(4.5, forKey: .y)
      var list = c.nestedUnkeyedContainer(forKey: .list)
      try list.encode("a")
      try list.encode(true)
      var skipped = c.nestedContainer(keyedBy: PointKeys.self, forKey: .skipped)
      try skipped.encode(Bomb(), forKey: .x)
    }
  }

  static let mail = Mail(
    sender: "a@b.c", priority: 4, tags: ["urgent"], thread: nil, sent: Date(timeIntervalSinceReferenceDate: 50),
    link: URL(string: "https://example.com/x")!, kind: .alert, items: [Item(name: "n", price: 2)],
    meta: ["k": 1], small: 9)

  @Test(arguments: [
    ("sender ENDSWITH '.c' AND priority >= 3", true), ("ANY tags == 'urgent'", true), ("thread == nil", true),
    ("sent == CAST(50, 'NSDate')", true), ("link BEGINSWITH 'https://'", true), ("kind == 'alert'", true),
    ("items[0].name == 'n' AND items[0].price == 2", true), ("meta.k == 1", true), ("small == 9", true),
    ("missing == nil", true), ("priority > 10", false),
  ])
  func onlyTheReadKeysAreEncoded(_ format: String, _ expected: Bool) throws {
    let p = try SiftPredicate(format: format)
    #expect(try p.evaluate(with: Self.mail) == expected, "\(format)")
    #expect(p.matches(Self.mail) == expected)
  }

  @Test func readingAKeyThatFailsToEncodeIsAnError() throws {
    let p = try SiftPredicate(format: "attachment == nil")
    #expect(throws: EvaluationError.self) { try p.evaluate(with: Self.mail) }
    #expect(!p.matches(Self.mail))
    // SELF as a whole encodes everything, the bomb too.
    #expect(throws: EvaluationError.self) { try SiftPredicate(format: "SELF.@count > 0").evaluate(with: Self.mail) }
  }

  @Test func nestedContainersWrittenByHand() throws {
    for (format, expected) in [
      ("id == 'm-1' AND point.x == 3 AND point.y == 4.5", true), ("list[1] == YES", true), ("point.@count == 2", true),
    ] {
      #expect(try SiftPredicate(format: format).evaluate(with: Manual()) == expected, "\(format)")
    }
  }

  @Test func topLevelValuesThatAreNotKeyed() throws {
    #expect(try SiftPredicate(format: "SELF == 3").evaluate(with: Optional(3)))
    #expect(try SiftPredicate(format: "ANY SELF == 'b'").evaluate(with: ["a", "b"]))
    #expect(try SiftPredicate(format: "a == 1 AND b == 2").evaluate(with: ["a": 1, "b": 2]))
  }

  /// Compiled for a schema, an Encodable value is encoded into that schema's record.
  @Test func intoThePredicatesOwnSchema() throws {
    let schema = SiftSchema(fields: ["priority", "tags"])
    let p = try SiftPredicate(format: "priority > 3 AND ANY tags == 'urgent'", options: CompileOptions(schema: schema))
    #expect(try p.evaluate(with: Self.mail))
  }

  /// Random values through the encoder agree with the same values as a tree.
  @Test func agreesWithTheValueTree() throws {
    var rng = SplitMix64(seed: 5)
    var generator = RandomCaseGenerator(rng: SplitMix64(seed: 6))
    var compared = 0
    for _ in 0..<3_000 {
      generator.bound = []
      let format = generator.predicate(depth: 2)
      guard let p = try? SiftPredicate(format: format) else { continue }
      let doc = TypedDifferentialTests.doc(&rng)
      let tree = doc.siftValue
      let viaTree = Result { () throws(EvaluationError) in try p.evaluate(with: tree) }
      let viaEncoder = Result { () throws(EvaluationError) in try p.evaluate(with: EncodableDoc(doc)) }
      switch (viaTree, viaEncoder) {
      case (.success(let a), .success(let b)): #expect(a == b, "\(format) on \(tree.jsonText)")
      case (.failure(let a), .failure(let b)): #expect(a.kind == b.kind, "\(format) on \(tree.jsonText)")
      default: Issue.record("\(format) on \(tree.jsonText): tree \(viaTree), encoder \(viaEncoder)")
      }
      compared += 1
    }
    #expect(compared > 2_000)
  }

  /// The differential test's document as an Encodable type (nil fields left out, as
  /// synthesized Codable does, which the tree's nil values match).
  struct EncodableDoc: Encodable {
    struct Item: Encodable { var name: String; var price: Double? }
    struct Nested: Encodable { var x: Int; var y: String; var list: [[String: Int]] }
    var a: Int, b: Double?, name: String?, code: String, tags: [String], nums: [Int], nested: Nested, items: [Item]
    var flag: Bool, when: Date?, big: Int, missing: String?, grid: [[Int]]

    init(_ d: TypedDifferentialTests.Doc) {
      a = d.a
      b = d.b
      name = d.name
      code = d.code
      tags = d.tags
      nums = d.nums
      nested = Nested(x: d.nested.x, y: d.nested.y, list: d.nested.list)
      items = d.items.map { Item(name: $0.name, price: $0.price) }
      flag = d.flag
      when = d.when
      big = d.big
      missing = d.missing
      grid = d.grid
    }
  }
}
