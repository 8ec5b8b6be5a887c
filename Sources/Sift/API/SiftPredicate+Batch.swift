extension SiftPredicate {
  /// The elements that match, in order: exactly those for which ``matches(_:)`` is true
  /// (an element whose evaluation fails is left out).
  ///
  /// A contiguous collection (an array, a buffer) of ``SiftTyped`` values of the type the
  /// predicate was compiled `for:`, of ``SiftRecord``s or of ``SiftValue``s runs in the
  /// batch tier when the predicate compiled to a test chain (``Machine``'s
  /// `runTestChainBatch`): test by test over selection vectors of 1,024 rows, prefetching
  /// the out-of-line data of the rows that survive. Anything else, and a collection of
  /// fewer than 16 elements, is evaluated one element at a time.
  @inlinable
  public func filter<C: Collection>(_ elements: C) -> [C.Element] where C.Element: SiftInput {
    let chosen: [C.Element]? = elements.withContiguousStorageIfAvailable { buffer in
      offsets(in: buffer).map { buffer[$0] }
    }
    return chosen ?? elements.filter { matches($0) }
  }

  /// The indices of the elements that match, in order: those for which ``matches(_:)`` is
  /// true. Runs in the batch tier as ``filter(_:)`` does.
  @inlinable
  public func indices<C: RandomAccessCollection>(matching elements: C) -> [C.Index] where C.Element: SiftInput {
    let found: [Int] =
      elements.withContiguousStorageIfAvailable { self.offsets(in: $0) }
      ?? elements.enumerated().filter { matches($0.element) }.map(\.offset)
    // Offsets are the indices when the indices are 0, 1, 2, … (checked at both ends: an
    // `Int`-indexed collection may step by more than one).
    if C.Index.self == Int.self, unsafeBitCast(elements.startIndex, to: Int.self) == 0,
      elements.isEmpty || unsafeBitCast(elements.index(before: elements.endIndex), to: Int.self) == elements.count - 1
    {
      // `as!` on the array was a dynamic cast of every element.
      return unsafeBitCast(found, to: [C.Index].self)
    }
    return found.map { elements.index(elements.startIndex, offsetBy: $0) }
  }

  /// The rows of `columns` that match, ascending: those whose ``SiftColumns/record(_:)``
  /// `matches`, read in place from the columns in the batch tier (a string test on a
  /// dictionary-encoded column decided once per distinct string). A predicate compiled
  /// with another schema, or `for:` a typed value, matches no row (as a record of another
  /// schema matches nothing). `rows` limits the rows looked at (clamped to the columns).
  public func indices(matching columns: SiftColumns, in rows: Range<Int>? = nil) -> [Int] {
    if let schema = options.schema, schema != columns.schema { return [] }
    if layoutRef != nil { return [] }
    let all = 0..<columns.count
    let range = rows?.clamped(to: all) ?? all
    var found: [Int] = []
    guard options.limits.maxSteps >= 0 else {
      // A negative budget: a one-test program's kernel refuses a string of 8 bytes or more
      // as a record's value but not as UTF-8 bytes (a column's view), so each row is
      // evaluated as its record, the reference.
      for row in range where matches(columns.record(row)) { found.append(row) }
      return found
    }
    withExtendedLifetime(columns.storage) {
      let source = ColumnRows(storage: Unmanaged.passUnretained(columns.storage), first: range.lowerBound)
      run(source, range.count) { found.append(range.lowerBound + $0) }
    }
    return found
  }

  /// The offsets of the matching elements of `buffer`, ascending. Inlined into the
  /// caller, which knows the element type: the library's side takes the buffer as bytes
  /// and a type, so nothing of it is generic (unspecialised generic code, metadata
  /// lookups and witness calls, was a tenth of filtering 8 structs), and `matches` for
  /// elements the batch tier does not read is specialised in the caller.
  @inlinable @inline(__always)
  func offsets<E: SiftInput>(in buffer: UnsafeBufferPointer<E>) -> [Int] {
    offsets(
      UnsafeRawPointer(buffer.baseAddress), count: buffer.count, stride: MemoryLayout<E>.stride,
      type: ObjectIdentifier(E.self)
    ) { matches(buffer[$0]) }
  }

  /// The offsets of the matching elements among `count` elements of type `type` at
  /// `base`, `stride` bytes apart: through the batch tier where it reads the type, else
  /// `matches(k)` for each.
  @usableFromInline
  func offsets(
    _ base: UnsafeRawPointer?, count: Int, stride: Int, type: ObjectIdentifier, orEach matches: (Int) -> Bool
  ) -> [Int] {
    guard let base, count > 0 else { return [] }
    // A short collection's offsets are gathered on the stack and the array is made once,
    // at its size: appending grew it twice for 3 matches among 8.
    if count <= Self.gatheredOnTheStack {
      return withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { found in
        var n = 0
        // Closures written in place: one stored in a constant escapes, and boxed `n`.
        if !forEachMatch(
          base, count: count, stride: stride, type: type,
          {
            found[n] = $0; n += 1
          })
        {
          for k in 0..<count where matches(k) {
            found[n] = k; n += 1
          }
        }
        return n == 0 ? [] : Array(UnsafeBufferPointer(rebasing: found[..<n]))
      }
    }
    var offsets: [Int] = []
    if !forEachMatch(base, count: count, stride: stride, type: type, { offsets.append($0) }) {
      for k in 0..<count where matches(k) { offsets.append(k) }
    }
    return offsets
  }

  /// Collections up to this long gather their offsets on the stack (8 KB at most).
  static let gatheredOnTheStack = 1_024

  /// Calls `body` with the offset of each matching element, ascending, when the elements
  /// are an input the batch tier reads (typed values of the predicate's type, records,
  /// value trees, strings): in batches when the predicate is a test chain and the buffer
  /// is not short, else row by row on the VM with the same rows (specialised for them:
  /// generic one-by-one code ran C20 at half the speed of `matches`). False, calling
  /// nothing, for any other input.
  func forEachMatch(
    _ base: UnsafeRawPointer, count: Int, stride: Int, type: ObjectIdentifier, _ body: (Int) -> Void
  ) -> Bool {
    // A layout built for the type means the elements are the `SiftTyped` type it was
    // built from (a comparison of two pointers, where a conformance check cost a small
    // collection more than its evaluation). A predicate compiled for another type, or
    // none, is left to `matches`, which says why it cannot match.
    if let layout = layoutRef, layout._withUnsafeGuaranteedRef({ $0.rootType == type }) {
      run(TypedRows(base: base, stride: stride, layout: layout), count, body)
      return true
    }
    if type == ObjectIdentifier(SiftRecord.self) {
      let records = UnsafeBufferPointer(start: base.assumingMemoryBound(to: SiftRecord.self), count: count)
      run(RecordRows(records: records, schema: options.schema), count, body)
      return true
    }
    if type == ObjectIdentifier(SiftValue.self) {
      let values = UnsafeBufferPointer(start: base.assumingMemoryBound(to: SiftValue.self), count: count)
      run(ValueRows(values: values), count, body)
      return true
    }
    if type == ObjectIdentifier(String.self) {
      forEachMatch(strings: UnsafeBufferPointer(start: base.assumingMemoryBound(to: String.self), count: count), body)
      return true
    }
    return false
  }

  private func run<Rows: BatchRows>(_ rows: Rows, _ count: Int, _ body: (Int) -> Void) {
    let program = self.program
    let maxSteps = options.limits.maxSteps
    // A negative budget: one-test programs run as a kernel one by one, which refuses
    // strings of 8 bytes and more, while the chain's tests charge them nothing (found in
    // review); rows then go one by one, as `matches` does.
    guard count >= BatchScratch.smallest, maxSteps >= 0 else { return runOneByOne(rows, count, body) }
    if let order = program.batchOrder {
      BatchScratch.with(tests: order.count, count: count) { scratch in
        withExtendedLifetime(program) {
          Machine.runTestChainBatch(
            program.executable, order: order, conjunction: program.batchConjunction, maxSteps: maxSteps,
            rows: rows, count: count, scratch: scratch, matched: { r, _ in body(r) })
        }
      }
      return
    }
    // An AND with tests in it: the tests in batches, the rest on the VM per survivor with
    // the budget its tests left.
    guard let split = batchSplit, let order = split.head.batchOrder else { return runOneByOne(rows, count, body) }
    let rest = split.rest
    BatchScratch.with(tests: order.count, count: count) { scratch in
      withExtendedLifetime(split) {
        Machine.runTestChainBatch(
          split.head.executable, order: order, conjunction: split.head.batchConjunction, maxSteps: maxSteps,
          rows: rows, count: count, scratch: scratch
        ) { r, stepsLeft in
          var environment = Environment(variables: nil, stepsLeft: stepsLeft)
          let held = try? rows.withReader(r) { (reader) throws(EvaluationError) in
            try Machine.run(rest, input: reader, environment: &environment)
          }
          if held == true { body(r) }
        }
      }
    }
  }

  /// Each row on the VM, in a loop specialised for the rows.
  private func runOneByOne<Rows: BatchRows>(_ rows: Rows, _ count: Int, _ body: (Int) -> Void) {
    // The program and budget read once for the loop, not once a row as `matches` does.
    let (program, maxSteps) = (self.program, options.limits.maxSteps)
    withExtendedLifetime(program) {
      for r in 0..<count where rows.admits(r) {
        let held = try? rows.withReader(r) { (reader) throws(EvaluationError) in
          try Self.run(program, maxSteps: maxSteps, reader, variables: nil)
        }
        if held == true { body(r) }
      }
    }
  }

  /// Strings (the Focus case, `SELF IN %@`) one at a time, in a loop specialised for
  /// them, which runs the kernel (generic code here cost 50 ns a string against 12 for
  /// `matches`).
  private func forEachMatch(strings: UnsafeBufferPointer<String>, _ body: (Int) -> Void) {
    // The Focus case, one string test on `SELF`: the kernel with the program read once
    // for the buffer, not once per string.
    let program = self.program
    if let kernel = program.kernel, kernel.source == .evaluatedObject {
      withExtendedLifetime(program) {
        for k in strings.indices where (try? Machine.runKernel(kernel, program, strings[k])) == true { body(k) }
      }
      return
    }
    for k in strings.indices where matches(strings[k]) { body(k) }
  }
}
