/// A program under construction: the compiler appends to it, then freezes it into a
/// ``Program``.
struct ProgramBuilder {
  var code: [Instruction] = []
  /// Source range of the syntax each instruction implements (pc -> range).
  var ranges: [SourceRange] = []
  var constants: [SiftValue] = []
  /// Keys, variable names and type names.
  var names: [String] = []
  var paths: [[String]] = []
  var comparisons: [ComparisonDescriptor] = []
  var needles: [StringNeedle] = []
  var stringSets: [StringSet] = []
  var likes: [LikePattern] = []
  var regexes: [RegexPattern] = []
  var subprograms: [Subprogram] = []
  var registerCount = 0
  /// Where each pool entry is, by Swift equality, for sharing identical entries in constant
  /// time (a scan per entry made a 16,000-term OR quadratic); identity is then checked on
  /// the few candidates (``Compiler/constant(_:)``).
  var constantIndex: [SiftValue: [Int]] = [:]
  var nameIndex: [String: [Int]] = [:]
  var comparisonIndex: [ComparisonDescriptor: [Int]] = [:]
}

/// A compiled predicate: immutable, shareable across threads. A class, so the VM borrows
/// one reference instead of copying a dozen arrays per evaluation; every field is a `let`,
/// so reading them needs no exclusivity checks.
final class Program: @unchecked Sendable {
  let code: [Instruction]
  /// `code` in memory the program owns, so the dispatch loop reads it without a closure
  /// or a reference count. (Immutable after init, hence Sendable.)
  let instructions: UnsafeBufferPointer<Instruction>
  /// Unretained views of the object pools for the dispatch loop: the arrays above own the
  /// objects, and `_withUnsafeGuaranteedRef` uses them without a retain/release pair.
  let setRefs: UnsafeBufferPointer<Unmanaged<StringSet>>
  let needleRefs: UnsafeBufferPointer<Unmanaged<StringNeedle>>
  let likeRefs: UnsafeBufferPointer<Unmanaged<LikePattern>>
  let regexRefs: UnsafeBufferPointer<Unmanaged<RegexPattern>>
  /// Source range of the syntax each instruction implements (pc -> range).
  let ranges: [SourceRange]
  let constants: [SiftValue]
  /// Keys, variable names and type names.
  let names: [String]
  /// Per name, whether it is ASCII (its byte-for-byte lookup is Swift's own).
  let asciiNames: [Bool]
  let paths: [[String]]
  let comparisons: [ComparisonDescriptor]
  let needles: [StringNeedle]
  let stringSets: [StringSet]
  let likes: [LikePattern]
  let regexes: [RegexPattern]
  let subprograms: [Subprogram]
  let registerCount: Int
  /// The functions `callCustom` can reach (from ``CompileOptions/functions``).
  let functions: SiftFunctions
  /// For MATCHES with a pattern known only at evaluation time (constant patterns carry
  /// their own).
  let regexLimits: RegexLimits
  /// When the whole program is one string test without a quantifier on SELF or a plain
  /// key (`SELF IN {…}`, `title CONTAINS[cd] '…'`), that instruction: a string subject
  /// then runs it directly (``Machine/runKernel(_:_:_:)``), skipping the dispatch loop.
  let kernel: Instruction?
  /// The longest subject (UTF-8 bytes) the kernel's test can take within the step budget
  /// (``Cost``): one comparison of the length replaces computing the charge per call.
  let kernelMaxBytes: Int
  /// The step budget of one evaluation (``EvaluationLimits/maxSteps``), for the kernel.
  let maxSteps: Int
  /// Whether this program or a subprogram reads or binds a variable.
  let usesVariables: Bool
  /// The program as a decision graph when it is only tests joined by AND, OR and NOT
  /// (``DecisionGraph``): the VM then runs ``graphNodes`` from ``graphEntry`` instead of
  /// the code. Empty otherwise.
  let graphNodes: UnsafeBufferPointer<DecisionGraph.Node>
  /// The first node of the graph, or an exit; meaningful when ``hasGraph``.
  let graphEntry: Int32
  /// Whether the program runs as a decision graph.
  let hasGraph: Bool

