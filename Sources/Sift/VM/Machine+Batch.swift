import CSiftPrefetch

/// The rows of a collection as the batch tier reads them: one reader per row, and a hint
/// for the memory a test will read of a row soon.
protocol BatchRows {
  associatedtype Reader: InputReader
  /// Whether the row can be evaluated at all (a record of another schema cannot: it is an
  /// error, so it never matches).
  func admits(_ row: Int) -> Bool
  /// Calls `body` with the row's reader, valid for the call.
  func withReader<T>(_ row: Int, _ body: (Reader) throws(EvaluationError) -> T) throws(EvaluationError) -> T
  /// Asks for the cache lines test `i` will read out of line for `row` (a string's bytes,
  /// an array's elements). A hint: it reads nothing and cannot fail.
  func prefetch(_ plan: Plan, _ row: Int, _ i: Instruction)

  /// Whether the first two tests of a conjunction run in one pass over each row: for rows
  /// that keep a record's fields together (a struct, a record), so that a row's memory is
  /// read once; columns keep each field apart and gain nothing.
  static var fusesTests: Bool { get }

  /// What rows can prepare once per call for test `i` (a dictionary-encoded column: the
  /// test's answer for each distinct string); `Void` for most.
  associatedtype Plan = Void
  /// Prepares test `i` for `count` rows.
  func plan(_ i: Instruction, _ program: Executable, rows count: Int) -> Plan
  /// Test `i` on `row`, charging `env` exactly what ``Machine/runTest(_:_:_:_:_:)`` on the
  /// row's reader charges.
  func test(_ plan: Plan, _ i: Instruction, _ program: Executable, _ row: Int, _ env: inout Environment)
    throws(EvaluationError) -> Bool
  /// Test `i` over the rows of `batch` as a loop of the rows' own (``Machine/sweep(_:prefetch:decide:)``),
  /// where they can read its field without a reader: how many rows it left to the
  /// general loop, or nil when it swept none.
  func sweep(_ plan: Plan, _ i: Instruction, _ program: Executable, _ batch: SweepBatch) -> Int?
  /// Whether ``sweep(_:_:_:_:)`` runs test `i` (a conjunction fuses its first two tests
  /// only where neither sweeps: a sweep is the faster loop).
  func sweeps(_ plan: Plan, _ i: Instruction, _ program: Executable) -> Bool
}

extension BatchRows {
  /// The test on the row's reader.
  @inline(__always)
  func runTest(_ i: Instruction, _ program: Executable, _ row: Int, _ env: inout Environment)
    throws(EvaluationError) -> Bool
  {
    try withReader(row) { (reader) throws(EvaluationError) in
      try Machine.runTest(i, program, UnsafeMutableBufferPointer(start: nil, count: 0), reader, &env)
    }
  }
}

extension BatchRows {
  /// Rows that cannot read a field without a reader sweep nothing.
  func sweep(_ plan: Plan, _ i: Instruction, _ program: Executable, _ batch: SweepBatch) -> Int? { nil }
  func sweeps(_ plan: Plan, _ i: Instruction, _ program: Executable) -> Bool { false }
}

extension BatchRows where Plan == Void {
  @inline(__always) func plan(_ i: Instruction, _ program: Executable, rows count: Int) {}

  @inline(__always)
  func test(_ plan: Void, _ i: Instruction, _ program: Executable, _ row: Int, _ env: inout Environment)
    throws(EvaluationError) -> Bool
  {
    try runTest(i, program, row, &env)
  }
}

/// The working memory of one batch: one selection vector per test of the chain, plus the
/// two exits, and each row's step budget. Taken on the stack for the call (a heap block
/// freed after every call made each call of a hot loop fault its pages in again: C20 ran
/// at half the speed of one-by-one evaluation), reused for every batch.
struct BatchScratch {
  /// The most rows per batch. Within 256–4,096 the size barely mattered in the prototype;
  /// 1,024 keeps every selection vector (2 bytes a row) and the budgets in L1/L2.
  static let maxRows = 1_024
  /// The scratch aims at this many bytes: long chains get shorter batches, down to 64
  /// rows (a chain of thousands of tests then takes more, and the allocation moves to the
  /// heap where the stack cannot hold it).
  static let maxBytes = 64 * 1_024
  /// How many survivors ahead of the one tested the out-of-line data is prefetched.
  static let prefetchDistance = 16
  /// Collections shorter than this are evaluated one element at a time, with no scratch
  /// to set up. A judgement, not a measured cut-off: `sift-batch-8` measures the small
  /// case (8 structs per call cost 7 % more than 8 calls of `matches`).
  static let smallest = 16

