/// An expression on its own, as `NSExpression(format:)` makes one: `a.b + 1`,
/// `sum:(prices)`, `FUNCTION(name, 'uppercaseString')`, evaluated against an object to a
/// value. Compiled once, like a predicate, and evaluated by the same VM under the same
/// limits. Sendable; value semantics.
public struct SiftExpression: Sendable, Hashable, CustomStringConvertible {
  private let program: Program
  /// The syntax tree, arguments bound.
  public let syntax: ExpressionSyntax
  /// The options it was compiled with.
  public let options: CompileOptions

  /// Parses and compiles `format`, binding `arguments` to its specifiers.
  public init(format: String, arguments: [SiftValue] = [], options: CompileOptions = CompileOptions())
    throws(PredicateSyntaxError)
  {
    let syntax = try ExpressionSyntax(parsing: format, arguments: arguments, options: options.parse)
    try self.init(syntax: syntax, source: format, options: options)
  }

  /// `NSExpression(format:_:…)`: the arguments are any Swift or Foundation values
  /// (``SiftValue/init(argument:)``).
  public init(format: String, _ first: Any?, _ rest: Any?...) throws(PredicateSyntaxError) {
    var values: [SiftValue] = []
    for (i, argument) in ([first] + rest).enumerated() {
      guard let value = SiftValue.argument(argument) else {
        throw PredicateSyntaxError(
          SyntaxError("argument \(i + 1) is a value Sift cannot read", at: .at(0)), source: format)
      }
      values.append(value)
    }
    try self.init(format: format, arguments: values)
  }

  /// Compiles a syntax tree.
  public init(syntax: ExpressionSyntax, options: CompileOptions = CompileOptions()) throws(PredicateSyntaxError) {
    try self.init(syntax: syntax, source: nil, options: options)
  }

  private init(syntax: ExpressionSyntax, source: String?, options: CompileOptions) throws(PredicateSyntaxError) {
    do {
      program = try Compiler.compileExpression(
        syntax, slots: options.slotResolver, functions: options.functions, limits: options.limits)
    } catch {
      throw PredicateSyntaxError(error, source: source ?? syntax.description)
    }
    self.syntax = syntax
    self.options = options
  }

  /// The canonical text (Apple's `description` of an NSExpression).
  public var expressionFormat: String { syntax.description }

  /// The canonical text.
  public var description: String { expressionFormat }

  /// The value of the expression for `object` (`SELF`), with `$variables`.
  public func value(with object: SiftValue, variables: [String: SiftValue] = Dictionary()) throws(EvaluationError)
    -> SiftValue
  {
    try withUnsafePointer(to: object) { (p) throws(EvaluationError) -> SiftValue in
      var environment = Environment(variables: variables, stepsLeft: options.limits.maxSteps)
      return try Machine.value(program.executable, input: ValueReader(root: p), environment: &environment)
    }
  }

  /// The value for Foundation values or anything ``SiftValue/init(argument:)`` reads.
  public func value(with object: Any?, variables: [String: SiftValue] = Dictionary()) throws(EvaluationError)
    -> SiftValue
  {
    if let value = object as? SiftValue { return try self.value(with: value, variables: variables) }
    guard let converted = SiftValue.argument(object) else {
      let type = object.map { String(describing: Swift.type(of: $0)) } ?? "nil"
      throw EvaluationError(.typeMismatch, "the object is a \(type), which Sift cannot read")
    }
    return try value(with: converted, variables: variables)
  }

  /// `NSExpression.expressionValue(with:context:)`: the value for `object`; the context's
  /// entries are the `$variables`. Returns nil when evaluation fails, as a porting user's
  /// `as?` expects; ``value(with:variables:)-(SiftValue,_)`` gives the error.
  public func expressionValue(with object: Any?, context: [String: Any]? = nil) -> SiftValue? {
    var variables: [String: SiftValue] = [:]
    for (name, v) in context ?? [:] {
      guard let converted = SiftValue.argument(v) else { return nil }
      variables[name] = converted
    }
    return try? value(with: object, variables: variables)
  }

  /// Equal when the trees and the options (all but the function registry) are.
  public static func == (a: SiftExpression, b: SiftExpression) -> Bool {
    a.syntax == b.syntax && a.options.comparableKey == b.options.comparableKey
  }

  /// Hashes the tree.
  public func hash(into hasher: inout Hasher) { hasher.combine(syntax) }
}
