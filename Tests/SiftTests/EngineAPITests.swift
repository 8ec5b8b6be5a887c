import Foundation
import Testing

@testable import Sift

@Suite struct EngineAPITests {
  static let record: SiftValue = [
    "account": "acct-4", "priority": 4, "sender": "Bob@Spam.Example", "tags": ["urgent", "home"],
    "subject": "Your invoice 1234 is ready", "title": "Mon Résumé",
    "recipients": [["name": "a", "age": 30], ["name": "b", "age": 45], ["name": "c", "age": 22]],
  ]

  @Test(
    "string SELF",
    arguments: [
      ("SELF IN %@", [SiftValue.array(["work", "family"])], "work", true),
      ("SELF IN %@", [SiftValue.array(["work", "family"])], "play", false),
      ("SELF ==[c] 'WORK'", [SiftValue](), "work", true),
      ("SELF BEGINSWITH 'wo'", [SiftValue](), "work", true),
      ("SELF LIKE 'w*k'", [SiftValue](), "work", true),
      ("SELF MATCHES 'w.rk'", [SiftValue](), "work", true),
      ("SELF.length == 4", [SiftValue](), "work", true),
    ] as [(String, [SiftValue], String, Bool)])
  func stringSelf(format: String, args: [SiftValue], subject: String, expected: Bool) throws {
    let p = try SiftPredicate(format: format, arguments: args)
    #expect(try p.evaluate(with: subject) == expected)
    #expect(p.matches(subject) == expected)
  }

  @Test(
    "value tree",
    arguments: [
      ("account IN %@ AND priority >= 3 AND NOT (sender ENDSWITH[c] '@spam.example') AND ANY tags == 'urgent'", false),
      ("account IN %@ AND priority >= 3 AND ANY tags == 'urgent'", true),
      ("subject MATCHES '.*invoice [0-9]+.*'", true),
      ("title CONTAINS[cd] 'resume'", true),
      ("ANY recipients.age > 40", true),
      ("ALL recipients.age > 20", true),
      ("SUBQUERY(recipients, $r, $r.age > 25).@count == 2", true),
      ("recipients[FIRST].name == 'a' AND recipients[LAST].name == 'c' AND recipients[SIZE] == 3", true),
      ("recipients.@avg.age > 32", true),
      ("missing == nil", true),
    ])
  func valueTree(format: String, expected: Bool) throws {
    let args: [SiftValue] = format.contains("%@") ? [["acct-1", "acct-4", "acct-7"]] : []
    let p = try SiftPredicate(format: format, arguments: args)
    #expect(try p.evaluate(with: Self.record) == expected)
  }

  /// A key at the root of a value that is not a dictionary follows the key-path rules
  /// (found by the differential fuzz target: the VM used to answer nil on `[1]`).
  @Test(
    "root keys on other values",
    arguments: [
      ("a == 1", SiftValue.array([1]), nil),
      ("a.b == 1", [1], nil),
      ("a[0] == 1", [1], nil),
      ("a == 1", 5, nil),
      ("a == nil", .null, true),
      ("length == 3", "abc", true),
      ("a == 1", [["a": 1]], false),
      ("ANY a == 1", [["a": 1], ["a": 2]], true),
    ] as [(String, SiftValue, Bool?)])
  func rootKeysOnOtherValues(format: String, object: SiftValue, expected: Bool?) throws {
    let p = try SiftPredicate(format: format)
    if let expected {
      #expect(try p.evaluate(with: object) == expected)
    } else {
      let error = #expect(throws: EvaluationError.self) { try p.evaluate(with: object) }
      #expect(error?.kind == .typeMismatch)
    }
  }

