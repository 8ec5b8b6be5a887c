/// A compiled predicate: parse and compile once, evaluate many times, from any thread.
///
/// ```swift
/// let allowed = try SiftPredicate(format: "SELF IN %@", arguments: [["work", "family"]])
/// allowed.matches("work")   // true
/// ```
public struct SiftPredicate: Sendable, CustomStringConvertible {
  /// The format string as given.
  public let format: String
  /// The arguments bound to its specifiers.
  public let arguments: [SiftValue]
  /// Variables substituted with ``withSubstitutionVariables(_:)``.
  public let substitutions: [String: SiftValue]
  /// The options it was compiled with.
  public let options: CompileOptions
  /// The syntax tree (arguments and substitutions bound).
  public let syntax: PredicateSyntax
  let program: Program

  /// Parses and compiles `format`, binding `arguments` to its `%@`, `%K` and numeric
  /// specifiers. Syntax and compile errors (an invalid constant `MATCHES` pattern, a key
  /// missing from the schema) throw a ``PredicateSyntaxError`` with a rendered diagnostic.
  public init(format: String, arguments: [SiftValue] = [], options: CompileOptions = CompileOptions())
    throws(PredicateSyntaxError)
  {
    try self.init(format: format, arguments: arguments, substitutions: [:], options: options)
  }

  init(format: String, arguments: [SiftValue], substitutions: [String: SiftValue], options: CompileOptions)
    throws(PredicateSyntaxError)
  {
    var syntax = try PredicateSyntax(parsing: format, arguments: arguments, options: options.parse)
    if !substitutions.isEmpty { syntax = syntax.substitutingVariables(substitutions) }
    do {
      program = try Compiler.compile(syntax, schema: options.schema)
    } catch {
      throw PredicateSyntaxError(error, source: format)
    }
    self.format = format
    self.arguments = arguments
    self.substitutions = substitutions
    self.options = options
    self.syntax = syntax
  }

  /// The canonical text (Apple's `predicateFormat`).
  public var predicateFormat: String { syntax.predicateFormat }

  /// The canonical text.
  public var description: String { predicateFormat }

  /// A copy with `$variables` replaced by values, like
  /// `NSPredicate.withSubstitutionVariables(_:)`.
  public func withSubstitutionVariables(_ variables: [String: SiftValue]) throws(PredicateSyntaxError) -> SiftPredicate
  {
    try SiftPredicate(
      format: format, arguments: arguments, substitutions: substitutions.merging(variables) { _, new in new },
      options: options)
  }

  /// A stable listing of the compiled bytecode.
  public var bytecodeListing: String { Disassembler.listing(program) }

  // MARK: - Evaluation

  func run(_ input: Input, variables: [String: SiftValue]) throws(EvaluationError) -> Bool {
    var environment = Environment(
      variables: variables, functions: options.functions, stepsLeft: options.limits.maxSteps)
    return try Machine.run(program, input: input, environment: &environment)
  }

  /// Evaluates with a string as `SELF` (the Focus case: `SELF IN %@` against a
  /// notification's filterCriteria). Throws ``EvaluationError`` with the failing range.
  public func evaluate(with string: String, variables: [String: SiftValue] = [:]) throws(EvaluationError) -> Bool {
    try run(.value(.string(string)), variables: variables)
  }

  /// Evaluates against a JSON-like value (dictionaries make key paths work).
  public func evaluate(with value: SiftValue, variables: [String: SiftValue] = [:]) throws(EvaluationError) -> Bool {
    try run(.value(value), variables: variables)
  }

  /// Evaluates against an object that answers keys itself.
  public func evaluate(with object: some SiftKeyValueCoding, variables: [String: SiftValue] = [:])
    throws(EvaluationError) -> Bool
  {
    try run(.object(object), variables: variables)
  }

  /// Evaluates against a schema-bound record (fastest when compiled with its schema).
  public func evaluate(with record: SiftRecord, variables: [String: SiftValue] = [:]) throws(EvaluationError) -> Bool {
    try run(.record(record), variables: variables)
  }

  /// Evaluates with a string as `SELF`; **returns false when evaluation fails** (use
  /// ``evaluate(with:variables:)-(String,_)`` to see the error).
  public func matches(_ string: String) -> Bool { (try? evaluate(with: string)) ?? false }

  /// Evaluates against a value; **returns false when evaluation fails**.
  public func matches(_ value: SiftValue) -> Bool { (try? evaluate(with: value)) ?? false }

  /// Evaluates against a record; **returns false when evaluation fails**.
  public func matches(_ record: SiftRecord) -> Bool { (try? evaluate(with: record)) ?? false }
}

/// How to compile: parse options, an optional schema, custom functions and limits.
public struct CompileOptions: Sendable {
  /// Parse limits and the AND/OR precedence choice.
  public var parse: ParseOptions
  /// When set, key paths resolve to record slots at compile time.
  public var schema: SiftSchema?
  /// Functions for `FUNCTION(receiver, 'name', …)`.
  public var functions: SiftFunctions
  /// Evaluation limits.
  public var limits: EvaluationLimits

  /// Creates options; every parameter has a default.
  public init(
    parse: ParseOptions = .default, schema: SiftSchema? = nil, functions: SiftFunctions = SiftFunctions(),
    limits: EvaluationLimits = EvaluationLimits()
  ) {
    self.parse = parse
    self.schema = schema
    self.functions = functions
    self.limits = limits
  }
}
