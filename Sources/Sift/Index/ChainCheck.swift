extension PredicateIndex {
  /// Checks `run`, candidates of one shape whose shared code is a test chain, test by
  /// test rather than candidate by candidate: each test reads its field of the input once
  /// (``InputReader/withView(_:_:_:)``) and runs it for every candidate that reached it,
  /// each with its own constants; the candidates it sends on wait in the next test's lane.
  /// This is the batch tier turned around (one input, many constant pools, where the batch
  /// tier has one program and many rows): a line of `sift route` proposes a hundred
  /// candidates of one shape, which one by one read the same fields a hundred times.
  ///
  /// The answer of each candidate is that of ``Machine/run(_:input:environment:)``: the
  /// same test functions (``Machine/test(_:_:_:_:)`` on the view, the general path where
  /// it declines), the same budget carried from test to test, and an error is no match.
  /// Chains only branch forward (``TestChain``), so a test's lane is complete when its
  /// turn comes. Matching slots are appended to `matched` in the order they exit.
  static func checkChain<R: InputReader>(
    _ run: UnsafeBufferPointer<UInt32>, _ shape: CheckedShape, pool: UnsafeBufferPointer<SiftValue>,
    objectPool: UnsafeBufferPointer<UnsafeRawPointer?>, reader: R, lanes: inout [UInt32], steps: inout [Int],
    matched: inout [UInt32]
  ) {
    let n = run.count
    guard let code = shape.unmanagedCode, n > 0 else { return }
    func executable(_ k: Int) -> Executable { PredicateIndex.executable(code, pool, objectPool, Int(run[k])) }
    let instructions = executable(0).instructions
    let tests = instructions.count / 2
    // Lane t (candidates waiting for test t) is lanes[t * n ..< t * n + counts[t]]; the
    // last lane holds those a test's view could not decide, for the general path.
    let needed = (tests + 1) * n
    if lanes.count < needed { lanes = Array(repeating: 0, count: max(needed, 2 * lanes.count)) }
    if steps.count < n { steps = Array(repeating: 0, count: max(n, 2 * steps.count)) }
    // A test chain uses no registers (``TestChain`` is made only for code without any):
    // every test reads the input, through a view where the reader has one.
    let noRegisters = UnsafeMutableBufferPointer<SiftValue>(start: nil, count: 0)
    lanes.withUnsafeMutableBufferPointer { lanes in
      steps.withUnsafeMutableBufferPointer { steps in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: tests) { counts in
          counts.initialize(repeating: 0)
          for k in 0..<n {
            lanes[k] = UInt32(truncatingIfNeeded: k)
            steps[k] = shape.maxSteps
          }
          counts[0] = n
          let undecided = tests * n
          for t in 0..<tests where counts[t] > 0 {
            let test = instructions[2 &* t]
            let branch = instructions[2 &* t &+ 1]
            func route(_ k: Int, _ held: Bool) {
              let target = held ? branch.b : branch.c
              if target >= Opcode.exitFalse {
                if target == Opcode.exitTrue { matched.append(header(pool, Int(run[k])).slot) }
                return
              }
              let next = target >> 1
              lanes[next &* n &+ counts[next]] = UInt32(truncatingIfNeeded: k)
              counts[next] &+= 1
            }
            let lane = t &* n
            var left = 0
            // The view is valid for this call only: every candidate of the lane runs inside
            // it. A reader that fails before it calls the closure fails every candidate of
            // the lane, as it fails each one by one: no match.
            try? reader.withView(test, executable(0)) { (view) throws(EvaluationError) in
              for j in 0..<counts[t] {
                let k = Int(lanes[lane &+ j])
                var env = Environment(variables: nil, stepsLeft: steps[k])
                do throws(EvaluationError) {
                  guard let held = try Machine.test(view, test, executable(k), &env) else {
                    lanes[undecided &+ left] = UInt32(truncatingIfNeeded: k)
                    left &+= 1
                    continue
                  }
                  steps[k] = env.stepsLeft
                  route(k, held)
                } catch {
                  // An error: the candidate does not match, as in a check one by one.
                }
              }
            }
            for j in 0..<left {
              let k = Int(lanes[undecided &+ j])
              var env = Environment(variables: nil, stepsLeft: steps[k])
              guard let held = try? Machine.test(test, executable(k), noRegisters, reader, &env) else { continue }
              steps[k] = env.stepsLeft
              route(k, held)
            }
          }
        }
      }
    }
  }
}