  @Test func foundationAdapter() throws {
    let p = try SiftPredicate(format: "name BEGINSWITH[c] 'a' AND age > 30 AND flag == YES AND x == nil")
    let object: [String: Any] = ["name": "Alice", "age": NSNumber(value: 31), "flag": true, "x": NSNull()]
    #expect(try p.evaluate(with: object as Any?) == true)
    #expect(try p.evaluate(with: ["name": "Bob", "age": 40] as [String: Any] as Any?) == false)
    // Optional values, nested collections, NSNumber booleans, Float, Date; others are errors.
    let optionals: [String: Any?] = ["name": "ann", "age": Float(31.5), "flag": NSNumber(value: true), "x": nil]
    #expect(try p.evaluate(with: optionals as Any?) == true)
    let nested = try SiftPredicate(
      format: "ANY items.n == 2 AND when < %@", arguments: [.date(secondsSinceReferenceDate: 10)])
    let items: [Any] = [["n": 1] as [String: Any], ["n": NSNumber(value: 2)] as [String: Any]]
    #expect(try nested.evaluate(with: ["items": items, "when": Date(timeIntervalSinceReferenceDate: 5)] as Any?))
    #expect(throws: EvaluationError.self) { try p.evaluate(with: ["name": URL(fileURLWithPath: "/")] as Any?) }
  }

  final class Account: SiftKeyValueCoding {
    let id: String
    init(id: String) { self.id = id }
    func siftValue(forKey key: String) -> SiftValue? { key == "id" ? .string(id) : nil }
    var siftSelfValue: SiftValue { .string(id) }
  }

  @Test func userClassType() throws {
    let p = try SiftPredicate(format: "id IN {'a', 'b'} AND SELF == 'a'")
    #expect(try p.evaluate(with: Account(id: "a")) == true)
    #expect(try p.evaluate(with: Account(id: "b")) == false)
  }

  struct Notification: SiftKeyValueCoding {
    var account: String
    var priority: Int
    func siftValue(forKey key: String) -> SiftValue? {
      switch key {
      case "account": .string(account)
      case "priority": .int(priority)
      default: nil
      }
    }
  }

  @Test func userProtocolType() throws {
    let p = try SiftPredicate(format: "account == 'a' AND priority > 2 AND other == nil")
    #expect(try p.evaluate(with: Notification(account: "a", priority: 3)) == true)
    #expect(try p.evaluate(with: Notification(account: "a", priority: 1)) == false)
  }

