extension Parser {
  /// Rule `predicate`: compound predicates at the two AND/OR levels, the outer level chosen
  /// by ``CompoundPrecedence``.
  mutating func parsePredicate() throws(SyntaxError) -> PredicateSyntax {
    try parseCompound(outer: true)
  }

  /// Rules `conjunction` and `disjunction`: `x (AND x)*` / `x (OR x)*`, n-ary.
  mutating func parseCompound(outer: Bool) throws(SyntaxError) -> PredicateSyntax {
    let start = index
    let first = try outer ? parseCompound(outer: false) : parseNegation()
    let isAnd = outer == (options.compoundPrecedence == .orBindsTighter)
    guard atConnective(and: isAnd) else { return first }
    return try parseCompoundOperands(first, outer: outer, isAnd: isAnd, start: start)
  }

  /// Whether the cursor is at `AND`/`&&` (`and`) or `OR`/`||`.
  func atConnective(and: Bool) -> Bool {
    and ? (isKeyword(.and) || isPunct(.andAnd)) : (isKeyword(.or) || isPunct(.orOr))
  }

  /// The `(AND x)*` / `(OR x)*` loop of ``parseCompound(outer:)``, after its first operand.
  mutating func parseCompoundOperands(_ first: PredicateSyntax, outer: Bool, isAnd: Bool, start: Int)
    throws(SyntaxError) -> PredicateSyntax
  {
    var operands = [first]
    while atConnective(and: isAnd) {
      _ = advance()
      operands.append(try outer ? parseCompound(outer: false) : parseNegation())
    }
    return PredicateSyntax(isAnd ? .and(operands) : .or(operands), range: range(from: start))
  }

  /// Rule `negation`: `NOT negation | '!' negation | predicate-primary`.
  mutating func parseNegation() throws(SyntaxError) -> PredicateSyntax {
    guard isKeyword(.not) || isPunct(.bang) else { return try parsePredicatePrimary() }
    return try parseNot()
  }

  /// `NOT negation` / `'!' negation`.
  mutating func parseNot() throws(SyntaxError) -> PredicateSyntax {
    let start = index
    try enter(advance())
    defer { leave() }
    let operand = try parseNegation()
    return PredicateSyntax(.not(operand), range: range(from: start))
  }

  /// Rule `predicate-primary`: `TRUEPREDICATE | FALSEPREDICATE | '(' predicate ')' | comparison`.
  mutating func parsePredicatePrimary() throws(SyntaxError) -> PredicateSyntax {
    if isPunct(.lParen) { return try parseParenthesized() }
    if isKeyword(.truePredicate) || isKeyword(.falsePredicate) { return parseConstantPredicate() }
    return try parseComparison()
  }

  /// `TRUEPREDICATE` or `FALSEPREDICATE`.
  @inline(never)
  mutating func parseConstantPredicate() -> PredicateSyntax {
    let token = advance()
    return PredicateSyntax(.constant(token.kind == .keyword(.truePredicate)), range: token.range)
  }

