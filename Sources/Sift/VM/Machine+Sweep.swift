/// The batch tier's primitives: one test over the rows that reached it, as a loop of the
/// rows' own (``BatchRows/sweep(_:_:_:_:)``) that reads each row's field where it lies
/// and decides it with nothing else: no environment, no error path, no dispatch on the
/// instruction or the field's kind per row (both are resolved once per batch). Only the
/// tests whose answer and charge depend on the field alone are swept (``SweepTest``); a
/// row the primitive cannot decide (a field of another kind, a string that needs the
/// general path, a charge its budget cannot pay) is left to the general loop, which then
/// decides it, charges it and reports its error exactly as one-by-one evaluation does.
///
/// Measured before these existed: the general loop spent most of W2's 45 ns a row hot on
/// its own machinery (a fresh environment, the throwing call, the view switch, spills),
/// not on the tests.
struct SweepBatch {
  let scratch: BatchScratch
  /// The test whose vector is swept.
  let test: Int
  /// Where a row that held goes, and one that did not (tests or exits, never equal).
  let onTrue: Int
  let onFalse: Int
  /// The collection's index of the batch's row 0.
  let start: Int
}

/// What a sweep needs of a test instruction, resolved once per batch; nil for a test only
/// the general loop runs.
enum SweepTest {
  /// `compareConst` of an integer field with an integer constant: `lo <= x <= hi`,
  /// negated for `!=` (every integer comparison is one range).
  case integers(lo: Int, hi: Int, negated: Bool)
  /// An unquantified string test (`inStrings`, `stringTest`, `like`, a MATCHES that does
  /// not backtrack against the budget).
  case string
  /// ANY or ALL of a string test (not MATCHES) over an array of strings.
  case strings

  init?(_ i: Instruction, _ program: Executable) {
    guard i.source != .register, i.opcode.mode.isSubjectTest else { return nil }
    switch (i.trustedOpcode, i.quantifier) {
    case (.compareConst, 0):
      guard case .int(let k) = program.constant(i.b) else { return nil }
      switch program.comparisons[i.c].op {
      case .equal: self = .integers(lo: k, hi: k, negated: false)
      case .notEqual: self = .integers(lo: k, hi: k, negated: true)
      case .less: self = k == .min ? .never : .integers(lo: .min, hi: k - 1, negated: false)
      case .lessOrEqual: self = .integers(lo: .min, hi: k, negated: false)
      case .greater: self = k == .max ? .never : .integers(lo: k + 1, hi: .max, negated: false)
      case .greaterOrEqual: self = .integers(lo: k, hi: .max, negated: false)
      default: return nil
      }
    case (.compareConst, _): return nil
    case (_, 0):
      if i.costClass == .backtracking { return nil }
      self = .string
    case (.matches, _): return nil
    default: self = .strings
    }
  }

  /// A comparison no integer satisfies (`x < Int.min`): the full range, negated.
  private static let never = SweepTest.integers(lo: .min, hi: .max, negated: true)

  /// Whether `x` is in the range, branch-free.
  @inline(__always)
  static func holds(_ x: Int, lo: Int, hi: Int, negated: Bool) -> Bool {
    (UInt(bitPattern: x &- lo) <= UInt(bitPattern: hi &- lo)) != negated
  }
}

extension Machine {
  /// A row a sweep leaves to the general loop.
  static let deferred = -1

  /// A swept row's outcome: its answer and the steps the test charges it.
  @inline(__always)
  static func swept(_ held: Bool, cost: Int) -> Int { cost << 1 | (held ? 1 : 0) }

  /// Sweeps the batch's test: `decide` gives each row's outcome (``swept(_:cost:)``) or
  /// ``deferred``; `prefetch` asks for the out-of-line data of the row
  /// ``BatchScratch/prefetchDistance`` survivors ahead. Each decided row moves to its
  /// vector branch-free (written to both, one count advanced); the rows left to the
  /// general loop are moved to the front of the test's own vector, and their number is
  /// returned.
  ///
  /// `charges` false is for a test that never charges a row (an integer comparison, a
  /// small string against a set's words): the loop then neither reads nor writes the
  /// rows' budgets, which was a fifth of its instructions.
  ///
  /// `late` asks for the row half as far ahead: the second step of data that lies behind
  /// what `prefetch` asked for (a record's string, behind its values array), whose address
  /// can be read only once the first step has arrived.
  @inline(__always)
  static func sweep(
    _ batch: SweepBatch, charges: Bool = true, prefetch: (Int) -> Void, late: (Int) -> Void = { _ in },
    decide: (Int) -> Int
  ) -> Int {
    let s = batch.scratch
    let source = s.vector(batch.test)
    let count = s.counts[batch.test]
    let steps = s.steps
    let onTrue = s.vector(batch.onTrue) + s.counts[batch.onTrue]
    let onFalse = s.vector(batch.onFalse) + s.counts[batch.onFalse]
    var (held, failed, deferred) = (0, 0, 0)
    let distance = BatchScratch.prefetchDistance
    for j in 0..<count {
      if j &+ distance < count { prefetch(batch.start &+ Int(source[j &+ distance])) }
      if j &+ distance / 2 < count { late(batch.start &+ Int(source[j &+ distance / 2])) }
      let r = Int(source[j])
      let outcome = decide(batch.start &+ r)
      let cost = outcome >> 1
      // A charge the row cannot pay is the general loop's: it raises the budget error.
      if outcome < 0 || (charges && cost > steps[r]) {
        source[deferred] = UInt16(truncatingIfNeeded: r)
        deferred &+= 1
        continue
      }
      if charges { steps[r] &-= cost }
      // Written to both vectors, kept by one: no branch on the answer. Neither write
      // passes the vector's end (a row enters a vector at most once a batch).
      onTrue[held] = UInt16(truncatingIfNeeded: r)
      onFalse[failed] = UInt16(truncatingIfNeeded: r)
      let bit = outcome & 1
      held &+= bit
      failed &+= 1 &- bit
    }
    s.counts[batch.onTrue] &+= held
    s.counts[batch.onFalse] &+= failed
    return deferred
  }

