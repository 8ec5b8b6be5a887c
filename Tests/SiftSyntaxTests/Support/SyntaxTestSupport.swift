import Testing

@testable import SiftSyntax

// Small helpers shared by the SiftSyntax test files.

/// All tokens of `text`, including the final `.end` token.
func lexAll(_ text: String) throws(SyntaxError) -> [Token] {
  var text = text
  let result = text.withUTF8 { bytes in
    Result { () throws(SyntaxError) in try Lexer.tokenize(bytes) }
  }
  return try result.get()
}

/// The token kinds of `text`, without the final `.end`.
func lexKinds(_ text: String) throws(SyntaxError) -> [Token.Kind] {
  try lexAll(text).dropLast().map(\.kind)
}

/// The lexer's error for `text`, or nil if it lexes.
func lexError(_ text: String) -> SyntaxError? {
  do {
    _ = try lexAll(text)
    return nil
  } catch {
    return error
  }
}

/// Parse options with the given precedence and limits.
func makeOptions(
  _ precedence: CompoundPrecedence = .orBindsTighter, limits: SyntaxLimits = SyntaxLimits()
) -> ParseOptions {
  ParseOptions(limits: limits, compoundPrecedence: precedence)
}

/// Parses `text`; the error is the rendered diagnostic.
func parse(
  _ text: String, _ arguments: [SiftValue] = [], _ precedence: CompoundPrecedence = .orBindsTighter,
  limits: SyntaxLimits = SyntaxLimits()
) throws(PredicateSyntaxError) -> PredicateSyntax {
  try PredicateSyntax(parsing: text, arguments: arguments, options: makeOptions(precedence, limits: limits))
}

/// The canonical text of `text`, or `error: <message>` when it does not parse.
func canonical(
  _ text: String, _ arguments: [SiftValue] = [], _ precedence: CompoundPrecedence = .orBindsTighter
) -> String {
  do {
    return try parse(text, arguments, precedence).predicateFormat
  } catch {
    return "error: " + error.error.message
  }
}

/// The parse error for `text`, or nil when it parses.
func parseError(
  _ text: String, _ arguments: [SiftValue] = [], _ precedence: CompoundPrecedence = .orBindsTighter,
  limits: SyntaxLimits = SyntaxLimits()
) -> PredicateSyntaxError? {
  do {
    _ = try parse(text, arguments, precedence, limits: limits)
    return nil
  } catch {
    return error
  }
}

/// The rendered diagnostic for `text` (`PredicateSyntaxError.description`), or
/// `"parsed: <canonical>"` if it unexpectedly parses.
func diagnostic(
  _ text: String, _ arguments: [SiftValue] = [], _ precedence: CompoundPrecedence = .orBindsTighter,
  limits: SyntaxLimits = SyntaxLimits()
) -> String {
  do {
    return "parsed: " + (try parse(text, arguments, precedence, limits: limits)).predicateFormat
  } catch {
    return error.description
  }
}

/// The text of `source` covered by `range` (byte offsets).
func slice(_ source: String, _ range: SourceRange) -> String {
  let bytes = Array(source.utf8)
  return String(decoding: bytes[range.start..<range.end], as: UTF8.self)
}

/// The expression on the left of a comparison predicate.
func lhs(_ p: PredicateSyntax) -> ExpressionSyntax? {
  if case .comparison(let c) = p.kind { return c.lhs }
  return nil
}

/// The expression on the right of a comparison predicate.
func rhs(_ p: PredicateSyntax) -> ExpressionSyntax? {
  if case .comparison(let c) = p.kind { return c.rhs }
  return nil
}
