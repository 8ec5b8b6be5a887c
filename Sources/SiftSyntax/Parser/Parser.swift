/// Recursive-descent parser for the NSPredicate format language.
///
/// Each `parseX` function implements the `Grammar/Predicate.ebnf` rule it names; operator
/// precedence lives in one table (`Parser+Expressions.swift` and `Grammar/Precedence.md`).
/// The one place the grammar is not LL(1) is a `(` at the start of a predicate, which may
/// open a parenthesised predicate or a parenthesised expression (`(2 + 3) * 4 == 20`): both
/// readings are tried and memoised by position, so parsing stays linear in the input.
///
/// Speed (a typical predicate parses in a microsecond or two, so small costs add up):
/// - Tokens are ``Lexeme``s, trivial values; names and strings become `String`s only when
///   a node is built.
/// - A call from a `mutating` method to a non-mutating one that is not inlined copies the
///   whole parser first (a `memcpy` of this struct). Helpers on hot paths are therefore
///   `@inline(__always)` or `static` functions of the tokens they look at. The parser is
///   also noncopyable, which removes such copies from debug builds, where each one took
///   stack space in every recursive frame (about a quarter of the stack at the nesting
///   limit).
/// - Functions that only dispatch (`parseNegation`, `parseUnary`, `parsePostfix`, …) and
///   the pieces split out of recursive functions (`parseQuantifier`, …) are
///   `@inline(__always)`: optimised builds fold them into their callers, while debug
///   builds, which ignore the attribute, keep the small separate frames that bound their
///   stack use at the nesting limit.
struct Parser: ~Copyable {
  let tokens: [Lexeme]
  let arguments: [SiftValue]
  let options: ParseOptions
  /// The text being parsed (valid for the parse only): names and strings are read from it
  /// when nodes are built, and positions are named from it in hints.
  let source: UnsafeBufferPointer<UInt8>
  var index = 0
  var depth = 0
  var specifierCount: Int
  /// Results of the two readings of a `(` at a predicate's start, by token index.
  /// (The memos start as `Dictionary()`, not `[:]`: the literal goes through
  /// `init(dictionaryLiteral:)` at run time, on every parse.)
  var groupMemo = [Int: Result<(PredicateSyntax, Int), SyntaxError>]()
  var comparisonMemo = [Int: Result<(PredicateSyntax, Int), SyntaxError>]()
  /// Parenthesised expressions already parsed, by the token index of their `(`: the node,
  /// the index after the `)`, and how many nesting levels the parse went below its start.
  /// The comparison reading of a predicate-level `(` re-reads the expressions that failed
  /// group readings left behind; this keeps `((((a)))) == 1` linear.
  var expressionMemo = [Int: (node: ExpressionSyntax, end: Int, height: Int)]()
  /// How many readings of a predicate-level `(` are in progress. Only such a reading ever
  /// rewinds the cursor, so only what is parsed inside one can be read twice: results are
  /// memoised only then, and a parse without such a `(` touches no dictionary at all.
  var speculation = 0
  /// The deepest nesting reached since the last reset (for ``expressionMemo``).
  var deepest = 0
  /// Tokens consumed, counting re-reads after backtracking (a measure of parsing work).
  var advances = 0
  /// A limit error ends the parse at once; backtracking must not hide it.
  var limitError: SyntaxError?

  init(
    tokens: [Lexeme], specifierCount: Int, source: UnsafeBufferPointer<UInt8>, arguments: [SiftValue],
    options: ParseOptions
  ) {
    self.tokens = tokens
    self.specifierCount = specifierCount
    self.source = source
    self.arguments = arguments
    self.options = options
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
    // Arguments beyond the specifiers are ignored, as Apple ignores them
    // (``PredicateSyntax/parseReportingUnusedArguments(_:arguments:options:)`` counts them).
    return predicate
  }

  var current: Lexeme {
    @inline(__always) get { tokens[index] }
  }

  @inline(__always)
  func peek(_ offset: Int = 1) -> Lexeme {
    tokens[min(index + offset, tokens.count - 1)]
  }

