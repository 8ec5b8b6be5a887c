/// The instruction set. Registers hold `SiftValue`s; comparisons set the boolean *flag*
/// that jumps test and `ret` returns. `R[x]` is register x; pools are in ``Program``.
enum Opcode: UInt8, CaseIterable, Sendable {
  /// `R[a] = constants[b]`
  case loadConst
  /// `R[a] = SELF`
  case loadSelf
  /// `R[a] = SELF.keys[b]`: the first key of a key path, read from the input
  case loadRoot
  /// `R[a] = record slot b`: a key resolved through the schema at compile time
  case loadSlot
  /// `R[a] = keyPath(R[b], paths[c])`: the rest of a key path, with collection operators
  case keyPath
  /// `R[a] = variable names[b]`; unbound is an error
  case loadVar
  /// `variable names[b] = R[a]` (the value stays in `R[a]`)
  case storeVar
  /// `R[a] = R[b][R[c]]`
  case index
  /// `R[a] = R[b][FIRST | LAST | SIZE]` for d = 0, 1, 2
  case indexSpecial
  /// `R[a] = R[b] OP R[c]` with OP = BinaryOperator number d
  case binary
  /// `R[a] = -R[b]`
  case negate
  /// `R[a] = ~R[b]`
  case bitwiseNot
  /// `R[a] = builtin c (R[b] ..< R[b + d])`
  case call
  /// `R[a] = custom function c (receiver R[b], arguments R[b + 1] ..< R[b + d])`
  case callCustom
  /// `R[a] = [R[b] ..< R[b + c]]`
  case makeArray
  /// `R[a] = CAST(R[b], names[c])`
  case cast
  /// `R[a] = SUBQUERY(R[b], subprograms[c])`
  case subquery
  /// `flag = compare(R[a], R[b], comparisons[c])`: the generic comparison
  case compare
  // The test instructions below read a *subject*: `R[a]`, SELF, record slot `a` or the
  // input's key `names[a]`, as bits 2–3 of `d` say (``SubjectSource``); bits 0–1 of `d`
  // are the quantifier (0 none, 1 ANY, 2 ALL).

  /// `flag = subject OP constants[b]` with comparisons[c]: the generic comparison against a constant
  case compareConst
  /// `flag = subject IN stringSets[b]` (c = comparison)
  case inStrings
  /// `flag = subject OP needles[b]` where comparisons[c] says which test
  case stringTest
  /// `flag = subject LIKE likes[b]` (c = comparison)
  case like
  /// `flag = subject MATCHES regexes[b]` (c = comparison)
  case matches
  /// `flag = (d != 0)`
  case setFlag
  /// `flag = !flag`
  case not
  /// `pc = b`
  case jump
  /// `if !flag { pc = b }`
  case jumpIfFalse
  /// `if flag { pc = b }`
  case jumpIfTrue
  /// `R[a] = flag as a boolean value`
  case flagToValue
  /// return flag
  case ret
  /// After a test, in a test chain (``TestChain``): `pc = flag ? b : c`, where
  /// ``Opcode/exitTrue`` and ``Opcode/exitFalse`` return that answer instead.
  case branch

  /// A `branch` target that returns true.
  static let exitTrue = 0xFFFF
  /// A `branch` target that returns false.
  static let exitFalse = 0xFFFE

  /// What the instruction does, by kind (as Lua's `luaP_opmodes`): the one list every
  /// pass consults instead of writing out the test opcodes again.
  @inline(__always) var mode: OpcodeMode { OpcodeMode.table[Int(rawValue)] }
}

/// The properties of an opcode that passes over the code ask about.
struct OpcodeMode: Sendable {
  /// Sets the flag from a subject read in place or a register (`compareConst`,
  /// `inStrings`, `stringTest`, `like`, `matches`), with a comparison descriptor in `c`.
  var isSubjectTest = false
  /// Moves the flag or the pc only (`setFlag`, `not`, the jumps, `ret`, `branch`).
  var isControl = false
  /// Reads or binds a variable (`loadVar`, `storeVar`, `subquery`).
  var usesVariables = false
  /// Writes register `a`.
  var writesRegister = false

  /// By raw value.
  static let table: [OpcodeMode] = Opcode.allCases.map { op in
    switch op {
    case .compareConst, .inStrings, .stringTest, .like, .matches: OpcodeMode(isSubjectTest: true)
    case .setFlag, .not, .jump, .jumpIfFalse, .jumpIfTrue, .ret, .branch: OpcodeMode(isControl: true)
    case .loadVar, .subquery: OpcodeMode(usesVariables: true, writesRegister: true)
    case .storeVar: OpcodeMode(usesVariables: true)
    case .compare: OpcodeMode()
    case .loadConst, .loadSelf, .loadRoot, .loadSlot, .keyPath, .index, .indexSpecial, .binary, .negate, .bitwiseNot,
      .call, .callCustom, .makeArray, .cast, .flagToValue:
      OpcodeMode(writesRegister: true)
    }
  }
}