  let tests: Int
  /// Rows per batch.
  let rows: Int
  /// `tests + 2` vectors of ``rows`` entries: test `t`'s rows, then the rows that exited
  /// false, then those that exited true.
  let vectors: UnsafeMutablePointer<UInt16>
  let counts: UnsafeMutablePointer<Int>
  let steps: UnsafeMutablePointer<Int>

  /// Calls `body` with a scratch for a chain of `tests` tests over `count` rows.
  static func with<T>(tests: Int, count: Int, _ body: (BatchScratch) -> T) -> T {
    let perRow = (tests + 2) * 2 + 8
    let rows = max(1, min(count, maxRows, max(64, maxBytes / perRow)))
    let bytes = (tests + 2) * 8 + rows * perRow
    return withUnsafeTemporaryAllocation(byteCount: bytes, alignment: 8) { raw in
      let counts = raw.baseAddress!.bindMemory(to: Int.self, capacity: tests + 2)
      let steps = (raw.baseAddress! + (tests + 2) * 8).bindMemory(to: Int.self, capacity: rows)
      let vectors = (raw.baseAddress! + (tests + 2) * 8 + rows * 8).bindMemory(
        to: UInt16.self, capacity: (tests + 2) * rows)
      return body(BatchScratch(tests: tests, rows: rows, vectors: vectors, counts: counts, steps: steps))
    }
  }

  @inline(__always) func vector(_ t: Int) -> UnsafeMutablePointer<UInt16> { vectors + t &* rows }
}

extension Machine {
  /// The order the batch tier runs the tests of `code` in: every test after all those
  /// that can branch to it, so each test's rows are complete when it runs (a topological
  /// order of the chain, which the compiler lays out as a graph: a branch may go back to
  /// a test placed earlier). Nil when `code` is not a test chain, or not acyclic.
  static func batchOrder(_ code: Code) -> [Int]? {
    guard code.isTestChain else { return nil }
    let instructions = code.instructions
    guard instructions.count % 2 == 0 else { return nil }
    let tests = instructions.count / 2
    var successors = Array(repeating: [Int](), count: tests)
    var incoming = Array(repeating: 0, count: tests)
    for t in 0..<tests {
      let branch = instructions[2 * t + 1]
      guard instructions[2 * t].opcode.mode.isSubjectTest, branch.opcode == .branch else { return nil }
      for target in [branch.b, branch.c] where target < Opcode.exitFalse {
        guard target % 2 == 0, target / 2 < tests else { return nil }
        successors[t].append(target / 2)
        incoming[target / 2] += 1
      }
    }
    // Kahn's algorithm from the entry (test 0), preferring the lowest index: the written
    // order wherever the graph allows it.
    guard incoming[0] == 0 else { return nil }
    var order: [Int] = []
    var ready = [0]
    while let t = ready.min() {
      ready.remove(at: ready.firstIndex(of: t)!)
      order.append(t)
      for s in successors[t] {
        incoming[s] -= 1
        if incoming[s] == 0 { ready.append(s) }
      }
    }
    // A test no path reaches has rows never; a cycle leaves tests out: not run in batches.
    return order.count == tests ? order : nil
  }

