import Foundation
import Sift
import SiftReference
import Testing

/// What evaluating a predicate gave: a result or the kind of evaluation error.
enum RefOutcome: Hashable, Sendable, CustomStringConvertible {
  case value(Bool)
  case error(EvaluationError.Kind)
  case parseError(String)

  static let t = RefOutcome.value(true)
  static let f = RefOutcome.value(false)
  static func err(_ kind: EvaluationError.Kind) -> RefOutcome { .error(kind) }

  var description: String {
    switch self {
    case .value(let b): "\(b)"
    case .error(let k): "error \(k.rawValue)"
    case .parseError(let m): "parse error: \(m)"
    }
  }
}

/// One row of a reference-evaluator table.
struct RefRow: Sendable, CustomTestStringConvertible {
  var format: String
  var object: SiftValue
  var args: [SiftValue]
  var variables: [String: SiftValue]
  var expected: RefOutcome

  var testDescription: String { "\(format)  →  \(expected)" }
}

/// `refRow("a == 1", .t)` evaluates against ``RefFixtures/record``.
func refRow(
  _ format: String, _ expected: RefOutcome, object: SiftValue = RefFixtures.record, args: [SiftValue] = [],
  variables: [String: SiftValue] = [:]
) -> RefRow {
  RefRow(format: format, object: object, args: args, variables: variables, expected: expected)
}

enum RefFixtures {
  /// The record most table rows are evaluated against.
  static let record: SiftValue = [
    "a": 1, "b": 2.5, "zero": 0, "neg": -7, "big": .int(Int.max), "small": .int(Int.min),
    "name": "Alice", "upper": "ALICE", "empty": "", "flag": true, "off": false, "nothing": nil,
    "tags": ["red", "green", "blue"], "nums": [1, 2, 3, 4], "mixed": [1, "two", nil, 3.5],
    "none_list": [], "strs": ["b", "a", "c"], "grid": [[1, 2], [2, 3], [4]], "dups": [1, 2, 1, 2.0, 3],
    "nested": ["x": 10, "y": ["z": "deep"], "list": [["v": 1], ["v": 2]]],
    "items": [["price": 2, "name": "pen"], ["price": 3.5, "name": "ink"], ["name": "gift"]],
    "dict": ["k": 1, "j": "v"],
    "word": "Straße", "shout": "STRASSE", "cafe": "Café", "cafe_nfd": "Cafe\u{301}",
    "istanbul": "İstanbul", "greek": "ΣΊΣΥΦΟΣ", "greek_lower": "σίσυφος", "wide": "ＡＢＣ",
    "emoji": "👍", "when": .date(secondsSinceReferenceDate: 100),
    "later": .date(secondsSinceReferenceDate: 200),
  ]
}

/// Parses and evaluates one row with a fresh reference evaluator.
func refOutcome(of r: RefRow, functions: [String: ([SiftValue]) throws -> SiftValue] = [:]) -> RefOutcome {
  let predicate: PredicateSyntax
  do {
    predicate = try PredicateSyntax(parsing: r.format, arguments: r.args)
  } catch {
    return .parseError("\(error)")
  }
  var evaluator = ReferenceEvaluator(variables: r.variables, functions: functions)
  do {
    return .value(try evaluator.evaluate(predicate, object: r.object))
  } catch {
    return .error(error.kind)
  }
}
