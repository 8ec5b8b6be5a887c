import CSiftPrefetch

/// A contiguous buffer of ``SiftTyped`` values of the layout's type, read in place.
struct TypedRows: BatchRows {
  let base: UnsafeRawPointer
  let stride: Int
  let layout: Unmanaged<FieldLayout>

  /// Where a test's field lies, resolved once per call rather than per row: a test loop
  /// then views each row's field at a fixed offset, with no layout lookup.
  struct Plan {
    enum Kind { case reader, string, int, strings }
    var kind: Kind
    var offset: Int
  }

  static var fusesTests: Bool { true }

  @inline(__always) func admits(_ row: Int) -> Bool { true }

  @inline(__always)
  func withReader<T>(_ row: Int, _ body: (TypedReader) throws(EvaluationError) -> T) throws(EvaluationError) -> T {
    try body(TypedReader(base: base + row &* stride, layout: layout))
  }

  func plan(_ i: Instruction, _ program: Executable, rows count: Int) -> Plan {
    guard i.source == .slot else { return Plan(kind: .reader, offset: 0) }
    let access = layout._withUnsafeGuaranteedRef { $0.access[i.a] }
    switch access.kind {
    case .string?: return Plan(kind: .string, offset: access.offset)
    case .int?: return Plan(kind: .int, offset: access.offset)
    case .strings?: return Plan(kind: .strings, offset: access.offset)
    // Optionals and the rest: the reader decides what each row holds.
    case .optionalString?, .optionalInt?, .double?, .bool?, .date?, .optionalDouble?, .optionalBool?, nil:
      return Plan(kind: .reader, offset: access.offset)
    }
  }

  /// The view ``TypedReader`` gives for these kinds, without asking the layout per row;
  /// the reader's own path where the view test cannot answer.
  @inline(__always)
  func test(_ plan: Plan, _ i: Instruction, _ program: Executable, _ row: Int, _ env: inout Environment)
    throws(EvaluationError) -> Bool
  {
    let field = base + (row &* stride &+ plan.offset)
    let answer: Bool?
    switch plan.kind {
    case .string: answer = try Machine.test(.string(field.assumingMemoryBound(to: String.self)), i, program, &env)
    case .int: answer = try Machine.test(.int(field.load(as: Int.self)), i, program, &env)
    case .strings: answer = try Machine.test(.strings(field.assumingMemoryBound(to: [String].self)), i, program, &env)
    case .reader: answer = nil
    }
    if let answer { return answer }
    return try runTest(i, program, row, &env)
  }

  /// Integers, strings and string arrays at the plan's offset; optionals and the rest
  /// need the reader. Not inlined: each test's loop keeps its own registers.
  @inline(never)
  func sweep(_ plan: Plan, _ i: Instruction, _ program: Executable, _ batch: SweepBatch) -> Int? {
    guard let test = SweepTest(i, program) else { return nil }
    let (base, stride, layout) = (self.base + plan.offset, self.stride, StringBytes.isAvailable)
    switch (plan.kind, test) {
    case (.int, .integers(let lo, let hi, let negated)):
      return Machine.sweep(batch, charges: false, prefetch: { _ in }) { row in
        let x = (base + row &* stride).load(as: Int.self)
        return SweepTest.holds(x, lo: lo, hi: hi, negated: negated) ? 1 : 0
      }
    case (.string, .string):
      if let members = Machine.smallMembers(i, program) {
        // Nothing to prefetch: a small string is in the row, and any other is deferred.
        return Machine.sweep(batch, charges: false, prefetch: { _ in }) { row in
          let field = base + row &* stride
          let b = (field.load(as: UInt64.self), field.load(fromByteOffset: 8, as: UInt64.self))
          // A string that is not small is the general loop's (rare in a field a set of
          // short ids tests): the loop then charges nothing, so it keeps no budget.
          guard SmallStringBits.isSmall(b) else { return Machine.deferred }
          return Machine.isMember(b, members) ? 1 : 0
        }
      }
      return Machine.sweep(batch, prefetch: { OutOfLine.prefetch(string: base + $0 &* stride) }) { row in
        Machine.sweepString(i, program, (base + row &* stride).assumingMemoryBound(to: String.self), layout: layout)
      }
    case (.strings, .strings):
      return Machine.sweep(batch, prefetch: { OutOfLine.prefetch(array: base + $0 &* stride) }) { row in
        let (held, walked) = Machine.testStrings(
          i, program, (base + row &* stride).assumingMemoryBound(to: [String].self))
        return Machine.swept(held, cost: walked)
      }
    case (.int, _), (.string, _), (.strings, _), (.reader, _):
      return nil
    }
  }

  func sweeps(_ plan: Plan, _ i: Instruction, _ program: Executable) -> Bool {
    switch (plan.kind, SweepTest(i, program)) {
    case (.int, .integers?), (.string, .string?), (.strings, .strings?): true
    case (.int, _), (.string, _), (.strings, _), (.reader, _): false
    }
  }

  @inline(__always)
  func prefetch(_ plan: Plan, _ row: Int, _ i: Instruction) {
    let field = base + (row &* stride &+ plan.offset)
    switch plan.kind {
    case .string: OutOfLine.prefetch(string: field)
    case .strings: OutOfLine.prefetch(array: field)
    case .int, .reader: break
    }
  }
}

