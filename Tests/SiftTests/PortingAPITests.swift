import Foundation
import Testing

@testable import Sift

/// The calls a user porting NSPredicate code writes, each as Apple spells it, and what
/// they give (the README's "Porting from NSPredicate" table).
@Suite struct PortingAPITests {
  struct Item: SiftTyped, Encodable {
    var name: String
    var age: Int
    static let siftFields = SiftFields<Item>().field("name", \.name).field("age", \.age)
  }

  struct Plain: Encodable {
    var name: String
  }

  struct Lookup: SiftKeyValueCoding {
    var values: [String: SiftValue]
    func siftValue(forKey key: String) -> SiftValue? { values[key] }
  }

  @Test func variadicArgumentsFromSwiftValues() throws {
    let p = try SiftPredicate(format: "name == %@ AND age > %d", "Bob", 21)
    #expect(p.matches(["name": "Bob", "age": 30] as [String: Any]))
    #expect(!p.matches(["name": "Bob", "age": 20] as [String: Any]))
    let ids: Set<String> = ["a", "b"]
    let q = try SiftPredicate(format: "SELF IN %@", ids)
    #expect(q.matches("a"))
    #expect(!q.matches("c"))
    let array = try SiftPredicate(format: "%K IN %@", "tag", ["x", "y"] as [String])
    #expect(array.matches(["tag": "y"] as [String: Any]))
    let date = Date(timeIntervalSinceReferenceDate: 100)
    #expect(try SiftPredicate(format: "d < %@", date).matches(["d": Date(timeIntervalSinceReferenceDate: 5)]))
  }

  @Test func argumentConversion() {
    let rows: [(String, Any?, SiftValue)] = [
      ("Substring", "abc".dropFirst() as Any?, SiftValue.string("bc")),
      ("Character", Character("x"), .string("x")), ("Int8", Int8(-3), .int(-3)), ("UInt16", UInt16(7), .int(7)),
      ("Float", Float(1.5), .double(1.5)), ("CGFloat", CGFloat(2), .double(2)), ("Decimal", Decimal(2.5), .double(2.5)),
      ("Bool", true, .bool(true)), ("URL", URL(string: "https://x.example/a")!, .string("https://x.example/a")),
      ("nil", nil, .null), ("Int?", Int?.none as Any?, .null), ("NSNull", NSNull(), .null),
      ("[Int?]", [1, nil] as [Int?], .array([1, .null])), ("[Substring]", ["ab".dropFirst()], .array(["b"])),
      ("[String: URL]", ["u": URL(string: "file:///t")!], .dictionary(["u": "file:///t"])),
      ("Set<Int>", Set([3]), .array([3])), ("SiftValue", SiftValue.int(4), .int(4)),
      ("NSNumber", NSNumber(value: 2.5), .double(2.5)), ("String.self", String.self, .string("NSString")),
      ("NSString.self", NSString.self, .string("NSString")), ("Int.self", Int.self, .string("NSNumber")),
      ("[Int].self", [Int].self, .string("NSArray")), ("Date.self", Date.self, .string("NSDate")),
      ("[String: Int].self", [String: Int].self, .string("NSDictionary")),
    ]
    for (name, value, expected) in rows { #expect(SiftValue(argument: value) == expected, "\(name)") }
  }

  @Test func unreadableArgumentsAreClearErrors() {
    #expect {
      _ = try SiftPredicate(format: "id == %@", UUID())
    } throws: { error in
      (error as? PredicateSyntaxError)?.error.message == "argument 1 is a UUID, which Sift cannot read"
    }
    #expect(SiftValue(argument: [UUID()]) == nil)
  }

  @Test func argumentArrayAndSurplusArguments() throws {
    let p = try SiftPredicate(format: "%K like '%@'", argumentArray: ["name", "ignored"])
    #expect(p.unusedArgumentCount == 1)
    #expect(p.matches(["name": "%@"] as [String: Any]))
    #expect(try SiftPredicate(format: "a == 1", argumentArray: nil).unusedArgumentCount == 0)
    #expect(try SiftPredicate(format: "a == %@", 1, 2, 3).unusedArgumentCount == 2)
  }

  @Test func classesForIsKindOfClass() throws {
    #expect(try SiftPredicate(format: "SELF isKindOfClass: %@", String.self).matches("x"))
    #expect(try SiftPredicate(format: "SELF isKindOfClass: %@", NSString.self).matches("x"))
    #expect(try !SiftPredicate(format: "SELF isKindOfClass: %@", Int.self).matches("x"))
    #expect(try SiftPredicate(format: "SELF isKindOfClass: %@", [Int].self).matches(SiftValue.array([1])))
  }

  @Test func constantPredicates() throws {
    #expect(SiftPredicate(value: true).matches(.null))
    #expect(!SiftPredicate(value: false).matches("x"))
    #expect(SiftPredicate(value: true).predicateFormat == "TRUEPREDICATE")
  }

