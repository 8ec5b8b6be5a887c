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

  /// A compiled rule, with the warning its report gets when it can fail on some paths.
  struct Compiled {
    var predicate: SiftPredicate
    var warning: String?
  }

  /// Compiles the rule and checks that it can match (``RouteRuleCheck``); `command` names
  /// the command in the reasons given.
  func compile(command: String) throws(RouteRuleError) -> Compiled {
    let why = RouteRuleCheck.why(command: command, bindsVariables: !variables.isEmpty)
    let predicate: SiftPredicate
    do throws(PredicateSyntaxError) {
      let compiled = try SiftPredicate(format: format, arguments: arguments)
      predicate = variables.isEmpty ? compiled : try compiled.withSubstitutionVariables(variables)
    } catch {
      throw RouteRuleError(message: "the predicate does not compile: \(error)")
    }
    let check = RouteRuleCheck(predicate.syntax)
    if check.neverMatches {
      throw RouteRuleError(
        message: "the predicate can never match: every evaluation that could make it true fails at \(check.summary); "
          + why)
    }
    guard !check.references.isEmpty else { return Compiled(predicate: predicate, warning: nil) }
    return Compiled(
      predicate: predicate,
      warning: "warning: \(check.summary), always fails when evaluated (\(why)); the rule may still match where "
        + "evaluation does not reach it")
  }
}

/// How `sift route` decides one input line, and `sift serve` one message: read as JSON,
/// then matched against the rule set.
enum RouteDecision<ID: Hashable & Sendable> {
  /// The ids of the rules it satisfies, in the set's order.
  case matched([ID])
  /// It is not a JSON value: the report's message, and the byte where reading failed.
  case error(message: String, offset: Int?)

  /// Decides `bytes`; `noun` is what the input is called in a message ("line").
  static func decide(_ bytes: UnsafeBufferPointer<UInt8>, in set: SiftPredicateSet<ID>, noun: String) -> Self {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      return .error(message: "\(noun) is empty (not a JSON value)", offset: nil)
    }
    let value: SiftValue
    do throws(JSONError) {
      value = try SiftValue(json: bytes)
    } catch {
      return .error(message: "\(noun) is not valid JSON: \(error.message)", offset: error.offset)
    }
    return .matched(set.matches(value))
  }
}
