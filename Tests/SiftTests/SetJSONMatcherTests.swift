import SiftTestSupport
import Testing

@testable import Sift

/// A predicate set decides JSON on simdjson's DOM (``SetJSONMatcher``, what `sift route`
/// runs per line) exactly as it decides the value Sift's own reader makes of the same text,
/// and a predicate inserted from its syntax answers as the compiled one.
@Suite struct SetJSONMatcherTests {
  /// `text` as bytes with simdjson's padding readable after them (`padded: false`: none).
  private func match(_ matcher: SetJSONMatcher<Int>, _ text: String, padded: Bool = true) -> SetJSONMatcher<Int>.Outcome
  {
    var bytes = Array(text.utf8)
    let count = bytes.count
    if padded { bytes += [UInt8](repeating: 0x20, count: 64) }
    return bytes.withUnsafeBufferPointer { all in
      matcher.matches(UnsafeBufferPointer(rebasing: all[0..<count]), readable: all.count)
    }
  }

  private func ids(_ outcome: SetJSONMatcher<Int>.Outcome) -> [Int]? {
    if case .matched(let ids) = outcome { return ids }
    return nil
  }

  /// Random predicates over random records written as JSON: the matcher's answer is the
  /// set's answer on the parsed value, and each predicate's own; predicates are added
  /// between rounds, so the matcher's record plan follows new keys.
  @Test func sameAnswerAsTheParsedValue() throws {
    var random = SplitMix64(seed: 0x5E7_0150)
    let pool = (0..<300).map { _ in RandomPredicates.predicate(&random, subject: .record) }
    var compared = 0
    var matched = 0
    for round in 0..<12 {
      let set = SiftPredicateSet<Int>()
      let matcher = SetJSONMatcher(set)
      var members: [Int] = []
      for step in 0..<4 {
        for _ in 0..<10 {
          let p = random.below(pool.count)
          let id = members.count
          members.append(p)
          if (round + step) % 2 == 0 {
            try set.insert(syntax: pool[p].syntax, options: pool[p].options, id: id)
          } else {
            set.insert(pool[p], id: id)
          }
        }
        for _ in 0..<40 {
          let record = RandomPredicates.record(&random)
          let text = record.jsonText
          let parsed = try SiftValue(json: text)
          let expected = members.indices.filter { pool[members[$0]].matches(parsed) }
          #expect(set.matches(parsed) == expected, "\(text)")
          #expect(ids(match(matcher, text)) == expected, "\(text)")
          compared += 1
          matched += expected.count
        }
      }
    }
    #expect(compared == 12 * 4 * 40)
    // The pool is not degenerate: records match some predicates and miss others.
    #expect(matched > compared / 4)
  }

  /// Documents that are not plain records: each decided as Sift's reader reads it.
  @Test(arguments: [
    ("[1, 2]", "n == 1"), ("[{\"s\": \"a\"}, {\"s\": \"b\"}]", "ANY s == 'b'"), ("\"abc\"", "SELF == 'abc'"),
    ("{\"s\": \"a\", \"s\": \"b\"}", "s == 'b'"), ("{\"s\": \"a\", \"s\": \"b\"}", "s == 'a'"),
    ("{\"n\": 18446744073709551616}", "n > 1e19"), ("{\"s\": \"a\\u0000b\"}", "s == 'a\\0b'"),
    ("{\"s\": \"caf\\u00e9\"}", "s == 'cafe\u{301}'"), ("{\"s\": \"caf\\u00e9\"}", "s ==[d] 'cafe'"),
    ("{\"a\": {\"b\": [1, 2]}}", "ANY a.b == 2"), ("{\"tags\": []}", "tags.@count == 0"),
    ("{\"x\": null}", "x == nil"), ("{}", "x == nil"), ("  {\"s\" : \"a\"}  ", "s == 'a'"),
    ("{\"n\": 1.0}", "n == 1"), ("{\"n\": -0}", "n == 0"), ("{\"n\": true}", "n == 1"),
  ])
  func documentsAsSiftReadsThem(_ document: String, _ format: String) throws {
    let set = SiftPredicateSet<Int>()
    try set.insert(format: format, id: 0)
    // A predicate of its own beside it (SUBQUERY cannot share), reading the same key.
    set.insert(try SiftPredicate(format: "SUBQUERY({1}, $v, $v == 1).@count == 1 AND (\(format))"), id: 1)
    let matcher = SetJSONMatcher(set)
    let expected = set.matches(try SiftValue(json: document))
    #expect(ids(match(matcher, document)) == expected)
    #expect(ids(match(matcher, document, padded: false)) == expected)
  }

  /// A document Sift's reader refuses is an error with its message and offset.
  @Test(arguments: ["{\"s\":", "{\"s\": tru}", "[1,]", "{\"s\": \"\\x\"}", "\u{FF}"])
  func invalidDocumentsAreErrors(_ document: String) throws {
    let set = SiftPredicateSet<Int>()
    try set.insert(format: "s == 'a'", id: 0)
    let matcher = SetJSONMatcher(set)
    var expected: JSONError? = nil
    do { _ = try SiftValue(json: document) } catch { expected = error }
    let want = try #require(expected)
    guard case .invalid(let error) = match(matcher, document) else {
      Issue.record("\(document) was decided")
      return
    }
    #expect(error.message == want.message)
    #expect(error.offset == want.offset)
  }

