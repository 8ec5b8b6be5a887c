/// Where the code of a shape reads one of its parameters, and what a predicate's constant
/// for it compiles to (``Compiler/compileShape(_:parameters:slots:limits:)``).
enum ParameterBinding: Sendable {
  /// The constant as a value (`compareConst`, `loadConst`).
  case value(Int)
  /// The set of an `IN {strings}` test, and the constant's value slot.
  case set(value: Int, object: Int, options: ComparisonOptions)
  /// The needle of a string test, and the constant's value slot.
  case needle(value: Int, object: Int, options: ComparisonOptions, test: NeedleTest)
}

extension Compiler {
  /// The code of a *shape* (``ShapeExtraction``: a folded tree whose constants are the
  /// parameters `$__c0`, `$__c1`, …), compiled once for every predicate of the shape, with
  /// `parameters` (one predicate's constants) choosing the instructions. Each parameter
  /// gets value and object slots of its own, and the bindings say where, so another
  /// predicate of the shape runs the same code with its constants in those slots (its
  /// constants must be of the same kinds: ``ShapeKey``). The pool returned is that
  /// predicate's.
  static func compileShape(
    _ shape: PredicateSyntax, parameters: [SiftValue], slots: SlotResolver?, limits: EvaluationLimits
  ) throws(SyntaxError) -> (program: Program, bindings: [ParameterBinding?]) {
    var compiler = Compiler(slots: slots, functions: SiftFunctions(), limits: limits)
    compiler.parameters = parameters
    compiler.bindings = Array(repeating: nil, count: parameters.count)
    try compiler.predicate(shape)
    compiler.emit(.ret, range: shape.range)
    let program = Program(
      compiler.program, functions: SiftFunctions(), regexLimits: limits.regex, maxSteps: limits.maxSteps)
    try Verifier.verify(program, range: shape.range)
    return (program, compiler.bindings)
  }
}