  init(
    _ b: ProgramBuilder, functions: SiftFunctions, regexLimits: RegexLimits = RegexLimits(), maxSteps: Int = 1_000_000
  ) {
    self.functions = functions
    self.regexLimits = regexLimits
    code = b.code
    instructions = UnsafeBufferPointer(frozenCopyOf: b.code) { $0 }
    setRefs = UnsafeBufferPointer(frozenCopyOf: b.stringSets) { Unmanaged.passUnretained($0) }
    needleRefs = UnsafeBufferPointer(frozenCopyOf: b.needles) { Unmanaged.passUnretained($0) }
    likeRefs = UnsafeBufferPointer(frozenCopyOf: b.likes) { Unmanaged.passUnretained($0) }
    regexRefs = UnsafeBufferPointer(frozenCopyOf: b.regexes) { Unmanaged.passUnretained($0) }
    ranges = b.ranges
    constants = b.constants
    names = b.names
    asciiNames = b.names.map { $0.utf8.allSatisfy { $0 < 0x80 } }
    paths = b.paths
    comparisons = b.comparisons
    needles = b.needles
    stringSets = b.stringSets
    likes = b.likes
    regexes = b.regexes
    subprograms = b.subprograms
    registerCount = b.registerCount
    kernel = Self.kernel(of: b.code)
    self.maxSteps = maxSteps
    kernelMaxBytes = kernel.map { Self.maxBytes($0, b.likes, maxSteps: maxSteps) } ?? 0
    usesVariables =
      b.code.contains { [.loadVar, .storeVar, .subquery].contains($0.opcode) }
      || b.subprograms.contains { $0.program.usesVariables }
    let graph = b.registerCount == 0 ? DecisionGraph(b.code) : nil
    graphNodes = UnsafeBufferPointer(frozenCopyOf: graph?.nodes ?? []) { $0 }
    graphEntry = graph?.entry ?? DecisionGraph.falseExit
    hasGraph = graph != nil
  }

  private static func kernel(of code: [Instruction]) -> Instruction? {
    guard code.count == 2, code[1].opcode == .ret, let test = code.first, test.quantifier == 0,
      test.source != .register, [.inStrings, .stringTest, .like, .matches].contains(test.opcode)
    else { return nil }
    return test
  }

  /// The longest string whose test by `test` costs at most `maxSteps` (strings under 8
  /// bytes cost nothing, whatever the budget). Backtracking charges its tiers as it runs;
  /// here only its bytes count.
  private static func maxBytes(_ test: Instruction, _ likes: [LikePattern], maxSteps: Int) -> Int {
    guard maxSteps >= 0 else { return Cost.foldedBytesPerStep - 1 }
    // No string in memory is that long.
    if maxSteps >= Int.max >> 7 { return Int.max }
    switch test.costClass {
    case .bytes, .backtracking: return (maxSteps + 1) * Cost.bytesPerStep - 1
    case .folded: return max(Cost.foldedBytesPerStep - 1, (maxSteps + 1) * Cost.foldedBytesPerStep - 1)
    case .like:
      // (n × (1 + p / 8)) / 64 ≤ maxSteps: n × (1 + p / 8) < (maxSteps + 1) × 64.
      let perByte = 1 + likes[test.b].patternBytes >> 3
      return max(Cost.foldedBytesPerStep - 1, ((maxSteps + 1) * Cost.bytesPerStep - 1) / perByte)
    }
  }

  deinit {
    instructions.deallocate()
    setRefs.deallocate()
    needleRefs.deallocate()
    likeRefs.deallocate()
    regexRefs.deallocate()
    graphNodes.deallocate()
  }
}

/// The predicate of a SUBQUERY, with the variable it binds.
struct Subprogram: Sendable {
  var variable: String
  var program: Program
}

/// What a `compare`, `stringTest`, `like` or `matches` instruction compares.
struct ComparisonDescriptor: Sendable, Hashable {
  var op: ComparisonOperator
  var options: ComparisonOptions
  var quantifier: Quantifier?
  /// The constant right operand of a specialised instruction, for its generic fallback.
  var constant: SiftValue?
}
