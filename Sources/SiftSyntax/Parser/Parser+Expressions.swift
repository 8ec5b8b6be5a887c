/// The binary operator precedence table, lowest level first; every level is
/// left-associative. This is the single source the parser reads; `Grammar/Precedence.md`
/// documents it, with the unary, postfix and assignment levels around it.
/// Each operator is given with its spelling: punctuation, or for the set operators a word
/// (any case, not reserved: an operator only between two operands, so `union == 1` still
/// reads the key "union").
let binaryPrecedence: [[(String, BinaryOperator)]] = [
  [("UNION", .union), ("INTERSECT", .intersect), ("MINUS", .minus)],
  [(Punct.pipe.rawValue, .bitwiseOr)],
  [(Punct.caret.rawValue, .bitwiseXor)],
  [(Punct.ampersand.rawValue, .bitwiseAnd)],
  [(Punct.shiftLeft.rawValue, .shiftLeft), (Punct.shiftRight.rawValue, .shiftRight)],
  [(Punct.plus.rawValue, .add), (Punct.minus.rawValue, .subtract)],
  [(Punct.star.rawValue, .multiply), (Punct.slash.rawValue, .divide)],
  [(Punct.starStar.rawValue, .power)],
]

extension BinaryOperator {
  /// Index into ``binaryPrecedence``: higher binds tighter.
  var precedence: Int {
    switch self {
    case .union, .intersect, .minus: 0
    case .bitwiseOr: 1
    case .bitwiseXor: 2
    case .bitwiseAnd: 3
    case .shiftLeft, .shiftRight: 4
    case .add, .subtract: 5
    case .multiply, .divide: 6
    case .power: 7
    }
  }

  /// The binary operator spelled by `punct`. The parser asks this after every operand, so
  /// it is a switch rather than a search of ``binaryPrecedence``; a test checks that the two
  /// agree.
  @inline(__always)
  static func spelled(_ punct: Punct) -> BinaryOperator? {
    switch punct {
    case .pipe: .bitwiseOr
    case .caret: .bitwiseXor
    case .ampersand: .bitwiseAnd
    case .shiftLeft: .shiftLeft
    case .shiftRight: .shiftRight
    case .plus: .add
    case .minus: .subtract
    case .star: .multiply
    case .slash: .divide
    case .starStar: .power
    default: nil
    }
  }
}

extension Parser {
  /// Rule `expression`: `variable ':=' expression | binary-expression`.
  @inline(__always)
  mutating func parseExpression() throws(SyntaxError) -> ExpressionSyntax {
    if case .variable = current.kind, case .punct(.assign) = peek().kind { return try parseAssignment() }
    return try parseBinary(level: 0)
  }

