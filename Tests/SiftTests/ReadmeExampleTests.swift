import Sift
import Testing

/// The README's library example, as written there, so the documentation keeps compiling.
@Test func readmeLibraryExample() throws {
  let allowed = try SiftPredicate(format: "SELF IN %@", arguments: [["acct-1", "acct-7"]])
  #expect(allowed.matches("acct-7"))
  #expect(try allowed.evaluate(with: "acct-2") == false)

  let urgent = try SiftPredicate(
    format:
      "account IN %@ AND priority >= 3 AND NOT (sender ENDSWITH[c] '@spam.example') AND ANY tags == 'urgent'",
    arguments: [["acct-1", "acct-7"]])
  #expect(try urgent.evaluate(with: ["account": "acct-1", "priority": 4, "sender": "a@b.c", "tags": ["urgent"]]))
  #expect(
    urgent.predicateFormat
      == #"account IN {"acct-1", "acct-7"} AND priority >= 3 AND NOT sender ENDSWITH[c] "@spam.example" AND ANY tags == "urgent""#
  )
  #expect(urgent.bytecodeListing.contains(#"inStrings "account", o0"#))
}

/// The README's columns example, as written there (with data for its arrays).
@Test func readmeColumnsExample() throws {
  let accounts = ["acct-1", "acct-2", "acct-1", "acct-7"]
  let priorities = [3, 5, 1, 4]
  let senders = ["a@x", "b@x", "c@x", "d@x"]
  let tags = [["urgent"], [], ["urgent", "x"], []]
  let allowed: [SiftValue] = ["acct-1", "acct-7"]
  let columns = SiftColumns([
    ("account", .dictionary(accounts)),  // few distinct values: encoded once
    ("priority", .integers(priorities)),
    ("sender", .strings(senders)),  // one UTF-8 buffer
    ("tags", .stringArrays(tags)),
  ])
  let urgent = try SiftPredicate(
    format: "account IN %@ AND priority >= 3", arguments: [.array(allowed)],
    options: CompileOptions(schema: columns.schema))
  let rows = urgent.indices(matching: columns)  // or (matching:in: 0..<1000)
  #expect(rows == [0, 3])
  #expect(urgent.indices(matching: columns, in: 1..<4) == [3])
  #expect(urgent.matches(columns.record(3)))
}
