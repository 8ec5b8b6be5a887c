/// A program under construction: the compiler appends to it, then freezes it into a
/// ``Code`` and the ``ConstantPool`` it reads.
struct ProgramBuilder {
  var code: [Instruction] = []
  /// Source range of the syntax each instruction implements (pc -> range).
  var ranges: [SourceRange] = []
  /// The constant values, by value slot.
  var constants: [SiftValue] = []
  /// What the constants compile to (sets, needles, patterns), by object slot.
  var objects: [PoolObject] = []
  /// Keys, variable names and type names.
  var names: [String] = []
  var paths: [[String]] = []
  var comparisons: [ComparisonDescriptor] = []
  var subprograms: [Subprogram] = []
  var registerCount = 0
  /// Where each pool entry is, by Swift equality, for sharing identical entries in constant
  /// time (a scan per entry made a 16,000-term OR quadratic); identity is then checked on
  /// the few candidates (``Compiler/constant(_:)``).
  var constantIndex: [SiftValue: [Int]] = [:]
  var nameIndex: [String: [Int]] = [:]
  var comparisonIndex: [ComparisonDescriptor: [Int]] = [:]
}

/// What a constant compiles to, in an object slot: the set of `IN {strings}`, the needle
/// of a string test, a LIKE pattern, a MATCHES regex.
enum PoolObject {
  case set(StringSet)
  case needle(StringNeedle)
  case like(LikePattern)
  case regex(RegexPattern)

  var object: AnyObject {
    switch self {
    case .set(let o): o
    case .needle(let o): o
    case .like(let o): o
    case .regex(let o): o
    }
  }
}

/// The code of a compiled predicate, apart from its constants: instructions, names, key
/// paths, comparisons and SUBQUERY bodies, as Lua's `Proto` or SQLite's prepared
/// statement. Its instructions read constants by slot from the ``ConstantPool`` bound to
/// it when it runs (``Executable``), so every predicate of one shape can run one `Code`
/// with its own constants. Immutable and shareable across threads; a class, so the VM
/// borrows one reference instead of copying a dozen arrays per evaluation.
final class Code: @unchecked Sendable {
  let code: [Instruction]
  /// `code` in memory the code owns, so the dispatch loop reads it without a closure or a
  /// reference count. (Immutable after init, hence Sendable.)
  let instructions: UnsafeBufferPointer<Instruction>
  /// Source range of the syntax each instruction implements (pc -> range).
  let ranges: [SourceRange]
  /// Keys, variable names and type names.
  let names: [String]
  /// Per name, whether it is ASCII (its byte-for-byte lookup is Swift's own).
  let asciiNames: [Bool]
  let paths: [[String]]
  /// In memory the code owns, as `instructions`: the test instructions read their
  /// descriptor on every evaluation, and through an array each read is a retain and a
  /// release.
  let comparisons: UnsafeBufferPointer<ComparisonDescriptor>
  let subprograms: [Subprogram]
  let registerCount: Int
  /// How many value and object slots a bound pool has.
  let valueCount: Int
  let objectCount: Int
  /// The functions `callCustom` can reach (from ``CompileOptions/functions``).
  let functions: SiftFunctions
  /// For MATCHES with a pattern known only at evaluation time (constant patterns carry
  /// their own).
  let regexLimits: RegexLimits
  /// The step budget of one evaluation (``EvaluationLimits/maxSteps``).
  let maxSteps: Int
  /// Whether this code or a subprogram reads or binds a variable.
  let usesVariables: Bool
  /// Whether the code is a test chain (``TestChain``): the VM then runs it with
  /// ``Machine/runTestChain(_:_:_:)``.
  let isTestChain: Bool

  /// `tiers` false keeps the compiler's plain boolean bytecode (the tests compare the
  /// tiers with it).
  init(_ b: ProgramBuilder, functions: SiftFunctions, regexLimits: RegexLimits, maxSteps: Int, tiers: Bool = true) {
    self.functions = functions
    self.regexLimits = regexLimits
    self.maxSteps = maxSteps
    let chain = tiers && b.registerCount == 0 ? TestChain(b.code, ranges: b.ranges) : nil
    code = chain?.code ?? b.code
    instructions = UnsafeBufferPointer(frozenCopyOf: code) { $0 }
    ranges = chain?.ranges ?? b.ranges
    isTestChain = chain != nil
    names = b.names
    asciiNames = b.names.map { $0.utf8.allSatisfy { $0 < 0x80 } }
    paths = b.paths
    comparisons = UnsafeBufferPointer(frozenCopyOf: b.comparisons) { $0 }
    subprograms = b.subprograms
    registerCount = b.registerCount
    valueCount = b.constants.count
    objectCount = b.objects.count
    usesVariables =
      b.code.contains { $0.opcode.mode.usesVariables } || b.subprograms.contains { $0.program.code.usesVariables }
  }

