/// The test instructions' fast paths: a subject read in place from a record slot or a
/// typed field, tested without building a value, without a retain, and without the
/// generic comparison rules, where the answer is certain to be theirs. Anything else takes
/// ``Machine/test(_:_:_:_:_:)``, the general path, which also reports every error.
extension Machine {
  /// One test instruction (`inStrings`, `stringTest`, `like`, `matches`, `compareConst`).
  /// (Fusing each test with the jump after it inside the dispatch loop was tried: fewer
  /// dispatches, more instructions, no faster; the decision graph drops the jumps instead.)
  @inline(__always)
  static func runTest(
    _ i: Instruction, _ program: Program, _ R: UnsafeMutableBufferPointer<SiftValue>, _ input: Input,
    _ env: inout Environment
  ) throws(EvaluationError) -> Bool {
    if i.source == .slot {
      switch input {
      case .record(_, let values) where i.a < values.count:
        let subject = values.baseAddress! + i.a
        if i.quantifier == 0 {
          if i.trustedOpcode == .compareConst {
            if case .int(let x) = subject.pointee, case .int(let k) = program.constants[i.b],
              let result = Semantics.compareIntegers(x, program.comparisons[i.c].op, k)
            {
              return result
            }
          } else if let (result, cost) = testString(i, program, subject) {
            // The test runs before its charge: it is one linear pass, and a charge that
            // fails still ends the evaluation with `limitExceeded`.
            if cost > 0 { try charge(cost, &env) }
            return result
          }
        } else if let (result, walked) = testElements(i, program, subject) {
          try charge(walked, &env)
          return result
        }
      case .typed(let base, let layout):
        let access = layout._withUnsafeGuaranteedRef { $0.access[i.a] }
        if let kind = access.kind {
          let field = base + access.offset
          if i.quantifier == 0 {
            if kind == .string || kind == .optionalString, i.trustedOpcode != .compareConst,
              i.costClass != .backtracking
            {
              let cost = inPlaceStringCost(i, program, field, kind)
              if cost > 0 { try charge(cost, &env) }
            }
            if let result = testInPlace(i, program, field, kind) { return result }
          } else if kind == .strings, i.trustedOpcode != .matches, i.trustedOpcode != .compareConst {
            let (result, walked) = testStrings(i, program, field.assumingMemoryBound(to: [String].self))
            try charge(walked, &env)
            return result
          }
        } else if i.quantifier == 0, i.trustedOpcode != .compareConst,
          let (result, cost) = testComputed(i, program, base, layout)
        {
          try charge(cost, &env)
          return result
        }
      default: break
      }
    } else if i.source == .root {
      switch input {
      case .foundation(let d):
        if let (result, walked) = testFoundation(i, program, d) {
          try charge(walked, &env)
          return result
        }
      case .value(let v):
        if let (result, walked) = testDictionary(i, program, v) {
          try charge(walked, &env)
          return result
        }
      default: break
      }
    }
    return try test(i, program, R, input, &env)
  }

  /// A test of a value tree's entry at the subject's key, found in the dictionary and
  /// tested where it lies (a string, an integer, an array of strings); nil where the
  /// general path must decide.
  @inline(never)
  static func testDictionary(_ i: Instruction, _ program: Program, _ v: UnsafePointer<SiftValue>)
    -> (Bool, walked: Int)?
  {
    guard case .dictionary(let d) = v.pointee, let index = d.index(forKey: program.names[i.a]) else { return nil }
    // Keys match byte for byte (Semantics detail 7): an ASCII key does when Swift's does.
    guard program.asciiNames[i.a] || sameBytes(d.keys[index], program.names[i.a]) else { return nil }
    return withUnsafePointer(to: d.values[index]) { value in
      if i.quantifier != 0 { return testElements(i, program, value) }
      if i.trustedOpcode == .compareConst {
        guard case .int(let x) = value.pointee, case .int(let k) = program.constants[i.b],
          let result = Semantics.compareIntegers(x, program.comparisons[i.c].op, k)
        else { return nil }
        return (result, 0)
      }
      return testString(i, program, value).map { ($0.0, $0.cost) }
    }
  }

