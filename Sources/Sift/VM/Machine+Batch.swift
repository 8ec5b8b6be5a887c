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
  func prefetch(_ row: Int, _ i: Instruction)
}

/// The working memory of one batch: one selection vector per test of the chain, plus the
/// two exits, and each row's step budget. Taken on the stack for the call (a heap block
/// freed after every call made each call of a hot loop fault its pages in again: C20 ran
/// at half the speed of one-by-one evaluation), reused for every batch.
struct BatchScratch {
  /// The most rows per batch. Within 256–4,096 the size barely mattered in the prototype;
  /// 1,024 keeps every selection vector (2 bytes a row) and the budgets in L1/L2.
  static let maxRows = 1_024
  /// The scratch stays within this many bytes: long chains get shorter batches.
  static let maxBytes = 64 * 1_024
  /// How many survivors ahead of the one tested the out-of-line data is prefetched.
  static let prefetchDistance = 16
  /// Collections shorter than this are evaluated one element at a time (no scratch to
  /// set up; ``SiftPredicate/filter(_:)`` measured the cut-off).
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
  /// in `order` (``batchOrder(_:)``), so a test's vector is complete when it runs. While a test loops, the out-of-line data of the row
  /// ``BatchScratch/prefetchDistance`` survivors ahead is prefetched: only a batch knows
  /// which rows come next, which is what beats one-by-one evaluation on data that is not
  /// cached. A row goes to its next vector without a branch (a select of the vector, a
  /// store, an increment).
  ///
  /// Calls `matched` with each matching row, in ascending order.
  static func runTestChainBatch<Rows: BatchRows>(
    _ program: Executable, order: [Int], maxSteps: Int, rows: Rows, count: Int, scratch: BatchScratch,
    matched: (Int) -> Void
  ) {
    let code = program.instructions
    let tests = scratch.tests
    let falseExit = tests
    let trueExit = tests + 1
    let noRegisters = UnsafeMutableBufferPointer<SiftValue>(start: nil, count: 0)
    var start = 0
    while start < count {
      let n = min(scratch.rows, count - start)
      for t in 0..<(tests + 2) { scratch.counts[t] = 0 }
      let first = scratch.vector(0)
      var admitted = 0
      for r in 0..<n {
        first[admitted] = UInt16(truncatingIfNeeded: r)
        admitted &+= rows.admits(start &+ r) ? 1 : 0
        scratch.steps[r] = maxSteps
      }
      scratch.counts[0] = admitted
      for t in order {
        let c = scratch.counts[t]
        if c == 0 { continue }
        let i = code[2 &* t]
        let branch = code[2 &* t &+ 1]
        let onTrue = branch.b >= Opcode.exitFalse ? (branch.b == Opcode.exitTrue ? trueExit : falseExit) : branch.b >> 1
        let onFalse =
          branch.c >= Opcode.exitFalse ? (branch.c == Opcode.exitTrue ? trueExit : falseExit) : branch.c >> 1
        let source = scratch.vector(t)
        for j in 0..<c {
          if j &+ BatchScratch.prefetchDistance < c {
            rows.prefetch(start &+ Int(source[j &+ BatchScratch.prefetchDistance]), i)
          }
          let r = Int(source[j])
          var env = Environment(variables: nil, stepsLeft: scratch.steps[r])
          let next: Int
          do throws(EvaluationError) {
            let held = try rows.withReader(start &+ r) { (reader) throws(EvaluationError) in
              try runTest(i, program, noRegisters, reader, &env)
            }
            next = held ? onTrue : onFalse
          } catch {
            next = falseExit
          }
          scratch.steps[r] = env.stepsLeft
          scratch.vector(next)[scratch.counts[next]] = UInt16(truncatingIfNeeded: r)
          scratch.counts[next] &+= 1
        }
      }
      // Rows reach the true exit from several tests, so not in order: sorted here (a
      // bitmap of the batch would cost as much for the few that match).
      var winners = UnsafeMutableBufferPointer(start: scratch.vector(trueExit), count: scratch.counts[trueExit])
      winners.sort()
      for r in winners { matched(start &+ Int(r)) }
      start &+= n
    }
  }
}

/// Prefetch hints for the out-of-line storage of Swift values, shared by the rows.
enum OutOfLine {
  /// The bytes of a native string that is not small (a small string is in the value
  /// itself; for any other kind the address is not memory the string owns, and a prefetch
  /// of it is harmless: it never faults).
  @inline(__always)
  static func prefetch(string p: UnsafeRawPointer) {
    let object = p.load(fromByteOffset: 8, as: UInt64.self)
    // Bit 61 marks a small string; the top nibble holds the discriminator.
    guard object & (1 << 61) == 0 else { return }
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
}
