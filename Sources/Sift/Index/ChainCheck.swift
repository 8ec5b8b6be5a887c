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
              LaneKernel.with(view, test, executable(0)) { kernel in
                for j in 0..<counts[t] {
                  let k = Int(lanes[lane &+ j])
                  switch kernel.test(pool.baseAddress.unsafelyUnwrapped + (Int(run[k]) &+ 2), steps: &steps[k]) {
                  case .held(let held):
                    route(k, held)
                    continue
                  case .failed: continue
                  case .undecided: break
                  }
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

/// The part of a test on a view that is the same for every candidate of a lane (the
/// view, the opcode, the operator, the cost), decided once, so that each candidate only
/// reads its own constant. Exactly what ``Machine/test(_:_:_:_:)`` answers for the two
/// tests a focus-shaped rule is made of; any other test, and any candidate whose constant
/// is not the kind expected, is ``Outcome/undecided`` and takes that function. For the
/// `sift route` rule `filterCriteria IN %@ AND priority >= %@` (125 candidates a line) a
/// candidate's two tests took 283 instructions through it, choosing the `IN` search and
/// rebuilding each candidate's ``Executable`` included, and take 162 with the kernel
/// (callgrind).
private enum LaneKernel {
  /// `compareConst` of an integer field with each candidate's integer in value slot `slot`.
  case integers(Int, ComparisonOperator, slot: Int)
  /// `inStrings` of a string's bytes with each candidate's packed list in value slot
  /// `slot` (a packed list has no set object, ``PackedStrings``), charging `cost` steps.
  case packed(UnsafeBufferPointer<UInt8>, slot: Int, cost: Int)
  case undecided

  enum Outcome {
    case held(Bool)
    /// The test raised an error (the step budget ran out): no match.
    case failed
    case undecided
  }

  /// `body` on the kernel of test `i` on `view` (a string in memory is borrowed as its
  /// UTF-8 bytes for the call), with the lane's first candidate as `program`: the opcode,
  /// the operator and the cost are the shared code's, never a candidate's.
  @inline(__always)
  static func with<T>(_ view: FieldView, _ i: Instruction, _ program: Executable, _ body: (LaneKernel) -> T) -> T {
    guard i.quantifier == 0 else { return body(.undecided) }
    switch i.trustedOpcode {
    case .compareConst:
      let op = program.comparisons[i.c].op
      switch view {
      case .int(let x): return body(.integers(x, op, slot: i.b))
      case .value(let p):
        if case .int(let x) = p.pointee { return body(.integers(x, op, slot: i.b)) }
      case .absent, .string, .utf8, .strings, .jsonArray, .general: break
      }
    case .inStrings:
      guard let slot = program.comparisons[i.c].constantSlot else { break }
      func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> T {
        body(.packed(bytes, slot: slot, cost: Machine.stringCost(i, program, bytes: bytes.count)))
      }
      switch view {
      case .utf8(let bytes): return packed(bytes)
      case .string(let p): return withUTF8Bytes(p.pointee, packed)
      case .value(let p):
        if case .string(let s) = p.pointee { return withUTF8Bytes(s, packed) }
      case .absent, .int, .strings, .jsonArray, .general: break
      }
    default: break
    }
    return body(.undecided)
  }

  /// The test for the candidate whose values start at `values`, charged to `steps`.
  @inline(__always)
  func test(_ values: UnsafePointer<SiftValue>, steps: inout Int) -> Outcome {
    switch self {
    case .integers(let x, let op, let slot):
      guard case .int(let k) = values[slot], let held = Semantics.compareIntegers(x, op, k) else { return .undecided }
      return .held(held)
    case .packed(let bytes, let slot, let cost):
      guard let packed = PackedStrings.address(of: values + slot) else { return .undecided }
      let held = PackedStrings.contains(packed, bytes)
      if cost > 0 {
        do throws(EvaluationError) { try Semantics.charge(cost, &steps) } catch { return .failed }
      }
      return .held(held)
    case .undecided:
      return .undecided
    }
  }
}