/// A contiguous buffer of ``SiftRecord``s; one of another schema than the predicate's is
/// an error, so it is not admitted.
struct RecordRows: BatchRows {
  let records: UnsafeBufferPointer<SiftRecord>
  let schema: SiftSchema?
  static var fusesTests: Bool { true }
  /// Where a record keeps its values array: read from the global once per call, not once
  /// a row (a `static let` read is a `swift_once` call, 8 % of W2 over records).
  private let valuesOffset = MemoryLayout<SiftRecord>.offset(of: \SiftRecord.values)!

  @inline(__always) func admits(_ row: Int) -> Bool { schema.map { $0 == records[row].schema } ?? true }

  @inline(__always)
  func withReader<T>(_ row: Int, _ body: (RecordReader) throws(EvaluationError) -> T) throws(EvaluationError) -> T {
    let record = records.baseAddress! + row
    return try record.pointee.values.withUnsafeBufferPointer { (values) throws(EvaluationError) in
      try body(RecordReader(record: record, values: values))
    }
  }

  /// A slot's value in place, whatever the record's schema says it holds. Not inlined:
  /// each test's loop keeps its own registers.
  @inline(never)
  func sweep(_ plan: Void, _ i: Instruction, _ program: Executable, _ batch: SweepBatch) -> Int? {
    guard i.source == .slot, let test = SweepTest(i, program) else { return nil }
    let (records, slot, members) = (self.records.baseAddress!, i.a, Machine.smallMembers(i, program))
    let (borrows, valuesOffset) = (BorrowedValues.isAvailable, self.valuesOffset)
    if borrows {
      // Each kind of test its own loop: one loop switching on the test per row kept its
      // state in memory, and the spills were the largest part of W2 over records.
      @inline(__always) func value(_ row: Int) -> UnsafePointer<SiftValue>? {
        let array = UnsafeRawPointer(records + row).advanced(by: valuesOffset).assumingMemoryBound(to: [SiftValue].self)
        return BorrowedValues.withElements(borrows: true, array) { slot < $0.count ? $0.baseAddress! + slot : nil }
      }
      // The second step of the prefetch: the slot's string or array storage, whose
      // address is in the values array the first step asked for.
      @inline(__always) func late(_ row: Int) {
        guard let v = value(row) else { return }
        switch v.pointee {
        case .string: OutOfLine.prefetch(string: UnsafeRawPointer(v))
        case .array: OutOfLine.prefetch(array: UnsafeRawPointer(v))
        default: break
        }
      }
      switch test {
      case .integers(let lo, let hi, let negated):
        return Machine.sweep(batch, charges: false, prefetch: { prefetch((), $0, i) }) { row in
          guard let v = value(row), case .int(let x) = v.pointee else { return Machine.deferred }
          return SweepTest.holds(x, lo: lo, hi: hi, negated: negated) ? 1 : 0
        }
      case .string:
        if let members {
          return Machine.sweep(batch, prefetch: { prefetch((), $0, i) }, late: late) { row in
            guard let v = value(row), let p = BorrowedValues.string(v) else { return Machine.deferred }
            let raw = UnsafeRawPointer(p)
            let b = (raw.load(as: UInt64.self), raw.load(fromByteOffset: 8, as: UInt64.self))
            if SmallStringBits.isSmall(b) { return Machine.isMember(b, members) ? 1 : 0 }
            return Machine.sweepString(i, program, p, layout: true)
          }
        }
        return Machine.sweep(batch, prefetch: { prefetch((), $0, i) }, late: late) { row in
          guard let v = value(row), let p = BorrowedValues.string(v) else { return Machine.deferred }
          return Machine.sweepString(i, program, p, layout: true)
        }
      case .strings:
        return Machine.sweep(batch, prefetch: { prefetch((), $0, i) }, late: late) { row in
          guard let v = value(row), let elements = BorrowedValues.array(v) else { return Machine.deferred }
          return Machine.sweepElements(i, program, elements)
        }
      }
    }
    return Machine.sweep(batch, prefetch: { prefetch((), $0, i) }) { row in
      BorrowedValues.withElements(
        borrows: borrows,
        UnsafeRawPointer(records + row).advanced(by: valuesOffset).assumingMemoryBound(to: [SiftValue].self)
      ) { values in
        slot < values.count
          ? Machine.sweepValue(test, members, i, program, values.baseAddress! + slot, borrows: borrows)
          : Machine.deferred
      }
    }
  }

  func sweeps(_ plan: Void, _ i: Instruction, _ program: Executable) -> Bool {
    i.source == .slot && SweepTest(i, program) != nil
  }

  @inline(__always)
  func prefetch(_ plan: Void, _ row: Int, _ i: Instruction) {
    // The record's values array where the test's slot lies; a sweep then asks for the
    // slot's string or array once that has arrived (its `late` step): only the array
    // can be asked for without waiting.
    let record = UnsafeRawPointer(records.baseAddress! + row)
    if i.source == .slot {
      OutOfLine.prefetch(array: record + valuesOffset, element: i.a &* MemoryLayout<SiftValue>.stride)
    } else {
      OutOfLine.prefetch(array: record + valuesOffset)
    }
  }
}

/// A contiguous buffer of ``SiftValue``s, each the predicate's `SELF`.
struct ValueRows: BatchRows {
  let values: UnsafeBufferPointer<SiftValue>

  static var fusesTests: Bool { true }

  @inline(__always) func admits(_ row: Int) -> Bool { true }

  @inline(__always)
  func withReader<T>(_ row: Int, _ body: (ValueReader) throws(EvaluationError) -> T) throws(EvaluationError) -> T {
    try body(ValueReader(root: values.baseAddress! + row))
  }

  @inline(__always) func prefetch(_ plan: Void, _ row: Int, _ i: Instruction) {}
}