  @Test func schemaRecord() throws {
    let schema = SiftSchema(fields: ["account", "priority", "tags"])
    let p = try SiftPredicate(
      format: "account IN %@ AND priority >= 3 AND ANY tags == 'urgent'", arguments: [["x", "y"]],
      options: CompileOptions(schema: schema))
    #expect(p.bytecodeListing.contains("inStrings slot 0, o0"))
    #expect(p.bytecodeListing.contains("compareConst slot 1, k1"))
    let yes = SiftRecord(schema: schema, values: ["y", 5, ["urgent"]])
    let no = SiftRecord(schema: schema, values: ["z", 5, ["urgent"]])
    #expect(try p.evaluate(with: yes) == true)
    #expect(try p.evaluate(with: no) == false)
    #expect(throws: PredicateSyntaxError.self) {
      try SiftPredicate(format: "nope == 1", options: CompileOptions(schema: schema))
    }
    // A record of another schema is an error, not a read of the wrong slots.
    let other = SiftRecord(schema: SiftSchema(fields: ["tags"]), values: [["urgent"]])
    #expect(throws: EvaluationError.self) { try p.evaluate(with: other) }
    // A record whose schema is equal but separately built is accepted.
    let copy = SiftRecord(schema: SiftSchema(fields: ["account", "priority", "tags"]), values: ["y", 5, ["urgent"]])
    #expect(try p.evaluate(with: copy) == true)
  }

  @Test func kernelErrorsCarryTheirRange() throws {
    // One-test programs run without the dispatch loop; their errors still point at the test.
    let p = try SiftPredicate(format: "SELF MATCHES '(a+)+b\\\\1c'")
    let subject = String(repeating: "a", count: 30_000) + "bc"
    #expect(throws: EvaluationError.self) { try p.evaluate(with: subject) }
    do {
      _ = try p.evaluate(with: subject)
    } catch {
      #expect(error.kind == .limitExceeded)
      #expect(error.range == p.syntax.range)
    }
    let schema = SiftSchema(fields: ["subject"])
    let r = try SiftPredicate(format: "subject MATCHES '(a+)+b\\\\1c'", options: CompileOptions(schema: schema))
    do {
      _ = try r.evaluate(with: SiftRecord(schema: schema, values: [.string(subject)]))
      Issue.record("expected the step budget to run out")
    } catch {
      #expect(error.kind == .limitExceeded)
      #expect(error.range == r.syntax.range)
    }
  }

  @Test func errorsCarryTheirRange() throws {
    let format = "a == 1 AND priority < '10'"
    let p = try SiftPredicate(format: format)
    do {
      _ = try p.evaluate(with: ["a": 1, "priority": 3])
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .typeMismatch)
      #expect(error.range == SourceRange(start: 11, end: 26))
      #expect(p.matches(["a": 1, "priority": 3] as SiftValue) == false)
    }
  }

  @Test func dictionaryKeysMatchByteForByte() throws {
    let decomposed: SiftValue = .dictionary(["cafe\u{301}": 1])
    let precomposedKey = try SiftPredicate(format: "%K == 1", arguments: ["caf\u{e9}"])
    let decomposedKey = try SiftPredicate(format: "%K == 1", arguments: ["cafe\u{301}"])
    #expect(try precomposedKey.evaluate(with: decomposed) == false)
    #expect(try decomposedKey.evaluate(with: decomposed) == true)
  }

  @Test func variables() throws {
    let p = try SiftPredicate(format: "age > $min")
    #expect(try p.evaluate(with: ["age": 5], variables: ["min": 3]) == true)
    #expect(throws: EvaluationError.self) { try p.evaluate(with: ["age": 5] as SiftValue) }
    let bound = try p.withSubstitutionVariables(["min": 10])
    #expect(try bound.evaluate(with: ["age": 5] as SiftValue) == false)
    #expect(bound.predicateFormat == "age > 10")
  }

  @Test func customFunctions() throws {
    var functions = SiftFunctions()
    functions.register("shout") { args in
      guard case .string(let s) = args[0] else { return .null }
      return .string(s.uppercased() + "!")
    }
    let p = try SiftPredicate(format: "FUNCTION(name, 'shout') == 'HI!'", options: CompileOptions(functions: functions))
    #expect(try p.evaluate(with: ["name": "hi"]) == true)
    let unknown = try SiftPredicate(format: "FUNCTION(name, 'nope') == 1")
    #expect(throws: EvaluationError.self) { try unknown.evaluate(with: ["name": "hi"] as SiftValue) }
  }

  @Test func codableRoundTrip() throws {
    let p = try SiftPredicate(format: "SELF IN %@ AND $x == 1", arguments: [["a", "b"]])
      .withSubstitutionVariables(["x": 1])
    let data = try JSONEncoder().encode(p)
    let q = try JSONDecoder().decode(SiftPredicate.self, from: data)
    #expect(q.predicateFormat == p.predicateFormat)
    #expect(try q.evaluate(with: "a") == true)
    #expect(try q.evaluate(with: "c") == false)
  }

  @Test func stepBudget() throws {
    var options = CompileOptions()
    options.limits.maxSteps = 100
    let p = try SiftPredicate(format: "SUBQUERY(xs, $x, $x > 0).@count > 0", options: options)
    let small: SiftValue = ["xs": .array((0..<100).map { .int($0) })]
    let large: SiftValue = ["xs": .array((0..<101).map { .int($0) })]
    #expect(try p.evaluate(with: small) == true)
    #expect(throws: EvaluationError.self) { try p.evaluate(with: large) }
    // ANY/ALL through the generic comparison count against the same budget.
    let any = try SiftPredicate(format: "ANY xs > 1000", options: options)
    #expect(try any.evaluate(with: small) == false)
    do {
      _ = try any.evaluate(with: large)
      Issue.record("expected the step budget to run out")
    } catch {
      #expect(error.kind == .limitExceeded)
    }
  }

  @Test func concurrentEvaluation() async throws {
    let p = try SiftPredicate(format: "SELF IN %@ OR SELF MATCHES 'x[0-9]+'", arguments: [["a", "b", "c"]])
    let results = await withTaskGroup(of: Int.self) { group in
      for t in 0..<8 {
        group.addTask {
          var hits = 0
          for i in 0..<2_000 where p.matches(i % 3 == 0 ? "a" : (i % 3 == 1 ? "x\(i + t)" : "zz")) { hits += 1 }
          return hits
        }
      }
      var all: [Int] = []
      for await r in group { all.append(r) }
      return all
    }
    #expect(results.count == 8)
    #expect(results.allSatisfy { $0 == 1334 })
  }
}
