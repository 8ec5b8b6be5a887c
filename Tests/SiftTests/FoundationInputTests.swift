import Foundation
import Testing

@testable import Sift

/// Foundation values (`[String: Any]`, `NSDictionary`, `NSNumber`, …) read lazily: only the
/// keys a predicate touches, each value's type dispatched once, the same answers as the
/// value tree.
@Suite("Foundation values")
struct FoundationInputTests {
  static let json = #"""
    {"account": "acct-1", "priority": 4, "ratio": 0.5, "unread": true, "tags": ["urgent", "work"],
     "meta": {"thread": "t-1", "n": [1, 2.5]}, "absent": null, "big": 18446744073709551615}
    """#

  static var parsed: [String: Any] {
    try! JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
  }

  @Test(arguments: [
    ("account == 'acct-1'", true), ("priority >= 3", true), ("priority == 4.0", true), ("ratio < 1", true),
    ("unread == YES", true), ("unread == 1", true), ("ANY tags == 'urgent'", true), ("tags.@count == 2", true),
    ("meta.thread BEGINSWITH 't-'", true), ("meta.n.@sum.self == 3.5", true), ("absent == nil", true),
    ("missing == nil", true), ("big > 9223372036854775807", true), ("account IN {'acct-2'}", false),
    ("SELF.account == 'acct-1'", true), ("SELF.@count == 8", true),
  ])
  func jsonSerializationOutput(_ format: String, _ expected: Bool) throws {
    let p = try SiftPredicate(format: format)
    #expect(try p.evaluate(with: Self.parsed) == expected, "\(format)")
    #expect(p.matches(Self.parsed) == expected)
    #expect(try p.evaluate(with: Self.parsed as NSDictionary) == expected, "\(format) on NSDictionary")
    #expect(try p.evaluate(with: SiftValue(json: Self.json)) == expected, "\(format) on the value tree")
  }

  @Test func swiftValuesOfEveryCommonType() throws {
    let date = Date(timeIntervalSinceReferenceDate: 10)
    let object: [String: Any] = [
      "s": "x", "i": 3, "d": 2.5, "b": false, "f": Float(1.5), "i32": Int32(7), "u64": UInt64.max, "date": date,
      "strings": ["a", "b"], "set": Set(["q"]), "nested": ["k": [1, 2]], "opt": String?.none as Any,
      "optSome": String?.some("y") as Any, "ns": NSString(string: "z"), "num": NSNumber(value: true),
      "null": NSNull(), "array": NSArray(array: [1, "two"]), "value": SiftValue.int(9),
    ]
    for (format, expected) in [
      ("s == 'x' AND i == 3 AND d == 2.5 AND b == NO AND f == 1.5 AND i32 == 7", true),
      ("u64 > 1e19", true), ("date == CAST(10, 'NSDate')", true), ("ANY strings == 'b'", true),
      ("ANY set == 'q'", true), ("nested.k.@count == 2", true), ("opt == nil AND optSome == 'y'", true),
      ("ns == 'z' AND num == YES AND null == nil", true), ("array[1] == 'two'", true), ("value == 9", true),
    ] {
      #expect(try SiftPredicate(format: format).evaluate(with: object) == expected, "\(format)")
    }
  }

  /// The elements of a `[String: Any?]` seen as `[String: Any]` are optionals inside `Any`:
  /// nil is null, a value is read through the optional.
  @Test func optionalsInsideAny() throws {
    let optionals: [String: Any?] = ["absent": nil, "one": 1, "text": "t", "list": [1, 2] as [Any]]
    let object = optionals as [String: Any]
    #expect(
      try SiftPredicate(format: "absent == nil AND one == 1 AND text == 't' AND list[1] == 2").evaluate(with: object))
    #expect(SiftValue(foundation: object) == ["absent": .null, "one": 1, "text": "t", "list": [1, 2]])
  }

  /// A value Sift cannot read fails only a predicate that reads it, and the error names the
  /// key and the type.
  @Test func unreadableValuesFailOnlyWhenRead() throws {
    let object: [String: Any] = ["id": UUID(), "name": "x", "list": [1, UUID()] as [Any]]
    #expect(try SiftPredicate(format: "name == 'x'").evaluate(with: object))
    for (format, place) in [("id == 'x'", "'id'"), ("list[0] == 1", "'list'[1]"), ("SELF.@count == 3", "SELF")] {
      let p = try SiftPredicate(format: format)
      do throws(EvaluationError) {
        _ = try p.evaluate(with: object)
        Issue.record("\(format) evaluated")
      } catch {
        #expect(error.kind == .typeMismatch)
        #expect(error.message.contains("UUID"), "\(error.message)")
        #expect(error.message.contains("at \(place)"), "\(error.message)")
      }
    }
    #expect(SiftValue(foundation: object) == nil)
    #expect(!(try SiftPredicate(format: "name == 'x'")).matches(UUID() as Any))
  }

  /// A string, a number or an array as the whole object, boxed in `Any` once or twice.
  @Test func scalarsAsTheObject() throws {
    let p = try SiftPredicate(format: "SELF IN %@", arguments: [["acct-1"]])
    let boxed: Any = "acct-1"
    let objects: [Any] = ["acct-1", "acct-2", 3, ["acct-1"]]
    #expect(try p.evaluate(with: boxed))
    #expect(try p.evaluate(with: boxed as Any?))
    #expect(try objects.map { try p.evaluate(with: $0 as Any?) } == [true, false, false, false])
    #expect(p.matches(boxed))
    // Through a generic caller, as a benchmark or an app's wrapper calls it.
    struct Caller<Input> {
      let p: SiftPredicate
      func run(_ x: Input) -> Bool { (try? p.evaluate(with: x as Any?)) ?? false }
    }
    #expect(objects.map(Caller<Any>(p: p).run) == [true, false, false, false])
    #expect(Caller<String>(p: p).run("acct-1"))
  }

  /// Keys match byte for byte, as in Sift's own dictionaries: a decomposed key is not the
  /// precomposed one, though Swift's lookup treats them as equal.
  @Test func keysMatchByteForByte() throws {
    let object: [String: Any] = ["cafe\u{301}": 1]
    #expect(try SiftPredicate(format: "%K == 1", arguments: ["café"]).evaluate(with: object) == false)
    #expect(try SiftPredicate(format: "%K == 1", arguments: ["cafe\u{301}"]).evaluate(with: object))
  }

  /// Every conformance case whose object survives a JSONSerialization round trip: the
  /// Foundation dictionary gives the value tree's answer.
  @Test func conformanceCasesAgreeWithTheValueTree() throws {
    var compared = 0
    for c in ConformanceData.all where c.loadError == nil {
      guard case .dictionary = c.object, let predicate = try? SiftPredicate(format: c.format, arguments: c.arguments),
        let object = try? JSONSerialization.jsonObject(with: Data(c.object.jsonText.utf8)) as? [String: Any],
        let tree = try? SiftValue(json: c.object.jsonText)
      else { continue }
      let viaTree = InputKindTests.outcome { () throws(EvaluationError) in
        try predicate.evaluate(with: tree, variables: c.variables)
      }
      let viaFoundation = InputKindTests.outcome { () throws(EvaluationError) in
        try predicate.evaluate(with: object, variables: c.variables)
      }
      #expect(viaFoundation == viaTree, "\(c.location): \(c.format) on \(c.object.jsonText)")
      compared += 1
    }
    #expect(compared > 300)
  }
}
