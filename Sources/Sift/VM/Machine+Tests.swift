import CSiftJSON

/// The test instructions on a subject viewed where it lies (``FieldView``): tested without
/// building a value, without a retain, and without the generic comparison rules, where the
/// answer is certain to be theirs. Anything else takes ``Machine/test(_:_:_:_:_:)``, the
/// general path, which also reports every error.
extension Machine {
  /// One test instruction (`inStrings`, `stringTest`, `like`, `matches`, `compareConst`).
  /// (Fusing each test with the jump after it inside the dispatch loop was tried: fewer
  /// dispatches, more instructions, no faster; a test chain's `branch` drops the jumps instead.)
  @inline(__always)
  static func runTest<I: InputReader>(
    _ i: Instruction, _ program: Executable, _ R: UnsafeMutableBufferPointer<SiftValue>, _ input: I,
    _ env: inout Environment
  ) throws(EvaluationError) -> Bool {
    if i.source != .register {
      let answer = try input.withView(i, program) { (view) throws(EvaluationError) -> Bool? in
        try test(view, i, program, &env)
      }
      if let answer { return answer }
    }
    return try test(i, program, R, input, &env)
  }

  /// The test on a view, or nil where the general path must decide. Charges what it
  /// tested (after testing: a test that falls back charges nothing here).
  @inline(__always)
  static func test(_ view: FieldView, _ i: Instruction, _ program: Executable, _ env: inout Environment)
    throws(EvaluationError) -> Bool?
  {
    if i.quantifier == 0 {
      if i.trustedOpcode == .compareConst {
        guard case .int(let k) = program.constant(i.b) else { return nil }
        switch view {
        case .int(let x): return Semantics.compareIntegers(x, program.comparisons[i.c].op, k)
        case .value(let p):
          guard case .int(let x) = p.pointee else { return nil }
          return Semantics.compareIntegers(x, program.comparisons[i.c].op, k)
        case .absent, .string, .utf8, .strings, .jsonArray, .general: return nil
        }
      }
      let tested: (Bool, cost: Int)?
      switch view {
      case .value(let p): tested = testString(i, program, p)
      case .string(let p):
        tested = testString(i, program, p.pointee).map { ($0, stringCost(i, program, bytes: p.pointee.utf8.count)) }
      case .utf8(let b): tested = testBytes(i, program, b).map { ($0, stringCost(i, program, bytes: b.count)) }
      case .absent, .int, .strings, .jsonArray, .general: return nil
      }
      guard let (result, cost) = tested else { return nil }
      if cost > 0 { try charge(cost, &env) }
      return result
    }
    guard i.trustedOpcode != .compareConst, i.trustedOpcode != .matches else { return nil }
    let walked: (Bool, walked: Int)?
    switch view {
    case .value(let p): walked = testElements(i, program, p)
    case .strings(let p): walked = testStrings(i, program, p)
    case .jsonArray(let plan, let slot): walked = testJSONArray(i, program, plan, slot)
    case .absent, .string, .utf8, .int, .general: return nil
    }
    guard let (result, steps) = walked else { return nil }
    try charge(steps, &env)
    return result
  }

  /// ANY (1) or ALL (2) of a string test over a JSON array in simdjson's DOM (a record
  /// plan's field), when every element it reaches is a string (nil otherwise: the general
  /// path decides mixed arrays): the answer and the steps to charge, as the general path
  /// charges them (every element, then the bytes of those tested).
  @inline(never)
  static func testJSONArray(_ i: Instruction, _ program: Executable, _ plan: OpaquePointer, _ slot: Int)
    -> (Bool, walked: Int)?
  {
    var cursor = sift_json_cursor()
    var count = 0
    guard sift_json_field_array_begin(plan, slot, &cursor, &count) == Int32(SIFT_JSON_OK.rawValue) else { return nil }
    // The general path charges every element before testing any, then tests them in
    // order: an element that is not a string, reached before the answer, leaves the whole
    // test to it (nothing has been charged here).
    let isAll = i.quantifier == 2
    var walked = count
    var element = sift_json_field()
    while sift_json_field_array_next(&cursor, &element) == 1 {
      guard element.type == UInt32(SIFT_JSON_STRING.rawValue) else { return nil }
      let bytes = JSONEventValue.bytes(element)
      walked &+= stringCost(i, program, bytes: bytes.count)
      guard let r = testBytes(i, program, bytes) else { return nil }
      if r != isAll { return (!isAll, walked) }
    }
    return (isAll, walked)
  }