  /// The batch tier: a test chain over `count` rows, test by test instead of row by row.
  ///
  /// Each test runs as one tight loop over the rows that reached it (its selection
  /// vector), every row following exactly the path it takes alone: the same tests in the
  /// same order, with its own step budget, so a row matches exactly when
  /// ``runTestChain(_:_:_:)`` says true (an error is no match, as in `matches`). Tests run
  /// in `order` (``batchOrder(_:)``), so a test's vector is complete when it runs. While a
  /// test loops, the out-of-line data of the row ``BatchScratch/prefetchDistance``
  /// survivors ahead is prefetched: only a batch knows which rows come next, which is what
  /// beats one-by-one evaluation on data that is not cached. A row goes to its next vector
  /// without a branch (a select of the vector, a store, an increment). A `conjunction`
  /// (``conjunction(_:tests:)``) has its first two tests fused where the rows keep a
  /// record together (``BatchRows/fusesTests``), and is reordered after the first batch
  /// (``ordered(_:code:reached:passed:)``).
  ///
  /// Calls `matched` with each matching row, in ascending order, and the steps its budget
  /// has left.
  static func runTestChainBatch<Rows: BatchRows>(
    _ program: Executable, order: [Int], conjunction: [ConjunctionStep]?, maxSteps: Int, rows: Rows, count: Int,
    scratch: BatchScratch, matched: (Int, _ stepsLeft: Int) -> Void
  ) {
    // Each test's routes and plan on the stack, as the scratch is: two arrays a call cost
    // a small collection two allocations.
    withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: scratch.tests) { routes in
      withUnsafeTemporaryAllocation(of: Rows.Plan?.self, capacity: scratch.tests) { plans in
        plans.initialize(repeating: nil)
        defer { plans.deinitialize() }
        runTestChainBatch(
          program, order: order, conjunction: conjunction, maxSteps: maxSteps, rows: rows, count: count,
          scratch: scratch, routes: routes, plans: plans, matched: matched)
      }
    }
  }

  private static func runTestChainBatch<Rows: BatchRows>(
    _ program: Executable, order: [Int], conjunction: [ConjunctionStep]?, maxSteps: Int, rows: Rows, count: Int,
    scratch: BatchScratch, routes: UnsafeMutableBufferPointer<(Int, Int)>,
    plans: UnsafeMutableBufferPointer<Rows.Plan?>, matched: (Int, _ stepsLeft: Int) -> Void
  ) {
    let code = program.instructions
    let tests = scratch.tests
    let falseExit = tests
    let trueExit = tests + 1
    // Where each test sends a row it held for, and one it did not: a test index or an exit.
    func vectorOf(_ target: Int) -> Int {
      target >= Opcode.exitFalse ? (target == Opcode.exitTrue ? trueExit : falseExit) : target >> 1
    }
    for t in 0..<tests {
      (routes.baseAddress! + t).initialize(to: (vectorOf(code[2 * t + 1].b), vectorOf(code[2 * t + 1].c)))
    }
    var order = order
    var entry = 0
    // The conjunction's tests in the order they run; the first two are fused.
    var steps = conjunction ?? []
    var fused = Rows.fusesTests && steps.count >= 2
    // Rows that reached each test and that passed it, in the first batch, for the order
    // (which needs a second batch to pay off). A backtracking MATCHES is paid for as it runs and sizes its last round by the steps
    // left, so its charge depends on what ran before it: such a conjunction keeps its
    // order (found in review: reordered, rows whose budget the regex used up matched).
    let measures =
      !steps.isEmpty && count > scratch.rows && !steps.contains { code[2 &* $0.test].costClass == .backtracking }
    var reached = Array(repeating: 0, count: measures ? tests : 0)
    var passed = reached
    // Prepared once per call, and only for a test some row reaches: a dictionary column's
    // table tests every distinct string (found in review: 200 tables for tests no row
    // reached took 22 s and 333 MB).
    func plan(_ t: Int) -> Rows.Plan {
      if let p = plans[t] { return p }
      let p = rows.plan(code[2 &* t], program, rows: count)
      plans[t] = p
      return p
    }
    if fused {
      let (t0, t1) = (steps[0].test, steps[1].test)
      fused = !rows.sweeps(plan(t0), code[2 &* t0], program) && !rows.sweeps(plan(t1), code[2 &* t1], program)
    }
    var start = 0
    while start < count {
      let n = min(scratch.rows, count - start)
      for t in 0..<(tests + 2) { scratch.counts[t] = 0 }
      let first = scratch.vector(entry)
      var admitted = 0
      for r in 0..<n {
        first[admitted] = UInt16(truncatingIfNeeded: r)
        admitted &+= rows.admits(start &+ r) ? 1 : 0
        scratch.steps[r] = maxSteps
      }
      scratch.counts[entry] = admitted
      if fused {
        // The conjunction's first two tests in one pass over the rows: each row's memory
        // is read once for both (test by test, a row that passed the first was fetched
        // again for the second), with both tests' data prefetched ahead.
        let (s0, s1) = (steps[0], steps[1])
        let (i0, i1) = (code[2 &* s0.test], code[2 &* s1.test])
        let (p0, p1) = (plan(s0.test), plan(s1.test))
        let (t1, f1) = routes[s1.test]
        let onward = t1 == falseExit ? f1 : t1
        let source = scratch.vector(entry)
        let c = scratch.counts[entry]
        scratch.counts[entry] = 0
        let measuring = start == 0 && measures
        for j in 0..<c {
          if j &+ BatchScratch.prefetchDistance < c {
            let ahead = start &+ Int(source[j &+ BatchScratch.prefetchDistance])
            rows.prefetch(p0, ahead, i0)
            rows.prefetch(p1, ahead, i1)
          }
          let r = Int(source[j])
          var env = Environment(variables: nil, stepsLeft: scratch.steps[r])
          var next = falseExit
          do throws(EvaluationError) {
            if try rows.test(p0, i0, program, start &+ r, &env) == s0.passWhen {
              if measuring { passed[s0.test] &+= 1 }
              if try rows.test(p1, i1, program, start &+ r, &env) == s1.passWhen {
                if measuring { passed[s1.test] &+= 1 }
                next = onward
              }
            }
          } catch {
            next = falseExit
          }
          scratch.steps[r] = env.stepsLeft
          scratch.vector(next)[scratch.counts[next]] = UInt16(truncatingIfNeeded: r)
          scratch.counts[next] &+= 1
        }
        if measuring {
          reached[s0.test] = c
          reached[s1.test] = passed[s0.test]
        }
      }
      for t in order {
        if scratch.counts[t] == 0 { continue }
        let i = code[2 &* t]
        let (onTrue, onFalse) = routes[t]
        let source = scratch.vector(t)
        let plan = plan(t)
        // In a conjunction one route is the false exit and the other lets a row on.
        let onward = onTrue == falseExit ? onFalse : onTrue
        let onwardBefore = scratch.counts[onward]
        // The rows' own loop first, where it can; the general loop takes what it left.
        let arrived = scratch.counts[t]
        var c = arrived
        if onTrue != onFalse,
          let left = rows.sweep(
            plan, i, program, SweepBatch(scratch: scratch, test: t, onTrue: onTrue, onFalse: onFalse, start: start))
        {
          c = left
        }
        for j in 0..<c {
          if j &+ BatchScratch.prefetchDistance < c {
            rows.prefetch(plan, start &+ Int(source[j &+ BatchScratch.prefetchDistance]), i)
          }
          let r = Int(source[j])
          var env = Environment(variables: nil, stepsLeft: scratch.steps[r])
          let next: Int
          do throws(EvaluationError) {
            let held = try rows.test(plan, i, program, start &+ r, &env)
            next = held ? onTrue : onFalse
          } catch {
            next = falseExit
          }
          scratch.steps[r] = env.stepsLeft
          scratch.vector(next)[scratch.counts[next]] = UInt16(truncatingIfNeeded: r)
          scratch.counts[next] &+= 1
        }
        if start == 0, measures {
          // All that arrived, swept or not (found measuring C20: counting what the sweep
          // left, every test looked as if no row reached it, and the order went wrong).
          reached[t] = arrived
          passed[t] = scratch.counts[onward] - onwardBefore
        }
      }
      // Rows reach the true exit from several tests, so not in order: sorted here (a
      // bitmap of the batch would cost as much for the few that match).
      var winners = UnsafeMutableBufferPointer(start: scratch.vector(trueExit), count: scratch.counts[trueExit])
      winners.sort()
      for r in winners { matched(start &+ Int(r), scratch.steps[Int(r)]) }
      if start == 0, measures, n < count {
        // Whether each test swept (a test only the general loop runs costs several times
        // more a row); a test no row reached has no plan and is taken to sweep.
        let swept = (0..<tests).map { t in plans[t].map { rows.sweeps($0, code[2 &* t], program) } ?? true }
        steps = Self.ordered(steps, code: code, reached: reached, passed: passed, swept: swept)
        order = steps.map(\.test)
        entry = order[0]
        for (k, step) in steps.enumerated() {
          let next = k + 1 < steps.count ? steps[k + 1].test : trueExit
          routes[step.test] = step.passWhen ? (next, falseExit) : (falseExit, next)
        }
      }
      start &+= n
    }
  }

  /// One test of a chain that is a single conjunction, and the outcome that lets a row
  /// on to the next test.
  struct ConjunctionStep {
    var test: Int
    var passWhen: Bool
  }

  /// The tests of `code` in pass order when the chain is one conjunction (each test sends
  /// a row on to the next, or to the true exit after the last, or to the false exit): then
  /// a row matches exactly when it passes every test, in any order. Nil for any other
  /// chain (an OR joins two paths).
  static func conjunction(_ code: UnsafeBufferPointer<Instruction>, tests: Int) -> [ConjunctionStep]? {
    var steps: [ConjunctionStep] = []
    var pc = 0
    // A path that comes back to a test loops: it passes `tests` steps and is refused.
    while steps.count <= tests {
      let branch = code[pc + 1]
      let passWhen: Bool
      let next: Int
      if branch.c == Opcode.exitFalse, branch.b != Opcode.exitFalse {
        passWhen = true
        next = branch.b
      } else if branch.b == Opcode.exitFalse, branch.c != Opcode.exitFalse {
        passWhen = false
        next = branch.c
      } else {
        return nil
      }
      steps.append(ConjunctionStep(test: pc / 2, passWhen: passWhen))
      if next == Opcode.exitTrue { return steps.count == tests ? steps : nil }
      pc = next
    }
    return nil
  }

  /// How many times a test costs when the general loop runs it rather than a sweep:
  /// W2's four tests took 44 ns a row in the general loop and 17 swept, and an integer
  /// comparison gains the most.
  static let unsweptCost = 4.0

  /// The steps cheapest-to-reject first: by static cost (an integer comparison is
  /// cheapest, a regex dearest, a quantifier walks an array) divided by the share of rows
  /// the test rejected in the first batch, which is the order that minimises the expected
  /// work of a conjunction. The written order is kept unless the new one is expected to
  /// cost under 70 % of it: the static costs are rough (a dictionary column's table makes
  /// a string test cheap), and a predicate written selective-first lost 10 % to an order
  /// they preferred by a hair.
  ///
  /// A test the rows do not sweep (`swept`, by test; nil: all do) costs
  /// ``unsweptCost`` times its static cost: measured on C20 in a stream, an optional
  /// integer's comparison (the general loop) put first by its static cost of 1 ran the
  /// whole conjunction at half the speed of the written order.
  ///
  /// Reordering changes nothing a caller sees: the tier reports no errors (an error is no
  /// match), a row that fails any test does not match whichever test fails first, and a
  /// row that passes all of them ran all of them, each charging its budget the same steps.
  static func ordered(
    _ steps: [ConjunctionStep], code: UnsafeBufferPointer<Instruction>, reached: [Int], passed: [Int],
    swept: [Bool]? = nil
  ) -> [ConjunctionStep] {
    func cost(_ step: ConjunctionStep) -> Double {
      let i = code[2 * step.test]
      var cost: Double
      switch i.trustedOpcode {
      case .compareConst: cost = 1
      case .inStrings: cost = 2
      case .stringTest: cost = 3
      case .like: cost = 6
      default: cost = 20
      }
      if i.quantifier != 0 { cost *= 4 }
      return swept?[step.test] == false ? cost * unsweptCost : cost
    }
    // A test no row reached is taken to pass half.
    func passing(_ step: ConjunctionStep) -> Double {
      reached[step.test] == 0 ? 0.5 : Double(passed[step.test]) / Double(reached[step.test])
    }
    func expected(_ order: [ConjunctionStep]) -> Double {
      var reaching = 1.0
      var total = 0.0
      for step in order {
        total += reaching * cost(step)
        reaching *= passing(step)
      }
      return total
    }
    let proposed = steps.enumerated().sorted { a, b in
      let (x, y) = (
        cost(a.element) / max(1 - passing(a.element), 0.001), cost(b.element) / max(1 - passing(b.element), 0.001)
      )
      return x != y ? x < y : a.offset < b.offset
    }.map(\.element)
    return expected(proposed) < 0.7 * expected(steps) ? proposed : steps
  }
}

