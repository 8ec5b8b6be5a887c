/// The dispatch loop. Hot state (pc, flag, code pointer) stays in locals; registers live
/// in a stack-allocated buffer, and programs that need none (every test reads its subject
/// in place) skip it; errors leave through the cold path that attaches the failing
/// instruction's source range.
enum Machine {
  /// A program on its own constants.
  static func run<R: InputReader>(_ program: Program, input: R, environment: inout Environment)
    throws(EvaluationError) -> Bool
  {
    try run(program.executable, input: input, environment: &environment)
  }

  static func run<R: InputReader>(_ program: Executable, input: R, environment: inout Environment)
    throws(EvaluationError) -> Bool
  {
    if program.isTestChain { return try runTestChain(program, input, &environment) }
    return try runBytecode(program, input: input, environment: &environment)
  }

  /// The bytecode through the dispatch loop, even when it is a test chain (the tests
  /// compare the two).
  static func runBytecode<R: InputReader>(_ program: Executable, input: R, environment: inout Environment)
    throws(EvaluationError) -> Bool
  {
    if program.registerCount == 0 {
      return try run(program, input, UnsafeMutableBufferPointer(start: nil, count: 0), &environment)
    }
    return try withUnsafeTemporaryAllocation(of: SiftValue.self, capacity: program.registerCount) {
      (registers) throws(EvaluationError) -> Bool in
      registers.initialize(repeating: .null)
      defer { registers.deinitialize() }
      return try run(program, input, registers, &environment)
    }
  }

  /// An expression program (``Compiler/compileExpression(_:slots:functions:limits:)``):
  /// its value, register 0 when it returns.
  static func value<R: InputReader>(_ program: Executable, input: R, environment: inout Environment)
    throws(EvaluationError)
    -> SiftValue
  {
    try withUnsafeTemporaryAllocation(of: SiftValue.self, capacity: max(program.registerCount, 1)) {
      (registers) throws(EvaluationError) -> SiftValue in
      registers.initialize(repeating: .null)
      defer { registers.deinitialize() }
      _ = try run(program, input, registers, &environment)
      return registers[0]
    }
  }

  @inline(__always)
  private static func run<R: InputReader>(
    _ program: Executable, _ input: R, _ registers: UnsafeMutableBufferPointer<SiftValue>,
    _ environment: inout Environment
  ) throws(EvaluationError) -> Bool {
    var pc = 0
    do throws(EvaluationError) {
      return try loop(program, program.instructions, registers, input, &environment, &pc)
    } catch {
      var located = error
      if located.range == .at(0) { located.range = program.ranges[pc] }
      throw located
    }
  }

  /// The hot loop: control flow and the test instructions. Everything that computes a
  /// value into a register runs out of line in ``step(_:_:_:_:_:)``, so the loop keeps few
  /// values live and its entry stays cheap for the short programs that dominate.
  @inline(__always)
  private static func loop<I: InputReader>(
    _ program: Executable, _ code: UnsafeBufferPointer<Instruction>, _ R: UnsafeMutableBufferPointer<SiftValue>,
    _ input: I, _ env: inout Environment, _ pc: inout Int
  ) throws(EvaluationError) -> Bool {
    var flag = false
    while true {
      let i = code[pc]
      switch i.trustedOpcode {
      case .inStrings, .stringTest, .like, .matches, .compareConst:
        flag = try runTest(i, program, R, input, &env)
      case .compare:
        flag = try compare(i, program, R, &env)
      case .setFlag:
        flag = i.d != 0
      case .not:
        flag = !flag
      case .jump:
        pc = i.b
        continue
      case .jumpIfFalse:
        if !flag {
          pc = i.b
          continue
        }
      case .jumpIfTrue:
        if flag {
          pc = i.b
          continue
        }
      case .flagToValue:
        R[i.a] = .bool(flag)
      case .ret:
        return flag
      case .branch:
        let target = flag ? i.b : i.c
        if target >= Opcode.exitFalse { return target == Opcode.exitTrue }
        pc = target
        continue
      case .loadConst, .loadSelf, .loadRoot, .loadSlot, .keyPath, .loadVar, .storeVar, .index, .indexSpecial,
        .binary, .negate, .bitwiseNot, .call, .callCustom, .makeArray, .cast, .subquery:
        try step(i, program, R, input, &env)
      }
      pc &+= 1
    }
  }