  /// `inStrings` bound to its constant's array (no set object): each member compared in
  /// order, by the rules of string `==` under the comparison's options.
  @inline(never)
  static func linearMembership(_ i: Instruction, _ program: Executable, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let d = program.comparisons[i.c]
    // Borrowed where the pool keeps it: in a predicate set each candidate's list is its
    // own heap object, and a copy's retain and release are two writes to a cold line.
    let constant = program.values.unsafelyUnwrapped + d.constantSlot.unsafelyUnwrapped
    if let packed = PackedStrings.address(of: constant) { return PackedStrings.contains(packed, bytes) }
    let mode = FoldMode(d.options)
    return constant.pointee.withArrayElements { members in
      for m in members {
        guard case .string(let t) = m else { continue }
        if withUTF8Bytes(t, { StringSemantics.equalBytes(bytes, $0, mode) }) { return true }
      }
      return false
    } ?? false
  }

  /// ``testString(_:_:_:)`` on UTF-8 bytes: nil when MATCHES failed or must backtrack.
  @inline(__always)
  static func testBytes(_ i: Instruction, _ program: Executable, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    switch i.trustedOpcode {
    case .inStrings:
      guard let set = program.set(i.b) else { return linearMembership(i, program, bytes) }
      if let r = set._withUnsafeGuaranteedRef({ $0.contains(utf8: bytes) }) { return r }
      // A set that folds needs the string.
      return testString(i, program, String(decoding: bytes, as: UTF8.self))
    case .stringTest:
      return program.needle(i.b)._withUnsafeGuaranteedRef { $0.matches(bytes: bytes) }
    case .like:
      return program.like(i.b)._withUnsafeGuaranteedRef { $0.matches(bytes: bytes) }
    default:
      if i.costClass == .backtracking { return nil }
      return program.regex(i.b)._withUnsafeGuaranteedRef { (r) -> Bool? in try? r.matches(utf8: bytes) }
    }
  }

  /// The steps a test instruction costs on a string of `bytes` (``Cost``), by the cost
  /// class the compiler put in the instruction.
  @inline(__always)
  static func stringCost(_ i: Instruction, _ program: Executable, bytes n: Int) -> Int {
    // Nothing under 8 bytes costs a step, whatever the test.
    if n < Cost.foldedBytesPerStep { return 0 }
    switch i.costClass {
    case .bytes: return Cost.string(n, folding: false)
    case .folded: return Cost.string(n, folding: true)
    case .like: return Cost.like(n, patternBytes: program.like(i.b)._withUnsafeGuaranteedRef { $0.patternBytes })
    // The backtracking itself is charged tier by tier as it runs (``backtrackingMatch``).
    case .backtracking: return Cost.string(n, folding: false)
    }
  }

  /// An unquantified string test of a value in memory the caller borrows, and its cost;
  /// nil when it is not a string or MATCHES failed (the general path then decides, or
  /// throws the error).
  @inline(never)
  static func testString(_ i: Instruction, _ program: Executable, _ value: UnsafePointer<SiftValue>)
    -> (Bool, cost: Int)?
  {
    guard case .string(let s) = value.pointee else { return nil }
    let cost = stringCost(i, program, bytes: s.utf8.count)
    guard let result = testString(i, program, s) else { return nil }
    return (result, cost)
  }

  /// ANY (1) or ALL (2) of a string test over an array value in borrowed memory, when
  /// every element it reaches is a string: the answer and the elements to charge. nil
  /// otherwise (mixed arrays take the general path), and for `compareConst` and MATCHES.
  @inline(never)
  static func testElements(_ i: Instruction, _ program: Executable, _ value: UnsafePointer<SiftValue>)
    -> (Bool, walked: Int)?
  {
    guard i.trustedOpcode != .compareConst, i.trustedOpcode != .matches, case .array(let elements) = value.pointee
    else { return nil }
    return elements.withUnsafeBufferPointer { (p) -> (Bool, walked: Int)? in
      // The general path's order: stop at the first element that decides. Up to there
      // every element was a string, so both paths agree (string tests other than MATCHES
      // cannot fail); the general path charges every element, so this does too.
      let isAll = i.quantifier == 2
      var walked = p.count
      for k in p.indices {
        guard case .string(let s) = p[k] else { return nil }
        walked &+= stringCost(i, program, bytes: s.utf8.count)
        if testString(i, program, s)! != isAll { return (!isAll, walked) }
      }
      return (isAll, walked)
    }
  }

