extension Parser {
  /// Rule `predicate`: compound predicates at the two AND/OR levels, the outer level chosen
  /// by ``CompoundPrecedence``.
  mutating func parsePredicate() throws(SyntaxError) -> PredicateSyntax {
    try parseCompound(outer: true)
  }

  /// Rules `conjunction` and `disjunction`: `x (AND x)*` / `x (OR x)*`, n-ary.
  mutating func parseCompound(outer: Bool) throws(SyntaxError) -> PredicateSyntax {
    let andIsOuter = options.compoundPrecedence == .orBindsTighter
    let isAnd = outer == andIsOuter
    let start = index
    var operands = [try outer ? parseCompound(outer: false) : parseNegation()]
    while isAnd ? (isKeyword(.and) || isPunct(.andAnd)) : (isKeyword(.or) || isPunct(.orOr)) {
      _ = advance()
      operands.append(try outer ? parseCompound(outer: false) : parseNegation())
    }
    if operands.count == 1 { return operands[0] }
    return PredicateSyntax(isAnd ? .and(operands) : .or(operands), range: range(from: start))
  }

  /// Rule `negation`: `NOT negation | '!' negation | predicate-primary`.
  mutating func parseNegation() throws(SyntaxError) -> PredicateSyntax {
    guard isKeyword(.not) || isPunct(.bang) else { return try parsePredicatePrimary() }
    let start = index
    _ = advance()
    try enter()
    defer { leave() }
    let operand = try parseNegation()
    return PredicateSyntax(.not(operand), range: range(from: start))
  }

  /// Rule `predicate-primary`: `TRUEPREDICATE | FALSEPREDICATE | '(' predicate ')' | comparison`.
  mutating func parsePredicatePrimary() throws(SyntaxError) -> PredicateSyntax {
    switch current.kind {
    case .keyword(.truePredicate), .keyword(.falsePredicate):
      let token = advance()
      return PredicateSyntax(.constant(token.kind == .keyword(.truePredicate)), range: token.range)
    case .punct(.lParen):
      return try parseParenthesized()
    default:
      return try parseComparison()
    }
  }

  /// A `(` at a predicate's start opens either `'(' predicate ')'` or the first operand of a
  /// comparison. Both readings are tried (each at most once per position); if both fail,
  /// the error that got further into the input is the one reported.
  mutating func parseParenthesized() throws(SyntaxError) -> PredicateSyntax {
    let start = index
    let group = memoized(\.groupMemo, at: start) { (p: inout Parser) throws(SyntaxError) in
      let open = p.advance()
      try p.enter()
      defer { p.leave() }
      let inner = try p.parsePredicate()
      try p.expect(.rParen, "to close the parenthesised predicate", opening: open)
      return inner
    }
    if let limitError { throw limitError }
    let groupError: SyntaxError
    switch group {
    case .success(let (node, end)):
      index = end
      return node
    case .failure(let error): groupError = error
    }
    let comparison = memoized(\.comparisonMemo, at: start) { (p: inout Parser) throws(SyntaxError) in
      try p.parseComparison()
    }
    if let limitError { throw limitError }
    switch comparison {
    case .success(let (node, end)):
      index = end
      return node
    case .failure(let error):
      throw error.range.start > groupError.range.start ? error : groupError
    }
  }

  private mutating func memoized(
    _ memo: WritableKeyPath<Parser, [Int: Result<(PredicateSyntax, Int), SyntaxError>]>, at start: Int,
    _ body: (inout Parser) throws(SyntaxError) -> PredicateSyntax
  ) -> Result<(PredicateSyntax, Int), SyntaxError> {
    if let known = self[keyPath: memo][start] { return known }
    let savedDepth = depth
    let result: Result<(PredicateSyntax, Int), SyntaxError>
    do {
      let node = try body(&self)
      result = .success((node, index))
    } catch {
      result = .failure(error)
    }
    depth = savedDepth
    index = start
    self[keyPath: memo][start] = result
    return result
  }

