extension Parser {
  /// Rule `predicate`: compound predicates at the two AND/OR levels, the outer level chosen
  /// by ``CompoundPrecedence``.
  mutating func parsePredicate() throws(SyntaxError) -> PredicateSyntax {
    try parseCompound(outer: true)
  }

  /// Rules `conjunction` and `disjunction`: `x (AND x)*` / `x (OR x)*`, n-ary.
  mutating func parseCompound(outer: Bool) throws(SyntaxError) -> PredicateSyntax {
    let start = index
    let first = try parseCompoundOperand(outer: outer)
    let isAnd = outer == (options.compoundPrecedence == .orBindsTighter)
    guard atConnective(and: isAnd) else { return first }
    return try parseCompoundOperands(first, outer: outer, isAnd: isAnd, start: start)
  }

  /// An operand of a compound: at the outer level an inner-level compound, at the inner
  /// level a negation. The inner level is ``parseCompound(outer:)`` written out again here,
  /// so that optimised builds spend no call on it for each operand.
  @inline(__always)
  mutating func parseCompoundOperand(outer: Bool) throws(SyntaxError) -> PredicateSyntax {
    guard outer else { return try parseNegation() }
    let start = index
    let first = try parseNegation()
    let isAnd = options.compoundPrecedence != .orBindsTighter
    guard atConnective(and: isAnd) else { return first }
    return try parseCompoundOperands(first, outer: false, isAnd: isAnd, start: start)
  }

  /// Whether the cursor is at `AND`/`&&` (`and`) or `OR`/`||`.
  @inline(__always)
  func atConnective(and: Bool) -> Bool {
    and ? (isKeyword(.and) || isPunct(.andAnd)) : (isKeyword(.or) || isPunct(.orOr))
  }

  /// The `(AND x)*` / `(OR x)*` loop of ``parseCompound(outer:)``, after its first operand.
  mutating func parseCompoundOperands(_ first: consuming PredicateSyntax, outer: Bool, isAnd: Bool, start: Int)
    throws(SyntaxError) -> PredicateSyntax
  {
    // Room for a typical chain up front, rather than growing 1, 2, 4, ….
    var operands: [PredicateSyntax] = []
    operands.reserveCapacity(4)
    operands.append(first)
    while atConnective(and: isAnd) {
      _ = advance()
      operands.append(try parseCompoundOperand(outer: outer))
    }
    return PredicateSyntax(isAnd ? .and(operands) : .or(operands), range: range(from: start))
  }

