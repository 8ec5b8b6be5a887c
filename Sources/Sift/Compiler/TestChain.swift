/// The compiler's last pass for code that is only tests joined by AND, OR and NOT (`a IN %@
/// AND NOT (b ENDSWITH[c] 'x') AND ANY tags == 'u'`): the code rewritten as a *test chain*,
/// each test instruction followed by a `branch` that names the test to run next when it
/// holds and when it does not, or the answer. The VM runs a chain one test per step
/// (``Machine/runTestChain(_:_:_:)``) without the jumps, `not` and flag moves between the
/// tests (the W2 shape ran three dispatches per test; a chain runs one); the dispatch loop
/// runs the same code too (`branch` is an instruction like any other), which the tests
/// use to compare the tiers. `sift explain` and the golden listings show the chain.
///
/// The chain is derived from the bytecode, not from the syntax: following the flag through
/// `jumpIfFalse`, `jumpIfTrue`, `jump`, `not`, `setFlag` and `ret` from each test, once
/// with the flag true and once false, finds the next test (or the answer) for each
/// outcome. So the chain and the plain code cannot disagree, and short-circuit order and
/// error ranges are the plain code's.
struct TestChain {
  /// Test, branch, test, branch, …; the first test is the entry.
  let code: [Instruction]
  /// Each test's range; its branch has the same.
  let ranges: [SourceRange]

  /// The chain of `code`, or nil when it holds anything but tests, flag moves and jumps
  /// (or a test reads a register), has no test at all (`TRUEPREDICATE`: two instructions
  /// already), or has too many tests for the 16-bit branch targets.
  init?(_ code: [Instruction], ranges: [SourceRange]) {
    var nodeOfPC: [Int: Int] = [:]
    var pending: [Int] = []
    // Per node: the test's pc, and where each outcome leads (a node, or an exit).
    var tests: [Int] = []
    var outcomes: [(onTrue: Int, onFalse: Int)] = []
    let maxNodes = (Opcode.exitFalse - 1) / 2
    let exitTrue = -1
    let exitFalse = -2
    /// Where running from `pc` with the flag at `flag` leads: a node, an exit, or nil.
    func follow(_ start: Int, flag start0: Bool) -> Int? {
      var pc = start
      var flag = start0
      // Jumps only go forward in boolean code; the bound guards against anything else.
      for _ in 0...code.count {
        guard pc < code.count else { return nil }
        let i = code[pc]
        if i.opcode.mode.isSubjectTest {
          guard i.source != .register, tests.count < maxNodes else { return nil }
          if let node = nodeOfPC[pc] { return node }
          let node = tests.count
          nodeOfPC[pc] = node
          tests.append(pc)
          outcomes.append((exitFalse, exitFalse))
          pending.append(pc)
          return node
        }
        switch i.opcode {
        case .not: flag.toggle()
        case .setFlag: flag = i.d != 0
        case .jump:
          pc = i.b
          continue
        case .jumpIfFalse where !flag, .jumpIfTrue where flag:
          pc = i.b
          continue
        case .jumpIfFalse, .jumpIfTrue: break
        case .ret: return flag ? exitTrue : exitFalse
        default: return nil
        }
        pc += 1
      }
      return nil
    }
    guard let entry = follow(0, flag: false), entry >= 0 else { return nil }
    var next = 0
    while next < pending.count {
      let pc = pending[next]
      let node = nodeOfPC[pc]!
      guard let onTrue = follow(pc + 1, flag: true), let onFalse = follow(pc + 1, flag: false) else { return nil }
      outcomes[node] = (onTrue, onFalse)
      next += 1
    }
    func target(_ t: Int) -> Int { t == exitTrue ? Opcode.exitTrue : t == exitFalse ? Opcode.exitFalse : 2 * t }
    var chain: [Instruction] = []
    var chainRanges: [SourceRange] = []
    chain.reserveCapacity(2 * tests.count)
    for (node, pc) in tests.enumerated() {
      chain.append(code[pc])
      chain.append(Instruction(.branch, b: target(outcomes[node].onTrue), c: target(outcomes[node].onFalse)))
      chainRanges += [ranges[pc], ranges[pc]]
    }
    self.code = chain
    self.ranges = chainRanges
  }
}
