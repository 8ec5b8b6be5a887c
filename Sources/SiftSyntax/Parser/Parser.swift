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
  /// A limit error ends the parse at once; backtracking must not hide it.
  var limitError: SyntaxError?

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
      throw SyntaxError(
        "unexpected \(describe(current)) after the end of the predicate", at: current.range,
        hint: "join predicates with AND or OR")
    }
    if arguments.count > specifierCount {
      throw SyntaxError(
        "\(arguments.count) arguments were given but the format has \(specifierCount) "
          + "format specifier\(specifierCount == 1 ? "" : "s")",
        at: current.range, hint: "every argument needs a %@, %K or numeric specifier")
    }
    return predicate
  }

  var current: Token { tokens[index] }

  func peek(_ offset: Int = 1) -> Token {
    tokens[min(index + offset, tokens.count - 1)]
  }

  mutating func advance() -> Token {
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

  mutating func expect(_ p: Punct, _ context: String, opening: Token? = nil) throws(SyntaxError) {
    guard accept(p) else {
      var hint: String? = nil
      if let opening {
        hint = "to match the '\(opening.kind.spelling)' at offset \(opening.range.start)"
      }
      throw SyntaxError("expected '\(p.rawValue)' \(context), found \(describe(current))", at: current.range, hint: hint)
    }
  }

  /// Enters one level of nesting; throws once the configured depth is exceeded.
  mutating func enter() throws(SyntaxError) {
    depth += 1
    if depth > options.limits.maxNestingDepth {
      let error = SyntaxError(
        "nesting is deeper than \(options.limits.maxNestingDepth) levels", at: current.range,
        hint: "the limit is SyntaxLimits.maxNestingDepth")
      limitError = error
      throw error
    }
  }

  mutating func leave() { depth -= 1 }

  func describe(_ token: Token) -> String {
    switch token.kind {
    case .end: "end of input"
    case .identifier(let name, _): "'\(name)'"
    case .keyword(let k): "keyword \(k.rawValue)"
    case .integer(let v): "number \(v)"
    case .double(let v): "number \(v)"
    case .string: "a string"
    case .variable(let v): "variable $\(v)"
    case .specifier: "a format specifier"
    case .percentLiteral: "'%%'"
    case .punct(let p): "'\(p.rawValue)'"
    }
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

  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, arguments: [SiftValue], options: ParseOptions)
    throws(SyntaxError) -> PredicateSyntax
  {
    guard bytes.count <= options.limits.maxInputLength else {
      throw SyntaxError(
        "predicate is \(bytes.count) bytes long; the limit is \(options.limits.maxInputLength)",
        at: SourceRange(start: options.limits.maxInputLength, end: bytes.count),
        hint: "the limit is SyntaxLimits.maxInputLength")
    }
    let tokens = try Lexer.tokenize(bytes)
    var parser = Parser(tokens: tokens, arguments: arguments, options: options)
    return try parser.parseFormatString()
  }
}