  @inline(__always)
  mutating func advance() -> Lexeme {
    advances += 1
    let token = tokens[index]
    if index < tokens.count - 1 { index += 1 }
    return token
  }

  /// The name an identifier token spells (without the `#` of `#word`).
  @inline(__always)
  func name(of token: Lexeme) -> String {
    let start = if case .identifier(escaped: true) = token.kind { token.range.start + 1 } else { token.range.start }
    return sourceText(start, token.range.end)
  }

  /// The key a key token names: an identifier's name, or a quoted key's decoded text.
  func keyName(of token: Lexeme) -> String {
    guard case .quotedKey(let escaped) = token.kind else { return name(of: token) }
    return Lexer.stringValue(
      source, range: SourceRange(start: token.range.start + 1, end: token.range.end), escaped: escaped)
  }

  /// The name of a `$variable` token, without the `$` (or `$#`).
  @inline(__always)
  func variableName(of token: Lexeme) -> String {
    sourceText(Lexer.variableNameStart(source, range: token.range), token.range.end)
  }

  /// The conversion of a format specifier token: its last byte.
  @inline(__always)
  func specifier(of token: Lexeme) -> FormatSpecifier {
    FormatSpecifier(conversion: source[token.range.end - 1])
  }

  /// The value of a string literal token.
  @inline(__always)
  func stringValue(of token: Lexeme) -> String {
    guard case .string(let escaped) = token.kind else { preconditionFailure("not a string token") }
    return Lexer.stringValue(source, range: token.range, escaped: escaped)
  }

  /// The range from the start of token `from` to the end of the last consumed token.
  @inline(__always)
  func range(from start: Int) -> SourceRange {
    let last = max(start, index - 1)
    return tokens[start].range.union(tokens[last].range)
  }

  @inline(__always)
  func isPunct(_ p: Punct) -> Bool {
    if case .punct(p) = current.kind { return true }
    return false
  }

  @inline(__always)
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
  mutating func expect(_ p: Punct, _ context: StaticString, opening: Lexeme? = nil, hint: StaticString? = nil)
    throws(SyntaxError)
  {
    guard accept(p) else { throw expected(p, "\(context)", opening: opening, hint: hint.map { "\($0)" }) }
  }

