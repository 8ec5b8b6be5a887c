/// A program whose code is only tests joined by AND, OR and NOT (`a IN %@ AND NOT (b
/// ENDSWITH[c] 'x') AND ANY tags == 'u'`), as a decision graph: each node is one test
/// instruction and names the node to run next when it holds and when it does not. The VM
/// runs such a program one test per step, without the jumps, `not` and flag moves between
/// the tests (the W2 shape ran three dispatches per test; here it runs one).
///
/// The graph is derived from the bytecode, not from the syntax: following the flag through
/// `jumpIfFalse`, `jumpIfTrue`, `jump`, `not`, `setFlag` and `ret` from each test, once
/// with the flag true and once false, finds the next test (or the answer) for each
/// outcome. So the graph and the bytecode cannot disagree, and short-circuit order and
/// error ranges are the bytecode's.
struct DecisionGraph {
  /// One test and where each of its outcomes leads.
  struct Node {
    /// A test instruction (`compareConst`, `inStrings`, `stringTest`, `like`, `matches`)
    /// whose subject is read in place (never a register).
    var test: Instruction
    /// The test's pc in the bytecode, for the source range of an error.
    var pc: Int32
    /// The next node when the test holds, or ``DecisionGraph/trueExit`` /
    /// ``DecisionGraph/falseExit``.
    var onTrue: Int32
    /// The next node when it does not.
    var onFalse: Int32
  }

  /// The answer is true.
  static let trueExit: Int32 = -1
  /// The answer is false.
  static let falseExit: Int32 = -2

  /// Nodes in the order of their first test from the entry.
  let nodes: [Node]
  /// The first node, or an exit for a program without tests (`TRUEPREDICATE`).
  let entry: Int32

  /// The graph of `code`, or nil when it holds anything but tests, flag moves and jumps
  /// (or a test reads a register).
  init?(_ code: [Instruction]) {
    var nodeOfPC: [Int: Int32] = [:]
    var pending: [Int] = []
    var nodes: [Node] = []
    /// Where running from `pc` with the flag at `flag` leads: a node, an exit, or nil.
    func follow(_ start: Int, flag start0: Bool) -> Int32? {
      var pc = start
      var flag = start0
      // Jumps only go forward in boolean code; the bound guards against anything else.
      for _ in 0...code.count {
        guard pc < code.count else { return nil }
        let i = code[pc]
        switch i.opcode {
        case .compareConst, .inStrings, .stringTest, .like, .matches:
          guard i.source != .register else { return nil }
          if let node = nodeOfPC[pc] { return node }
          let node = Int32(nodes.count)
          nodeOfPC[pc] = node
          nodes.append(Node(test: i, pc: Int32(pc), onTrue: Self.falseExit, onFalse: Self.falseExit))
          pending.append(pc)
          return node
        case .not: flag.toggle()
        case .setFlag: flag = i.d != 0
        case .jump:
          pc = i.b
          continue
        case .jumpIfFalse where !flag, .jumpIfTrue where flag:
          pc = i.b
          continue
        case .jumpIfFalse, .jumpIfTrue: break
        case .ret: return flag ? Self.trueExit : Self.falseExit
        default: return nil
        }
        pc += 1
      }
      return nil
    }
    guard let entry = follow(0, flag: false) else { return nil }
    var next = 0
    while next < pending.count {
      let pc = pending[next]
      let node = Int(nodeOfPC[pc]!)
      guard let onTrue = follow(pc + 1, flag: true), let onFalse = follow(pc + 1, flag: false) else { return nil }
      nodes[node].onTrue = onTrue
      nodes[node].onFalse = onFalse
      next += 1
    }
    self.nodes = nodes
    self.entry = entry
  }
}
