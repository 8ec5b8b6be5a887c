/// The dispatch loop. Registers live in a stack-allocated buffer; hot state (pc, flag,
/// code pointer) stays in locals; errors leave through the cold path that attaches the
/// failing instruction's source range.
enum Machine {
  static func run(_ program: Program, input: Input, environment: inout Environment) throws(EvaluationError) -> Bool {
    let result: Result<Bool, EvaluationError> = withUnsafeTemporaryAllocation(
      of: SiftValue.self, capacity: program.registerCount
    ) { registers in
      registers.initialize(repeating: .null)
      defer { registers.deinitialize() }
      return program.code.withUnsafeBufferPointer { code in
        var pc = 0
        do throws(EvaluationError) {
          return .success(try loop(program, code, registers, input, &environment, &pc))
        } catch {
          var located = error
          if located.range == .at(0) { located.range = program.ranges[pc] }
          return .failure(located)
        }
      }
    }
    return try result.get()
  }

  @inline(__always)
  private static func loop(
    _ program: Program, _ code: UnsafeBufferPointer<Instruction>, _ R: UnsafeMutableBufferPointer<SiftValue>,
    _ input: Input, _ env: inout Environment, _ pc: inout Int
  ) throws(EvaluationError) -> Bool {
    var flag = false
    while true {
      let i = code[pc]
      switch i.opcode {
      case .loadConst:
        R[i.a] = program.constants[i.b]
      case .loadSelf:
        R[i.a] = input.selfValue
      case .loadRoot:
        R[i.a] = input.root(program.names[i.b])
      case .loadSlot:
        guard case .record(let record) = input else {
          throw EvaluationError(
            .typeMismatch, "this predicate was compiled for a schema; evaluate it with a SiftRecord")
        }
        R[i.a] = record.values[i.b]
      case .keyPath:
        R[i.a] = try Semantics.keyPath(program.paths[i.c][...], on: R[i.b])
      case .loadVar:
        let name = program.names[i.b]
        guard let v = env.variables[name] else {
          throw EvaluationError(.unboundVariable, "variable $\(name) has no value")
        }
        R[i.a] = v
      case .storeVar:
        env.variables[program.names[i.b]] = R[i.a]
      case .index:
        R[i.a] = try Semantics.index(R[i.b], R[i.c])
      case .indexSpecial:
        R[i.a] = try Semantics.index(R[i.b], i.d == 0 ? .first : i.d == 1 ? .last : .size)
      case .binary:
        R[i.a] = try Semantics.binary(BinaryOperator.allCases[i.d], R[i.b], R[i.c])
      case .negate:
        R[i.a] = try Semantics.negate(R[i.b])
      case .bitwiseNot:
        R[i.a] = try Semantics.bitwiseNot(R[i.b])
      case .call:
        R[i.a] = try Functions.call(BuiltinFunction.allCases[i.c], Array(R[i.b..<(i.b + i.d)]))
      case .callCustom:
        let name = program.names[i.c]
        guard let function = env.functions[name] else {
          throw EvaluationError(.unknownFunction, "no function named '\(name)' is registered")
        }
        R[i.a] = try function(Array(R[i.b..<(i.b + i.d)]))
      case .makeArray:
        R[i.a] = .array(Array(R[i.b..<(i.b + i.c)]))
      case .cast:
        R[i.a] = try Functions.cast(R[i.b], to: program.names[i.c])
      case .subquery:
        R[i.a] = try subquery(R[i.b], program.subprograms[i.c], input, &env)
      case .compare:
        let d = program.comparisons[i.c]
        if let q = d.quantifier {
          // The same loop as the specialised instructions, so every ANY/ALL is charged
          // against the step budget.
          let rhs = R[i.b]
          flag = try quantified(R[i.a], q == .any ? 1 : 2, &env) { (v) throws(EvaluationError) in
            try Semantics.compare(v, d.op, rhs, d.options)
          }
        } else {
          flag = try Semantics.compare(R[i.a], d.op, R[i.b], d.options)
        }
      case .inStrings:
        let set = program.stringSets[i.b]
        if i.d == 0 {
          switch R[i.a] {
          case .string(let s): flag = set.contains(s)
          default: flag = try generic(R[i.a], program.comparisons[i.c])
          }
        } else {
          flag = try quantified(R[i.a], i.d, &env) { (v) throws(EvaluationError) in
            if case .string(let s) = v { return set.contains(s) }
            return try generic(v, program.comparisons[i.c])
          }
        }
      case .stringTest:
        let needle = program.needles[i.b]
        let d = program.comparisons[i.c]
        if i.d == 0, case .string(let s) = R[i.a] {
          flag = test(needle, d.op, s)
        } else if i.d == 0 {
          flag = try generic(R[i.a], d)
        } else {
          flag = try quantified(R[i.a], i.d, &env) { (v) throws(EvaluationError) in
            if case .string(let s) = v { return test(needle, d.op, s) }
            return try generic(v, d)
          }
        }
      case .like:
        let pattern = program.likes[i.b]
        let d = program.comparisons[i.c]
        flag = try quantifiedOrSingle(R[i.a], i.d, &env) { (v) throws(EvaluationError) in
          if case .string(let s) = v { return pattern.matches(s) }
          return try generic(v, d)
        }
      case .matches:
        let regex = program.regexes[i.b]
        let d = program.comparisons[i.c]
        flag = try quantifiedOrSingle(R[i.a], i.d, &env) { (v) throws(EvaluationError) in
          if case .string(let s) = v {
            do throws(RegexFailure) {
              return try regex.matches(s)
            } catch {
              throw EvaluationError(.regex, "MATCHES: \(error.message)")
            }
          }
          return try generic(v, d)
        }
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
      }
      pc &+= 1
    }
  }

