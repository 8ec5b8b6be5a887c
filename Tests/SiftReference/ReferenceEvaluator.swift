import Foundation
import Sift

/// A plain tree walker over the syntax tree: the oracle the differential tests compare the
/// VM against. It implements `Documentation/Semantics.md` directly and shares no code with
/// the engine (it uses only the syntax tree, `SiftValue` and `EvaluationError`).
///
/// Clarity beats speed everywhere in this file. Choices Semantics.md leaves open are marked
/// `Decision:` and listed in `Tests/SiftTests/Conformance/Cases/README.md`.
///
/// Error ranges: an error carries the range of the node whose rule failed: the comparison
/// predicate for comparison rules (type mismatches, BETWEEN bounds, quantifier operands,
/// regex errors), the expression node for arithmetic, key paths, indexes, functions, CAST,
/// SUBQUERY and `FUNCTION`, and the variable node for an unbound `$variable`.
package struct ReferenceEvaluator {
  /// Values of `$variables`. Assignments made during one evaluation do not outlive it.
  package var variables: [String: SiftValue] = [:]
  /// `FUNCTION(receiver, 'name', args…)` implementations; they receive the receiver first.
  package var functions: [String: ([SiftValue]) throws -> SiftValue] = [:]

  package init(variables: [String: SiftValue] = [:], functions: [String: ([SiftValue]) throws -> SiftValue] = [:]) {
    self.variables = variables
    self.functions = functions
  }

  /// Evaluates `predicate` with `object` as `SELF`.
  package mutating func evaluate(_ predicate: PredicateSyntax, object: SiftValue) throws(EvaluationError) -> Bool {
    let saved = variables
    defer { variables = saved }
    try ReferenceEvaluator.checkConstantPatterns(in: predicate)
    return try test(predicate, object)
  }

  /// Evaluates `expression` with `object` as `SELF`.
  package mutating func value(of expression: ExpressionSyntax, object: SiftValue) throws(EvaluationError) -> SiftValue {
    let saved = variables
    defer { variables = saved }
    try ReferenceEvaluator.checkConstantPatterns(in: expression)
    return try value(expression, object)
  }
}

// MARK: - Predicates

extension ReferenceEvaluator {
  package mutating func test(_ predicate: PredicateSyntax, _ object: SiftValue) throws(EvaluationError) -> Bool {
    switch predicate.kind {
    case .constant(let b):
      return b
    case .not(let inner):
      return try !test(inner, object)
    case .and(let operands):
      // Left to right, stopping at the first false (decided in Semantics.md).
      for operand in operands where try !test(operand, object) { return false }
      return true
    case .or(let operands):
      for operand in operands where try test(operand, object) { return true }
      return false
    case .comparison(let c):
      return try comparison(c, range: predicate.range, object)
    case .customSelector(let lhsExpression, let selector, let rhsExpression):
      // Decision: both operands first, then the registered function (or Foundation's
      // method); the comparison holds when it answers true.
      let arguments = [try value(lhsExpression, object), try value(rhsExpression, object)]
      let result = try call(selector, arguments, range: predicate.range)
      return try compare(result, .equal, [], .bool(true), range: predicate.range)
    }
  }

  /// Decision: both operands are always evaluated, left then right, before any rule of the
  /// operator is applied (so an error in either operand is raised even when the other is nil).
  package mutating func comparison(_ c: ComparisonSyntax, range: SourceRange, _ object: SiftValue)
    throws(EvaluationError)
    -> Bool
  {
    let lhs = try value(c.lhs, object)
    let rhs = try value(c.rhs, object)
    guard let quantifier = c.quantifier else {
      return try compare(lhs, c.op, c.options, rhs, range: range)
    }
    let elements: [SiftValue]
    switch lhs {
    case .null: return quantifier == .all
    case .array(let a): elements = a
    default:
      throw EvaluationError(
        .typeMismatch, "\(quantifier.rawValue) needs an array on its left, not a \(lhs.kindName)", at: range)
    }
    // Decision: elements are tried in order and the loop stops as soon as the result is
    // known (ANY at the first true, ALL at the first false); a later element's error is
    // then not raised.
    switch quantifier {
    case .any:
      for element in elements where try compare(element, c.op, c.options, rhs, range: range) { return true }
      return false
    case .all:
      for element in elements where try !compare(element, c.op, c.options, rhs, range: range) { return false }
      return true
    }
  }

