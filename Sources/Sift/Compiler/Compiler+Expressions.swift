extension Compiler {
  /// Emits code for `e` and returns the register that holds its value. Registers above
  /// the caller's mark are scratch and freed by the caller.
  mutating func expression(_ e: ExpressionSyntax) throws(SyntaxError) -> Int {
    let r = allocateRegister()
    try expression(e, into: r)
    return r
  }

  mutating func expression(_ e: ExpressionSyntax, into r: Int) throws(SyntaxError) {
    let range = e.range
    let mark = nextRegister
    defer { freeRegisters(to: max(mark, r + 1)) }
    switch e.kind {
    case .constant(let v):
      emit(.loadConst, a: r, b: constant(v), range: range)
    case .evaluatedObject:
      emit(.loadSelf, a: r, range: range)
    case .variable(let n):
      if let (v, parameter) = constantOperand(e), let parameter {
        let slot = parameterSlot(v)
        bindings[parameter] = .value(slot)
        emit(.loadConst, a: r, b: slot, range: range)
      } else {
        emit(.loadVar, a: r, b: name(n), range: range)
      }
    case .assignment(let variable, let value):
      try expression(value, into: r)
      emit(.storeVar, a: r, b: name(variable), range: range)
    case .keyPath(let base, let keys):
      var rest = keys[...]
      if let base {
        try expression(base, into: r)
      } else if let slots, let first = keys.first, !first.isCollectionOperator {
        guard let (slot, consumed) = slots.resolve(keys[...]) else { throw slots.unknownField(first, at: range) }
        if let error = slots.layout?.unknownNestedKey(keys[...], consumed: consumed, at: range) { throw error }
        emit(.loadSlot, a: r, b: slot, range: range)
        rest = rest.dropFirst(consumed)
      } else if let first = keys.first, !first.isCollectionOperator {
        emit(.loadRoot, a: r, b: name(first), range: range)
        rest = rest.dropFirst()
      } else {
        emit(.loadSelf, a: r, range: range)
      }
      if !rest.isEmpty {
        program.paths.append(Array(rest))
        emit(.keyPath, a: r, b: r, c: program.paths.count - 1, range: range)
      }
    case .aggregate(let elements):
      let first = nextRegister
      for element in elements { _ = try expression(element) }
      emit(.makeArray, a: r, b: first, c: elements.count, range: range)
    case .index(let base, let index):
      try expression(base, into: r)
      switch index {
      case .first: emit(.indexSpecial, a: r, b: r, d: 0, range: range)
      case .last: emit(.indexSpecial, a: r, b: r, d: 1, range: range)
      case .size: emit(.indexSpecial, a: r, b: r, d: 2, range: range)
      case .expression(let i):
        let ri = try expression(i)
        emit(.index, a: r, b: r, c: ri, range: range)
      }
    case .negate(let x):
      try expression(x, into: r)
      emit(.negate, a: r, b: r, range: range)
    case .bitwiseNot(let x):
      try expression(x, into: r)
      emit(.bitwiseNot, a: r, b: r, range: range)
    case .binary(let op, let a, let b):
      try expression(a, into: r)
      let rb = try expression(b)
      emit(.binary, a: r, b: r, c: rb, d: BinaryOperator.allCases.firstIndex(of: op)!, range: range)
    case .function(let f, let args):
      let first = nextRegister
      for arg in args { _ = try expression(arg) }
      emit(.call, a: r, b: first, c: BuiltinFunction.allCases.firstIndex(of: f)!, d: args.count, range: range)
    case .customFunction(let receiver, let function, let args):
      let first = nextRegister
      _ = try expression(receiver)
      for arg in args { _ = try expression(arg) }
      guard args.count < 255 else { throw SyntaxError("FUNCTION has too many arguments", at: range) }
      emit(.callCustom, a: r, b: first, c: name(function), d: args.count + 1, range: range)
    case .cast(let x, let type):
      try expression(x, into: r)
      emit(.cast, a: r, b: r, c: name(type), range: range)
    case .subquery(let collection, let variable, let body):
      try expression(collection, into: r)
      var inner = Compiler(slots: slots, functions: functions, limits: limits)
      try inner.predicate(ConstantFolder(limits: limits).fold(body))
      inner.emit(.ret, range: body.range)
      program.subprograms.append(
        Subprogram(
          variable: variable,
          program: Program(inner.program, functions: functions, regexLimits: limits.regex, maxSteps: limits.maxSteps)))
      emit(.subquery, a: r, b: r, c: program.subprograms.count - 1, range: range)
    case .ternary(let condition, let then, let otherwise):
      try predicate(condition)
      let toElse = emit(.jumpIfFalse, range: range)
      try expression(then, into: r)
      let toEnd = emit(.jump, range: range)
      patchJump(toElse, to: program.code.count)
      try expression(otherwise, into: r)
      patchJump(toEnd, to: program.code.count)
    }
  }
}
