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