  /// `$name := expression`.
  mutating func parseAssignment() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    let variable = advance()
    guard case .variable = variable.kind else { preconditionFailure("parseAssignment at a non-variable") }
    let name = variableName(of: variable)
    try enter(advance())
    defer { leave() }
    let value = try parseExpression()
    return ExpressionSyntax(.assignment(variable: name, value: value), range: range(from: start))
  }

  /// Rule `binary-expression` by precedence climbing: operators of precedence `level` and
  /// above, all left-associative. One call (one stack frame) per operand, not per
  /// precedence level, so deep nesting stays cheap on the stack.
  mutating func parseBinary(level: Int) throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    let lhs = try parseUnary()
    guard currentBinaryOperator() != nil else { return lhs }
    return try parseBinaryOperators(lhs, level: level, start: start)
  }

  /// The `(op operand)*` loop of ``parseBinary(level:)``, after its first operand.
  ///
  /// `a + b + c + …` builds a left-deep tree, one node per operator, so each operator counts
  /// as a nesting level: the limit bounds the depth of every tree the parser returns, and
  /// with it the recursion of everything that walks trees (printer, compiler, `==`, deinit).
  mutating func parseBinaryOperators(_ first: ExpressionSyntax, level: Int, start: Int)
    throws(SyntaxError) -> ExpressionSyntax
  {
    var lhs = first
    let entryDepth = depth
    defer { depth = entryDepth }
    while let op = currentBinaryOperator(), op.precedence >= level {
      let opToken = advance()
      try enter(opToken)
      guard Self.startsExpression(current) else { throw expressionExpected(after: opToken) }
      let rhs = try parseBinary(level: op.precedence + 1)
      lhs = ExpressionSyntax(.binary(op, lhs, rhs), range: range(from: start))
    }
    return lhs
  }

  /// The binary operator at the cursor, if any.
  @inline(__always)
  func currentBinaryOperator() -> BinaryOperator? {
    switch current.kind {
    case .punct(let p): return BinaryOperator.spelled(p)
    case .identifier(escaped: false): return setOperator()
    default: return nil
    }
  }

  /// `UNION`, `INTERSECT` or `MINUS` (any case) at the cursor, when an operand follows.
  @inline(never)
  func setOperator() -> BinaryOperator? {
    let length = current.range.end - current.range.start
    guard length == 5 || length == 9, Self.startsExpression(peek()) else { return nil }
    switch name(of: current).uppercased() {
    case "UNION": return .union
    case "INTERSECT": return .intersect
    case "MINUS": return .minus
    default: return nil
    }
  }

  /// Rule `unary-expression`: `'-' unary-expression | '~' unary-expression | postfix-expression`.
  /// A minus directly before a number literal is folded into a negative constant.
  @inline(__always)
  mutating func parseUnary() throws(SyntaxError) -> ExpressionSyntax {
    // Only dispatch here: this frame is on the stack for every nested operand.
    if isPunct(.minus) || isPunct(.tilde) { return try parsePrefixOperator() }
    return try parsePostfix()
  }

  /// `'-' unary-expression | '~' unary-expression`.
  mutating func parsePrefixOperator() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    let op = advance()
    try enter(op)
    defer { leave() }
    guard Self.startsExpression(current) else { throw expressionExpected(after: op) }
    if case .punct(.minus) = op.kind, case .integerMinMagnitude = current.kind, !Self.startsPostfix(peek()) {
      // `-9223372036854775808` is Int.min; the magnitude alone does not fit in Int.
      _ = advance()
      return ExpressionSyntax(.constant(.int(Int.min)), range: range(from: start))
    }
    let operand = try parseUnary()
    if case .punct(.tilde) = op.kind {
      return ExpressionSyntax(.bitwiseNot(operand), range: range(from: start))
    }
    return Self.negated(operand, range: range(from: start))
  }

  /// Whether `token` continues a postfix expression (`[` or `.`).
  static func startsPostfix(_ token: Lexeme) -> Bool {
    switch token.kind {
    case .punct(.lBracket), .punct(.dot): true
    default: false
    }
  }

  /// `-operand`, folded into the constant when the operand is a number literal.
  @inline(never)
  static func negated(_ operand: ExpressionSyntax, range: SourceRange) -> ExpressionSyntax {
    switch operand.kind {
    case .constant(.int(let v)) where v != Int.min:
      return ExpressionSyntax(.constant(.int(-v)), range: range)
    case .constant(.double(let v)):
      return ExpressionSyntax(.constant(.double(-v)), range: range)
    default:
      return ExpressionSyntax(.negate(operand), range: range)
    }
  }

  /// Rule `postfix-expression`: `primary-expression ( '[' index ']' | '.' key )*`.
  @inline(__always)
  mutating func parsePostfix() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    let base = try parsePrimary()
    guard isPunct(.lBracket) || isPunct(.dot) else { return base }
    return try parsePostfixSuffixes(base, start: start)
  }

  /// The `[index]` and `.key` suffixes after a primary expression. Each suffix that wraps
  /// what came before in a new node (`a[0][1]`, `f(x).a[0].b`) is one more nesting level,
  /// like each operator of a binary chain; `.key` after a key path only extends it.
  mutating func parsePostfixSuffixes(_ first: ExpressionSyntax, start: Int) throws(SyntaxError)
    -> ExpressionSyntax
  {
    var base = first
    let entryDepth = depth
    defer { depth = entryDepth }
    while true {
      if isPunct(.lBracket) {
        base = try parseIndexSuffix(base, start: start)
      } else if isPunct(.dot) {
        try parseKeySuffix(&base, start: start)
      } else {
        return base
      }
    }
  }

  /// `base '[' index ']'`; stays one level deeper (the caller restores the depth).
  mutating func parseIndexSuffix(_ base: ExpressionSyntax, start: Int) throws(SyntaxError) -> ExpressionSyntax {
    let open = advance()
    try enter(open)
    let index = try parseIndex()
    try expect(.rBracket, "after the index", opening: open)
    return ExpressionSyntax(.index(base, index), range: range(from: start))
  }

  /// `base '.' key`, or `base '.' %K` (the argument's keys appended: `%K.%K`,
  /// `$FETCH_SOURCE.%K`); one level deeper unless it extends a key path (the caller
  /// restores the depth).
  @inline(never)
  mutating func parseKeySuffix(_ base: inout ExpressionSyntax, start: Int) throws(SyntaxError) {
    let dot = advance()
    switch base.kind {
    case .keyPath, .evaluatedObject: break
    default: try enter(dot)
    }
    if case .specifier(let ordinal) = current.kind {
      let token = advance()
      guard specifier(of: token) == .keyPath else { throw argumentAfterDot(token) }
      let bound = try bind(.keyPath, token: token, ordinal: ordinal)
      let keys: [String]
      switch bound.kind {
      case .keyPath(_, let k): keys = k
      default: keys = ["self"]  // %K bound to "self"
      }
      for key in keys { appendKey(key, to: &base, range: range(from: start)) }
      return
    }
    let key = try parseKey(afterDot: true)
    appendKey(key, to: &base, range: range(from: start))
  }

  @inline(never)
  func argumentAfterDot(_ token: Lexeme) -> SyntaxError {
    SyntaxError(
      "only a %K key path can follow '.', not \(sourceText(token.range.start, token.range.end))", at: token.range,
      hint: "pass the key as a %K argument")
  }

  /// ``appendingKey(_:to:range:)`` in place: the key array is extended where it is, not
  /// copied (a copy per key made `a.a.a…` quadratic: 100,000 keys took 32 s).
  func appendKey(_ key: String, to base: inout ExpressionSyntax, range: SourceRange) {
    guard case .keyPath(let inner, var keys) = base.kind else {
      base = appendingKey(key, to: base, range: range)
      return
    }
    base = ExpressionSyntax(.evaluatedObject, range: range)  // drops the other reference to `keys`
    keys.append(key)
    base = ExpressionSyntax(.keyPath(base: inner, keys: keys), range: range)
  }

  /// Rule `index`: `FIRST | LAST | SIZE | expression`.
  mutating func parseIndex() throws(SyntaxError) -> IndexSyntax {
    if case .keyword(let k) = current.kind, k == .first || k == .last || k == .size {
      guard case .punct(.rBracket) = peek().kind else { throw indexKeywordError(k) }
      _ = advance()
      return k == .first ? .first : k == .last ? .last : .size
    }
    guard Self.startsExpression(current) else { throw indexExpected() }
    return .expression(try parseExpression())
  }

  // Error builders live in their own functions: in debug builds every local of a function
  // takes stack space in its frame, and the recursive parse functions should stay small.

  @inline(never)
  func indexKeywordError(_ k: Keyword) -> SyntaxError {
    SyntaxError(
      "expected ']' after \(k.rawValue), found \(describe(peek()))", at: peek().range,
      hint: "\(k.rawValue) stands alone in an index, as in a[\(k.rawValue)]; "
        + "write #\(k.rawValue.lowercased()) for a key of that name")
  }

  @inline(never)
  func indexExpected() -> SyntaxError {
    SyntaxError(
      "expected an index, found \(describe(current))", at: current.range,
      hint: "an index is FIRST, LAST, SIZE, a number or a dictionary key")
  }

  /// `a.b.c` is one key path node; `.key` after anything else starts a key path on that base.
  func appendingKey(_ key: String, to base: ExpressionSyntax, range: SourceRange) -> ExpressionSyntax {
    switch base.kind {
    case .keyPath(let inner, let keys):
      return ExpressionSyntax(.keyPath(base: inner, keys: keys + [key]), range: range)
    case .evaluatedObject:
      return ExpressionSyntax(.keyPath(base: nil, keys: [key]), range: range)
    default:
      return ExpressionSyntax(.keyPath(base: base, keys: [key]), range: range)
    }
  }

  /// Rule `key`: an identifier, `#reserved-word`, or `@identifier`; after a dot, `SELF`
  /// stands for the key `self` (as in `nums.@sum.self`).
  mutating func parseKey(afterDot: Bool) throws(SyntaxError) -> String {
    switch current.kind {
    case .identifier, .quotedKey:
      return keyName(of: advance())
    case .keyword(.self_) where afterDot:
      _ = advance()
      return "self"
    case .keyword(let k):
      throw reservedWordError(k, at: current.range)
    default:
      throw keyExpected()
    }
  }

  @inline(never)
  func keyExpected() -> SyntaxError {
    SyntaxError("expected a key after '.', found \(describe(current))", at: current.range)
  }

  @inline(never)
  func reservedWordError(_ keyword: Keyword, at range: SourceRange) -> SyntaxError {
    // `#` cannot rescue the hyphenated UTI operators: a key cannot contain '-'.
    let hint: String? =
      keyword == .utiConformsTo || keyword == .utiEquals
      ? nil : "write #\(keyword.rawValue.lowercased()) to use it as a key"
    return SyntaxError(
      "'\(keyword.rawValue)' is a reserved word and cannot be used as a key here", at: range, hint: hint)
  }

  /// "expected an expression [after 'op'], found …", with a hint for a few common slips.
  @inline(never)
  func expressionExpected(after op: Lexeme?) -> SyntaxError {
    var message = "expected an expression"
    if let op { message += " after '\(spelling(of: op))'" }
    message += ", found \(describe(current))"
    var hint: String? = nil
    if let op, case .punct(let p) = op.kind, case .punct(let next) = current.kind,
      op.range.end == current.range.start,
      [.equal, .notEqual, .lessEqual, .greaterEqual, .assignEqual].contains(p), next == .assignEqual
    {
      hint = "'\(p.rawValue)=' is not an operator; comparisons are == != < <= > >="
    }
    if case .punct(.dot) = current.kind, peek().range.start == current.range.end {
      switch peek().kind {
      case .integer, .double, .integerMinMagnitude:
        hint = "a number cannot start with '.'; write 0\(sourceText(current.range.start, peek().range.end))"
      default: break
      }
    }
    return SyntaxError(message, at: current.range, hint: hint)
  }

  /// The source text of a byte range (names, and text quoted in messages).
  @inline(__always)
  func sourceText(_ start: Int, _ end: Int) -> String {
    guard end <= source.count, start <= end else { return "" }
    return String(decoding: UnsafeBufferPointer(rebasing: source[start..<end]), as: UTF8.self)
  }

  /// Whether `token` can begin an expression (used for clearer "expected an expression" errors).
  /// Static, like the other helpers on hot paths: a call to a non-mutating method from a
  /// mutating one copies the whole parser first.
  static func startsExpression(_ token: Lexeme) -> Bool {
    switch token.kind {
    case .identifier, .quotedKey, .integer, .integerMinMagnitude, .double, .string, .variable, .specifier: return true
    case .keyword(let k):
      switch k {
      case .self_, .null, .nil_, .true_, .yes, .false_, .no, .subquery, .cast: return true
      case .first, .last, .size, .like, .in, .contains, .beginsWith, .endsWith, .matches, .between, .all,
        .any, .some, .none, .caseInsensitive, .ci, .anyKey, .fetch:
        return true  // reported by parsePrimary with a #word hint
      default: return false
      }
    case .punct(let p): return p == .lParen || p == .lBrace || p == .minus || p == .tilde
    case .percentLiteral: return true
    case .end: return false
    }
  }
}
