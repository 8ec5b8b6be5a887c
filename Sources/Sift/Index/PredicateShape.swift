/// The key of a shared shape: its tree and the limits its program is compiled with.
struct ShapeKey: Hashable, Sendable {
  var syntax: PredicateSyntax
  var limits: EvaluationLimits
}

/// A shape (``ShapeExtraction``) and how its predicates are evaluated: one program shared
/// by every predicate of the shape, the constants bound as variables, or, for a predicate
/// that cannot share (a schema, its own variables or functions, a shape whose program did
/// not compile), that predicate's own compiled program.
final class PredicateShape: Sendable {
  enum Evaluator: Sendable {
    case shared(Program)
    case own(SiftPredicate)
  }

  /// The folded tree with `$__cN` for the constants.
  let syntax: PredicateSyntax
  let limits: EvaluationLimits
  let evaluator: Evaluator
  /// What the index can use of it.
  let plan: ClausePlan
  /// The shape evaluated without the VM, when it is a plain conjunction.
  let direct: DirectConjunction?
  /// The variable name of each constant.
  let names: [String]

  /// A shared shape; throws when its program does not compile.
  init(shared key: ShapeKey, constantCount: Int) throws(SyntaxError) {
    syntax = key.syntax
    limits = key.limits
    evaluator = .shared(try Compiler.compile(key.syntax, slots: nil, functions: SiftFunctions(), limits: key.limits))
    plan = ClausePlan(key.syntax)
    direct = DirectConjunction(key.syntax)
    names = (0..<constantCount).map(ShapeExtraction.name)
  }

  /// The shape of one predicate that keeps its own program. `indexable` false when the
  /// tree uses variable names the shapes reserve: its `$__cN` are not constants.
  init(own predicate: SiftPredicate, syntax: PredicateSyntax, indexable: Bool) {
    self.syntax = syntax
    limits = predicate.options.limits
    evaluator = .own(predicate)
    plan = indexable ? ClausePlan(syntax) : .opaque
    direct = nil
    names = []
  }

  var isShared: Bool {
    if case .shared = evaluator { return true }
    return false
  }

  /// Whether the predicate of this shape with `constants` matches `root` (`string`: the
  /// same root, as the caller's string, for the predicate's own `matches(_:)` on strings).
  /// `variables` is scratch space reused across calls.
  func matches(
    _ root: UnsafePointer<SiftValue>, string: String?, constants: [SiftValue],
    variables: inout [String: SiftValue]
  ) -> Bool {
    switch evaluator {
    case .own(let predicate):
      if let string { return predicate.matches(string) }
      return predicate.matches(root.pointee)
    case .shared(let program):
      if let direct, let answer = direct.evaluate(root.pointee, constants, limits: limits) { return answer }
      return run(program, root, string: string, constants: constants, variables: &variables)
    }
  }

  private func run(
    _ program: Program, _ root: UnsafePointer<SiftValue>, string: String?, constants: [SiftValue],
    variables: inout [String: SiftValue]
  ) -> Bool {
    for (i, name) in names.enumerated() { variables[name] = constants[i] }
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
  /// reached for evaluations that run a good part of the step budget.
  @inline(never)
  private func exact(_ root: UnsafePointer<SiftValue>, string: String?, constants: [SiftValue]) -> Bool {
    let tree = ShapeExtraction.substituting(constants, in: syntax)
    guard let predicate = try? SiftPredicate(syntax: tree, options: CompileOptions(limits: limits)) else {
      return false
    }
    if let string { return predicate.matches(string) }
    return predicate.matches(root.pointee)
  }
}