  /// A test chain (``TestChain``, the tier the compiler chose for code that is only tests
  /// joined by AND, OR and NOT): each test followed by the `branch` that names the next
  /// test or the answer, run without the dispatch loop's frame or its flag moves. Out of
  /// line: inside ``run(_:input:environment:)`` it paid the loop's large frame on every call.
  @inline(never)
  static func runTestChain<I: InputReader>(_ program: Executable, _ input: I, _ env: inout Environment)
    throws(EvaluationError)
    -> Bool
  {
    let code = program.instructions
    var pc = 0
    let noRegisters = UnsafeMutableBufferPointer<SiftValue>(start: nil, count: 0)
    while true {
      let held: Bool
      do throws(EvaluationError) {
        held = try runTest(code[pc], program, noRegisters, input, &env)
      } catch {
        var located = error
        if located.range == .at(0) { located.range = program.ranges[pc] }
        throw located
      }
      let branch = code[pc &+ 1]
      let target = held ? branch.b : branch.c
      if target >= Opcode.exitFalse { return target == Opcode.exitTrue }
      pc = target
    }
  }

  /// The instructions that compute a value into `R[a]`.
  @inline(never)
  private static func step<I: InputReader>(
    _ i: Instruction, _ program: Executable, _ R: UnsafeMutableBufferPointer<SiftValue>, _ input: I,
    _ env: inout Environment
  ) throws(EvaluationError) {
    switch i.trustedOpcode {
    case .loadConst:
      R[i.a] = program.constant(i.b)
    case .loadSelf:
      R[i.a] = try input.selfValue(steps: &env.stepsLeft)
    case .loadRoot:
      R[i.a] = try input.root(program.names[i.b], steps: &env.stepsLeft)
    case .loadSlot:
      R[i.a] = try input.slot(i.b, steps: &env.stepsLeft)
    case .keyPath:
      R[i.a] = try Semantics.keyPath(program.paths[i.c][...], on: R[i.b], steps: &env.stepsLeft)
    case .loadVar:
      let name = program.names[i.b]
      guard let v = env.variables?[name] else {
        throw EvaluationError(.unboundVariable, "variable $\(EvaluationError.excerpt(name)) has no value")
      }
      R[i.a] = v
    case .storeVar:
      env.bind(program.names[i.b], R[i.a])
    case .index:
      R[i.a] = try Semantics.index(R[i.b], R[i.c], steps: &env.stepsLeft)
    case .indexSpecial:
      R[i.a] = try Semantics.index(R[i.b], i.d == 0 ? .first : i.d == 1 ? .last : .size)
    case .binary:
      R[i.a] = try Semantics.binary(BinaryOperator.allCases[i.d], R[i.b], R[i.c], steps: &env.stepsLeft)
    case .negate:
      R[i.a] = try Semantics.negate(R[i.b])
    case .bitwiseNot:
      R[i.a] = try Semantics.bitwiseNot(R[i.b])
    case .call:
      R[i.a] = try Functions.call(BuiltinFunction.allCases[i.c], Array(R[i.b..<(i.b + i.d)]), steps: &env.stepsLeft)
    case .callCustom:
      let name = program.names[i.c]
      let arguments = Array(R[i.b..<(i.b + i.d)])
      if let function = program.functions[name] {
        // A registered function is the caller's code, uncharged (README, Limits).
        R[i.a] = try function(arguments)
      } else {
        // Foundation's methods, when nothing is registered under the name: each charges
        // its own work.
        guard let result = try BuiltinSelectors.call(name, arguments, steps: &env.stepsLeft) else {
          throw EvaluationError(.unknownFunction, "no function named '\(EvaluationError.excerpt(name))' is registered")
        }
        R[i.a] = result
      }
    case .makeArray:
      R[i.a] = .array(Array(R[i.b..<(i.b + i.c)]))
    case .cast:
      R[i.a] = try Functions.cast(R[i.b], to: program.names[i.c], steps: &env.stepsLeft)
    case .subquery:
      R[i.a] = try subquery(R[i.b], program.subprograms[i.c], input, &env)
    case .compare, .compareConst, .inStrings, .stringTest, .like, .matches, .setFlag, .not, .jump, .jumpIfFalse,
      .jumpIfTrue, .flagToValue, .ret, .branch:
      preconditionFailure("\(i.opcode) is handled by the dispatch loop")
    }
  }

  /// The generic comparison of two registers.
  @inline(never)
  private static func compare(
    _ i: Instruction, _ program: Executable, _ R: UnsafeMutableBufferPointer<SiftValue>, _ env: inout Environment
  ) throws(EvaluationError) -> Bool {
    let d = program.comparisons[i.c]
    guard let q = d.quantifier else { return try generic(R[i.a], d.op, R[i.b], d.options, program, &env) }
    // The same loop as the test instructions, so every ANY/ALL is charged against the
    // step budget.
    let rhs = R[i.b]
    return try quantified(R[i.a], q == .any ? 1 : 2, &env) { (v, env) throws(EvaluationError) in
      try generic(v, d.op, rhs, d.options, program, &env)
    }
  }

