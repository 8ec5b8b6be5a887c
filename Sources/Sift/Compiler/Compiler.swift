/// Turns a syntax tree into a ``Program``: constant folding first, then code generation
/// with short-circuit jumps, specialised instructions for constant string operands, and a
/// source range for every instruction.
struct Compiler {
  var program = ProgramBuilder()
  /// Where key paths resolve to slots (a schema or a typed layout), if anywhere.
  let slots: SlotResolver?
  let functions: SiftFunctions
  /// Bound into every MATCHES pattern and used by constant folding.
  let limits: EvaluationLimits
  var nextRegister = 0
  /// Shape mode (``compileShape(_:parameters:slots:limits:)``): the constant each shape
  /// parameter stands for in the predicate compiled, and where the code reads each
  /// parameter (filled as the code is generated).
  var parameters: [SiftValue]? = nil
  var bindings: [ParameterBinding?] = []

  init(slots: SlotResolver?, functions: SiftFunctions, limits: EvaluationLimits) {
    self.slots = slots
    self.functions = functions
    self.limits = limits
    // One allocation each for the pools nearly every predicate uses, instead of growing
    // 1 -> 2 -> 4 (allocations are most of the cost of compiling a short predicate).
    program.code.reserveCapacity(32)
    program.ranges.reserveCapacity(32)
    program.names.reserveCapacity(8)
    program.comparisons.reserveCapacity(8)
  }

  /// `tiers` false keeps the plain boolean bytecode, never a test chain (``TestChain``):
  /// the reference the tests compare the tiers with.
  static func compile(
    _ predicate: PredicateSyntax, slots: SlotResolver?, functions: SiftFunctions = SiftFunctions(),
    limits: EvaluationLimits = EvaluationLimits(), tiers: Bool = true
  ) throws(SyntaxError) -> Program {
    // Constant patterns are checked before folding, so an invalid one is reported even
    // where folding removes the comparison (when nothing can fold, code generation
    // compiles every pattern anyway).
    var folded = predicate
    if ConstantFolder.mayFold(predicate) {
      try checkConstantPatterns(predicate)
      folded = ConstantFolder(limits: limits).fold(predicate)
    }
    let size = CompileSize(folded)
    if size.minimumInstructions > InstructionLimits.maxOperand {
      throw SyntaxError(
        "predicate is too large to compile (it needs at least \(size.minimumInstructions) instructions; "
          + "the limit is \(InstructionLimits.maxOperand))", at: predicate.range)
    }
    if size.patterns > limits.maxCompiledPatterns {
      throw SyntaxError(
        "predicate has \(size.patterns) MATCHES patterns; the limit is \(limits.maxCompiledPatterns)",
        at: predicate.range, hint: "the limit is EvaluationLimits.maxCompiledPatterns")
    }
    var compiler = Compiler(slots: slots, functions: functions, limits: limits)
    try compiler.predicate(folded)
    compiler.emit(.ret, range: predicate.range)
    let program = Program(
      compiler.program, functions: functions, regexLimits: limits.regex, maxSteps: limits.maxSteps, tiers: tiers)
    try Verifier.verify(program, range: predicate.range)
    return program
  }

  /// Every constant MATCHES pattern compiles, predicates nested in expressions (TERNARY,
  /// SUBQUERY) included.
  /// An expression on its own (``SiftExpression``): its value is left in register 0.
  static func compileExpression(
    _ expression: ExpressionSyntax, slots: SlotResolver?, functions: SiftFunctions, limits: EvaluationLimits
  ) throws(SyntaxError) -> Program {
    try checkConstantPatterns(.expression(expression))
    let folded = ConstantFolder(limits: limits).fold(expression)
    var compiler = Compiler(slots: slots, functions: functions, limits: limits)
    let result = compiler.allocateRegister()
    try compiler.expression(folded, into: result)
    compiler.emit(.ret, range: expression.range)
    let program = Program(compiler.program, functions: functions, regexLimits: limits.regex, maxSteps: limits.maxSteps)
    try Verifier.verify(program, range: expression.range)
    return program
  }