  /// ANY (1) or ALL (2) of a string test over a typed `[String]` field, in place, and the
  /// steps to charge: every element, and the bytes of those tested.
  @inline(never)
  static func testStrings(_ i: Instruction, _ program: Executable, _ strings: UnsafePointer<[String]>)
    -> (Bool, walked: Int)
  {
    let isAll = i.quantifier == 2
    // Borrowed in place: `strings.pointee.withUnsafeBufferPointer` retained and released
    // the array for every row (12 % of W2 over structs in the batch tier).
    return BorrowedValues.withElements(strings) { p in
      var walked = p.count
      for k in p.indices {
        walked &+= stringCost(i, program, bytes: p[k].utf8.count)
        if testString(i, program, p[k])! != isAll { return (!isAll, walked) }
      }
      return (isAll, walked)
    }
  }

  /// The string case of the test instructions (`inStrings`, `stringTest`, `like`, `matches`)
  /// without a quantifier. Pool objects are used through unretained references: the
  /// program owns them for as long as it runs.
  @inline(__always)
  static func stringTest(_ i: Instruction, _ program: Executable, _ s: String, stepsLeft: inout Int)
    throws(EvaluationError) -> Bool
  {
    if i.costClass == .backtracking {
      return try backtrackingMatch(program.regex(i.b).takeUnretainedValue(), s, &stepsLeft)
    }
    guard let result = testString(i, program, s) else { throw regexError(i, program, s) }
    return result
  }

  /// A MATCHES on PCRE2's backtracking, its tiers paid from the budget as they run
  /// (``RegexPattern/matches(_:stepsLeft:)``).
  @inline(never)
  static func backtrackingMatch(_ regex: RegexPattern, _ s: String, _ stepsLeft: inout Int) throws(EvaluationError)
    -> Bool
  {
    do throws(RegexFailure) {
      return try regex.matches(s, stepsLeft: &stepsLeft)
    } catch {
      if error.exhaustedBudget { throw Semantics.stepBudgetExceeded() }
      throw EvaluationError(.regex, "MATCHES: \(error.message)")
    }
  }

  /// ``stringTest(_:_:_:)`` as a pure function: nil when MATCHES failed (a limit), whose
  /// error ``regexError(_:_:_:)`` then recovers. A string borrowed from a record or a
  /// typed value passes to such a call without a retain; across a throwing call, or one
  /// with an `inout` error, the compiler copied it (a retain and a release per test).
  @inline(__always)
  static func testString(_ i: Instruction, _ program: Executable, _ s: String) -> Bool? {
    switch i.trustedOpcode {
    case .inStrings:
      guard let set = program.set(i.b) else { return withUTF8Bytes(s) { linearMembership(i, program, $0) } }
      return set._withUnsafeGuaranteedRef { $0.contains(s) }
    case .stringTest:
      return program.needle(i.b)._withUnsafeGuaranteedRef { $0.matches(s) }
    case .like:
      return program.like(i.b)._withUnsafeGuaranteedRef { $0.matches(s) }
    default:
      // Backtracking is paid for as it runs, which only the general path can do.
      if i.costClass == .backtracking { return nil }
      return program.regex(i.b)._withUnsafeGuaranteedRef { (r) -> Bool? in try? r.matches(s) }
    }
  }

  /// The error of a MATCHES test that failed: the match is run again (it is deterministic)
  /// to get PCRE2's reason, off the hot path.
  @inline(never)
  static func regexError(_ i: Instruction, _ program: Executable, _ s: String) -> EvaluationError {
    do throws(RegexFailure) {
      _ = try program.regex(i.b).takeUnretainedValue().matches(s)
      return EvaluationError(.regex, "MATCHES failed")
    } catch {
      return EvaluationError(.regex, "MATCHES: \(error.message)")
    }
  }
}

extension SiftValue {
  /// `body` over an array value's elements in place (nil for any other value), borrowed:
  /// no copy of the array is made, so no retain of its storage.
  @inline(__always)
  func withArrayElements<T>(_ body: (UnsafeBufferPointer<SiftValue>) -> T) -> T? {
    guard case .array(let elements) = self else { return nil }
    return elements.withUnsafeBufferPointer(body)
  }
}
