import Foundation
import Sift
import Testing

/// `sift route`: the ids of every matching rule per line, exactly as evaluating each rule.
@Suite("sift route")
struct RouteCommandTests {
  static func rulesFile(_ lines: [String]) throws -> TemporaryFile {
    try TemporaryFile(Array((lines.joined(separator: "\n") + "\n").utf8))
  }

  static let rules = [
    #"{"id": "focus-1", "predicate": "filterCriteria IN %@ AND priority >= 3", "args": [["acct-1", "acct-2"]]}"#,
    #"{"id": 2, "predicate": "subject CONTAINS[c] 'invoice'"}"#,
    #"{"id": ["x"], "predicate": "ANY tags == 'urgent' OR priority BETWEEN {8, 9}"}"#,
    #"{"id": null, "predicate": "sender BEGINSWITH 'boss@' AND NOT subject MATCHES '.*spam.*'"}"#,
    #"{"id": "never", "predicate": "priority > 'x'"}"#,
  ]

  @Test func idsPerLineInRuleOrder() throws {
    let rules = try Self.rulesFile(Self.rules)
    let input =
      [
        #"{"filterCriteria": "acct-1", "priority": 4, "subject": "Your INVOICE", "tags": ["urgent"]}"#,
        #"{"filterCriteria": "acct-3", "priority": 9}"#,
        #"{"sender": "boss@example.com", "subject": "hello"}"#,
        #"{"sender": "boss@example.com", "subject": "spam spam"}"#,
        "not json", "", #"[1, 2]"#,
      ].joined(separator: "\n") + "\n"
    let result = try SiftProcess.run(["route", "--rules", rules.path], input: .text(input))
    #expect(result.exited(1))
    #expect(
      result.stdout.split(separator: "\n").map(String.init) == [
        #"{"line": 1, "ids": ["focus-1", 2, ["x"]]}"#, #"{"line": 2, "ids": [["x"]]}"#, #"{"line": 3, "ids": [null]}"#,
        #"{"line": 4, "ids": []}"#,
        #"{"line": 5, "error": {"message": "line is not valid JSON: expected null", "offset": 0}}"#,
        #"{"line": 6, "error": {"message": "line is empty (not a JSON value)"}}"#, #"{"line": 7, "ids": []}"#,
      ])
    #expect(result.stderr.contains("line 5: line is not valid JSON"))