  /// One comparison of two evaluated operands.
  package func compare(
    _ lhs: SiftValue, _ op: ComparisonOperator, _ options: ComparisonOptions, _ rhs: SiftValue,
    range: SourceRange
  ) throws(EvaluationError) -> Bool {
    switch op {
    case .equal:
      return Ref.equal(lhs, rhs, options)
    case .notEqual:
      return !Ref.equal(lhs, rhs, options)
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      return try Ref.ordered(lhs, op, rhs, options, range: range)
    case .between:
      // Decision: the shape of the bounds is checked before the nil rule for the left side.
      guard case .array(let bounds) = rhs, bounds.count == 2 else {
        throw EvaluationError(
          .invalidArgument, "BETWEEN needs an array of exactly two bounds on its right", at: range)
      }
      if lhs == .null { return false }
      // `lo <= x AND x <= hi`, with AND's early stop.
      guard try Ref.ordered(bounds[0], .lessOrEqual, lhs, options, range: range) else { return false }
      return try Ref.ordered(lhs, .lessOrEqual, bounds[1], options, range: range)
    case .in:
      return try Ref.membership(lhs, in: rhs, options, operatorName: "IN", range: range)
    case .contains:
      return try Ref.membership(rhs, in: lhs, options, operatorName: "CONTAINS", range: range)
    case .beginsWith, .endsWith, .like, .matches:
      // Decision: the nil rule comes before the type rule (`5 BEGINSWITH nil` is false).
      if lhs == .null || rhs == .null { return false }
      guard case .string(let text) = lhs, case .string(let pattern) = rhs else {
        throw EvaluationError(
          .typeMismatch, "\(op.rawValue) needs two strings, not a \(lhs.kindName) and a \(rhs.kindName)",
          at: range)
      }
      switch op {
      case .beginsWith: return RefStrings.hasPrefix(text, pattern, options)
      case .endsWith: return RefStrings.hasSuffix(text, pattern, options)
      case .like: return RefStrings.like(text, pattern, options)
      default: return try RefStrings.matches(text, pattern, options, range: range)
      }
    }
  }
}

// MARK: - Expressions

extension ReferenceEvaluator {
  package mutating func value(_ e: ExpressionSyntax, _ object: SiftValue) throws(EvaluationError) -> SiftValue {
    switch e.kind {
    case .constant(let v):
      return v
    case .evaluatedObject:
      return object
    case .variable(let name):
      guard let v = variables[name] else {
        throw EvaluationError(.unboundVariable, "$\(name) has no value", at: e.range)
      }
      return v
    case .assignment(let name, let valueExpression):
      let v = try value(valueExpression, object)
      variables[name] = v
      return v
    case .keyPath(let base, let keys):
      var start = object
      if let base { start = try value(base, object) }
      return try Ref.keyPath(start, keys, range: e.range)
    case .aggregate(let elements):
      var out: [SiftValue] = []
      for element in elements { out.append(try value(element, object)) }
      return .array(out)
    case .index(let baseExpression, let index):
      let base = try value(baseExpression, object)
      switch index {
      case .first, .last, .size:
        return try Ref.index(base, index, nil, range: e.range)
      case .expression(let indexExpression):
        // Decision: the index expression is evaluated even when the base is nil.
        let i = try value(indexExpression, object)
        return try Ref.index(base, index, i, range: e.range)
      }
    case .negate(let operand):
      return try Ref.negate(try value(operand, object), range: e.range)
    case .bitwiseNot(let operand):
      return try .int(~Ref.integer(try value(operand, object), "~", range: e.range))
    case .binary(let op, let a, let b):
      let x = try value(a, object)
      let y = try value(b, object)
      switch op {
      case .union, .intersect, .minus: return try setOperation(op, x, y, range: e.range)
      default: return try Ref.binary(op, x, y, range: e.range)
      }
    case .function(let function, let argumentExpressions):
      var arguments: [SiftValue] = []
      for a in argumentExpressions { arguments.append(try value(a, object)) }
      return try Ref.call(function, arguments, range: e.range)
    case .customFunction(let receiverExpression, let name, let argumentExpressions):
      // Decision: receiver and arguments are evaluated before the name is looked up.
      var arguments = [try value(receiverExpression, object)]
      for a in argumentExpressions { arguments.append(try value(a, object)) }
      return try call(name, arguments, range: e.range)
    case .subquery(let collectionExpression, let variable, let predicate):
      let collection = try value(collectionExpression, object)
      let elements: [SiftValue]
      switch collection {
      case .null: return .array([])
      case .array(let a): elements = a
      default:
        throw EvaluationError(
          .typeMismatch, "SUBQUERY needs an array, not a \(collection.kindName)", at: e.range)
      }
      // Decision: the predicate is evaluated with the same `object` (SELF is not the
      // element; Apple's NSSubqueryExpression does the same), and the iteration variable is
      // restored afterwards (to its earlier value or to unbound); other variables assigned
      // inside the predicate keep their new values.
      let saved = variables[variable]
      defer { variables[variable] = saved }
      var out: [SiftValue] = []
      for element in elements {
        variables[variable] = element
        if try test(predicate, object) { out.append(element) }
      }
      return .array(out)
    case .cast(let operand, let type):
      return try Ref.cast(try value(operand, object), to: type, range: e.range)
    case .ternary(let condition, let then, let otherwise):
      return try test(condition, object) ? value(then, object) : value(otherwise, object)
    }
  }
}

