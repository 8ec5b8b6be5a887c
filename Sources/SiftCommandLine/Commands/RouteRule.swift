import CSiftJSON
import Sift

/// Why a rule was refused: the text of its report.
struct RouteRuleError: Error {
  var message: String
}

/// One rule as `sift route --rules` reads it from a line, and `sift serve` from a value of
/// its rules bucket: `{"id": ID, "predicate": "…", "args": […], "variables": {…}}`, the id
/// only in a rules file (a bucket's key is the id), "variables" only where the caller reads
/// them. Shared so that both commands accept and refuse the same rules with the same words.
struct RouteRule {
  /// Where the id's JSON is in the rule's bytes, when the rule carries an id.
  var idRange: Range<Int>?
  /// The predicate's text.
  var format: String
  /// Its `%@` arguments.
  var arguments: [SiftValue]
  /// Values for its `$variables`.
  var variables: [String: SiftValue]

  /// Reads a rule's JSON (not yet compiled). `withID`: the rule must carry an `"id"`;
  /// `readsVariables`: an object under `"variables"` binds the predicate's variables
  /// (otherwise the member is ignored, as `sift route` always has).
  static func read(_ bytes: UnsafeBufferPointer<UInt8>, withID: Bool, readsVariables: Bool) throws(RouteRuleError)
    -> RouteRule
  {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
      throw RouteRuleError(message: "empty \(withID ? "line" : "value") (a rule is a JSON object)")
    }
    let value: SiftValue
    let ranges: [String: Range<Int>]
    do throws(JSONError) {
      (value, ranges) = try SiftValue.readWithMemberRanges(json: bytes)
    } catch {
      throw RouteRuleError(message: "not valid JSON: \(error.message) (at byte \(error.offset))")
    }
    guard case .dictionary(let rule) = value else {
      throw RouteRuleError(
        message: withID
          ? "a rule is a JSON object with \"id\" and \"predicate\"" : "a rule is a JSON object with \"predicate\"")
    }
    var idRange: Range<Int>?
    if withID {
      guard rule["id"] != nil, let range = ranges["id"] else { throw RouteRuleError(message: "the rule has no \"id\"") }
      idRange = range
    }
    guard case .string(let format)? = rule["predicate"] else {
      throw RouteRuleError(message: "the rule has no string \"predicate\"")
    }
    var arguments: [SiftValue] = []
    switch rule["args"] {
    case nil, .null?: break
    case .array(let values)?: arguments = values
    default: throw RouteRuleError(message: "\"args\" must be a JSON array")
    }
    var variables: [String: SiftValue] = [:]
    if readsVariables {
      switch rule["variables"] {
      case nil, .null?: break
      case .dictionary(let values)?: variables = values
      default: throw RouteRuleError(message: "\"variables\" must be a JSON object")
      }
    }
    return RouteRule(idRange: idRange, format: format, arguments: arguments, variables: variables)
  }

  /// A rule ready to enter a set: its tree, with its arguments and variables bound, its
  /// text (for diagnostics), and the warning its report gets when it can fail on some paths.
  /// Not compiled: a rule that shares its shape's code is never compiled on its own
  /// (``RuleBatch``, ``SiftPredicateSet/insert(syntax:format:options:id:)``).
  struct Prepared {
    var syntax: PredicateSyntax
    var format: String
    var warning: String?
  }

  /// Parses the rule, binds its variables and checks that it can match
  /// (``RouteRuleCheck``); `command` names the command in the reasons given.
  func prepare(command: String) throws(RouteRuleError) -> Prepared {
    let why = RouteRuleCheck.why(command: command, bindsVariables: !variables.isEmpty)
    var syntax: PredicateSyntax
    do throws(PredicateSyntaxError) {
      syntax = try PredicateSyntax(parsing: format, arguments: arguments)
    } catch {
      throw RouteRuleError(message: Self.doesNotCompile(error))
    }
    // Bound in the tree, as `withSubstitutionVariables` binds them: the values become
    // constants, and the rule shares its shape's code like any other.
    if !variables.isEmpty { syntax = syntax.substitutingVariables(variables) }
    let check = RouteRuleCheck(syntax)
    if check.neverMatches {
      throw RouteRuleError(
        message: "the predicate can never match: every evaluation that could make it true fails at \(check.summary); "
          + why)
    }
    guard !check.references.isEmpty else { return Prepared(syntax: syntax, format: format, warning: nil) }
    return Prepared(
      syntax: syntax, format: format,
      warning: "warning: \(check.summary), always fails when evaluated (\(why)); the rule may still match where "
        + "evaluation does not reach it")
  }

  /// The report of a rule whose predicate does not parse or compile.
  static func doesNotCompile(_ error: PredicateSyntaxError) -> String {
    "the predicate does not compile: \(error)"
  }
}

/// How `sift route` decides one input line, and `sift serve` one message: parsed by
/// simdjson and matched on its DOM (``SetJSONMatcher``), with Sift's own JSON reader
/// wording what is not JSON.
enum RouteDecision<ID: Hashable & Sendable> {
  /// The ids of the rules it satisfies, in the set's order.
  case matched([ID])
  /// It is not a JSON value: the report's message, and the byte where reading failed.
  case error(message: String, offset: Int?)
}

/// Decides inputs against one rule set: one per thread (it owns a simdjson parser).
final class RouteDecider<ID: Hashable & Sendable> {
  private let matcher: SetJSONMatcher<ID>
  /// What an input is called in a message ("line", "message").
  private let noun: String
  /// A padded copy of an input that has no readable bytes past its end.
  private var scratch: [UInt8] = []
  /// The ids of the last input: one array for every input, whose memory is reused once
  /// the caller has let go of the last answer.
  private var ids: [ID] = []

  init(_ set: SiftPredicateSet<ID>, noun: String) {
    matcher = SetJSONMatcher(set)
    self.noun = noun
  }

  /// Decides `bytes`, of which `readable` can be read from its start (simdjson reads up
  /// to ``SIFT_JSON_PADDING`` past the end).
  func decide(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int) -> RouteDecision<ID> {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      return .error(message: "\(noun) is empty (not a JSON value)", offset: nil)
    }
    ids.removeAll(keepingCapacity: true)
    do throws(JSONError) {
      try matcher.withMatches(bytes, readable: readable) { [self] slots, table in
        for slot in slots { ids.append(table[Int(slot)]) }
      }
    } catch {
      return .error(message: "\(noun) is not valid JSON: \(error.message)", offset: error.offset)
    }
    return .matched(ids)
  }

  /// Decides `bytes`, which end where their memory does: copied first into a buffer with
  /// simdjson's padding, so simdjson rather than the slower fallback reads them.
  func decideCopying(_ bytes: UnsafeBufferPointer<UInt8>) -> RouteDecision<ID> {
    let needed = bytes.count + Int(SIFT_JSON_PADDING)
    if scratch.count < needed { scratch = [UInt8](repeating: 0, count: max(needed, 2 * scratch.count)) }
    return scratch.withUnsafeMutableBufferPointer { all in
      _ = all.initialize(from: bytes)
      return decide(UnsafeBufferPointer(rebasing: all[..<bytes.count]), readable: all.count)
    }
  }
}