  /// A swept string test on a Swift string in place: a set decides a small string by its
  /// words (``StringSet/contains(_:)``), every other test reads the bytes where they lie
  /// (``StringBytes``).
  @inline(__always)
  static func sweepString(_ i: Instruction, _ program: Executable, _ s: UnsafePointer<String>, layout: Bool) -> Int {
    if i.trustedOpcode == .inStrings, let set = program.set(i.b) {
      let held = set._withUnsafeGuaranteedRef { $0.contains(s.pointee) }
      return swept(held, cost: stringCost(i, program, bytes: s.pointee.utf8.count))
    }
    return StringBytes.withUTF8(s, layout: layout) { sweepBytes(i, program, $0) }
  }

  /// The small-string words of an exact `inStrings` set's members (``StringSet/smallMembers``),
  /// for a sweep that decides a small subject by comparing words, with no call per row;
  /// nil for any other test. Such a test charges a small subject nothing (fewer bytes
  /// than a step of exact string work).
  static func smallMembers(_ i: Instruction, _ program: Executable) -> UnsafeBufferPointer<SmallStringBits.Bits>? {
    guard SmallStringBits.isAvailable, i.trustedOpcode == .inStrings, i.quantifier == 0, i.costClass == .bytes,
      let set = program.set(i.b)
    else { return nil }
    return set._withUnsafeGuaranteedRef { $0.smallMembers }
  }

  /// Whether the small string with words `b` is one of `members`, branch-free.
  @inline(__always)
  static func isMember(_ b: SmallStringBits.Bits, _ members: UnsafeBufferPointer<SmallStringBits.Bits>) -> Bool {
    // Every member compared, no branch on the answer.
    var hits = 0
    for m in members { hits |= ((m.0 ^ b.0) | (m.1 ^ b.1)) == 0 ? 1 : 0 }
    return hits != 0
  }

  /// ANY or ALL of a string test over an array value's elements in place, as
  /// ``testElements(_:_:_:)`` decides and charges it: an element that is not a string,
  /// reached before the answer, leaves the row to the general loop. Only where
  /// ``BorrowedValues/isAvailable``.
  @inline(__always)
  static func sweepElements(_ i: Instruction, _ program: Executable, _ elements: UnsafeBufferPointer<SiftValue>)
    -> Int
  {
    let isAll = i.quantifier == 2
    var walked = elements.count
    for k in elements.indices {
      guard let p = BorrowedValues.string(elements.baseAddress! + k) else { return deferred }
      let outcome = StringBytes.withUTF8(p, layout: true) { sweepBytes(i, program, $0) }
      if outcome < 0 { return deferred }
      walked &+= outcome >> 1
      if (outcome & 1 != 0) != isAll { return swept(!isAll, cost: walked) }
    }
    return swept(isAll, cost: walked)
  }

  /// A swept string test on UTF-8 bytes.
  @inline(__always)
  static func sweepBytes(_ i: Instruction, _ program: Executable, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let held = testBytes(i, program, bytes) else { return deferred }
    return swept(held, cost: stringCost(i, program, bytes: bytes.count))
  }

  /// A swept test on a ``SiftValue`` in place: an integer, a string or an array of
  /// strings as the test needs; any other value is the general loop's. `members` are the
  /// test's ``smallMembers(_:_:)``; `borrows` is ``BorrowedValues/isAvailable``, read
  /// once per sweep.
  @inline(__always)
  static func sweepValue(
    _ test: SweepTest, _ members: UnsafeBufferPointer<SmallStringBits.Bits>?, _ i: Instruction,
    _ program: Executable, _ v: UnsafePointer<SiftValue>, borrows: Bool
  ) -> Int {
    switch test {
    case .integers(let lo, let hi, let negated):
      guard case .int(let x) = v.pointee else { return deferred }
      return SweepTest.holds(x, lo: lo, hi: hi, negated: negated) ? 1 : 0
    case .string:
      if borrows, let p = BorrowedValues.string(v) {
        if let members {
          let raw = UnsafeRawPointer(p)
          let b = (raw.load(as: UInt64.self), raw.load(fromByteOffset: 8, as: UInt64.self))
          if SmallStringBits.isSmall(b) { return isMember(b, members) ? 1 : 0 }
        }
        return sweepString(i, program, p, layout: true)
      }
      guard case .string(let s) = v.pointee else { return deferred }
      if let members {
        let b = SmallStringBits.bits(s)
        if SmallStringBits.isSmall(b) { return isMember(b, members) ? 1 : 0 }
      }
      // The string bound in place, tested inline: no copy of it for a call.
      guard let held = testString(i, program, s) else { return deferred }
      return swept(held, cost: stringCost(i, program, bytes: s.utf8.count))
    case .strings:
      if borrows, let elements = BorrowedValues.array(v) { return sweepElements(i, program, elements) }
      guard let (held, walked) = testElements(i, program, v) else { return deferred }
      return swept(held, cost: walked)
    }
  }
}
