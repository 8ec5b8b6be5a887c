extension Parser {
  /// Rule `primary-expression`: literals, format arguments, variables, `SELF`, keys,
  /// function calls, the special forms, `( expression )` and `{ aggregate }`.
  ///
  /// This function stays on the stack while nested expressions are parsed, so it only
  /// dispatches; the work is done in the functions it calls.
  @inline(__always)
  mutating func parsePrimary() throws(SyntaxError) -> ExpressionSyntax {
    switch Self.primaryForm(current, next: peek()) {
    case .parenthesized: return try parseParenthesizedExpression()
    case .aggregate: return try parseAggregate()
    case .subquery: return try parseSubquery()
    case .cast: return try parseCast()
    case .call: return try parseCall()
    case .simple: return try parseSimplePrimary()
    }
  }

  enum PrimaryForm { case parenthesized, aggregate, subquery, cast, call, simple }

  /// Which kind of primary expression starts with `token`, followed by `next`.
  @inline(__always)
  static func primaryForm(_ token: Lexeme, next: Lexeme) -> PrimaryForm {
    switch token.kind {
    case .punct(.lParen): return .parenthesized
    case .punct(.lBrace): return .aggregate
    case .keyword(.subquery): return .subquery
    case .keyword(.cast): return .cast
    case .identifier(escaped: false):
      if case .punct(let p) = next.kind, p == .lParen || p == .colon { return .call }
      return .simple
    default: return .simple
    }
  }

  /// `'(' expression ')'`; the node covers the parentheses.
  mutating func parseParenthesizedExpression() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    // A memoised result is reused only if it stays within the depth limit from here.
    if !expressionMemo.isEmpty, let known = expressionMemo[start],
      depth + known.height <= options.limits.maxNestingDepth
    {
      index = known.end
      deepest = max(deepest, depth + known.height)
      return known.node
    }
    let entryDepth = depth
    let outerDeepest = deepest
    deepest = depth
    defer { deepest = max(outerDeepest, deepest) }
    let open = advance()
    try enter(open)
    defer { leave() }
    var inner = try parseExpression()
    try expect(.rParen, "to close the parenthesised expression", opening: open)
    inner.range = range(from: start)
    // Only a reading of a predicate-level `(` can come back here (see `speculation`).
    if speculation > 0 { expressionMemo[start] = (inner, index, deepest - entryDepth) }
    return inner
  }

  /// The primaries that are a single token: literals, format arguments, variables, keys,
  /// `SELF`, `NULL`, `TRUE`, `FALSE` and the reserved-word errors.
  @inline(never)
  mutating func parseSimplePrimary() throws(SyntaxError) -> ExpressionSyntax {
    let token = current
    switch token.kind {
    case .integer(let v):
      _ = advance()
      return ExpressionSyntax(.constant(.int(v)), range: token.range)
    case .double(let v):
      _ = advance()
      return ExpressionSyntax(.constant(.double(v)), range: token.range)
    case .integerMinMagnitude:
      _ = advance()
      return ExpressionSyntax(.constant(.double(9_223_372_036_854_775_808)), range: token.range)
    case .string:
      _ = advance()
      return ExpressionSyntax(.constant(.string(stringValue(of: token))), range: token.range)
    case .variable:
      _ = advance()
      return ExpressionSyntax(.variable(variableName(of: token)), range: token.range)
    case .specifier(let ordinal):
      _ = advance()
      return try bind(specifier(of: token), token: token, ordinal: ordinal)
    case .percentLiteral:
      throw SyntaxError(
        "'%%' is a literal percent sign, which has no meaning outside a string", at: token.range,
        hint: "write it inside quotes, as in '100%'")
    case .keyword(let k):
      return try parseKeywordPrimary(k, token: token)
    case .identifier, .quotedKey:
      _ = advance()
      return ExpressionSyntax(.keyPath(base: nil, keys: [keyName(of: token)]), range: token.range)
    default:
      throw expressionExpected(after: nil)
    }
  }

  mutating func parseKeywordPrimary(_ k: Keyword, token: Lexeme) throws(SyntaxError) -> ExpressionSyntax {
    switch k {
    case .self_:
      _ = advance()
      return ExpressionSyntax(.evaluatedObject, range: token.range)
    case .null, .nil_:
      _ = advance()
      return ExpressionSyntax(.constant(.null), range: token.range)
    case .true_, .yes:
      _ = advance()
      return ExpressionSyntax(.constant(.bool(true)), range: token.range)
    case .false_, .no:
      _ = advance()
      return ExpressionSyntax(.constant(.bool(false)), range: token.range)
    case .subquery:
      return try parseSubquery()
    case .cast:
      return try parseCast()
    case .anyKey, .fetch:
      throw SyntaxError("\(k.rawValue) is not supported on this platform", at: token.range)
    default:
      throw reservedWordError(k, at: token.range)
    }
  }

  /// Rule `aggregate`: `'{' [ expression (',' expression)* ] '}'`.
  mutating func parseAggregate() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    let open = advance()
    try enter(open)
    defer { leave() }
    var elements: [ExpressionSyntax] = []
    if !accept(.rBrace) {
      repeat {
        if elements.count == options.limits.maxAggregateElements { throw aggregateLimitError() }
        elements.append(try parseExpression())
      } while accept(.comma)
      try expect(.rBrace, "to close the aggregate", opening: open)
    }
    return ExpressionSyntax(.aggregate(elements), range: range(from: start))
  }

  @inline(never)
  mutating func aggregateLimitError() -> SyntaxError {
    let error = SyntaxError(
      "aggregate has more than \(options.limits.maxAggregateElements) elements", at: current.range,
      hint: "the limit is SyntaxLimits.maxAggregateElements; pass large lists as a %@ argument")
    limitError = error
    return error
  }

  /// Rule `function-call`: `name '(' arguments ')'` or the selector form `name: part: '(' … ')'`;
  /// also the special forms `FUNCTION(…)` and `TERNARY(…)`.
  mutating func parseCall() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    guard case .identifier = current.kind else { preconditionFailure("parseCall at a non-name") }
    let name = name(of: current)
    let selector = parseSelector(name: name)
    let nameRange = range(from: start)
    if selector == nil, name.utf8.count == 8, name.uppercased() == "FUNCTION" {
      return try parseCustomFunction(start: start)
    }
    if selector == nil, name.utf8.count == 7, name.uppercased() == "TERNARY" {
      return try parseTernary(start: start)
    }
    let open = current
    guard accept(.lParen) else {
      throw expected(.lParen, "to start the argument list of \(selector ?? name)", opening: nil, hint: nil)
    }
    let arguments = try parseArguments(open: open)
    return try resolveCall(
      name: name, selector: selector, arguments: arguments, start: start, nameRange: nameRange)
  }

  /// Consumes the function name and, for the selector form (`add:to:`), the rest of the
  /// selector; returns the selector, or nil for the call form.
  @inline(never)
  mutating func parseSelector(name: String) -> String? {
    _ = advance()
    guard isPunct(.colon) else { return nil }
    var s = name + ":"
    _ = advance()
    while case .identifier(escaped: false) = current.kind, case .punct(.colon) = peek().kind {
      s += self.name(of: current) + ":"
      _ = advance()
      _ = advance()
    }
    return s
  }

  /// The built-in function a call names, checked against its argument count.
  @inline(never)
  func resolveCall(
    name: String, selector: String?, arguments: [ExpressionSyntax], start: Int, nameRange: SourceRange
  ) throws(SyntaxError) -> ExpressionSyntax {
    let function: BuiltinFunction?
    if let selector {
      function = BuiltinFunction(rawValue: selector)
      if let function, function.arity != arguments.count {
        throw arityError(selector, arities: [function.arity], given: arguments.count, at: range(from: start))
      }
    } else {
      function = BuiltinFunction.lookup(callName: name, arity: arguments.count)
      let known = BuiltinFunction.allCases.filter { $0.callName == name }
      if function == nil, !known.isEmpty {
        // `random` takes 0 arguments and `random:` 1: name every count that would do.
        throw arityError(
          name, arities: known.map(\.arity).sorted(), given: arguments.count, at: range(from: start))
      }
    }
    guard let function else {
      throw unknownFunction(selector ?? name, selectorForm: selector != nil, at: nameRange)
    }
    return ExpressionSyntax(.function(function, arguments), range: range(from: start))
  }

  @inline(never)
  func unknownFunction(_ spelled: String, selectorForm: Bool, at nameRange: SourceRange) -> SyntaxError {
    if spelled.hasPrefix("distanceToLocation") {
      return SyntaxError("\(spelled) is not supported on this platform", at: nameRange)
    }
    let lowercased = spelled.lowercased()
    let hint =
      if let known = BuiltinFunction.allCases.first(where: {
        $0.callName.lowercased() == lowercased || $0.rawValue.lowercased() == lowercased
      }) {
        "function names are case-sensitive: did you mean \(selectorForm ? known.rawValue : known.callName)?"
      } else if let known = Self.functionAliases[lowercased] {
        "did you mean \(known)?"
      } else {
        "functions are those of NSExpression (sum, count, average, …); "
          + "call registered Swift functions with FUNCTION(receiver, 'name', …)"
      }
    return SyntaxError("unknown function '\(spelled)'", at: nameRange, hint: hint)
  }

  /// Names from other languages for the built-in functions, for "did you mean" hints.
  static let functionAliases: [String: String] = [
    "avg": "average", "mean": "average", "ceil": "ceiling", "pow": "raise:toPower:",
    "power": "raise:toPower:",
    "mod": "modulus:by:", "modulus": "modulus:by:", "upper": "uppercase", "lower": "lowercase",
    "stdev": "stddev", "std": "stddev", "len": "length", "round": "floor, ceiling or trunc",
  ]

  /// "`name` takes 2 arguments, not 1", with the function named as it was written.
  @inline(never)
  private func arityError(_ name: String, arities: [Int], given: Int, at range: SourceRange) -> SyntaxError {
    let counts = arities.map(String.init).joined(separator: " or ")
    let noun = arities == [1] ? "argument" : "arguments"
    return SyntaxError("\(name) takes \(counts) \(noun), not \(given)", at: range)
  }

  /// Rule `arguments`: `[ expression (',' expression)* ] ')'`, after the `(`.
  mutating func parseArguments(open: Lexeme) throws(SyntaxError) -> [ExpressionSyntax] {
    try enter(open)
    defer { leave() }
    var arguments: [ExpressionSyntax] = []
    if accept(.rParen) { return arguments }
    repeat {
      arguments.append(try parseExpression())
    } while accept(.comma)
    try expect(.rParen, "to close the argument list", opening: open)
    return arguments
  }

  /// Rule `function-expression`: `FUNCTION '(' expression ',' string (',' expression)* ')'`.
  mutating func parseCustomFunction(start: Int) throws(SyntaxError) -> ExpressionSyntax {
    let open = current
    try expect(.lParen, "after FUNCTION")
    try enter(open)
    defer { leave() }
    let receiver = try parseExpression()
    try expect(.comma, "after the receiver of FUNCTION", hint: Self.functionForm)
    let name = try parseStringOperand("a function name")
    var arguments: [ExpressionSyntax] = []
    while accept(.comma) { arguments.append(try parseExpression()) }
    try expect(.rParen, "to close FUNCTION", opening: open)
    return ExpressionSyntax(
      .customFunction(receiver: receiver, name: name, arguments: arguments), range: range(from: start))
  }

  /// Rule `ternary-expression`: `TERNARY '(' predicate ',' expression ',' expression ')'`.
  mutating func parseTernary(start: Int) throws(SyntaxError) -> ExpressionSyntax {
    let open = current
    try expect(.lParen, "after TERNARY")
    try enter(open)
    defer { leave() }
    let condition: PredicateSyntax
    do {
      condition = try parsePredicate()
    } catch {
      throw ternaryConditionError(error)
    }
    try expect(.comma, "after the condition of TERNARY", hint: Self.ternaryForm)
    let then = try parseExpression()
    try expect(.comma, "after the second argument of TERNARY", hint: Self.ternaryForm)
    let otherwise = try parseExpression()
    try expect(.rParen, "to close TERNARY", opening: open)
    return ExpressionSyntax(.ternary(condition, then, otherwise), range: range(from: start))
  }

  /// `TERNARY(flag, 1, 2)`: the condition is a predicate, not a value; say so.
  @inline(never)
  func ternaryConditionError(_ error: SyntaxError) -> SyntaxError {
    guard case .punct(.comma) = current.kind, error.range == current.range,
      error.hint == Self.comparisonOperatorHint
    else { return error }
    return SyntaxError(
      error.message, at: error.range,
      hint: "the first argument of TERNARY is a predicate, as in TERNARY(flag == TRUE, 1, 2)")
  }

  /// Rule `subquery-expression`: `SUBQUERY '(' expression ',' variable ',' predicate ')'`.
  mutating func parseSubquery() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    _ = advance()
    let open = current
    try expect(.lParen, "after SUBQUERY")
    try enter(open)
    defer { leave() }
    let collection = try parseExpression()
    try expect(.comma, "after the collection of SUBQUERY", hint: Self.subqueryForm)
    guard case .variable = current.kind else { throw subqueryVariableExpected() }
    let variable = variableName(of: advance())
    try expect(.comma, "after the variable of SUBQUERY", hint: Self.subqueryForm)
    let predicate = try parsePredicate()
    try expect(.rParen, "to close SUBQUERY", opening: open)
    return ExpressionSyntax(
      .subquery(collection: collection, variable: variable, predicate: predicate), range: range(from: start))
  }

  @inline(never)
  func subqueryVariableExpected() -> SyntaxError {
    SyntaxError(
      "expected a $variable as the second argument of SUBQUERY, found \(describe(current))",
      at: current.range, hint: "\(Self.subqueryForm)")
  }

  /// Rule `cast-expression`: `CAST '(' expression ',' string ')'`.
  mutating func parseCast() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    _ = advance()
    let open = current
    try expect(.lParen, "after CAST")
    try enter(open)
    defer { leave() }
    let value = try parseExpression()
    try expect(.comma, "after the value of CAST", hint: Self.castForm)
    let type = try parseStringOperand("a class name such as 'NSNumber'")
    try expect(.rParen, "to close CAST", opening: open)
    return ExpressionSyntax(.cast(value, type: type), range: range(from: start))
  }

  static let functionForm: StaticString = "write FUNCTION(receiver, 'name', argument, …)"
  static let ternaryForm: StaticString = "write TERNARY(predicate, value-if-true, value-if-false)"
  static let subqueryForm: StaticString =
    "write SUBQUERY(collection, $x, predicate); $x stands for each element in turn"
  static let castForm: StaticString = "write CAST(value, 'Type'), as in CAST('3', 'NSNumber')"

  /// A string literal or a `%@` bound to a string, where the grammar needs a name.
  mutating func parseStringOperand(_ what: String) throws(SyntaxError) -> String {
    let token = current
    switch token.kind {
    case .string:
      _ = advance()
      return stringValue(of: token)
    case .specifier(let ordinal) where specifier(of: token) == .object:
      let value = try bind(.object, token: advance(), ordinal: ordinal)
      if case .constant(.string(let s)) = value.kind { return s }
      if case .constant(let other) = value.kind {
        throw SyntaxError(
          "expected \(what), but argument \(ordinal + 1) is \(Self.describeArgument(other))", at: token.range)
      }
      throw SyntaxError("expected \(what) as a string argument", at: token.range)
    default:
      throw SyntaxError("expected \(what) in quotes, found \(describe(token))", at: token.range)
    }
  }
}