  /// A `(` at a predicate's start opens either `'(' predicate ')'` or the first operand of a
  /// comparison. Both readings are tried (each at most once per position); if both fail,
  /// the error that got further into the input is the one reported.
  mutating func parseParenthesized() throws(SyntaxError) -> PredicateSyntax {
    let start = index
    let group = memoized(\.groupMemo, at: start) { (p: inout Parser) throws(SyntaxError) in
      let open = p.advance()
      try p.enter(open)
      defer { p.leave() }
      var inner = try p.parsePredicate()
      try p.expect(.rParen, "to close the parenthesised predicate", opening: open)
      // Like a parenthesised expression, the node covers its parentheses.
      inner.range = p.range(from: start)
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
    let (quantifier, negated) = try parseQuantifier()
    let lhs = try parseExpression()
    let (op, options) = try parseOperatorAndOptions(after: lhs, quantified: quantifier != nil)
    let rhs = try parseExpression()
    return makeComparison(quantifier, lhs, op, options, rhs, negated: negated, start: start)
  }

  /// `ANY`, `SOME`, `ALL` or `NONE` (`negated`: NOT ANY), and a check that an expression
  /// follows; without a quantifier, a check that a comparison can start here.
  @inline(never)
  mutating func parseQuantifier() throws(SyntaxError) -> (Quantifier?, negated: Bool) {
    let quantifier: Quantifier?
    var negated = false
    switch current.kind {
    case .keyword(.any), .keyword(.some): quantifier = .any
    case .keyword(.all): quantifier = .all
    case .keyword(.none):
      quantifier = .any
      negated = true
    default: quantifier = nil
    }
    if quantifier != nil {
      let q = advance()
      switch current.kind {
      // `ANY ANY a`: say what is missing rather than suggest a key named `any`.
      case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
        throw expressionExpected(after: q)
      default: break
      }
      guard startsExpression(current) else { throw expressionExpected(after: q) }
    } else if !startsExpression(current) {
      throw predicateExpected()
    }
    return (quantifier, negated)
  }

  /// The comparison operator and its options, and a check that an operand follows.
  @inline(never)
  mutating func parseOperatorAndOptions(after lhs: ExpressionSyntax, quantified: Bool)
    throws(SyntaxError) -> (ComparisonOperator, ComparisonOptions)
  {
    let opToken = current
    guard let op = try parseComparisonOperator() else {
      throw comparisonOperatorExpected(after: lhs, quantified: quantified)
    }
    let options = try parseOptions(after: opToken)
    guard startsExpression(current) else { throw expressionExpected(after: opToken) }
    return (op, options)
  }

  @inline(never)
  func makeComparison(
    _ quantifier: Quantifier?, _ lhs: ExpressionSyntax, _ op: ComparisonOperator,
    _ options: ComparisonOptions,
    _ rhs: ExpressionSyntax, negated: Bool, start: Int
  ) -> PredicateSyntax {
    let comparison = ComparisonSyntax(quantifier: quantifier, lhs, op, options: options, rhs)
    let node = PredicateSyntax(.comparison(comparison), range: range(from: start))
    return negated ? PredicateSyntax(.not(node), range: node.range) : node
  }

  @inline(never)
  func comparisonOperatorExpected(after lhs: ExpressionSyntax, quantified: Bool) -> SyntaxError {
    if case .end = current.kind, !quantified, lhs.isBareValue {
      return SyntaxError(
        "expected a comparison operator after the expression", at: current.range,
        hint: "a format string is a predicate, not a value: compare it, as in \(lhsText(lhs)) == …")
    }
    let hint =
      switch current.kind {
      case .punct(.assign): "only a $variable can be assigned, as in $x := 1"
      default: Self.comparisonOperatorHint
      }
    return SyntaxError(
      "expected a comparison operator, found \(describe(current))", at: current.range, hint: hint)
  }

  /// "expected a predicate [after 'AND'], found …", where neither a comparison nor a
  /// parenthesised predicate can start.
  @inline(never)
  func predicateExpected() -> SyntaxError {
    var message = "expected a predicate"
    if index > 0 {
      let previous = tokens[index - 1]
      switch previous.kind {
      case .keyword(.and), .keyword(.or), .keyword(.not), .punct(.andAnd), .punct(.orOr), .punct(.bang):
        message += " after '\(previous.kind.spelling)'"
      default: break
      }
    }
    message += ", found \(describe(current))"
    let hint: String? =
      if index == 0, case .end = current.kind {
        "the format string is empty; TRUEPREDICATE is the predicate that is always true"
      } else {
        nil
      }
    return SyntaxError(message, at: current.range, hint: hint)
  }

  static let comparisonOperatorHint =
    "operators are == != < <= > >= BETWEEN IN CONTAINS BEGINSWITH ENDSWITH LIKE MATCHES"

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
      throw unsupportedOperator(k)
    default: return nil
    }
    _ = advance()
    return op
  }

  @inline(never)
  func unsupportedOperator(_ k: Keyword) -> SyntaxError {
    SyntaxError(
      "\(k.rawValue) is not supported on this platform", at: current.range,
      hint: "uniform type identifiers exist only on Apple platforms")
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
        "expected option letters after '[', found \(describe(current))", at: current.range,
        hint: "options are c (case), d (diacritics), n (normalized), l (locale), as in [cd]")
    }
    if case .identifier = current.kind {
      throw SyntaxError(
        "expected ']' after the options, found \(describe(current))", at: current.range,
        hint: "write the option letters together, as in [cd]")
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
