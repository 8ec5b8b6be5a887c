/// The binary operator precedence table, lowest level first; every level is
/// left-associative. This is the single source the parser reads; `Grammar/Precedence.md`
/// documents it, with the unary, postfix and assignment levels around it.
let binaryPrecedence: [[(Punct, BinaryOperator)]] = [
  [(.pipe, .bitwiseOr)],
  [(.caret, .bitwiseXor)],
  [(.ampersand, .bitwiseAnd)],
  [(.shiftLeft, .shiftLeft), (.shiftRight, .shiftRight)],
  [(.plus, .add), (.minus, .subtract)],
  [(.star, .multiply), (.slash, .divide)],
  [(.starStar, .power)],
]

extension BinaryOperator {
  /// Index into ``binaryPrecedence``: higher binds tighter.
  var precedence: Int {
    switch self {
    case .bitwiseOr: 0
    case .bitwiseXor: 1
    case .bitwiseAnd: 2
    case .shiftLeft, .shiftRight: 3
    case .add, .subtract: 4
    case .multiply, .divide: 5
    case .power: 6
    }
  }
}

extension Parser {
  /// Rule `expression`: `variable ':=' expression | binary-expression`.
  mutating func parseExpression() throws(SyntaxError) -> ExpressionSyntax {
    if case .variable(let name) = current.kind, case .punct(.assign) = peek().kind {
      let start = index
      _ = advance()
      _ = advance()
      try enter()
      defer { leave() }
      let value = try parseExpression()
      return ExpressionSyntax(.assignment(variable: name, value: value), range: range(from: start))
    }
    return try parseBinary(level: 0)
  }

  /// Rule `binary-expression`, one precedence level per call (precedence climbing).
  mutating func parseBinary(level: Int) throws(SyntaxError) -> ExpressionSyntax {
    if level == binaryPrecedence.count { return try parseUnary() }
    let start = index
    var lhs = try parseBinary(level: level + 1)
    while case .punct(let p) = current.kind, let op = binaryPrecedence[level].first(where: { $0.0 == p })?.1 {
      let opToken = advance()
      guard startsExpression(current) else {
        throw SyntaxError(
          "expected an expression after '\(opToken.kind.spelling)', found \(describe(current))",
          at: current.range)
      }
      let rhs = try parseBinary(level: level + 1)
      lhs = ExpressionSyntax(.binary(op, lhs, rhs), range: range(from: start))
    }
    return lhs
  }

  /// Rule `unary-expression`: `'-' unary-expression | '~' unary-expression | postfix-expression`.
  /// A minus directly before a number literal is folded into a negative constant.
  mutating func parseUnary() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    if isPunct(.minus) || isPunct(.tilde) {
      let op = advance()
      try enter()
      defer { leave() }
      guard startsExpression(current) else {
        throw SyntaxError(
          "expected an expression after '\(op.kind.spelling)', found \(describe(current))", at: current.range)
      }
      let operand = try parseUnary()
      let range = range(from: start)
      if op.kind == .punct(.tilde) { return ExpressionSyntax(.bitwiseNot(operand), range: range) }
      switch operand.kind {
      case .constant(.int(let v)) where v != Int.min:
        return ExpressionSyntax(.constant(.int(-v)), range: range)
      case .constant(.double(let v)):
        return ExpressionSyntax(.constant(.double(-v)), range: range)
      default:
        return ExpressionSyntax(.negate(operand), range: range)
      }
    }
    return try parsePostfix()
  }

  /// Rule `postfix-expression`: `primary-expression ( '[' index ']' | '.' key )*`.
  mutating func parsePostfix() throws(SyntaxError) -> ExpressionSyntax {
    let start = index
    var base = try parsePrimary()
    while true {
      if isPunct(.lBracket) {
        let open = advance()
        try enter()
        let index = try parseIndex()
        leave()
        try expect(.rBracket, "after the index", opening: open)
        base = ExpressionSyntax(.index(base, index), range: range(from: start))
      } else if isPunct(.dot) {
        _ = advance()
        let key = try parseKey(afterDot: true)
        base = appendingKey(key, to: base, range: range(from: start))
      } else {
        return base
      }
    }
  }

  /// Rule `index`: `FIRST | LAST | SIZE | expression`.
  mutating func parseIndex() throws(SyntaxError) -> IndexSyntax {
    if case .punct(.rBracket) = peek().kind {
      switch current.kind {
      case .keyword(.first):
        _ = advance()
        return .first
      case .keyword(.last):
        _ = advance()
        return .last
      case .keyword(.size):
        _ = advance()
        return .size
      default: break
      }
    }
    guard startsExpression(current) else {
      throw SyntaxError(
        "expected an index, found \(describe(current))", at: current.range,
        hint: "an index is FIRST, LAST, SIZE, a number or a dictionary key")
    }
    return .expression(try parseExpression())
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
    case .identifier(let name, _):
      _ = advance()
      return name
    case .keyword(.self_) where afterDot:
      _ = advance()
      return "self"
    case .keyword(let k):
      throw reservedWordError(k, at: current.range)
    default:
      throw SyntaxError("expected a key after '.', found \(describe(current))", at: current.range)
    }
  }

  func reservedWordError(_ keyword: Keyword, at range: SourceRange) -> SyntaxError {
    SyntaxError(
      "'\(keyword.rawValue)' is a reserved word and cannot be used as a key here", at: range,
      hint: "write #\(keyword.rawValue.lowercased()) to use it as a key")
  }

  /// Whether `token` can begin an expression (used for clearer "expected an expression" errors).
  func startsExpression(_ token: Token) -> Bool {
    switch token.kind {
    case .identifier, .integer, .double, .string, .variable, .specifier: return true
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