  /// A test of a Foundation dictionary's value at the subject's key, when the value is
  /// exactly a Swift `String` (a string test), `Int` (against an integer constant) or
  /// `[String]` (ANY/ALL of a string test): the answer and the elements to charge. nil for
  /// anything else, which the general path converts and decides.
  @inline(never)
  static func testFoundation(_ i: Instruction, _ program: Program, _ d: UnsafePointer<[String: Any]>)
    -> (Bool, walked: Int)?
  {
    let key = program.names[i.a]
    // An ASCII key matches byte for byte exactly when Swift's lookup finds it.
    guard let value = program.asciiNames[i.a] ? d.pointee[key] : FoundationValue.lookup(d.pointee, key) else {
      return nil
    }
    let type = ExistentialPayload.typeID(value) ?? ObjectIdentifier(Swift.type(of: value))
    if i.quantifier != 0 {
      guard type == ObjectIdentifier([String].self), i.trustedOpcode != .compareConst, i.trustedOpcode != .matches
      else { return nil }
      let strings = ExistentialPayload.load(value, as: [String].self)
      return withUnsafePointer(to: strings) { testStrings(i, program, $0) }
    }
    if i.trustedOpcode == .compareConst {
      guard type == ObjectIdentifier(Int.self), case .int(let k) = program.constants[i.b],
        let result = Semantics.compareIntegers(
          ExistentialPayload.load(value, as: Int.self), program.comparisons[i.c].op, k)
      else { return nil }
      return (result, 0)
    }
    guard type == ObjectIdentifier(String.self) else { return nil }
    let s = ExistentialPayload.load(value, as: String.self)
    let cost = stringCost(i, program, bytes: s.utf8.count)
    guard let result = testString(i, program, s) else { return nil }
    return (result, cost)
  }

  /// The steps a test instruction costs on a string of `bytes` (``Cost``), by the cost
  /// class the compiler put in the instruction.
  @inline(__always)
  static func stringCost(_ i: Instruction, _ program: Program, bytes n: Int) -> Int {
    // Nothing under 8 bytes costs a step, whatever the test.
    if n < Cost.foldedBytesPerStep { return 0 }
    switch i.costClass {
    case .bytes: return Cost.string(n, folding: false)
    case .folded: return Cost.string(n, folding: true)
    case .like: return Cost.like(n, patternBytes: program.likeRefs[i.b]._withUnsafeGuaranteedRef { $0.patternBytes })
    // The backtracking itself is charged tier by tier as it runs (``backtrackingMatch``).
    case .backtracking: return Cost.string(n, folding: false)
    }
  }

  /// An unquantified string test of a value in memory the caller borrows, and its cost;
  /// nil when it is not a string or MATCHES failed (the general path then decides, or
  /// throws the error).
  @inline(never)
  static func testString(_ i: Instruction, _ program: Program, _ value: UnsafePointer<SiftValue>)
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
  static func testElements(_ i: Instruction, _ program: Program, _ value: UnsafePointer<SiftValue>)
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
  static func testStrings(_ i: Instruction, _ program: Program, _ strings: UnsafePointer<[String]>)
    -> (Bool, walked: Int)
  {
    let isAll = i.quantifier == 2
    return strings.pointee.withUnsafeBufferPointer { p in
      var walked = p.count
      for k in p.indices {
        walked &+= stringCost(i, program, bytes: p[k].utf8.count)
        if testString(i, program, p[k])! != isAll { return (!isAll, walked) }
      }
      return (isAll, walked)
    }
  }

