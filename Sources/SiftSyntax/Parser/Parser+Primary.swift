extension Parser {
  /// Rule `primary-expression`: literals, format arguments, variables, `SELF`, keys,
  /// function calls, the special forms, `( expression )` and `{ aggregate }`.
  mutating func parsePrimary() throws(SyntaxError) -> ExpressionSyntax {
    let token = current
    let start = index
    switch token.kind {
    case .integer(let v):
      _ = advance()
      return ExpressionSyntax(.constant(.int(v)), range: token.range)
    case .double(let v):
      _ = advance()
      return ExpressionSyntax(.constant(.double(v)), range: token.range)
    case .string(let s):
      _ = advance()
      return ExpressionSyntax(.constant(.string(s)), range: token.range)
    case .variable(let name):
      _ = advance()
      return ExpressionSyntax(.variable(name), range: token.range)
    case .specifier(let specifier):
      _ = advance()
      return try bind(specifier, token: token, ordinal: argumentOrdinal[start] ?? 0)
    case .percentLiteral:
      throw SyntaxError(
        "'%%' is a literal percent sign, which has no meaning outside a string", at: token.range,
        hint: "write it inside quotes, as in '100%'")
    case .keyword(let k):
      return try parseKeywordPrimary(k, token: token)
    case .identifier(let name, let escaped):
      if !escaped, case .punct(let p) = peek().kind, p == .lParen || p == .colon {
        return try parseCall(name: name)
      }
      _ = advance()
      return ExpressionSyntax(.keyPath(base: nil, keys: [name]), range: token.range)
    case .punct(.lParen):
      let open = advance()
      try enter()
      defer { leave() }
      let inner = try parseExpression()
      try expect(.rParen, "to close the parenthesised expression", opening: open)
      return ExpressionSyntax(inner.kind, range: range(from: start))
    case .punct(.lBrace):
      return try parseAggregate()
    default:
      throw SyntaxError("expected an expression, found \(describe(token))", at: token.range)
    }
  }

  mutating func parseKeywordPrimary(_ k: Keyword, token: Token) throws(SyntaxError) -> ExpressionSyntax {
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
    try enter()
    defer { leave() }
    var elements: [ExpressionSyntax] = []
    if !accept(.rBrace) {
      repeat {
        if elements.count == options.limits.maxAggregateElements {
          let error = SyntaxError(
            "aggregate has more than \(options.limits.maxAggregateElements) elements", at: current.range,
            hint: "the limit is SyntaxLimits.maxAggregateElements; pass large lists as a %@ argument")
          limitError = error
          throw error
        }
        elements.append(try parseExpression())
      } while accept(.comma)
      try expect(.rBrace, "to close the aggregate", opening: open)
    }
    return ExpressionSyntax(.aggregate(elements), range: range(from: start))
  }

  /// Rule `function-call`: `name '(' arguments ')'` or the selector form `name: part: '(' … ')'`;
  /// also the special forms `FUNCTION(…)` and `TERNARY(…)`.
  mutating func parseCall(name: String) throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    let nameToken = advance()
    var selector: String? = nil
    if isPunct(.colon) {
      var s = name + ":"
      _ = advance()
      while case .identifier(let part, escaped: false) = current.kind, case .punct(.colon) = peek().kind {
        s += part + ":"
        _ = advance()
        _ = advance()
      }
      selector = s
    }
    let upper = name.uppercased()
    if selector == nil, upper == "FUNCTION" { return try parseCustomFunction(start: start) }
    if selector == nil, upper == "TERNARY" { return try parseTernary(start: start) }
    let open = current
    try expect(.lParen, "to start the argument list of \(selector ?? name)")
    let arguments = try parseArguments(open: open)
    let function: BuiltinFunction?
    if let selector {
      function = BuiltinFunction(rawValue: selector)
      if let function, function.arity != arguments.count {
        throw arityError(function, given: arguments.count, at: range(from: start))
      }
    } else {
      function = BuiltinFunction.lookup(callName: name, arity: arguments.count)
      if function == nil, let known = BuiltinFunction.allCases.first(where: { $0.callName == name }) {
        throw arityError(known, given: arguments.count, at: range(from: start))
      }
    }
    guard let function else {
      let spelled = selector ?? name
      if spelled.hasPrefix("distanceToLocation") {
        throw SyntaxError("\(spelled) is not supported on this platform", at: nameToken.range)
      }
      throw SyntaxError(
        "unknown function '\(spelled)'", at: nameToken.range,
        hint: "functions are those of NSExpression (sum, count, average, …); "
          + "call registered Swift functions with FUNCTION(receiver, 'name', …)")
    }
    return ExpressionSyntax(.function(function, arguments), range: range(from: start))
  }

  private func arityError(_ f: BuiltinFunction, given: Int, at range: SourceRange) -> SyntaxError {
    SyntaxError(
      "\(f.rawValue) takes \(f.arity) argument\(f.arity == 1 ? "" : "s"), not \(given)", at: range)
  }

  /// Rule `arguments`: `[ expression (',' expression)* ] ')'`, after the `(`.
  mutating func parseArguments(open: Token) throws(SyntaxError) -> [ExpressionSyntax] {
    try enter()
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
    try enter()
    defer { leave() }
    let receiver = try parseExpression()
    try expect(.comma, "after the receiver of FUNCTION", opening: open)
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
    try enter()
    defer { leave() }
    let condition = try parsePredicate()
    try expect(.comma, "after the condition of TERNARY", opening: open)
    let then = try parseExpression()
    try expect(.comma, "after the second argument of TERNARY", opening: open)
    let otherwise = try parseExpression()
    try expect(.rParen, "to close TERNARY", opening: open)
    return ExpressionSyntax(.ternary(condition, then, otherwise), range: range(from: start))
  }

  /// Rule `subquery-expression`: `SUBQUERY '(' expression ',' variable ',' predicate ')'`.
  mutating func parseSubquery() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    _ = advance()
    let open = current
    try expect(.lParen, "after SUBQUERY")
    try enter()
    defer { leave() }
    let collection = try parseExpression()
    try expect(.comma, "after the collection of SUBQUERY", opening: open)
    guard case .variable(let variable) = current.kind else {
      throw SyntaxError(
        "expected a $variable as the second argument of SUBQUERY, found \(describe(current))",
        at: current.range, hint: "SUBQUERY(collection, $x, predicate) binds each element to $x")
    }
    _ = advance()
    try expect(.comma, "after the variable of SUBQUERY", opening: open)
    let predicate = try parsePredicate()
    try expect(.rParen, "to close SUBQUERY", opening: open)
    return ExpressionSyntax(
      .subquery(collection: collection, variable: variable, predicate: predicate), range: range(from: start))
  }

  /// Rule `cast-expression`: `CAST '(' expression ',' string ')'`.
  mutating func parseCast() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    _ = advance()
    let open = current
    try expect(.lParen, "after CAST")
    try enter()
    defer { leave() }
    let value = try parseExpression()
    try expect(.comma, "after the value of CAST", opening: open)
    let type = try parseStringOperand("a class name such as 'NSNumber'")
    try expect(.rParen, "to close CAST", opening: open)
    return ExpressionSyntax(.cast(value, type: type), range: range(from: start))
  }

  /// A string literal or a `%@` bound to a string, where the grammar needs a name.
  mutating func parseStringOperand(_ what: String) throws(SyntaxError) -> String {
    let token = current
    switch token.kind {
    case .string(let s):
      _ = advance()
      return s
    case .specifier(.object):
      let ordinal = argumentOrdinal[index] ?? 0
      let value = try bind(.object, token: advance(), ordinal: ordinal)
      if case .constant(.string(let s)) = value.kind { return s }
      throw SyntaxError("expected \(what) as a string argument", at: token.range)
    default:
      throw SyntaxError("expected \(what) in quotes, found \(describe(token))", at: token.range)
    }
  }
}
