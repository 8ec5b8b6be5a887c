/// Recursive-descent parser for the NSPredicate format language.
///
/// Each `parseX` function implements the `Grammar/Predicate.ebnf` rule it names; operator
/// precedence lives in one table (`Parser+Expressions.swift` and `Grammar/Precedence.md`).
/// The one place the grammar is not LL(1) is a `(` at the start of a predicate, which may
/// open a parenthesised predicate or a parenthesised expression (`(2 + 3) * 4 == 20`): both
/// readings are tried and memoised by position, so parsing stays linear in the input.
struct Parser {
  let tokens: [Token]
  let arguments: [SiftValue]
  let options: ParseOptions
  var index = 0
  var depth = 0
  /// Ordinal of each format specifier token, so backtracking never has to rewind arguments.
  let argumentOrdinal: [Int: Int]
  var specifierCount: Int
  /// Results of the two readings of a `(` at a predicate's start, by token index.
  var groupMemo: [Int: Result<(PredicateSyntax, Int), SyntaxError>] = [:]
  var comparisonMemo: [Int: Result<(PredicateSyntax, Int), SyntaxError>] = [:]
  /// Parenthesised expressions already parsed, by the token index of their `(`: the node,
  /// the index after the `)`, and how many nesting levels the parse went below its start.
  /// The comparison reading of a predicate-level `(` re-reads the expressions that failed
  /// group readings left behind; this keeps `((((a)))) == 1` linear.
  var expressionMemo: [Int: (node: ExpressionSyntax, end: Int, height: Int)] = [:]
  /// The deepest nesting reached since the last reset (for ``expressionMemo``).
  var deepest = 0
  /// Tokens consumed, counting re-reads after backtracking (a measure of parsing work).
  var advances = 0
  /// A limit error ends the parse at once; backtracking must not hide it.
  var limitError: SyntaxError?
  /// The text being parsed (valid for the parse only), to name positions in hints.
  var source = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

  init(tokens: [Token], arguments: [SiftValue], options: ParseOptions) {
    self.tokens = tokens
    self.arguments = arguments
    self.options = options
    var ordinal: [Int: Int] = [:]
    var n = 0
    for (i, token) in tokens.enumerated() {
      if case .specifier = token.kind {
        ordinal[i] = n
        n += 1
      }
    }
    argumentOrdinal = ordinal
    specifierCount = n
  }

  /// Rule `format-string`: one predicate, then the end of the input.
  mutating func parseFormatString() throws(SyntaxError) -> PredicateSyntax {
    let predicate = try parsePredicate()
    guard case .end = current.kind else {
      var hint = "join predicates with AND or OR"
      // 'it''s': SQL-style doubled quotes end one string and start another.
      if case .string = current.kind, index > 0, case .string = tokens[index - 1].kind,
        tokens[index - 1].range.end == current.range.start
      {
        hint = "quotes are not doubled inside a string; escape them, as in 'it\\'s'"
      }
      if case .punct(let p) = current.kind, let opener = Self.opener(of: p) {
        hint = "this '\(p.rawValue)' has no matching '\(opener.rawValue)'"
      }
      throw SyntaxError(
        "unexpected \(describe(current)) after the end of the predicate", at: current.range, hint: hint)
    }
    if arguments.count > specifierCount {
      throw SyntaxError(
        "\(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given but the format has "
          + "\(specifierCount) format specifier\(specifierCount == 1 ? "" : "s")",
        at: current.range, hint: "every argument needs a %@, %K or numeric specifier")
    }
    return predicate
  }

  var current: Token { tokens[index] }

  func peek(_ offset: Int = 1) -> Token {
    tokens[min(index + offset, tokens.count - 1)]
  }

  mutating func advance() -> Token {
    advances += 1
    let token = tokens[index]
    if index < tokens.count - 1 { index += 1 }
    return token
  }

  /// The range from the start of token `from` to the end of the last consumed token.
  func range(from start: Int) -> SourceRange {
    let last = max(start, index - 1)
    return tokens[start].range.union(tokens[last].range)
  }

  func isPunct(_ p: Punct) -> Bool {
    if case .punct(p) = current.kind { return true }
    return false
  }

  func isKeyword(_ k: Keyword) -> Bool {
    if case .keyword(k) = current.kind { return true }
    return false
  }

  mutating func accept(_ p: Punct) -> Bool {
    guard isPunct(p) else { return false }
    _ = advance()
    return true
  }

  /// Consumes `p` or throws "expected 'p' <context>". For a closing bracket pass the
  /// `opening` token, named in the hint by line and column; otherwise an optional `hint`.
  mutating func expect(_ p: Punct, _ context: StaticString, opening: Token? = nil, hint: StaticString? = nil)
    throws(SyntaxError)
  {
    guard accept(p) else { throw expected(p, "\(context)", opening: opening, hint: hint.map { "\($0)" }) }
  }

  @inline(never)
  func expected(_ p: Punct, _ context: String, opening: Token?, hint: String?) -> SyntaxError {
    var hint = hint
    if let opening {
      hint = "to match the '\(opening.kind.spelling)' at \(location(of: opening.range.start))"
    }
    return SyntaxError(
      "expected '\(p.rawValue)' \(context), found \(describe(current))", at: current.range, hint: hint)
  }

  /// The opening bracket that `p` closes, if `p` is a closing bracket.
  static func opener(of p: Punct) -> Punct? {
    switch p {
    case .rParen: .lParen
    case .rBracket: .lBracket
    case .rBrace: .lBrace
    default: nil
    }
  }

