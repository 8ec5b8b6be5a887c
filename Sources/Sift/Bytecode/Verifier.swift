/// Checks a program once, at compile time, so the VM can trust every operand: jump
/// targets inside the code, registers inside the register file, pool indices inside
/// their pools, and every table small enough for the 16-bit operand encoding.
enum Verifier {
  static func verify(_ p: Program, range: SourceRange) throws(SyntaxError) {
    let limit = InstructionLimits.maxOperand
    // The largest table decides (no array of sizes: compiling is allocation-bound).
    let largest = max(
      p.code.count, p.registerCount, p.constants.count, p.names.count, p.paths.count, p.comparisons.count,
      p.needles.count, p.stringSets.count, p.likes.count, p.regexes.count, p.subprograms.count)
    guard largest < limit else {
      throw SyntaxError("predicate is too large to compile (a table exceeds \(limit) entries)", at: range)
    }
    guard p.ranges.count == p.code.count, p.code.last?.opcode == .ret else {
      throw SyntaxError("internal error: malformed program", at: range)
    }
    for (pc, i) in p.code.enumerated() {
      guard check(i, p) else {
        throw SyntaxError("internal error: instruction \(pc) (\(i.opcode)) has an operand out of range", at: range)
      }
    }
    for sub in p.subprograms { try verify(sub.program, range: range) }
  }

  /// A test instruction's subject operand and modifier (quantifier 0–2, no stray bits).
  private static func subject(_ i: Instruction, _ p: Program) -> Bool {
    guard i.quantifier <= 2, i.d >> 6 == 0 else { return false }
    switch i.source {
    case .register: return i.a < p.registerCount
    case .evaluatedObject: return i.a == 0
    case .slot: return true
    case .root: return i.a < p.names.count
    }
  }

  private static func check(_ i: Instruction, _ p: Program) -> Bool {
    let r = p.registerCount
    func reg(_ x: Int) -> Bool { x < r }
    switch i.opcode {
    case .loadConst: return reg(i.a) && i.b < p.constants.count
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
    case .compareConst: return subject(i, p) && i.b < p.constants.count && i.c < p.comparisons.count
    case .inStrings: return subject(i, p) && i.b < p.stringSets.count && i.c < p.comparisons.count
    case .stringTest: return subject(i, p) && i.b < p.needles.count && i.c < p.comparisons.count
    case .like: return subject(i, p) && i.b < p.likes.count && i.c < p.comparisons.count
    case .matches: return subject(i, p) && i.b < p.regexes.count && i.c < p.comparisons.count
    case .setFlag, .not, .ret: return true
    case .jump, .jumpIfFalse, .jumpIfTrue: return i.b < p.code.count
    }
  }
}