  /// Rule `comparison`: `[quantifier] expression comparison-operator [options] expression`.
  mutating func parseComparison() throws(SyntaxError) -> PredicateSyntax {
    let start = index
    var quantifier: Quantifier? = nil
    var negated = false
    switch current.kind {
    case .keyword(.any), .keyword(.some): quantifier = .any
    case .keyword(.all): quantifier = .all
    case .keyword(.none):
      quantifier = .any
      negated = true
    default: break
    }
    if quantifier != nil { _ = advance() }
    let lhs = try parseExpression()
    let opToken = current
    guard let op = try parseComparisonOperator() else {
      if case .end = current.kind, quantifier == nil, lhs.isBareValue {
        throw SyntaxError(
          "expected a comparison operator after the expression", at: current.range,
          hint: "a format string is a predicate, not a value: compare it, as in \(lhsText(lhs)) == …")
      }
      throw SyntaxError(
        "expected a comparison operator, found \(describe(current))", at: current.range,
        hint: "operators are == != < <= > >= BETWEEN IN CONTAINS BEGINSWITH ENDSWITH LIKE MATCHES")
    }
    let options = try parseOptions(after: opToken)
    guard startsExpression(current) else {
      throw SyntaxError(
        "expected an expression after '\(opToken.kind.spelling)', found \(describe(current))",
        at: current.range)
    }
    let rhs = try parseExpression()
    let comparison = ComparisonSyntax(quantifier: quantifier, lhs, op, options: options, rhs)
    let node = PredicateSyntax(.comparison(comparison), range: range(from: start))
    return negated ? PredicateSyntax(.not(node), range: node.range) : node
  }

  /// Rule `comparison-operator`.
  mutating func parseComparisonOperator() throws(SyntaxError) -> ComparisonOperator? {
    let op: ComparisonOperator
    switch current.kind {
    case .punct(.equal), .punct(.assignEqual): op = .equal
    case .punct(.notEqual), .punct(.notEqualAlt): op = .notEqual
    case .punct(.less): op = .less
    case .punct(.lessEqual), .punct(.lessEqualAlt): op = .lessOrEqual
    case .punct(.greater): op = .greater
    case .punct(.greaterEqual), .punct(.greaterEqualAlt): op = .greaterOrEqual
    case .keyword(.between): op = .between
    case .keyword(.in): op = .in
    case .keyword(.contains): op = .contains
    case .keyword(.beginsWith): op = .beginsWith
    case .keyword(.endsWith): op = .endsWith
    case .keyword(.like): op = .like
    case .keyword(.matches): op = .matches
    case .keyword(let k) where k == .utiConformsTo || k == .utiEquals:
      throw SyntaxError(
        "\(k.rawValue) is not supported on this platform", at: current.range,
        hint: "uniform type identifiers exist only on Apple platforms")
    default: return nil
    }
    _ = advance()
    return op
  }

  /// Rule `options`: `'[' option-letters ']'`, letters `c d n l` in any order and case.
  mutating func parseOptions(after op: Token) throws(SyntaxError) -> ComparisonOptions {
    guard isPunct(.lBracket) else { return [] }
    // `[` after an operator is always an option list: the language has no array literal.
    let open = advance()
    var options: ComparisonOptions = []
    switch current.kind {
    case .identifier(let letters, escaped: false):
      for letter in letters.lowercased() {
        switch letter {
        case "c": options.insert(.caseInsensitive)
        case "d": options.insert(.diacriticInsensitive)
        case "n": options.insert(.normalized)
        case "l": options.insert(.localeSensitive)
        default:
          throw SyntaxError(
            "unknown option '\(letter)' for \(op.kind.spelling)", at: current.range,
            hint: "options are c (case), d (diacritics), n (normalized), l (locale), as in [cd]")
        }
      }
      _ = advance()
    default:
      throw SyntaxError(
        "expected option letters after '['", at: current.range,
        hint: "options are c (case), d (diacritics), n (normalized), l (locale), as in [cd]")
    }
    try expect(.rBracket, "after the options", opening: open)
    return options
  }

  private func lhsText(_ e: ExpressionSyntax) -> String {
    CanonicalPrinter.print(e)
  }
}

extension ExpressionSyntax {
  /// A lone literal or key path: what a user writes when they forget the comparison.
  var isBareValue: Bool {
    switch kind {
    case .constant, .keyPath, .evaluatedObject, .variable: true
    default: false
    }
  }
}