  /// A key only a predicate of its own reads, with a NUL in it, is found by its bytes.
  @Test func keysOfOwnProgramsAreReadByBytes() throws {
    let set = SiftPredicateSet<Int>()
    set.insert(
      try SiftPredicate(format: "SUBQUERY({1}, $v, $v == 1).@count == 1 AND %K == 2", arguments: ["a\0b"]), id: 0)
    try set.insert(format: "%K == 3", arguments: ["a"], id: 1)
    let matcher = SetJSONMatcher(set)
    #expect(ids(match(matcher, "{\"a\\u0000b\": 2, \"a\": 3}")) == [0, 1])
    #expect(ids(match(matcher, "{\"a\": 2}")) == [])
  }

  // MARK: - Inserting from syntax

  /// A thousand predicates of one shape inserted from their text share one program, keep
  /// no program of their own, and answer as the compiled ones.
  @Test func insertedFromTextTheyShareOneProgram() throws {
    let fromText = SiftPredicateSet<Int>()
    let compiled = SiftPredicateSet<Int>()
    for i in 0..<1_000 {
      let args: [SiftValue] = [.array([.string("acct-\(i)"), .string("acct-\(i + 1)")]), .int(i % 5)]
      try fromText.insert(format: "filterCriteria IN %@ AND priority >= %@", arguments: args, id: i)
      compiled.insert(try SiftPredicate(format: "filterCriteria IN %@ AND priority >= %@", arguments: args), id: i)
    }
    #expect(fromText.statistics.sharedShapes == 1)
    #expect(fromText.statistics.ownPrograms == 0)
    for record: SiftValue in [
      ["filterCriteria": "acct-10", "priority": 3], ["filterCriteria": "acct-7", "priority": 0],
    ] {
      #expect(fromText.matches(record) == compiled.matches(record))
    }
    // acct-10 is predicate 9's and 10's; predicate 9 asks priority >= 4.
    #expect(fromText.matches(["filterCriteria": "acct-10", "priority": 3]) == [10])
    #expect(fromText.matches(["filterCriteria": "acct-10", "priority": 4]) == [9, 10])
  }

  /// An insertion that does not parse or compile throws the error ``SiftPredicate`` gives
  /// and leaves the set as it was (the id keeps its earlier predicate).
  @Test(arguments: ["s MATCHES '('", "s MATCHES 'a(' AND n == 1", "s ==", "n == 2 OR s MATCHES[c] '['"])
  func aFailedInsertionChangesNothing(_ format: String) throws {
    let set = SiftPredicateSet<Int>()
    try set.insert(format: "n == 1", id: 7)
    var compileError: PredicateSyntaxError? = nil
    do { _ = try SiftPredicate(format: format) } catch { compileError = error }
    let want = try #require(compileError)
    #expect(throws: PredicateSyntaxError.self) { try set.insert(format: format, id: 7) }
    do { try set.insert(format: format, id: 8) } catch { #expect(error.description == want.description) }
    #expect(set.count == 1)
    #expect(set.matches(["n": 1, "s": "a"]) == [7])
  }

  /// A string key that the index looks up by its bytes in the parsed document (no `String`
  /// made): every folding, escapes, non-ASCII and decomposed text, other types and absent
  /// keys give the set the answer of each predicate on the parsed value.
  @Test(arguments: ["s == %@", "s ==[c] %@", "s ==[d] %@", "s ==[cd] %@", "s IN[c] %@", "s IN %@ AND n >= 1"])
  func stringKeysLookedUpByTheirBytes(_ format: String) throws {
    let constants = ["ä", "Ä", "a", "é", "e\u{301}", "Straße", "STRASSE", "ﬁ", "fi", "x\u{0}y", ""]
    let set = SiftPredicateSet<Int>()
    var predicates: [SiftPredicate] = []
    for (i, c) in constants.enumerated() {
      let argument: SiftValue = format.contains("IN") ? .array([.string(c), .string("zz")]) : .string(c)
      let predicate = try SiftPredicate(format: format, arguments: [argument])
      predicates.append(predicate)
      try set.insert(format: format, arguments: [argument], id: i)
    }
    let matcher = SetJSONMatcher(set)
    let documents = [
      #"{"s":"ä","n":1}"#, #"{"s":"\u00e4","n":1}"#, #"{"s":"A\u0308","n":2}"#, #"{"s":"Ä"}"#,
      #"{"s":"e\u0301","n":1}"#,
      #"{"s":"é","n":1}"#, #"{"s":"strasse","n":1}"#, #"{"s":"STRASSE","n":1}"#, #"{"s":"Fi","n":1}"#,
      #"{"s":"x\u0000y","n":1}"#, #"{"s":"","n":1}"#, #"{"s":1,"n":1}"#, #"{"s":["a"],"n":1}"#, #"{"n":1}"#,
      #"{"s":null}"#, #"{"s":"a","s":"ä","n":1}"#,
    ]
    var matched = 0
    for text in documents {
      let parsed = try SiftValue(json: text)
      let expected = predicates.indices.filter { predicates[$0].matches(parsed) }
      #expect(ids(match(matcher, text)) == expected, "\(format) on \(text)")
      matched += expected.count
    }
    #expect(matched > 0)
  }
}
