/// The key of a shared shape: its tree, the limits its code is compiled with, and the kind
/// of each constant, which chooses the instruction that reads it (a string is a needle, a
/// list of strings a set, anything else a value).
struct ShapeKey: Hashable, Sendable {
  var syntax: PredicateSyntax
  var limits: EvaluationLimits
  var kinds: [UInt8]

  /// The kind of a constant, as the compiler chooses instructions by it.
  static func kind(_ v: SiftValue) -> UInt8 {
    switch v {
    case .string: return 1
    case .array(let a) where !a.isEmpty && a.allSatisfy(\.isString): return 2
    default: return 0
    }
  }
}

/// A shape (``ShapeExtraction``) and how its predicates are evaluated: one ``Code``
/// shared by every predicate of the shape, each predicate's constants bound into its
/// slots (``ParameterBinding``); or, for a predicate that cannot share (a schema, its own
/// variables or functions, constants too heavy to share, a shape whose code did not
/// compile), that predicate's own compiled program.
final class PredicateShape: @unchecked Sendable {
  /// The folded tree with `$__cN` for the constants.
  let syntax: PredicateSyntax
  let limits: EvaluationLimits
  /// The shared code, compiled for the first predicate of the shape (which keeps its
  /// pool alive: the slots no parameter binds are read from it); nil for a predicate of
  /// its own.
  let program: Program?
  let bindings: [ParameterBinding?]
  /// The predicate of an unshared shape.
  let predicate: SiftPredicate?
  /// What the index can use of it.
  let plan: ClausePlan
  /// How many constants its predicates have.
  let constantCount: Int
  /// The key it is shared under (nil: a predicate of its own).
  let key: ShapeKey?

  /// A shared shape, compiled for `constants` with `slots` (the set's schema); throws when
  /// its code does not compile.
  init(shared key: ShapeKey, constants: [SiftValue], slots: SlotResolver) throws(SyntaxError) {
    syntax = key.syntax
    limits = key.limits
    (program, bindings) = try Compiler.compileShape(key.syntax, parameters: constants, slots: slots, limits: key.limits)
    predicate = nil
    plan = ClausePlan(key.syntax)
    constantCount = constants.count
    self.key = key
  }

  /// The shape of one predicate that keeps its own program. `indexable` false when the
  /// tree uses variable names the shapes reserve: its `$__cN` are not constants.
  init(own predicate: SiftPredicate, syntax: PredicateSyntax, constantCount: Int, indexable: Bool) {
    self.syntax = syntax
    limits = predicate.options.limits
    self.predicate = predicate
    program = nil
    bindings = []
    plan = indexable ? ClausePlan(syntax) : .opaque
    self.constantCount = constantCount
    key = nil
  }

  /// How many values a predicate of this shape keeps (its code's value slots).
  var valueCount: Int { program?.code.valueCount ?? 0 }

  /// The values of a predicate of this shape with `constants`, in its code's slots.
  func values(_ constants: [SiftValue]) -> [SiftValue] {
    guard let program else { return [] }
    var values = program.pool.values
    for (k, binding) in bindings.enumerated() {
      switch binding {
      case .value(let slot)?, .set(let slot, _, _)?, .needle(let slot, _, _, _)?: values[slot] = constants[k]
      case nil: break
      }
    }
    return values
  }
}