  deinit {
    instructions.deallocate()
    comparisons.deallocate()
  }
}

/// One predicate's constants, in the slots its ``Code`` reads: the values, and the
/// objects they compile to. The VM reads both through unretained pointers
/// (``Executable``): this pool owns them for as long as a run borrows it.
final class ConstantPool: @unchecked Sendable {
  let values: [SiftValue]
  let objects: [PoolObject]
  let valueBuffer: UnsafeBufferPointer<SiftValue>
  /// Each object as an unretained, opaque reference.
  let objectRefs: UnsafeBufferPointer<UnsafeRawPointer?>

  init(values: [SiftValue], objects: [PoolObject]) {
    self.values = values
    self.objects = objects
    valueBuffer = UnsafeBufferPointer(frozenCopyOf: values) { $0 }
    objectRefs = UnsafeBufferPointer(frozenCopyOf: objects) {
      UnsafeRawPointer(Unmanaged.passUnretained($0.object).toOpaque())
    }
  }

  deinit {
    // The copies hold references (strings, arrays): released before the memory goes.
    UnsafeMutableBufferPointer(mutating: valueBuffer).deinitialize()
    valueBuffer.deallocate()
    objectRefs.deallocate()
  }
}

/// Code bound to constants: what the VM runs. Two pointers and an unowned reference,
/// passed by value; valid while the ``Code`` and the constants' owner live.
///
/// An object slot may be empty for `inStrings`: the set is then the constant's array,
/// searched in order (a predicate set binds short literal sets so, rather than keeping a
/// hashed set per predicate).
struct Executable {
  unowned(unsafe) let code: Code
  let values: UnsafePointer<SiftValue>?
  let objects: UnsafePointer<UnsafeRawPointer?>?

  init(_ code: Code, _ pool: ConstantPool) {
    self.code = code
    values = pool.valueBuffer.baseAddress
    objects = pool.objectRefs.baseAddress
  }

  init(_ code: Code, values: UnsafePointer<SiftValue>?, objects: UnsafePointer<UnsafeRawPointer?>?) {
    self.code = code
    self.values = values
    self.objects = objects
  }

  /// Shared code its owner keeps alive, with a run's values and objects: the reference
  /// is copied as it is, never retained.
  @inline(__always)
  init(unmanaged code: Unmanaged<Code>, values: UnsafePointer<SiftValue>?, objects: UnsafePointer<UnsafeRawPointer?>?) {
    self.code = code._withUnsafeGuaranteedRef { $0 }
    self.values = values
    self.objects = objects
  }

  /// Value slot `i` (the verifier checked every slot an instruction names).
  @inline(__always) func constant(_ i: Int) -> SiftValue { values.unsafelyUnwrapped[i] }
  /// The constant a test compares with, as a value (a packed list unpacked, off the
  /// fast paths: ``PackedStrings``); null for a test with none.
  func comparand(_ i: Instruction) -> SiftValue {
    guard let slot = comparisons[i.c].constantSlot else { return .null }
    if i.trustedOpcode == .inStrings, let packed = PackedStrings.address(of: values.unsafelyUnwrapped + slot) {
      return PackedStrings.array(packed)
    }
    return constant(slot)
  }
  /// The set of `inStrings` `i`, or nil for a set bound as its array.
  @inline(__always) func set(_ i: Int) -> Unmanaged<StringSet>? {
    objects.unsafelyUnwrapped[i].map { .fromOpaque($0) }
  }
  @inline(__always) func needle(_ i: Int) -> Unmanaged<StringNeedle> {
    .fromOpaque(objects.unsafelyUnwrapped[i].unsafelyUnwrapped)
  }
  @inline(__always) func like(_ i: Int) -> Unmanaged<LikePattern> {
    .fromOpaque(objects.unsafelyUnwrapped[i].unsafelyUnwrapped)
  }
  @inline(__always) func regex(_ i: Int) -> Unmanaged<RegexPattern> {
    .fromOpaque(objects.unsafelyUnwrapped[i].unsafelyUnwrapped)
  }

  @inline(__always) var instructions: UnsafeBufferPointer<Instruction> { code.instructions }
  @inline(__always) var ranges: [SourceRange] { code.ranges }
  @inline(__always) var names: [String] { code.names }
  @inline(__always) var asciiNames: [Bool] { code.asciiNames }
  @inline(__always) var paths: [[String]] { code.paths }
  @inline(__always) var comparisons: UnsafeBufferPointer<ComparisonDescriptor> { code.comparisons }
  @inline(__always) var subprograms: [Subprogram] { code.subprograms }
  @inline(__always) var registerCount: Int { code.registerCount }
  @inline(__always) var functions: SiftFunctions { code.functions }
  @inline(__always) var regexLimits: RegexLimits { code.regexLimits }
  @inline(__always) var isTestChain: Bool { code.isTestChain }
}