  static func checkConstantPatterns(_ p: PredicateSyntax) throws(SyntaxError) {
    if case .comparison(let c) = p.kind, c.op == .matches, case .constant(.string(let pattern)) = c.rhs.kind {
      do throws(RegexFailure) {
        _ = try RegexPattern(pattern, caseInsensitive: c.options.contains(.caseInsensitive))
      } catch {
        throw patternError(error, c.rhs.range)
      }
    }
    try SyntaxChild.predicate(p).forEachChild(checkConstantPatterns)
  }

  static func checkConstantPatterns(_ child: SyntaxChild) throws(SyntaxError) {
    switch child {
    case .predicate(let p): try checkConstantPatterns(p)
    case .expression(let e): try e.forEachChild(checkConstantPatterns)
    }
  }

  static func patternError(_ error: RegexFailure, _ range: SourceRange) -> SyntaxError {
    SyntaxError("invalid MATCHES pattern: \(error.message)", at: range)
  }

  // MARK: - Emission

  @discardableResult
  mutating func emit(_ op: Opcode, a: Int = 0, b: Int = 0, c: Int = 0, d: Int = 0, range: SourceRange) -> Int {
    program.code.append(Instruction(op, a: a, b: b, c: c, d: d))
    program.ranges.append(range)
    return program.code.count - 1
  }

  mutating func patchJump(_ at: Int, to target: Int) {
    let old = program.code[at]
    program.code[at] = Instruction(old.opcode, a: old.a, b: target, c: old.c, d: old.d)
  }

  mutating func allocateRegister() -> Int {
    let r = nextRegister
    nextRegister += 1
    program.registerCount = max(program.registerCount, nextRegister)
    return r
  }

  mutating func freeRegisters(to mark: Int) { nextRegister = mark }

  // Pools are shared only between identical entries: `String ==` is canonical
  // equivalence, which would merge a precomposed and a decomposed "é" that NSPredicate's
  // literal comparison tells apart.
  mutating func constant(_ v: SiftValue) -> Int {
    // Identical values are equal, so they are among the ones Swift's hashing finds.
    if let candidates = program.constantIndex[v],
      let i = candidates.first(where: { program.constants[$0].isIdentical(to: v) })
    {
      return i
    }
    program.constants.append(v)
    program.constantIndex[v, default: []].append(program.constants.count - 1)
    return program.constants.count - 1
  }

  /// The constant `e` is, with the shape parameter it stands for (nil for a literal).
  func constantOperand(_ e: ExpressionSyntax) -> (SiftValue, Int?)? {
    switch e.kind {
    case .constant(let v): return (v, nil)
    case .variable:
      guard let parameters, let k = ShapeExtraction.parameter(e), k < parameters.count else { return nil }
      return (parameters[k], k)
    default: return nil
    }
  }

  /// A value slot of its own for a parameter's constant (never shared: other predicates
  /// bind other values to it).
  mutating func parameterSlot(_ v: SiftValue) -> Int {
    program.constants.append(v)
    return program.constants.count - 1
  }

  /// A new object slot (objects are per comparison: never shared).
  mutating func object(_ o: PoolObject) -> Int {
    program.objects.append(o)
    return program.objects.count - 1
  }

  mutating func name(_ s: String) -> Int {
    // Equal names must also match bytewise.
    if let candidates = program.nameIndex[s],
      let i = candidates.first(where: { program.names[$0].utf8.elementsEqual(s.utf8) })
    {
      return i
    }
    program.names.append(s)
    program.nameIndex[s, default: []].append(program.names.count - 1)
    return program.names.count - 1
  }

