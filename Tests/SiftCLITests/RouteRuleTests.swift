import Foundation
import Sift
import Testing

/// `sift route`'s rules: ids go back exactly as written, and rules that reach a function
/// or variable nothing can answer are reported.
@Suite("sift route rules")
struct RouteRuleTests {
  /// Ids equal as values but spelled differently are different ids, and each is written
  /// back byte for byte: numbers beyond a double's precision, exponents, trailing zeros,
  /// escapes, composed and decomposed accents, whitespace inside an object.
  @Test func idsAreWrittenBackAndComparedAsWritten() throws {
    let ids = [
      "12345678901234567891", "12345678901234567892", "1E2", "100", "2.50", #""\u00e9""#, #""e\u0301""#, #""é""#,
      #"{"k": [1,  2]}"#, "-0", "0", "null", "[ ]",
    ]
    let rules = try RouteCommandTests.rulesFile(ids.map { #"{"id": \#($0), "predicate": "a == 1"}"# })
    let result = try SiftProcess.run(["route", "--rules", rules.path], input: .text(#"{"a": 1}"# + "\n"))
    #expect(result.exited(0), "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(result.stdout == #"{"line": 1, "ids": ["# + ids.joined(separator: ", ") + "]}\n")
    let each = try SiftProcess.run(["route", "--each", "--rules", rules.path], input: .text(#"{"a": 1}"# + "\n"))
    #expect(each.exited(0))
    #expect(each.stdout == ids.map { #"{"id": \#($0), "line": {"a": 1}}"# + "\n" }.joined())
  }

  /// The same bytes twice are a duplicate, named as written.
  @Test(arguments: ["12345678901234567891", "1E2", #""\u00e9""#, #""e\u0301""#])
  func theSameBytesTwiceAreADuplicate(_ id: String) throws {
    let rules = try RouteCommandTests.rulesFile([
      #"{"id": \#(id), "predicate": "a == 1"}"#, #"{"id": 7, "predicate": "a == 2"}"#,
      #"{"predicate": "a == 3", "id": \#(id)}"#,
    ])
    let result = try SiftProcess.run(["route", "--rules", rules.path], input: .text(#"{"a": 1}"# + "\n"))
    #expect(result.exited(2))
    #expect(
      result.stderr == "sift route: \(rules.path):3: the id \(id) is already the id of the rule on line 1\n"
        + "sift route: 1 bad rule in \(rules.path); no input was read\n")
  }
}
