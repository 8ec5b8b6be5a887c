import SiftSyntax

/// A top-level AND that is not a test chain as a whole, compiled in two parts for the
/// batch tier: the clauses that are tests (`head`, one test chain) and the rest (`rest`,
/// any bytecode). The tier runs the head over the rows in batches, and the rest on the VM
/// only for the rows the head kept, each with the step budget its head left: the part
/// the tier cannot run as tests, run per survivor (C20's `score * 2 + 1 > 3` and
/// `recipients.@count <= 20` compute values; its other eight conjuncts are tests).
///
/// A row matches exactly when it matches the whole predicate. Both say no match for an
/// error; a row that fails or raises in any clause does not match whichever part runs
/// it first; a row that passes every clause ran every clause, and each clause charges the
/// same steps compiled alone (charges are for work done, not for instructions, and the
/// compiler shares no load between clauses). Cases left whole: a backtracking MATCHES,
/// which sizes its last round by the steps left and so depends on what ran before it, and
/// any MATCHES whose pattern is read from the row (compiled as it runs, it may backtrack:
/// found in review); and substitution variables, which the parts would not see.
struct BatchSplit {
  let head: Program
  let rest: Program

  /// The split of `syntax`, or nil where it has none: not an AND, no clause that is a
  /// test, no clause that is not, or a case left whole.
  static func make(_ syntax: PredicateSyntax, options: CompileOptions) -> BatchSplit? {
    var clauses: [PredicateSyntax] = []
    func flatten(_ s: PredicateSyntax) {
      if case .and(let parts) = s.kind { parts.forEach(flatten) } else { clauses.append(s) }
    }
    flatten(syntax)
    guard clauses.count >= 2 else { return nil }
    func compile(_ parts: [PredicateSyntax]) -> Program? {
      try? Compiler.compile(
        parts.count == 1 ? parts[0] : PredicateSyntax(.and(parts), range: syntax.range), slots: options.slotResolver,
        functions: options.functions,
        limits: options.limits)
    }
    var tests: [PredicateSyntax] = []
    var others: [PredicateSyntax] = []
    for clause in clauses {
      guard let alone = compile([clause]) else { return nil }
      // A pattern read from the row (`s MATCHES t`) is compiled as it runs and may
      // backtrack: its charge depends on the steps left, as a constant backtracking one's.
      let readsAPattern = alone.code.comparisons.contains { $0.op == .matches && $0.constantSlot == nil }
      if alone.regexes.contains(where: { $0.engine == .backtrackingBounded }) || readsAPattern
        || alone.code.usesVariables
      {
        return nil
      }
      if alone.runsInBatches { tests.append(clause) } else { others.append(clause) }
    }
    guard !tests.isEmpty, !others.isEmpty, let head = compile(tests), head.runsInBatches, let rest = compile(others)
    else { return nil }
    return BatchSplit(head: head, rest: rest)
  }
}