  mutating func comparison(_ d: ComparisonDescriptor) -> Int {
    if let candidates = program.comparisonIndex[d],
      let i = candidates.first(where: { program.comparisons[$0].isIdentical(to: d) })
    {
      return i
    }
    program.comparisons.append(d)
    program.comparisonIndex[d, default: []].append(program.comparisons.count - 1)
    return program.comparisons.count - 1
  }

  /// Where a test instruction should read `e`: in place for SELF and for a key path of
  /// one plain key (a record slot or the input's key), else from a register the code
  /// emitted here fills.
  mutating func subject(_ e: ExpressionSyntax) throws(SyntaxError) -> (Int, SubjectSource) {
    switch e.kind {
    case .evaluatedObject:
      return (0, .evaluatedObject)
    case .keyPath(nil, let keys) where !keys.isEmpty && !keys[0].isCollectionOperator:
      if let slots {
        guard let (slot, consumed) = slots.resolve(keys[...]), consumed == keys.count else {
          return (try expression(e), .register)
        }
        return (slot, .slot)
      }
      guard keys.count == 1 else { return (try expression(e), .register) }
      return (name(keys[0]), .root)
    default:
      return (try expression(e), .register)
    }
  }

  // MARK: - Predicates (result in the flag)

  mutating func predicate(_ p: PredicateSyntax) throws(SyntaxError) {
    switch p.kind {
    case .constant(let b):
      emit(.setFlag, d: b ? 1 : 0, range: p.range)
    case .not(let inner):
      try predicate(inner)
      emit(.not, range: p.range)
    case .and(let operands), .or(let operands):
      let isAnd: Bool
      if case .and = p.kind { isAnd = true } else { isAnd = false }
      var exits: [Int] = []
      for (i, operand) in operands.enumerated() {
        try predicate(operand)
        if i < operands.count - 1 {
          exits.append(emit(isAnd ? .jumpIfFalse : .jumpIfTrue, range: p.range))
        }
      }
      for exit in exits { patchJump(exit, to: program.code.count) }
    case .comparison(let c):
      try comparison(c, range: p.range)
    case .customSelector(let lhs, let selector, let rhs):
      // `lhs sel: rhs` is the function registered as `sel:` (or the built-in one) called on
      // `lhs` with `rhs`, and true when it answers true.
      let call = ExpressionSyntax(.customFunction(receiver: lhs, name: selector, arguments: [rhs]), range: p.range)
      try comparison(ComparisonSyntax(call, .equal, ExpressionSyntax(.constant(.bool(true)))), range: p.range)
    }
  }

