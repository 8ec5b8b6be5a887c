import Testing

@testable import Sift

/// Every kind of input Sift reads in place is one ``SiftInput``: through a generic call
/// each answers as its own overload did, a type that is several kinds at once is read
/// through its field table, and `filter` takes any of them.
@Suite struct SiftInputTests {
  struct Typed: SiftTyped, Encodable {
    var priority: Int
    var sender: String
    static let siftFields = SiftFields<Typed>().field("priority", \.priority).field("sender", \.sender)
  }

  /// Answers keys itself, and counts nothing: a typed value that is also key-value coded
  /// must be read through its table, so its lookups return a wrong value on purpose.
  struct Both: SiftTyped, SiftKeyValueCoding, Encodable {
    var priority: Int
    var sender: String
    static let siftFields = SiftFields<Both>().field("priority", \.priority).field("sender", \.sender)
    func siftValue(forKey key: String) -> SiftValue? { key == "priority" ? .int(-1) : nil }
  }

  struct Keyed: SiftKeyValueCoding {
    var values: [String: SiftValue]
    func siftValue(forKey key: String) -> SiftValue? { values[key] }
  }

  /// The answer through a call that only knows the value is a ``SiftInput``.
  private func generic(_ p: SiftPredicate, _ input: some SiftInput) throws -> (Bool, Bool) {
    (try p.evaluate(with: input), p.matches(input))
  }

  @Test(arguments: [("priority >= 3", true), ("priority >= 5", false), ("sender ENDSWITH 'b.c'", true)])
  func everyKindAnswersAsItself(format: String, expected: Bool) throws {
    let p = try SiftPredicate(format: format)
    let typed = try SiftPredicate(format: format, for: Typed.self)
    let value: SiftValue = ["priority": 4, "sender": "a@b.c"]
    let schema = SiftSchema(fields: ["priority", "sender"])
    let record = SiftRecord(schema: schema, values: [4, "a@b.c"])
    let recordPredicate = try SiftPredicate(format: format, options: CompileOptions(schema: schema))
    #expect(try generic(p, value) == (expected, expected))
    #expect(try generic(recordPredicate, record) == (expected, expected))
    #expect(try generic(typed, Typed(priority: 4, sender: "a@b.c")) == (expected, expected))
    #expect(try generic(p, Typed(priority: 4, sender: "a@b.c")) == (expected, expected))
    #expect(try generic(p, Keyed(values: ["priority": 4, "sender": "a@b.c"])) == (expected, expected))
    // The field table wins over the lookups, whichever overload the caller reaches.
    let both = Both(priority: 4, sender: "a@b.c")
    let forBoth = try SiftPredicate(format: format, for: Both.self)
    #expect(try generic(forBoth, both) == (expected, expected))
    #expect(try p.evaluate(with: both) == expected)
    #expect(p.matches(both) == expected)
  }

  @Test func aStringIsSelf() throws {
    let p = try SiftPredicate(format: "SELF IN %@", arguments: [["a", "b"]])
    #expect(try generic(p, "a") == (true, true))
    #expect(try generic(p, "c") == (false, false))
  }

  @Test func aRecordOfAnotherSchemaIsAnErrorThroughEveryCall() throws {
    let p = try SiftPredicate(format: "a == 1", options: CompileOptions(schema: SiftSchema(fields: ["a"])))
    let other = SiftRecord(schema: SiftSchema(fields: ["b", "a"]), values: [0, 1])
    #expect(throws: EvaluationError.self) { try p.evaluate(with: other) }
    #expect(!p.matches(other))
    #expect(throws: EvaluationError.self) { _ = try generic(p, other) }
  }

  @Test func filterTakesEveryKind() throws {
    let p = try SiftPredicate(format: "priority >= 3")
    #expect([Typed(priority: 1, sender: ""), Typed(priority: 3, sender: "")].filter(p).map(\.priority) == [3])
    #expect([Both(priority: 5, sender: "")].filter(p).count == 1)
    #expect([Keyed(values: ["priority": 2]), Keyed(values: ["priority": 9])].filter(p).count == 1)
    #expect(([["priority": 4], ["priority": 1]] as [SiftValue]).filter(p).count == 1)
    #expect(["a", "b"].filter(try SiftPredicate(format: "SELF == %@", arguments: ["b"])) == ["b"])
  }
}
