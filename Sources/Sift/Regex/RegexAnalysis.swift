/// What a ``RegexNode`` tree says about running its pattern.
enum RegexAnalysis {
  /// Whether backtracking over `node` is provably cheap: at most one unbounded (or large)
  /// repetition in the whole pattern, whose operand is a single code point or set, and no
  /// repetition of anything longer. Then an anchored whole-string match tries at most one
  /// length per subject position for that repetition, linear in the subject. For an
  /// unanchored search (`search`), the repetition must also be the pattern's last item, so
  /// a start position that reaches it succeeds instead of retrying every length.
  static func isBacktrackingSafe(_ node: RegexNode, search: Bool) -> Bool {
    guard node.isRegular else { return false }
    var loops = 0
    guard safeRepetitions(node, &loops) else { return false }
    if loops == 0 { return true }
    guard loops == 1 else { return false }
    if !search { return true }
    // The one loop must come last in the top-level sequence.
    let last: RegexNode
    switch node {
    case .concat(let items): last = items.last ?? .empty
    default: last = node
    }
    if case .repetition(_, _, let max) = last, isLoop(max) { return true }
    return false
  }

  /// A repetition that can match many times (unbounded, or a bound large enough to matter).
  private static func isLoop(_ max: Int?) -> Bool { max.map { $0 > 16 } ?? true }

  private static func safeRepetitions(_ node: RegexNode, _ loops: inout Int) -> Bool {
    switch node {
    case .repetition(let inner, _, let max):
      if isLoop(max) {
        loops += 1
        return isSingleCharacter(inner)
      }
      // A small bounded repetition of a group is finite, but only cheap when the group
      // itself holds no repetition (nested bounds multiply).
      var innerLoops = 0
      guard safeRepetitions(inner, &innerLoops), innerLoops == 0, !containsRepetition(inner) || isSingleCharacter(inner)
      else { return false }
      return true
    case .concat(let items):
      for item in items where !safeRepetitions(item, &loops) { return false }
      return true
    case .alternation(let branches):
      for branch in branches where !safeRepetitions(branch, &loops) { return false }
      return true
    default: return true
    }
  }

  private static func containsRepetition(_ node: RegexNode) -> Bool {
    switch node {
    case .repetition: true
    case .concat(let xs), .alternation(let xs): xs.contains(where: containsRepetition)
    default: false
    }
  }

  private static func isSingleCharacter(_ node: RegexNode) -> Bool {
    switch node {
    case .char, .set: true
    case .concat(let xs) where xs.count == 1: isSingleCharacter(xs[0])
    default: false
    }
  }

  /// For a search pattern that is a literal followed by one ASCII character class, repeated
  /// at least once and possibly without bound (`invoice [0-9]+`): the literal's bytes and
  /// the class's bytes. A search then finds the literal and looks at the byte after it.
  static func literalThenClass(_ node: RegexNode) -> (literal: [UInt8], byteSet: [Bool])? {
    guard case .concat(let items) = node, items.count >= 2 else { return nil }
    var scalars: [Unicode.Scalar] = []
    for item in items.dropLast() {
      guard case .char(let c, let caseless) = item, c.value < 0x80, !caseless || !c.properties.changesWhenCaseMapped
      else { return nil }
      scalars.append(c)
    }
    guard case .repetition(let inner, 1, _) = items.last!, case .set(let set, false) = inner, !set.negated else {
      return nil
    }
    var bytes = [Bool](repeating: false, count: 128)
    for item in set.items {
      switch item {
      case .scalar(let c) where c.value < 0x80: bytes[Int(c.value)] = true
      case .range(let a, let b) where b.value < 0x80:
        for v in a.value...b.value { bytes[Int(v)] = true }
      default: return nil
      }
    }
    return (scalars.map { UInt8($0.value) }, bytes)
  }

  /// Whether every match of `node` begins with `prefix` (its first items are those exact
  /// code points).
  static func startsWith(_ node: RegexNode, _ prefix: [Unicode.Scalar]) -> Bool {
    var items: [RegexNode]
    switch node {
    case .concat(let xs): items = xs
    default: items = [node]
    }
    var k = 0
    for item in items {
      guard k < prefix.count else { break }
      guard case .char(let c, let caseless) = item, c == prefix[k], !caseless || !c.properties.changesWhenCaseMapped
      else { return false }
      k += 1
    }
    return k == prefix.count
  }

  /// The longest run of literal code points (compared exactly, so not under `(?i)`) that
  /// every match of `node` contains; empty when there is none worth searching for.
  static func requiredLiteral(_ node: RegexNode) -> [Unicode.Scalar] {
    var best: [Unicode.Scalar] = []
    var run: [Unicode.Scalar] = []
    func flush() {
      if run.count > best.count { best = run }
      run = []
    }
    func visit(_ n: RegexNode) {
      switch n {
      case .char(let c, let caseless) where !caseless || !c.properties.changesWhenCaseMapped:
        run.append(c)
      case .concat(let xs):
        for x in xs { visit(x) }
      case .repetition(let inner, let min, _) where min >= 1:
        // The first copy follows what came before and the last copy precedes what comes
        // next; for a fixed string both are that string (`a+bc` always contains `abc`).
        if let fixed = fixedString(inner) {
          run += fixed
          flush()
          run = fixed
        } else {
          visit(inner)
          flush()
        }
      case .empty, .start, .end, .wordBoundary:
        // Zero-width: the run continues across them only when nothing can come between.
        if case .empty = n { return }
        flush()
      default:
        flush()
      }
    }
    visit(node)
    flush()
    return best
  }
}

extension RegexAnalysis {
  /// The code points of a node that matches one fixed, exactly compared string.
  fileprivate static func fixedString(_ node: RegexNode) -> [Unicode.Scalar]? {
    switch node {
    case .char(let c, let caseless) where !caseless || !c.properties.changesWhenCaseMapped: return [c]
    case .concat(let xs):
      var out: [Unicode.Scalar] = []
      for x in xs {
        guard let f = fixedString(x) else { return nil }
        out += f
      }
      return out
    default: return nil
    }
  }
}

extension Unicode.Scalar.Properties {
  /// Whether a caseless match could match this code point with another one.
  fileprivate var changesWhenCaseMapped: Bool { changesWhenUppercased || changesWhenLowercased || isCased }
}