  /// Compound builders combine trees, arguments bound (a dictionary argument, which prints
  /// in a form that does not parse back, survives).
  @Test func compoundBuilders() throws {
    let a = try SiftPredicate(format: "a == %@", arguments: [.dictionary(["k": 1])])
    let b = try SiftPredicate(format: "b == 1")
    let both = try SiftPredicate(andPredicateWithSubpredicates: [a, b])
    #expect(both.matches(["a": ["k": 1], "b": 1] as SiftValue))
    #expect(!both.matches(["a": ["k": 2], "b": 1] as SiftValue))
    let either = try SiftPredicate.or([a, b])
    #expect(either.matches(["a": ["k": 2], "b": 1] as SiftValue))
    #expect(try SiftPredicate.not(b).matches(["b": 2] as SiftValue))
    #expect(try SiftPredicate(andPredicateWithSubpredicates: []).matches(.null))
    #expect(try !SiftPredicate(orPredicateWithSubpredicates: []).matches(.null))
    #expect(try SiftPredicate.and([b]) == b)
    #expect(try SiftPredicate.or([b, a]).predicateFormat == "b == 1 OR a == {\"k\": 1}")
    let variable = try SiftPredicate.and([b, SiftPredicate(format: "c == $x")]).withSubstitutionVariables(["x": 3])
    #expect(variable.matches(["b": 1, "c": 3] as SiftValue))
  }

  @Test func initFromSyntax() throws {
    let syntax = try PredicateSyntax(parsing: "a > %d", arguments: [2])
    let p = try SiftPredicate(syntax: syntax)
    #expect(p.matches(["a": 3] as SiftValue))
    #expect(p.format == "a > 2")
  }

  @Test func sequenceFilter() throws {
    let p = try SiftPredicate(format: "age >= 18")
    let items = [Item(name: "a", age: 17), Item(name: "b", age: 30)]
    #expect(items.filter(p).map(\.name) == ["b"])
    let values: [SiftValue] = [["age": 1], ["age": 20], "no"]
    #expect(values.filter(p) == [["age": 20]])
    let dictionaries: [[String: Any]] = [["age": 40], ["age": 2]]
    #expect(dictionaries.filter(p).count == 1)
    let schema = SiftSchema(fields: ["age"])
    let records = [SiftRecord(schema: schema, values: [19]), SiftRecord(schema: schema, values: [3])]
    #expect(records.filter(p).count == 1)
    let lookups = [Lookup(values: ["age": 50]), Lookup(values: [:])]
    #expect(lookups.filter(p).count == 1)
    let names = try SiftPredicate(format: "SELF BEGINSWITH 'a'")
    #expect(["ab", "ba", "ac"].filter(names) == ["ab", "ac"])
    let plain = try SiftPredicate(format: "name == 'x'")
    #expect([Plain(name: "x"), Plain(name: "y")].filter(plain).map(\.name) == ["x"])
  }

  @Test func expressions() throws {
    let e = try SiftExpression(format: "a.b + 1")
    #expect(try e.value(with: ["a": ["b": 2]] as SiftValue) == .int(3))
    #expect(e.expressionValue(with: ["a": ["b": 4]] as [String: Any]) == .int(5))
    #expect(e.expressionFormat == "a.b + 1")
    #expect(try SiftExpression(format: "$x * %d", 2).value(with: .null, variables: ["x": 21]) == .int(42))
    #expect(
      try SiftExpression(format: "FUNCTION(name, 'uppercaseString')").value(with: ["name": "bo"] as SiftValue) == "BO")
    #expect(try SiftExpression(format: "sum:(xs)").expressionValue(with: ["xs": [1, 2, 3]], context: nil) == .int(6))
    #expect(try SiftExpression(format: "$v").expressionValue(with: nil, context: ["v": "c"]) == "c")
    #expect(try SiftExpression(format: "1 / 0").expressionValue(with: nil) == nil)
    #expect(throws: PredicateSyntaxError.self) { try SiftExpression(format: "a == 1") }
    #expect(throws: PredicateSyntaxError.self) { try SiftExpression(format: "") }
    #expect(try SiftExpression(format: "a+1") == SiftExpression(format: "a + 1"))
  }

  @Test func equatableAndHashable() throws {
    let a = try SiftPredicate(format: "a = 1")
    let b = try SiftPredicate(format: "a == 1")
    #expect(a == b)
    #expect(Set([a, b]).count == 1)
    #expect(try a != SiftPredicate(format: "a == 2"))
    let limited = try SiftPredicate(format: "a == 1", options: CompileOptions(limits: EvaluationLimits(maxSteps: 5)))
    #expect(a != limited)
  }

  @Test func appleLabels() throws {
    let p = try SiftPredicate(format: "name == $n")
    #expect(try p.evaluate(with: ["name": "x"] as [String: Any], substitutionVariables: ["n": "x"]))
    #expect(try p.evaluate(with: SiftValue.dictionary(["name": "y"]), substitutionVariables: ["n": "y"]))
    #expect(try !p.evaluate(with: ["name": "x"] as [String: Any], substitutionVariables: ["n": Substring("y")]))
    #expect(throws: EvaluationError.self) {
      try p.evaluate(with: ["name": "x"] as [String: Any], substitutionVariables: ["n": UUID()])
    }
  }
}