  /// An unquantified string test of a computed typed field (a closure), and its cost; nil
  /// when the field is not a computed string, or MATCHES failed.
  @inline(never)
  static func testComputed(
    _ i: Instruction, _ program: Program, _ base: UnsafeRawPointer, _ layout: Unmanaged<FieldLayout>
  ) -> (Bool, cost: Int)? {
    guard case .computed(_, let string?, _) = layout._withUnsafeGuaranteedRef({ $0.flat[i.a].read.storage }) else {
      return nil
    }
    let s = string(base)
    let cost = stringCost(i, program, bytes: s.utf8.count)
    return testString(i, program, s).map { ($0, cost) }
  }

  /// The cost of a string test of a typed string field in place (0 for a nil optional).
  @inline(never)
  static func inPlaceStringCost(_ i: Instruction, _ program: Program, _ p: UnsafeRawPointer, _ kind: FieldRead.InPlace)
    -> Int
  {
    if kind == .string {
      return stringCost(i, program, bytes: p.assumingMemoryBound(to: String.self).pointee.utf8.count)
    }
    return stringCost(i, program, bytes: p.assumingMemoryBound(to: String?.self).pointee?.utf8.count ?? 0)
  }

  /// An unquantified test of a typed field read in place; nil where the general path must
  /// decide (a nil optional, a kind the test does not take, a failed MATCHES).
  @inline(never)
  static func testInPlace(_ i: Instruction, _ program: Program, _ p: UnsafeRawPointer, _ kind: FieldRead.InPlace)
    -> Bool?
  {
    if i.trustedOpcode == .compareConst {
      guard case .int(let k) = program.constants[i.b] else { return nil }
      switch kind {
      case .int: return Semantics.compareIntegers(p.load(as: Int.self), program.comparisons[i.c].op, k)
      case .optionalInt:
        guard let x = p.assumingMemoryBound(to: Int?.self).pointee else { return nil }
        return Semantics.compareIntegers(x, program.comparisons[i.c].op, k)
      default: return nil
      }
    }
    switch kind {
    case .string: return testString(i, program, p.assumingMemoryBound(to: String.self).pointee)
    case .optionalString:
      guard case .some(let s) = p.assumingMemoryBound(to: String?.self).pointee else { return nil }
      return testString(i, program, s)
    default: return nil
    }
  }

  /// The string case of the test instructions (`inStrings`, `stringTest`, `like`, `matches`)
  /// without a quantifier. Pool objects are used through unretained references: the
  /// program owns them for as long as it runs.
  @inline(__always)
  static func stringTest(_ i: Instruction, _ program: Program, _ s: String, stepsLeft: inout Int)
    throws(EvaluationError) -> Bool
  {
    if i.costClass == .backtracking { return try backtrackingMatch(program.regexes[i.b], s, &stepsLeft) }
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
  static func testString(_ i: Instruction, _ program: Program, _ s: String) -> Bool? {
    switch i.trustedOpcode {
    case .inStrings:
      return program.setRefs[i.b]._withUnsafeGuaranteedRef { $0.contains(s) }
    case .stringTest:
      return program.needleRefs[i.b]._withUnsafeGuaranteedRef { $0.matches(s) }
    case .like:
      return program.likeRefs[i.b]._withUnsafeGuaranteedRef { $0.matches(s) }
    default:
      // Backtracking is paid for as it runs, which only the general path can do.
      if i.costClass == .backtracking { return nil }
      return program.regexRefs[i.b]._withUnsafeGuaranteedRef { (r) -> Bool? in try? r.matches(s) }
    }
  }

  /// The error of a MATCHES test that failed: the match is run again (it is deterministic)
  /// to get PCRE2's reason, off the hot path.
  @inline(never)
  static func regexError(_ i: Instruction, _ program: Program, _ s: String) -> EvaluationError {
    do throws(RegexFailure) {
      _ = try program.regexes[i.b].matches(s)
      return EvaluationError(.regex, "MATCHES failed")
    } catch {
      return EvaluationError(.regex, "MATCHES: \(error.message)")
    }
  }
}
