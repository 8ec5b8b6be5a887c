/// One row of ``SiftColumns`` as the input: each column viewed in place (a string as its
/// UTF-8 bytes in the column's buffer, an integer, an array of strings), nothing built
/// except on the general path.
struct ColumnReader: InputReader {
  let storage: Unmanaged<ColumnStorage>
  let row: Int

  /// The column a test reads: its slot when the predicate was compiled with the columns'
  /// schema, else found by name.
  @inline(__always)
  private func column(_ i: Instruction, _ program: Executable) -> Int? {
    switch i.source {
    case .slot: return i.a
    case .root: return storage._withUnsafeGuaranteedRef { $0.schema.slot(for: program.names[i.a]) }
    case .evaluatedObject, .register: return nil
    }
  }

  @inline(__always)
  func withView<T>(_ i: Instruction, _ program: Executable, _ body: (FieldView) throws(EvaluationError) -> T)
    throws(EvaluationError) -> T
  {
    guard i.source == .slot || i.source == .root else { return try body(.general) }
    guard let c = column(i, program) else { return try body(.absent) }
    let (columns, lengths) = storage._withUnsafeGuaranteedRef { ($0.columns, $0.lengths) }
    guard c < columns.count, row < lengths[c] else { return try body(.absent) }
    switch columns[c] {
    case .integers(let x): return try body(.int(x[row]))
    case .strings(let strings): return try body(.utf8(strings.utf8(row)))
    case .dictionary(let codes, let entries):
      let code = Int(codes[row])
      guard code < entries.count else { return try body(.general) }
      return try body(.utf8(entries.utf8(code)))
    case .stringArrays(let x): return try body(.strings(x.baseAddress! + row))
    case .values(let x): return try body(.value(x.baseAddress! + row))
    case .doubles, .booleans: return try body(.general)
    }
  }

  func root(_ key: String, steps: inout Int) throws(EvaluationError) -> SiftValue {
    // Charged nothing, as a record's values are not: `columns.record(row)` is the
    // reference the answers must equal.
    storage._withUnsafeGuaranteedRef { s in s.schema.slot(for: key).map { s.value(column: $0, row: row) } } ?? .null
  }

  func slot(_ slot: Int, steps: inout Int) throws(EvaluationError) -> SiftValue {
    storage._withUnsafeGuaranteedRef { $0.value(column: slot, row: row) }
  }

  func selfValue(steps: inout Int) throws(EvaluationError) -> SiftValue {
    let built = storage._withUnsafeGuaranteedRef { s in
      var d: [String: SiftValue] = [:]
      for (c, name) in s.schema.fields.enumerated() { d[name] = s.value(column: c, row: row) }
      return SiftValue.dictionary(d)
    }
    try Cost.built(built, steps: &steps)
    return built
  }
}

/// ``SiftColumns`` as batch rows. A string test on a dictionary-encoded column is decided
/// once per distinct string (``plan(_:_:rows:)``), and each row then reads its answer and
/// its charge from the table by its code: an `IN` over accounts becomes a table lookup.
struct ColumnRows: BatchRows {
  let storage: Unmanaged<ColumnStorage>
  /// The first row: batch row `r` is column row `first + r`.
  let first: Int

  /// A table is made only where strings repeat (at most one distinct string per two rows
  /// looked at): otherwise it costs what the rows would.
  ///
  /// Per entry of a dictionary column: the test's answer and its charge as
  /// `charge << 1 | answer`, or -1 where the row must take the reader (the test needs the
  /// general path for that string).
  enum Plan {
    case none
    case table(codes: UnsafeBufferPointer<UInt32>, answers: [Int])
  }

  /// Each test reads its own column: one pass per test reads nothing twice.
  static var fusesTests: Bool { false }

  @inline(__always) func admits(_ row: Int) -> Bool { true }

  @inline(__always)
  func withReader<T>(_ row: Int, _ body: (ColumnReader) throws(EvaluationError) -> T) throws(EvaluationError) -> T {
    try body(ColumnReader(storage: storage, row: first &+ row))
  }

  @inline(__always) func prefetch(_ plan: Plan, _ row: Int, _ i: Instruction) {}

  func plan(_ i: Instruction, _ program: Executable, rows count: Int) -> Plan {
    // Only tests whose answer and charge depend on the string alone: no quantifier, no
    // regex that backtracks against the budget left.
    guard i.source == .slot, i.quantifier == 0, i.trustedOpcode != .compareConst, i.costClass != .backtracking
    else { return .none }
    return storage._withUnsafeGuaranteedRef { s in
      guard i.a < s.columns.count, case .dictionary(let codes, let entries) = s.columns[i.a],
        entries.count * 2 <= count, codes.count >= first + count
      else { return .none }
      var answers: [Int] = []
      answers.reserveCapacity(entries.count)
      for e in 0..<entries.count {
        var env = Environment(variables: nil, stepsLeft: Int.max)
        let answer = try? Machine.test(.utf8(entries.utf8(e)), i, program, &env)
        if let answer {
          answers.append((Int.max - env.stepsLeft) << 1 | (answer ? 1 : 0))
        } else {
          answers.append(-1)
        }
      }
      return .table(codes: codes, answers: answers)
    }
  }