  /// `line:column` of a byte offset of the source (column in Unicode scalars, as in
  /// rendered diagnostics).
  func location(of offset: Int) -> SourceLocation {
    var line = 1
    var column = 1
    var i = 0
    while i < min(offset, source.count) {
      let b = source[i]
      if b == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if b & 0xC0 != 0x80 {
        column += 1
      }
      i += 1
    }
    return SourceLocation(line: line, column: column)
  }

  /// Enters one level of nesting at `opening` (a bracket, prefix operator or `:=`); throws,
  /// pointing at it, once the configured depth is exceeded.
  mutating func enter(_ opening: Token) throws(SyntaxError) {
    depth += 1
    if depth > deepest { deepest = depth }
    if depth > options.limits.maxNestingDepth { throw nestingLimitError(at: opening.range) }
  }

  @inline(never)
  mutating func nestingLimitError(at range: SourceRange) -> SyntaxError {
    let error = SyntaxError(
      "nesting is deeper than \(options.limits.maxNestingDepth) levels", at: range,
      hint: "the limit is SyntaxLimits.maxNestingDepth; every bracket, prefix operator and index, "
        + "and each operator of a chain like a + b + c, is one level")
    limitError = error
    return error
  }

  mutating func leave() { depth -= 1 }

  func describe(_ token: Token) -> String {
    switch token.kind {
    case .end: "end of input"
    case .identifier(let name, _): "'\(name)'"
    case .keyword(let k): "keyword \(k.rawValue)"
    case .integer(let v): "number \(v)"
    case .integerMinMagnitude: "number 9223372036854775808"
    case .double(let v): "number \(v)"
    case .string(let s): "string " + Self.quoted(s)
    case .variable(let v): "variable $\(v)"
    case .specifier: "format specifier"
    case .percentLiteral: "'%%'"
    case .punct(let p): "'\(p.rawValue)'"
    }
  }

  /// A string as canonical text, shortened for messages.
  static func quoted(_ s: String) -> String {
    var out = ""
    CanonicalPrinter.writeString(
      s.unicodeScalars.count > 24 ? String(s.unicodeScalars.prefix(20)) : s, to: &out)
    if s.unicodeScalars.count > 24 { out.insert(contentsOf: "…", at: out.index(before: out.endIndex)) }
    return out
  }
}

extension Token.Kind {
  /// How the token is written, for messages.
  var spelling: String {
    switch self {
    case .punct(let p): p.rawValue
    case .keyword(let k): k.rawValue
    case .identifier(let n, _): n
    default: "token"
    }
  }
}

extension PredicateSyntax {
  /// Parses a format string, binding `arguments` to its `%@`, `%K` and numeric specifiers
  /// in order (like `NSPredicate(format:argumentArray:)`).
  ///
  /// `$variables` stay symbolic; bind them with ``substitutingVariables(_:)``.
  /// Throws a ``PredicateSyntaxError`` whose `description` is the rendered diagnostic.
  public init(parsing text: String, arguments: [SiftValue] = [], options: ParseOptions = .default)
    throws(PredicateSyntaxError)
  {
    var text = text
    let result = text.withUTF8 { bytes in
      Result { () throws(SyntaxError) in try Self.parse(bytes, arguments: arguments, options: options) }
    }
    switch result {
    case .success(let predicate): self = predicate
    case .failure(let error): throw PredicateSyntaxError(error, source: text)
    }
  }

  /// Parses a format string given as UTF-8 bytes; invalid UTF-8 is a syntax error
  /// pointing at the first bad byte.
  public init(parsingUTF8 bytes: [UInt8], arguments: [SiftValue] = [], options: ParseOptions = .default)
    throws(PredicateSyntaxError)
  {
    var offset = 0
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    decoding: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: break decoding
      case .error:
        let source = String(decoding: bytes, as: UTF8.self)
        throw PredicateSyntaxError(
          SyntaxError(
            "input is not valid UTF-8", at: SourceRange(start: offset, end: offset + 1),
            hint: "the byte at offset \(offset) does not start or continue a UTF-8 sequence"),
          source: source)
      }
    }
    try self.init(parsing: String(decoding: bytes, as: UTF8.self), arguments: arguments, options: options)
  }

  /// Parses `text` and also counts the tokens consumed, re-reads after backtracking
  /// included: a measure of parsing work that tests can compare across input sizes.
  static func parseCountingWork(_ text: String, arguments: [SiftValue] = [], options: ParseOptions = .default)
    throws(SyntaxError) -> (predicate: PredicateSyntax, tokensConsumed: Int)
  {
    var text = text
    let result = text.withUTF8 { bytes in
      Result { () throws(SyntaxError) -> (PredicateSyntax, Int) in
        var work = 0
        let predicate = try parse(bytes, arguments: arguments, options: options, work: &work)
        return (predicate, work)
      }
    }
    let (predicate, work) = try result.get()
    return (predicate, work)
  }

  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, arguments: [SiftValue], options: ParseOptions)
    throws(SyntaxError) -> PredicateSyntax
  {
    var work = 0
    return try parse(bytes, arguments: arguments, options: options, work: &work)
  }

  static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, arguments: [SiftValue], options: ParseOptions, work: inout Int
  ) throws(SyntaxError) -> PredicateSyntax {
    guard bytes.count <= options.limits.maxInputLength else {
      throw SyntaxError(
        "predicate is \(bytes.count) bytes long; the limit is \(options.limits.maxInputLength)",
        at: SourceRange(start: options.limits.maxInputLength, end: bytes.count),
        hint: "the limit is SyntaxLimits.maxInputLength")
    }
    let tokens = try Lexer.tokenize(bytes)
    var parser = Parser(tokens: tokens, arguments: arguments, options: options)
    parser.source = bytes
    defer { work = parser.advances }
    return try parser.parseFormatString()
  }
}