  /// Rule `negation`: `NOT negation | '!' negation | predicate-primary`.
  @inline(__always)
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
  @inline(__always)
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
    // A memo can only hold this position if an enclosing reading was rewound (see
    // ``speculation``); an empty memo is not even hashed into.
    let group: Result<(PredicateSyntax, Int), SyntaxError>
    if !groupMemo.isEmpty, let known = groupMemo[start] {
      group = known
    } else {
      group = speculate { (p: inout Parser) throws(SyntaxError) in
        let open = p.advance()
        try p.enter(open)
        defer { p.leave() }
        var inner = try p.parsePredicate()
        try p.expect(.rParen, "to close the parenthesised predicate", opening: open)
        // Like a parenthesised expression, the node covers its parentheses.
        inner.range = p.range(from: start)
        return inner
      }
      if speculation > 0 { groupMemo[start] = group }
    }
    if let limitError { throw limitError }
    let groupError: SyntaxError
    switch group {
    case .success(let (node, end)):
      index = end
      return node
    case .failure(let error): groupError = error
    }
    let comparison: Result<(PredicateSyntax, Int), SyntaxError>
    if !comparisonMemo.isEmpty, let known = comparisonMemo[start] {
      comparison = known
    } else {
      comparison = speculate { (p: inout Parser) throws(SyntaxError) in try p.parseComparison() }
      if speculation > 0 { comparisonMemo[start] = comparison }
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

  /// Runs one reading of the tokens from the cursor and rewinds to where it started,
  /// returning the result and where the reading ended. The caller memoises the result if
  /// an enclosing reading is still in progress (``speculation`` > 0): only then can this
  /// position be read again.
  private mutating func speculate(_ body: (inout Parser) throws(SyntaxError) -> PredicateSyntax)
    -> Result<(PredicateSyntax, Int), SyntaxError>
  {
    let start = index
    let savedDepth = depth
    speculation += 1
    let result: Result<(PredicateSyntax, Int), SyntaxError>
    do {
      let node = try body(&self)
      result = .success((node, index))
    } catch {
      result = .failure(error)
    }
    speculation -= 1
    depth = savedDepth
    index = start
    return result
  }

  /// Rule `comparison`: `[quantifier] expression comparison-operator [options] expression`.
  mutating func parseComparison() throws(SyntaxError) -> PredicateSyntax {
    let start = index
    let (quantifier, negated) = try parseQuantifier()
    let lhs = try parseExpression()
    if case .identifier(escaped: false) = current.kind, case .punct(.colon) = peek().kind {
      return try parseCustomSelector(lhs, quantified: quantifier != nil, start: start)
    }
    let (op, options) = try parseOperatorAndOptions(after: lhs, quantified: quantifier != nil)
    let rhs = try parseExpression()
    return Self.makeComparison(quantifier, lhs, op, options, rhs, negated: negated, range: range(from: start))
  }

  /// Rule `custom-selector`: `Identifier ':' expression` after the left operand, as in
  /// `SELF isKindOfClass: %@`. Apple's custom-selector comparisons take no ANY/ALL and
  /// no options.
  @inline(never)
  mutating func parseCustomSelector(_ lhs: consuming ExpressionSyntax, quantified: Bool, start: Int)
    throws(SyntaxError) -> PredicateSyntax
  {
    let nameToken = advance()
    let selector = name(of: nameToken) + ":"
    let colon = advance()
    if quantified {
      throw SyntaxError(
        "a custom selector comparison takes no ANY, SOME, ALL or NONE", at: nameToken.range,
        hint: "test each element in a SUBQUERY, as in SUBQUERY(xs, $x, $x \(selector) …).@count > 0")
    }
    guard Self.startsExpression(current) else { throw expressionExpected(after: colon) }
    let rhs = try parseExpression()
    return PredicateSyntax(.customSelector(lhs: lhs, selector: selector, rhs: rhs), range: range(from: start))
  }

  /// `ANY`, `SOME`, `ALL` or `NONE` (`negated`: NOT ANY), and a check that an expression
  /// follows; without a quantifier, a check that a comparison can start here.
  @inline(__always)
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
      guard Self.startsExpression(current) else { throw expressionExpected(after: q) }
    } else if !Self.startsExpression(current) {
      throw predicateExpected()
    }
    return (quantifier, negated)
  }

  /// The comparison operator and its options, and a check that an operand follows.
  @inline(__always)
  mutating func parseOperatorAndOptions(after lhs: ExpressionSyntax, quantified: Bool)
    throws(SyntaxError) -> (ComparisonOperator, ComparisonOptions)
  {
    let opToken = current
    guard let op = try parseComparisonOperator() else {
      throw comparisonOperatorExpected(after: lhs, quantified: quantified)
    }
    // Most comparisons have no options: test for the `[` here rather than in a call.
    let options = isPunct(.lBracket) ? try parseOptions(after: opToken) : []
    guard Self.startsExpression(current) else { throw expressionExpected(after: opToken) }
    return (op, options)
  }

  /// The comparison node. The operands are `consuming`: they move into the node rather
  /// than being copied (a retain now and a release when the caller's copies die).
  @inline(never)
  static func makeComparison(
    _ quantifier: Quantifier?, _ lhs: consuming ExpressionSyntax, _ op: ComparisonOperator,
    _ options: ComparisonOptions,
    _ rhs: consuming ExpressionSyntax, negated: Bool, range: SourceRange
  ) -> PredicateSyntax {
    let comparison = ComparisonSyntax(quantifier: quantifier, lhs, op, options: options, rhs)
    let node = PredicateSyntax(.comparison(comparison), range: range)
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
        message += " after '\(spelling(of: previous))'"
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
  @inline(__always)
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
  mutating func parseOptions(after op: Lexeme) throws(SyntaxError) -> ComparisonOptions {
    guard isPunct(.lBracket) else { return [] }
    // `[` after an operator is always an option list: the language has no array literal.
    let open = advance()
    var options: ComparisonOptions = []
    switch current.kind {
    case .identifier(escaped: false):
      // The letters are read from the source bytes; any other byte is an error, named by
      // `unknownOption`.
      for i in current.range.start..<current.range.end {
        switch source[i] | 0x20 {
        case UInt8(ascii: "c"): options.insert(.caseInsensitive)
        case UInt8(ascii: "d"): options.insert(.diacriticInsensitive)
        case UInt8(ascii: "n"): options.insert(.normalized)
        case UInt8(ascii: "l"): options.insert(.localeSensitive)
        default: throw unknownOption(after: op)
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

  /// "unknown option 'x' for OP", naming the first letter (in lower case) that is not an option.
  @inline(never)
  func unknownOption(after op: Lexeme) -> SyntaxError {
    let letter = name(of: current).lowercased().first { !"cdnl".contains($0) } ?? "?"
    return SyntaxError(
      "unknown option '\(letter)' for \(spelling(of: op))", at: current.range,
      hint: "options are c (case), d (diacritics), n (normalized), l (locale), as in [cd]")
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