  /// A test instruction (`compareConst`, `inStrings`, `stringTest`, `like`, `matches`) on
  /// its subject: the string fast path first, then quantifiers and the generic rules.
  @inline(never)
  static func test<I: InputReader>(
    _ i: Instruction, _ program: Executable, _ R: UnsafeMutableBufferPointer<SiftValue>, _ input: I,
    _ env: inout Environment
  ) throws(EvaluationError) -> Bool {
    let subject = try subject(i, R, input, program, &env)
    if i.trustedOpcode == .compareConst {
      let op = program.comparisons[i.c].op
      if i.quantifier == 0, case .int(let x) = subject, case .int(let k) = program.constant(i.b),
        let result = Semantics.compareIntegers(x, op, k)
      {
        return result
      }
      let options = program.comparisons[i.c].options
      let constant = program.constant(i.b)
      return try quantifiedOrSingle(subject, i.quantifier, &env) { (v, env) throws(EvaluationError) in
        try generic(v, op, constant, options, program, &env)
      }
    }
    if i.quantifier == 0, case .string(let s) = subject {
      try charge(stringCost(i, program, bytes: s.utf8.count), &env)
      return try stringTest(i, program, s, stepsLeft: &env.stepsLeft)
    }
    return try quantifiedOrSingle(subject, i.quantifier, &env) { (v, env) throws(EvaluationError) in
      if case .string(let s) = v {
        try charge(stringCost(i, program, bytes: s.utf8.count), &env)
        return try stringTest(i, program, s, stepsLeft: &env.stepsLeft)
      }
      let d = program.comparisons[i.c]
      return try generic(v, d.op, program.comparand(i), d.options, program, &env)
    }
  }

  /// A program that is one string test (``Program/kernel``) on a string subject: no
  /// dispatch loop, registers or environment. The hot shapes `SELF IN {…}`,
  /// `key MATCHES '…'` and `key CONTAINS[cd] '…'` run here.
  @inline(__always)
  static func runKernel(_ i: Instruction, _ program: Program, _ s: String) throws(EvaluationError)
    -> Bool
  {
    // Pure, so a borrowed string passes without a retain; the rare rest reports why.
    if let result = kernelTest(i, program, s) { return result }
    return try kernelSlowPath(i, program, s)
  }

  /// ``Program/kernel`` on the subject an input views in place; nil when the dispatch loop
  /// must run (a subject that is not a string, or one over the budget, which the loop
  /// reports).
  @inline(__always)
  static func runKernel<R: InputReader>(_ program: Program, _ input: R) throws(EvaluationError) -> Bool? {
    let i = program.kernel.unsafelyUnwrapped
    let exe = program.executable
    return try input.withView(i, exe) { (view) throws(EvaluationError) -> Bool? in
      switch view {
      case .value(let p):
        guard case .string(let s) = p.pointee else { return nil }
        return try runKernel(i, program, s)
      case .string(let p): return try runKernel(i, program, p.pointee)
      case .utf8(let b):
        guard b.count <= program.kernelMaxBytes, i.costClass != .backtracking else { return nil }
        return testBytes(i, exe, b)
      case .absent, .int, .strings, .jsonArray, .general: return nil
      }
    }
  }