/// A compiled predicate on its own: its code and its own constants, and the one-test
/// kernel when the code is a single string test.
final class Program: @unchecked Sendable {
  let code: Code
  let pool: ConstantPool
  /// When the whole program is one string test without a quantifier on SELF or a plain
  /// key (`SELF IN {…}`, `title CONTAINS[cd] '…'`), that instruction: a string subject
  /// then runs it directly (``Machine/runKernel(_:_:_:)``), skipping the dispatch loop.
  let kernel: Instruction?
  /// The longest subject (UTF-8 bytes) the kernel's test can take within the step budget
  /// (``Cost``): one comparison of the length replaces computing the charge per call.
  let kernelMaxBytes: Int
  /// The step budget of one evaluation (``EvaluationLimits/maxSteps``), for the kernel.
  let maxSteps: Int
  /// The order of the tests when a collection is filtered in batches
  /// (``Machine/batchOrder(_:)``); nil when the code cannot run so.
  let batchOrder: [Int]?
  var runsInBatches: Bool { batchOrder != nil }
  /// The chain as one conjunction, when it is one (``Machine/conjunction(_:tests:)``).
  let batchConjunction: [Machine.ConjunctionStep]?

  init(
    _ b: ProgramBuilder, functions: SiftFunctions, regexLimits: RegexLimits = RegexLimits(), maxSteps: Int = 1_000_000,
    tiers: Bool = true
  ) {
    code = Code(b, functions: functions, regexLimits: regexLimits, maxSteps: maxSteps, tiers: tiers)
    pool = ConstantPool(values: b.constants, objects: b.objects)
    kernel = Self.kernel(of: b.code)
    self.maxSteps = maxSteps
    kernelMaxBytes = kernel.map { Self.maxBytes($0, b.objects, maxSteps: maxSteps) } ?? 0
    batchOrder = Machine.batchOrder(code)
    batchConjunction =
      batchOrder == nil ? nil : Machine.conjunction(code.instructions, tests: code.instructions.count / 2)
  }

  /// The code bound to its own constants.
  @inline(__always) var executable: Executable { Executable(code, pool) }

  /// The MATCHES patterns compiled with it, in slot order.
  var regexes: [RegexPattern] { pool.objects.compactMap { if case .regex(let r) = $0 { r } else { nil } } }

  private static func kernel(of code: [Instruction]) -> Instruction? {
    guard code.count == 2, code[1].opcode == .ret, let test = code.first, test.quantifier == 0,
      test.source != .register, test.opcode.mode.isSubjectTest, test.opcode != .compareConst
    else { return nil }
    return test
  }

  /// The longest string whose test by `test` costs at most `maxSteps` (strings under 8
  /// bytes cost nothing, whatever the budget). Backtracking charges its tiers as it runs;
  /// here only its bytes count.
  private static func maxBytes(_ test: Instruction, _ objects: [PoolObject], maxSteps: Int) -> Int {
    guard maxSteps >= 0 else { return Cost.foldedBytesPerStep - 1 }
    // No string in memory is that long.
    if maxSteps >= Int.max >> 7 { return Int.max }
    switch test.costClass {
    case .bytes, .backtracking: return (maxSteps + 1) * Cost.bytesPerStep - 1
    case .folded: return max(Cost.foldedBytesPerStep - 1, (maxSteps + 1) * Cost.foldedBytesPerStep - 1)
    case .like:
      // (n × (1 + p / 8)) / 64 ≤ maxSteps: n × (1 + p / 8) < (maxSteps + 1) × 64.
      guard case .like(let pattern) = objects[test.b] else { return 0 }
      let perByte = 1 + pattern.patternBytes >> 3
      return max(Cost.foldedBytesPerStep - 1, ((maxSteps + 1) * Cost.bytesPerStep - 1) / perByte)
    }
  }
}

/// The predicate of a SUBQUERY, with the variable it binds. Its constants are part of the
/// outer code (a SUBQUERY's body is part of its predicate's shape).
struct Subprogram: Sendable {
  var variable: String
  var program: Program
}

/// What a `compare`, `stringTest`, `like` or `matches` instruction compares.
struct ComparisonDescriptor: Sendable, Hashable {
  var op: ComparisonOperator
  var options: ComparisonOptions
  var quantifier: Quantifier?
  /// The value slot of the constant right operand of a specialised instruction, for its
  /// generic fallback.
  var constantSlot: Int?
}