    let each = try SiftProcess.run(["route", "--each", "--rules", rules.path], input: .text(input))
    #expect(each.exited(1))
    let first = #"{"filterCriteria": "acct-1", "priority": 4, "subject": "Your INVOICE", "tags": ["urgent"]}"#
    #expect(
      each.stdout.split(separator: "\n").map(String.init) == [
        #"{"id": "focus-1", "line": "# + first + "}", #"{"id": 2, "line": "# + first + "}",
        #"{"id": ["x"], "line": "# + first + "}",
        #"{"id": ["x"], "line": {"filterCriteria": "acct-3", "priority": 9}}"#,
        #"{"id": null, "line": {"sender": "boss@example.com", "subject": "hello"}}"#,
      ])
  }

  /// Bad rules: every one reported with its line, exit 2, and no input read.
  @Test func badRulesAreRejectedBeforeAnyInput() throws {
    let rules = try Self.rulesFile([
      #"{"id": 1, "predicate": "a == 1"}"#, #"{"id": 2, "predicate": "a =="}"#, #"{"id": 1, "predicate": "b == 1"}"#,
      #"{"predicate": "a == 1"}"#, #"{"id": 3}"#, #"{"id": 4, "predicate": "a == %@", "args": 5}"#, "[1]", "{",
    ])
    let result = try SiftProcess.run(["route", "--rules", rules.path], input: .text(#"{"a": 1}"# + "\n"))
    #expect(result.exited(2))
    #expect(result.stdout.isEmpty)
    for line in 2...8 { #expect(result.stderr.contains("\(rules.path):\(line): "), "line \(line)") }
    #expect(!result.stderr.contains("\(rules.path):1: "))
    #expect(result.stderr.contains("7 bad rules"))
  }

  @Test(arguments: [[] as [String], ["--rules"], ["--rules", "/nonexistent/rules.jsonl"], ["--bogus"]])
  func usageErrors(_ arguments: [String]) throws {
    let result = try SiftProcess.run(["route"] + arguments, input: .text("{}\n"))
    #expect(result.exited(2))
    #expect(!result.stderr.isEmpty)
  }

  /// Random rules of many shapes against random lines: the ids are exactly the rules whose
  /// predicate matches the line's value, evaluated one by one.
  @Test func sameAsEvaluatingEveryRule() throws {
    var random = SystemRandomNumberGenerator()
    let formats = [
      "filterCriteria IN %@", "filterCriteria == %@", "priority >= %@", "priority BETWEEN %@", "ANY tags == %@",
      "subject BEGINSWITH %@", "subject CONTAINS[c] %@", "filterCriteria IN %@ AND priority < %@",
      "NOT filterCriteria IN %@", "filterCriteria IN %@ OR subject BEGINSWITH %@", "priority != %@",
    ]
    func argument(_ k: Int) -> SiftValue {
      switch k % 4 {
      case 0: return .array((0..<3).map { _ in .string("acct-\(Int.random(in: 0..<20, using: &random))") })
      case 1: return .int(Int.random(in: 0..<10, using: &random))
      case 2:
        return .array([.int(Int.random(in: 0..<5, using: &random)), .int(Int.random(in: 5..<10, using: &random))])
      default: return .string(["urgent", "a", "In", "re:"].randomElement(using: &random)!)
      }
    }
    var ruleLines: [String] = []
    var predicates: [SiftPredicate] = []
    for n in 0..<300 {
      let format = formats.randomElement(using: &random)!
      var arguments: [SiftValue] = []
      for (k, piece) in format.components(separatedBy: "%@").dropLast().enumerated() {
        // The argument kind follows what the clause compares.
        let kind =
          piece.hasSuffix("IN ")
          ? 0
          : piece.hasSuffix("BETWEEN ")
            ? 2
            : piece.contains("priority")
              ? 1
              : piece.contains("tags") || piece.contains("subject") ? 3 : (k + n) % 4
        arguments.append(argument(kind))
      }
      let predicate = try SiftPredicate(format: format, arguments: arguments)
      predicates.append(predicate)
      let rule: SiftValue = ["id": .int(n), "predicate": .string(format), "args": .array(arguments)]
      ruleLines.append(rule.jsonText)
    }
    var lines: [String] = []
    for _ in 0..<400 {
      var object: [String: SiftValue] = [:]
      if Bool.random(using: &random) {
        object["filterCriteria"] = .string("acct-\(Int.random(in: 0..<20, using: &random))")
      }
      if Int.random(in: 0..<4, using: &random) > 0 { object["priority"] = .int(Int.random(in: 0..<10, using: &random)) }
      if Bool.random(using: &random) { object["priority"] = .string("high") }
      if Bool.random(using: &random) {
        object["tags"] = .array([.string("urgent"), .string("a")].shuffled(using: &random))
      }
      if Bool.random(using: &random) {
        object["subject"] = .string(["re: In", "in time", "urgent"].randomElement(using: &random)!)
      }
      lines.append(SiftValue.dictionary(object).jsonText)
    }
    var expected = ""
    for (k, line) in lines.enumerated() {
      let value = try SiftValue(json: line)
      let ids = predicates.indices.filter { predicates[$0].matches(value) }
      expected += #"{"line": \#(k + 1), "ids": [\#(ids.map(String.init).joined(separator: ", "))]}"# + "\n"
    }
    let rules = try Self.rulesFile(ruleLines)
    let result = try SiftProcess.run(
      ["route", "--rules", rules.path], input: .text(lines.joined(separator: "\n") + "\n"))
    #expect(result.exited(0), "\(result.stderr)")
    #expect(result.stdout == expected)
  }
}