  /// The kernel's answer, or nil when the subject is longer than the budget allows, a
  /// MATCHES limit was hit, or backtracking must be paid for as it runs.
  @inline(__always)
  private static func kernelTest(_ i: Instruction, _ program: Program, _ s: String) -> Bool? {
    // The one test's cost against the budget, as the longest subject it allows.
    if _slowPath(s.utf8.count > program.kernelMaxBytes) { return nil }
    switch i.trustedOpcode {
    case .inStrings: return program.executable.set(i.b).unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.contains(s) }
    case .stringTest: return program.executable.needle(i.b)._withUnsafeGuaranteedRef { $0.matches(s) }
    case .like: return program.executable.like(i.b)._withUnsafeGuaranteedRef { $0.matches(s) }
    default: return testString(i, program.executable, s)
    }
  }

  @inline(never)
  private static func kernelSlowPath(_ i: Instruction, _ program: Program, _ s: String) throws(EvaluationError)
    -> Bool
  {
    let n = s.utf8.count
    if n > program.kernelMaxBytes { throw kernelBudget(program) }
    let cost = n >= Cost.foldedBytesPerStep ? stringCost(i, program.executable, bytes: n) : 0
    return try runRegexKernel(i, program, s, stepsLeft: program.maxSteps - cost)
  }

  @inline(never)
  private static func kernelBudget(_ program: Program) -> EvaluationError {
    var error = Semantics.stepBudgetExceeded()
    error.range = program.code.ranges[0]
    return error
  }

  @inline(never)
  private static func runRegexKernel(_ i: Instruction, _ program: Program, _ s: String, stepsLeft: Int)
    throws(EvaluationError) -> Bool
  {
    var stepsLeft = stepsLeft
    do throws(EvaluationError) {
      return try stringTest(i, program.executable, s, stepsLeft: &stepsLeft)
    } catch {
      var located = error
      located.range = program.code.ranges[0]
      throw located
    }
  }

  /// The subject of a test instruction, read from where ``SubjectSource`` says.
  @inline(__always)
  private static func subject<I: InputReader>(
    _ i: Instruction, _ R: UnsafeMutableBufferPointer<SiftValue>, _ input: I, _ program: Executable,
    _ env: inout Environment
  ) throws(EvaluationError) -> SiftValue {
    switch i.source {
    case .register: return R[i.a]
    case .evaluatedObject: return try input.selfValue(steps: &env.stepsLeft)
    case .slot: return try input.slot(i.a, steps: &env.stepsLeft)
    case .root: return try input.root(program.names[i.a], steps: &env.stepsLeft)
    }
  }

  /// The generic rules of a comparison, each charging its own work as it goes
  /// (``Semantics/compare(_:_:_:_:regex:steps:)``).
  @inline(__always)
  private static func generic(
    _ lhs: SiftValue, _ op: ComparisonOperator, _ rhs: SiftValue, _ options: ComparisonOptions, _ program: Executable,
    _ env: inout Environment
  ) throws(EvaluationError) -> Bool {
    try Semantics.compare(lhs, op, rhs, options, regex: program.regexLimits, steps: &env.stepsLeft)
  }

  @inline(__always)
  private static func quantifiedOrSingle(
    _ lhs: SiftValue, _ quantifier: Int, _ env: inout Environment,
    _ test: (SiftValue, inout Environment) throws(EvaluationError) -> Bool
  ) throws(EvaluationError) -> Bool {
    quantifier == 0 ? try test(lhs, &env) : try quantified(lhs, quantifier, &env, test)
  }

  /// ANY (1) / ALL (2) over the left collection, charging one step per element. The test
  /// gets the environment to charge what it walks itself.
  @inline(__always)
  private static func quantified(
    _ lhs: SiftValue, _ quantifier: Int, _ env: inout Environment,
    _ test: (SiftValue, inout Environment) throws(EvaluationError) -> Bool
  ) throws(EvaluationError) -> Bool {
    let isAll = quantifier == 2
    switch lhs {
    case .null: return isAll
    case .array(let elements):
      try charge(elements.count, &env)
      for e in elements {
        let r = try test(e, &env)
        if !isAll, r { return true }
        if isAll, !r { return false }
      }
      return isAll
    default:
      throw EvaluationError(
        .typeMismatch, "\(isAll ? "ALL" : "ANY") needs a collection on the left, not a \(lhs.kindName)")
    }
  }

  @inline(__always)
  static func charge(_ steps: Int, _ env: inout Environment) throws(EvaluationError) {
    try Semantics.charge(steps, &env.stepsLeft)
  }

  /// The elements for which the subpredicate holds. As in Apple's NSSubqueryExpression,
  /// only `$variable` is the element: `SELF` and plain key paths still read the object.
  private static func subquery<I: InputReader>(
    _ collection: SiftValue, _ sub: Subprogram, _ input: I, _ env: inout Environment
  )
    throws(EvaluationError) -> SiftValue
  {
    let elements: [SiftValue]
    switch collection {
    case .array(let a): elements = a
    case .null: elements = []
    default: throw EvaluationError(.typeMismatch, "SUBQUERY needs a collection, not a \(collection.kindName)")
    }
    // Each element runs the subpredicate: charged for its instructions too.
    try charge(elements.count * (1 + sub.program.code.code.count / 4), &env)
    let saved = env.variables?[sub.variable]
    defer { env.bind(sub.variable, saved) }
    var out: [SiftValue] = []
    for e in elements {
      env.bind(sub.variable, e)
      if try run(sub.program.executable, input: input, environment: &env) { out.append(e) }
    }
    return .array(out)
  }
}

extension SiftValue {
  /// The number of elements of an array or dictionary; 0 for anything else.
  @inline(__always)
  var elementCount: Int {
    switch self {
    case .array(let a): a.count
    case .dictionary(let d): d.count
    default: 0
    }
  }
}