  @inline(never)
  func expected(_ p: Punct, _ context: String, opening: Lexeme?, hint: String?) -> SyntaxError {
    var hint = hint
    if let opening {
      hint = "to match the '\(spelling(of: opening))' at \(location(of: opening.range.start))"
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
  mutating func enter(_ opening: Lexeme) throws(SyntaxError) {
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

  func describe(_ token: Lexeme) -> String {
    switch token.kind {
    case .end: "end of input"
    case .identifier: "'\(name(of: token))'"
    case .keyword(let k): "keyword \(k.rawValue)"
    case .integer(let v): "number \(v)"
    case .integerMinMagnitude: "number 9223372036854775808"
    case .double(let v): "number \(v)"
    case .string: "string " + Self.quoted(stringValue(of: token))
    case .quotedKey: "key #" + Self.quoted(keyName(of: token))
    case .variable: "variable $\(variableName(of: token))"
    case .specifier: "format specifier"
    case .percentLiteral: "'%%'"
    case .punct(let p): "'\(p.rawValue)'"
    }
  }

  /// How `token` is written, for messages.
  func spelling(of token: Lexeme) -> String {
    switch token.kind {
    case .punct(let p): p.rawValue
    case .keyword(let k): k.rawValue
    case .identifier: name(of: token)
    default: "token"
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

extension ExpressionSyntax {
  /// Parses an expression on its own, as `NSExpression(format:)` does (`a.b + 1`,
  /// `sum:(x)`, `$x := 2`), binding `arguments` to its specifiers.
  public init(parsing text: String, arguments: [SiftValue] = [], options: ParseOptions = .default)
    throws(PredicateSyntaxError)
  {
    var text = text
    let result = text.withUTF8 { bytes in
      Result { () throws(SyntaxError) -> ExpressionSyntax in
        guard bytes.count <= options.limits.maxInputLength else {
          throw SyntaxError(
            "expression is \(bytes.count) bytes long; the limit is \(options.limits.maxInputLength)",
            at: SourceRange(start: options.limits.maxInputLength, end: bytes.count),
            hint: "the limit is SyntaxLimits.maxInputLength")
        }
        let (tokens, specifierCount) = try Lexer.lex(bytes)
        var parser = Parser(
          tokens: tokens, specifierCount: specifierCount, source: bytes, arguments: arguments, options: options)
        let expression = try parser.parseStandaloneExpression()
        try CanonicalLengthCheck.check(
          expression, textBytes: bytes.count, arguments: arguments.prefix(specifierCount),
          limit: options.limits.maxInputLength)
        return expression
      }
    }
    switch result {
    case .success(let e): self = e
    case .failure(let error): throw PredicateSyntaxError(error, source: text)
    }
  }
}

extension Parser {
  /// An expression, then the end of the input.
  mutating func parseStandaloneExpression() throws(SyntaxError) -> ExpressionSyntax {
    guard Self.startsExpression(current) else { throw expressionExpected(after: nil) }
    let e = try parseExpression()
    guard case .end = current.kind else {
      throw SyntaxError(
        "unexpected \(describe(current)) after the end of the expression", at: current.range,
        hint: "an expression has no comparison; a predicate is written with SiftPredicate")
    }
    return e
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

  /// Parses like ``init(parsing:arguments:options:)`` and also says how many arguments
  /// went unused: Apple ignores arguments beyond the format's specifiers (its own guide
  /// passes two to `%K like '%@'`, whose quoted `%@` is text), and so does Sift; a caller
  /// that wants to warn about them gets the count here.
  public static func parseReportingUnusedArguments(
    _ text: String, arguments: [SiftValue] = [], options: ParseOptions = .default
  ) throws(PredicateSyntaxError) -> (predicate: PredicateSyntax, unusedArguments: Int) {
    var text = text
    let result = text.withUTF8 { bytes in
      Result { () throws(SyntaxError) -> (PredicateSyntax, Int) in
        var work = 0
        var specifiers = 0
        let predicate = try parse(bytes, arguments: arguments, options: options, work: &work, specifiers: &specifiers)
        return (predicate, max(0, arguments.count - specifiers))
      }
    }
    switch result {
    case .success(let (predicate, unused)): return (predicate, unused)
    case .failure(let error): throw PredicateSyntaxError(error, source: text)
    }
  }

  /// How many of `argumentCount` arguments `text` leaves unused (its format specifiers
  /// take the first ones); 0 when the text does not lex.
  public static func unusedArgumentCount(in text: String, arguments argumentCount: Int) -> Int {
    var text = text
    let specifiers = text.withUTF8 { bytes in (try? Lexer.lex(bytes))?.specifierCount }
    guard let specifiers else { return 0 }
    return max(0, argumentCount - specifiers)
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
    var specifiers = 0
    return try parse(bytes, arguments: arguments, options: options, work: &work, specifiers: &specifiers)
  }

  static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, arguments: [SiftValue], options: ParseOptions, work: inout Int,
    specifiers: inout Int
  ) throws(SyntaxError) -> PredicateSyntax {
    guard bytes.count <= options.limits.maxInputLength else {
      throw SyntaxError(
        "predicate is \(bytes.count) bytes long; the limit is \(options.limits.maxInputLength)",
        at: SourceRange(start: options.limits.maxInputLength, end: bytes.count),
        hint: "the limit is SyntaxLimits.maxInputLength")
    }
    let (tokens, specifierCount) = try Lexer.lex(bytes)
    specifiers = specifierCount
    var parser = Parser(
      tokens: tokens, specifierCount: specifierCount, source: bytes, arguments: arguments, options: options)
    defer { work = parser.advances }
    let predicate = try parser.parseFormatString()
    try CanonicalLengthCheck.check(
      predicate, textBytes: bytes.count, arguments: arguments.prefix(specifierCount),
      limit: options.limits.maxInputLength)
    return predicate
  }
}