  /// The column a test reads, resolved once (by name for a predicate compiled without the
  /// columns' schema), when the test can be swept over it.
  private func sweptColumn(_ i: Instruction, _ program: Executable) -> (ColumnStorage.Column, length: Int)? {
    storage._withUnsafeGuaranteedRef { s -> (ColumnStorage.Column, length: Int)? in
      let c: Int?
      switch i.source {
      case .slot: c = i.a
      case .root: c = s.schema.slot(for: program.names[i.a])
      case .evaluatedObject, .register: c = nil
      }
      guard let c, c < s.columns.count else { return nil }
      return (s.columns[c], s.lengths[c])
    }
  }

  /// A dictionary table's answers, and integer, string, string-array and value columns
  /// read in place; a row past its column's end (null) is the general loop's. Not inlined:
  /// each test's loop keeps its own registers.
  @inline(never)
  func sweep(_ plan: Plan, _ i: Instruction, _ program: Executable, _ batch: SweepBatch) -> Int? {
    let first = self.first
    if case .table(let codes, let answers) = plan {
      return answers.withUnsafeBufferPointer { answers in
        Machine.sweep(batch, prefetch: { _ in }) { row in
          let code = Int(codes[first &+ row])
          return code < answers.count ? answers[code] : Machine.deferred
        }
      }
    }
    guard let test = SweepTest(i, program), let (column, length) = sweptColumn(i, program) else { return nil }
    switch (column, test) {
    case (.integers(let x), .integers(let lo, let hi, let negated)):
      return Machine.sweep(batch, charges: false, prefetch: { _ in }) { row in
        let r = first &+ row
        guard r < length else { return Machine.deferred }
        return SweepTest.holds(x[r], lo: lo, hi: hi, negated: negated) ? 1 : 0
      }
    case (.strings(let strings), .string):
      return Machine.sweep(batch, prefetch: { _ in }) { row in
        let r = first &+ row
        return r < length ? Machine.sweepBytes(i, program, strings.utf8(r)) : Machine.deferred
      }
    case (.dictionary(let codes, let entries), .string):
      return Machine.sweep(batch, prefetch: { _ in }) { row in
        let r = first &+ row
        guard r < length else { return Machine.deferred }
        let code = Int(codes[r])
        return code < entries.count ? Machine.sweepBytes(i, program, entries.utf8(code)) : Machine.deferred
      }
    case (.stringArrays(let x), .strings):
      return Machine.sweep(batch, prefetch: { _ in }) { row in
        let r = first &+ row
        guard r < length else { return Machine.deferred }
        let (held, walked) = Machine.testStrings(i, program, x.baseAddress! + r)
        return Machine.swept(held, cost: walked)
      }
    case (.values(let x), _):
      let (members, borrows) = (Machine.smallMembers(i, program), BorrowedValues.isAvailable)
      return Machine.sweep(batch, prefetch: { _ in }) { row in
        let r = first &+ row
        return r < length
          ? Machine.sweepValue(test, members, i, program, x.baseAddress! + r, borrows: borrows) : Machine.deferred
      }
    case (.integers, _), (.strings, _), (.dictionary, _), (.stringArrays, _), (.doubles, _), (.booleans, _):
      return nil
    }
  }

  func sweeps(_ plan: Plan, _ i: Instruction, _ program: Executable) -> Bool {
    if case .table = plan { return true }
    guard let test = SweepTest(i, program), let (column, _) = sweptColumn(i, program) else { return false }
    switch (column, test) {
    case (.integers, .integers), (.strings, .string), (.dictionary, .string), (.stringArrays, .strings), (.values, _):
      return true
    case (.integers, _), (.strings, _), (.dictionary, _), (.stringArrays, _), (.doubles, _), (.booleans, _):
      return false
    }
  }

  @inline(__always)
  func test(_ plan: Plan, _ i: Instruction, _ program: Executable, _ row: Int, _ env: inout Environment)
    throws(EvaluationError) -> Bool
  {
    if case .table(let codes, let answers) = plan {
      let code = Int(codes[first &+ row])
      if code < answers.count {
        let entry = answers[code]
        if entry >= 0 {
          let charge = entry >> 1
          if charge > 0 { try Machine.charge(charge, &env) }
          return entry & 1 != 0
        }
      }
    }
    return try runTest(i, program, row, &env)
  }
}
