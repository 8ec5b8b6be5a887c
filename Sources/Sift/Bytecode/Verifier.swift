/// Checks a program once, at compile time, so the VM can trust every operand: jump
/// targets inside the code, registers inside the register file, pool indices inside
/// their pools, and every table small enough for the 16-bit operand encoding.
enum Verifier {
  static func verify(_ p: Program, range: SourceRange) throws(SyntaxError) {
    let limit = InstructionLimits.maxOperand
    // The largest table decides (no array of sizes: compiling is allocation-bound).
    let code = p.code
    let largest = max(
      code.code.count, code.registerCount, code.valueCount, code.names.count, code.paths.count,
      code.comparisons.count, code.objectCount, code.subprograms.count)
    guard largest < limit else {
      throw SyntaxError("predicate is too large to compile (a table exceeds \(limit) entries)", at: range)
    }
    guard code.ranges.count == code.code.count, code.code.last?.opcode == (code.isTestChain ? .branch : .ret),
      p.pool.values.count == code.valueCount, p.pool.objects.count == code.objectCount
    else {
      throw SyntaxError("internal error: malformed program", at: range)
    }
    // The chain runner reads the branch after each test without looking.
    if code.isTestChain {
      for (pc, i) in code.code.enumerated() where i.opcode.mode.isSubjectTest != (pc % 2 == 0) {
        throw SyntaxError("internal error: instruction \(pc) (\(i.opcode)) breaks the test chain", at: range)
      }
      for (pc, i) in code.code.enumerated() where pc % 2 == 1 && i.opcode != .branch {
        throw SyntaxError("internal error: instruction \(pc) (\(i.opcode)) breaks the test chain", at: range)
      }
    }
    for d in code.comparisons where d.constantSlot.map({ $0 >= code.valueCount }) ?? false {
      throw SyntaxError("internal error: a comparison names a constant out of range", at: range)
    }
    for (pc, i) in code.code.enumerated() {
      guard check(i, p) else {
        throw SyntaxError("internal error: instruction \(pc) (\(i.opcode)) has an operand out of range", at: range)
      }
    }
    for sub in code.subprograms { try verify(sub.program, range: range) }
  }

  /// A test instruction's subject operand and modifier (quantifier 0–2, no stray bits).
  private static func subject(_ i: Instruction, _ p: Program) -> Bool {
    guard i.quantifier <= 2, i.d >> 6 == 0 else { return false }
    switch i.source {
    case .register: return i.a < p.code.registerCount
    case .evaluatedObject: return i.a == 0
    case .slot: return true
    case .root: return i.a < p.code.names.count
    }
  }

  /// Object slot `k` holds what test `op` reads.
  private static func object(_ k: Int, _ op: Opcode, _ p: Program) -> Bool {
    guard k < p.pool.objects.count else { return false }
    switch (op, p.pool.objects[k]) {
    case (.inStrings, .set), (.stringTest, .needle), (.like, .like), (.matches, .regex): return true
    default: return false
    }
  }

  private static func check(_ i: Instruction, _ program: Program) -> Bool {
    let p = program.code
    let r = p.registerCount
    func reg(_ x: Int) -> Bool { x < r }
    switch i.opcode {
    case .loadConst: return reg(i.a) && i.b < p.valueCount
    case .loadSelf, .flagToValue: return reg(i.a)
    case .loadRoot, .loadVar, .storeVar: return reg(i.a) && i.b < p.names.count
    case .loadSlot: return reg(i.a)
    case .keyPath: return reg(i.a) && reg(i.b) && i.c < p.paths.count
    case .index, .binary: return reg(i.a) && reg(i.b) && reg(i.c) && i.d < BinaryOperator.allCases.count
    case .indexSpecial: return reg(i.a) && reg(i.b) && i.d <= 2
    case .negate, .bitwiseNot: return reg(i.a) && reg(i.b)
    case .call:
      return reg(i.a) && i.b + i.d <= r && i.c < BuiltinFunction.allCases.count
        && BuiltinFunction.allCases[i.c].arity == i.d
    case .callCustom: return reg(i.a) && i.b + i.d <= r && i.c < p.names.count && i.d >= 1
    case .makeArray: return reg(i.a) && i.b + i.c <= r
    case .cast: return reg(i.a) && reg(i.b) && i.c < p.names.count
    case .subquery: return reg(i.a) && reg(i.b) && i.c < p.subprograms.count
    case .compare: return reg(i.a) && reg(i.b) && i.c < p.comparisons.count
    case .compareConst: return subject(i, program) && i.b < p.valueCount && i.c < p.comparisons.count
    case .inStrings, .stringTest, .like, .matches:
      return subject(i, program) && object(i.b, i.opcode, program) && i.c < p.comparisons.count
        && p.comparisons[i.c].constantSlot != nil
    case .setFlag, .not, .ret: return true
    case .jump, .jumpIfFalse, .jumpIfTrue: return i.b < p.code.count
    case .branch:
      // A chain's targets are tests (even pcs: each test is followed by its branch) or exits.
      func target(_ t: Int) -> Bool {
        t == Opcode.exitTrue || t == Opcode.exitFalse || (t < p.code.count && t % 2 == 0)
      }
      return target(i.b) && target(i.c)
    }
  }
}