  mutating func comparison(_ c: ComparisonSyntax, range: SourceRange) throws(SyntaxError) {
    if let layout = slots?.layout { try FieldTypeCheck.check(c, layout, range: range) }
    let mark = nextRegister
    defer { freeRegisters(to: mark) }
    let quantifierCode = c.quantifier.map { $0 == .any ? 1 : 2 } ?? 0
    let folding: StringCostClass =
      c.options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty ? .bytes : .folded
    if let (k, parameter) = constantOperand(c.rhs) {
      var descriptor = ComparisonDescriptor(op: c.op, options: c.options, quantifier: c.quantifier, constantSlot: nil)
      /// The value slot of the constant: a parameter's own slot, bound per predicate.
      func slot(_ binding: (Int) -> ParameterBinding?) -> Int {
        guard let parameter else { return constant(k) }
        let slot = parameterSlot(k)
        bindings[parameter] = binding(slot)
        return slot
      }
      switch (c.op, k) {
      case (.in, .array(let elements)) where !elements.isEmpty && elements.allSatisfy(\.isString):
        let (lhs, source) = try subject(c.lhs)
        let o = object(.set(StringSet(elements, options: c.options)))
        descriptor.constantSlot = slot { .set(value: $0, object: o, options: c.options) }
        emit(
          .inStrings, a: lhs, b: o, c: comparison(descriptor),
          d: source.modifier(quantifier: quantifierCode, cost: folding),
          range: range)
        return
      case (.equal, .string(let s)), (.beginsWith, .string(let s)), (.endsWith, .string(let s)),
        (.contains, .string(let s)):
        let (lhs, source) = try subject(c.lhs)
        let test = NeedleTest(c.op)!
        let o = object(.needle(StringNeedle(s, options: c.options, test: test)))
        descriptor.constantSlot = slot { .needle(value: $0, object: o, options: c.options, test: test) }
        emit(
          .stringTest, a: lhs, b: o,
          c: comparison(descriptor), d: source.modifier(quantifier: quantifierCode, cost: folding),
          range: range)
        return
      case (.notEqual, .string(let s)) where c.quantifier == nil:
        let (lhs, source) = try subject(c.lhs)
        descriptor.op = .equal
        let o = object(.needle(StringNeedle(s, options: c.options)))
        descriptor.constantSlot = slot { .needle(value: $0, object: o, options: c.options, test: .equal) }
        emit(
          .stringTest, a: lhs, b: o, c: comparison(descriptor),
          d: source.modifier(quantifier: 0, cost: folding),
          range: range)
        emit(.not, range: range)
        return
      case (.like, .string(let s)):
        let (lhs, source) = try subject(c.lhs)
        descriptor.constantSlot = slot { _ in nil }
        emit(
          .like, a: lhs, b: object(.like(LikePattern(s, options: c.options))), c: comparison(descriptor),
          d: source.modifier(quantifier: quantifierCode, cost: .like), range: range)
        return
      case (.matches, .string(let s)):
        let (lhs, source) = try subject(c.lhs)
        let regex: RegexPattern
        do throws(RegexFailure) {
          regex = try RegexPattern(s, caseInsensitive: c.options.contains(.caseInsensitive), limits: limits.regex)
        } catch {
          throw Self.patternError(error, c.rhs.range)
        }
        descriptor.constantSlot = slot { _ in nil }
        emit(
          .matches, a: lhs, b: object(.regex(regex)), c: comparison(descriptor),
          d: source.modifier(
            quantifier: quantifierCode, cost: regex.engine == .backtrackingBounded ? .backtracking : .bytes),
          range: range)
        return
      default:
        let (lhs, source) = try subject(c.lhs)
        emit(
          .compareConst, a: lhs, b: slot { .value($0) }, c: comparison(descriptor),
          d: source.modifier(quantifier: quantifierCode, cost: folding), range: range)
        return
      }
    }
    let lhs = try expression(c.lhs)
    let rhs = try expression(c.rhs)
    let descriptor = ComparisonDescriptor(op: c.op, options: c.options, quantifier: c.quantifier, constantSlot: nil)
    emit(.compare, a: lhs, b: rhs, c: comparison(descriptor), range: range)
  }
}

extension ComparisonDescriptor {
  func isIdentical(to other: ComparisonDescriptor) -> Bool { self == other }
}

extension SiftValue {
  /// Equal and spelled the same: strings compare by their UTF-8 bytes.
  func isIdentical(to other: SiftValue) -> Bool {
    switch (self, other) {
    case (.string(let a), .string(let b)): return a == b && a.utf8.elementsEqual(b.utf8)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
    case (.dictionary(let a), .dictionary(let b)):
      return a.count == b.count
        && a.allSatisfy { key, value in
          b.contains { $0.key.utf8.elementsEqual(key.utf8) && $0.value.isIdentical(to: value) }
        }
    default: return self == other
    }
  }

  var isString: Bool {
    if case .string = self { return true }
    return false
  }

  var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }
}

extension String {
  /// Whether this key is a collection operator (`@count`, `@avg`, …). One byte compare:
  /// `hasPrefix` is a generic Unicode-aware call and showed in the compile profile.
  var isCollectionOperator: Bool { utf8.first == UInt8(ascii: "@") }
}
