/// The key of a shared shape: its tree and the limits its program is compiled with.
struct ShapeKey: Hashable, Sendable {
  var syntax: PredicateSyntax
  var limits: EvaluationLimits
  /// Which constants are kept flattened (``ConstantSlice``).
  var flattened: UInt64
}

/// A shape (``ShapeExtraction``) and how its predicates are evaluated: one program shared
/// by every predicate of the shape, the constants bound as variables, or, for a predicate
/// that cannot share (a schema, its own variables or functions, a shape whose program did
/// not compile), that predicate's own compiled program.
final class PredicateShape: Sendable {
  /// The folded tree with `$__cN` for the constants.
  let syntax: PredicateSyntax
  let limits: EvaluationLimits
  /// The shared program (nil for a predicate of its own).
  let program: Program?
  /// The predicate of an unshared shape.
  let predicate: SiftPredicate?
  /// What the index can use of it.
  let plan: ClausePlan
  /// The shape evaluated without the VM, when it is a plain conjunction (never for an
  /// unshared shape).
  let direct: DirectConjunction?
  /// The variable name of each constant.
  let names: [String]
  /// How many constants its predicates have.
  let constantCount: Int
  /// Which of them are flattened (``ConstantSlice``).
  let flattened: UInt64
  /// The key it is shared under (nil: a predicate of its own).
  let key: ShapeKey?

  /// A shared shape; throws when its program does not compile. `path` numbers the key
  /// paths its comparisons read (``PathValues``).
  init(shared key: ShapeKey, constantCount: Int, path: ([String]) -> Int) throws(SyntaxError) {
    syntax = key.syntax
    limits = key.limits
    program = try Compiler.compile(key.syntax, slots: nil, functions: SiftFunctions(), limits: key.limits)
    predicate = nil
    plan = ClausePlan(key.syntax)
    direct = DirectConjunction(key.syntax, path: path)
    names = (0..<constantCount).map(ShapeExtraction.name)
    self.constantCount = constantCount
    flattened = key.flattened
    self.key = key
  }

  /// The shape of one predicate that keeps its own program. `indexable` false when the
  /// tree uses variable names the shapes reserve: its `$__cN` are not constants.
  init(own predicate: SiftPredicate, syntax: PredicateSyntax, constantCount: Int, indexable: Bool) {
    self.syntax = syntax
    limits = predicate.options.limits
    self.predicate = predicate
    program = nil
    plan = indexable ? ClausePlan(syntax) : .opaque
    direct = nil
    names = []
    self.constantCount = constantCount
    flattened = 0
    key = nil
  }

  var isShared: Bool { program != nil }

  /// Whether the predicate of this shape with `constants` matches `root` (`string`: the
  /// same root, as the caller's string, for the predicate's own `matches(_:)` on strings).
  /// `variables` is scratch space reused across calls.
  func matches(
    _ values: PathValues, string: String?, constants: ConstantSlice, variables: inout [String: SiftValue]
  ) -> Bool {
    if let direct, let answer = direct.evaluate(values, constants, limits: limits) { return answer }
    if let program { return run(program, values.root, string: string, constants: constants, variables: &variables) }
    let predicate = predicate.unsafelyUnwrapped
    if let string { return predicate.matches(string) }
    return predicate.matches(values.root.pointee)
  }

  private func run(
    _ program: Program, _ root: UnsafePointer<SiftValue>, string: String?, constants: ConstantSlice,
    variables: inout [String: SiftValue]
  ) -> Bool {
    for (i, name) in names.enumerated() { variables[name] = constants.value(i) }
    var environment = Environment(variables: variables, stepsLeft: limits.maxSteps)
    let answer: Bool
    do throws(EvaluationError) {
      answer = try Machine.run(program, input: .value(root), environment: &environment)
    } catch {
      // A variable costs the VM more steps than the constant it stands for (a variable
      // set is walked, a constant one hashed), so only the budget can make the two
      // disagree: then the predicate itself decides.
      return error.kind == .limitExceeded ? exact(root, string: string, constants: constants) : false
    }
    // Close to the budget, the constant program (which can charge a little differently)
    // decides too.
    if limits.maxSteps - environment.stepsLeft > limits.maxSteps / 2 {
      return exact(root, string: string, constants: constants)
    }
    return answer
  }

  /// The predicate compiled from its own constants: slow (a compile per call), and only
  /// reached for evaluations that run a good part of the step budget on the record's
  /// values. Constants heavy enough to do that on their own never share a shape
  /// (``PreparedPredicate/constantsOutweighSharing(_:limits:)``), so the compile is of a
  /// small predicate, and cheap next to the evaluation that needed it.
  @inline(never)
  private func exact(_ root: UnsafePointer<SiftValue>, string: String?, constants: ConstantSlice) -> Bool {
    let tree = ShapeExtraction.substituting(constants.values, in: syntax)
    guard let predicate = try? SiftPredicate(syntax: tree, options: CompileOptions(limits: limits)) else {
      return false
    }
    if let string { return predicate.matches(string) }
    return predicate.matches(root.pointee)
  }
}