  @inline(__always)
  private static func test(_ needle: StringNeedle, _ op: ComparisonOperator, _ s: String) -> Bool {
    switch op {
    case .equal: needle.isEqual(to: s)
    case .beginsWith: needle.isPrefix(of: s)
    case .endsWith: needle.isSuffix(of: s)
    default: needle.isContained(in: s)
    }
  }

  /// The non-string cases of a specialised comparison: the generic rules with the constant.
  private static func generic(_ v: SiftValue, _ d: ComparisonDescriptor) throws(EvaluationError) -> Bool {
    try Semantics.compare(v, d.op, d.constant ?? .null, d.options)
  }

  @inline(__always)
  private static func quantifiedOrSingle(
    _ lhs: SiftValue, _ quantifier: Int, _ env: inout Environment,
    _ test: (SiftValue) throws(EvaluationError) -> Bool
  ) throws(EvaluationError) -> Bool {
    quantifier == 0 ? try test(lhs) : try quantified(lhs, quantifier, &env, test)
  }

  /// ANY (1) / ALL (2) over the left collection, charging one step per element.
  private static func quantified(
    _ lhs: SiftValue, _ quantifier: Int, _ env: inout Environment,
    _ test: (SiftValue) throws(EvaluationError) -> Bool
  ) throws(EvaluationError) -> Bool {
    let isAll = quantifier == 2
    switch lhs {
    case .null: return isAll
    case .array(let elements):
      try charge(elements.count, &env)
      for e in elements {
        let r = try test(e)
        if !isAll, r { return true }
        if isAll, !r { return false }
      }
      return isAll
    default:
      throw EvaluationError(
        .typeMismatch, "\(isAll ? "ALL" : "ANY") needs a collection on the left, not a \(lhs.kindName)")
    }
  }

  static func charge(_ steps: Int, _ env: inout Environment) throws(EvaluationError) {
    env.stepsLeft -= steps
    if env.stepsLeft < 0 {
      throw EvaluationError(.limitExceeded, "evaluation exceeded its step budget (EvaluationLimits.maxSteps)")
    }
  }

  /// The elements for which the subpredicate holds. As in Apple's NSSubqueryExpression,
  /// only `$variable` is the element: `SELF` and plain key paths still read the object.
  private static func subquery(_ collection: SiftValue, _ sub: Subprogram, _ input: Input, _ env: inout Environment)
    throws(EvaluationError) -> SiftValue
  {
    let elements: [SiftValue]
    switch collection {
    case .array(let a): elements = a
    case .null: elements = []
    default: throw EvaluationError(.typeMismatch, "SUBQUERY needs a collection, not a \(collection.kindName)")
    }
    try charge(elements.count, &env)
    let saved = env.variables[sub.variable]
    defer { env.variables[sub.variable] = saved }
    var out: [SiftValue] = []
    for e in elements {
      env.variables[sub.variable] = e
      if try run(sub.program, input: input, environment: &env) { out.append(e) }
    }
    return .array(out)
  }
}