/// Prefetch hints for the out-of-line storage of Swift values, shared by the rows.
enum OutOfLine {
  /// The bytes of a native string that is not small (a small string is in the value
  /// itself; for any other kind the address is not memory the string owns, and a prefetch
  /// of it is harmless: it never faults).
  @inline(__always)
  static func prefetch(string p: UnsafeRawPointer) {
    // Not gated on `SmallStringBits.isAvailable` (a check per row cost W2 5 % hot): on
    // another layout the address is only a useless hint.
    let object = p.load(fromByteOffset: 8, as: UInt64.self)
    // The top nibble holds the discriminator.
    guard !SmallStringBits.isSmall((0, object)) else { return }
    let address = object & 0x0FFF_FFFF_FFFF_FFFF
    guard address != 0 else { return }
    sift_prefetch(UnsafeRawPointer(bitPattern: UInt(address &+ 32)))
  }

  /// The first elements of an array (its buffer's header is 32 bytes).
  @inline(__always)
  static func prefetch(array p: UnsafeRawPointer) {
    let buffer = p.load(as: UInt.self)
    guard buffer != 0 else { return }
    sift_prefetch(UnsafeRawPointer(bitPattern: buffer &+ 32))
  }

  /// An array's count and the element `byteOffset` bytes into its elements: the line of
  /// the first elements holds neither for a record's later slots.
  @inline(__always)
  static func prefetch(array p: UnsafeRawPointer, element byteOffset: Int) {
    let buffer = p.load(as: UInt.self)
    guard buffer != 0 else { return }
    sift_prefetch(UnsafeRawPointer(bitPattern: buffer &+ 16))
    sift_prefetch(UnsafeRawPointer(bitPattern: buffer &+ 32 &+ UInt(bitPattern: byteOffset)))
  }
}