// MARK: - Constant regular expressions

extension ReferenceEvaluator {
  /// "An invalid pattern is an error (`regex`): at compile time for a constant pattern."
  /// The reference has no compile step, so it checks every constant MATCHES pattern before
  /// evaluating; an unreached invalid constant pattern is therefore still an error.
  package static func checkConstantPatterns(in p: PredicateSyntax) throws(EvaluationError) {
    if case .comparison(let c) = p.kind, c.op == .matches, case .constant(.string(let pattern)) = c.rhs.kind,
      !pattern.isEmpty
    {
      _ = try RefStrings.regex(pattern, c.options, range: p.range)
    }
    try p.forEachChild(checkConstantPatterns(in:))
  }

  package static func checkConstantPatterns(in e: ExpressionSyntax) throws(EvaluationError) {
    try e.forEachChild(checkConstantPatterns(in:))
  }

  static func checkConstantPatterns(in child: SyntaxChild) throws(EvaluationError) {
    switch child {
    case .predicate(let p): try checkConstantPatterns(in: p)
    case .expression(let e): try checkConstantPatterns(in: e)
    }
  }
}

// MARK: - Set expressions

extension ReferenceEvaluator {
  /// Decision: UNION, INTERSECT and MINUS take two collections (nil is empty) and give the
  /// distinct elements (by `==`), in the order of the left collection, then for UNION the
  /// right one. Written as nested loops, unlike the engine's hashing.
  mutating func setOperation(_ op: BinaryOperator, _ a: SiftValue, _ b: SiftValue, range: SourceRange)
    throws(EvaluationError) -> SiftValue
  {
    func elements(_ v: SiftValue) throws(EvaluationError) -> [SiftValue] {
      switch v {
      case .null: return []
      case .array(let xs): return xs
      default: throw EvaluationError(.typeMismatch, "\(op.rawValue) needs collections, not a \(v.kindName)", at: range)
      }
    }
    let left = try elements(a)
    let right = try elements(b)
    var result: [SiftValue] = []
    func has(_ xs: [SiftValue], _ x: SiftValue) throws(EvaluationError) -> Bool {
      for y in xs where try compare(x, .equal, [], y, range: range) { return true }
      return false
    }
    let candidates = op == .union ? left + right : left
    for x in candidates {
      if op == .intersect, try !has(right, x) { continue }
      if op == .minus, try has(right, x) { continue }
      if try !has(result, x) { result.append(x) }
    }
    return .array(result)
  }
}

// MARK: - FUNCTION and custom selectors

extension ReferenceEvaluator {
  /// A registered function by name, else Foundation's method of that name (the engine's
  /// table, pinned to Apple's documented results by `BuiltinSelectorTests`).
  mutating func call(_ name: String, _ arguments: [SiftValue], range: SourceRange) throws(EvaluationError)
    -> SiftValue
  {
    guard let function = functions[name] else {
      do throws(EvaluationError) {
        if let result = try BuiltinSelectors.call(name, arguments) { return result }
      } catch {
        throw EvaluationError(error.kind, error.message, at: range)
      }
      throw EvaluationError(.unknownFunction, "no function is registered as '\(name)'", at: range)
    }
    do {
      return try function(arguments)
    } catch let error as EvaluationError {
      throw EvaluationError(error.kind, error.message, at: range)
    } catch {
      // Decision: any other error thrown by a registered function is invalidArgument.
      throw EvaluationError(.invalidArgument, "function '\(name)' failed: \(error)", at: range)
    }
  }
}
