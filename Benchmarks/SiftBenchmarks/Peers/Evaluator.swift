import Sift

/// One way of answering a workload's predicate for one input: a hand-written closure, a Sift
/// predicate with one input kind, or a peer library. Engines are concrete types, so the
/// benchmark loop (`Engine.countMatches`) is specialised for each and calls `evaluate`
/// directly, with no existential or closure call per evaluation.
protocol Evaluator {
  associatedtype Input
  func evaluate(_ input: Input) -> Bool
}

/// An evaluator and its inputs (one element per record, converted before timing).
struct Engine<E: Evaluator> {
  let inputs: ContiguousArray<E.Input>
  let evaluator: E

  /// The timed loop, the same for every engine: evaluate each record of `range`, count matches.
  @inline(__always)
  func countMatches(_ range: Range<Int>) -> Int {
    var matches = 0
    for i in range where evaluator.evaluate(inputs[i]) { matches &+= 1 }
    return matches
  }
}

/// An engine as the harness drives it: named, and erased per pass (one call per range of
/// records), never per evaluation.
struct EngineRow {
  let name: String
  /// Matches in a range of records.
  let countMatches: (Range<Int>) -> Int
  /// Whether one record matches (to show which records two engines disagree on).
  let matchesRecord: (Int) -> Bool

  init<E: Evaluator>(_ name: String, _ inputs: ContiguousArray<E.Input>, _ evaluator: E) {
    let engine = Engine(inputs: inputs, evaluator: evaluator)
    self.name = name
    countMatches = { engine.countMatches($0) }
    matchesRecord = { engine.evaluator.evaluate(engine.inputs[$0]) }
  }
}

extension EngineRow {
  /// Sift's batch tier: one call per range of records (`SiftPredicate.indices(matching:)`
  /// over the slice), never one per record.
  init<Input: SiftInput>(batch name: String, _ inputs: ContiguousArray<Input>, _ predicate: SiftPredicate) {
    self.name = name
    countMatches = { range in
      inputs.withUnsafeBufferPointer { predicate.indices(matching: UnsafeBufferPointer(rebasing: $0[range])).count }
    }
    matchesRecord = { predicate.matches(inputs[$0]) }
  }
}

extension EngineRow {
  /// Sift's batch tier called on 8 records at a time: what a small collection costs next
  /// to 8 calls of `matches` (`sift-typed`).
  init<Input: SiftInput>(batchesOf size: Int, _ name: String, _ inputs: ContiguousArray<Input>, _ p: SiftPredicate) {
    self.name = name
    countMatches = { range in
      inputs.withUnsafeBufferPointer { all in
        var total = 0
        var start = range.lowerBound
        while start < range.upperBound {
          let end = min(start + size, range.upperBound)
          total += p.indices(matching: UnsafeBufferPointer(rebasing: all[start..<end])).count
          start = end
        }
        return total
      }
    }
    matchesRecord = { p.matches(inputs[$0]) }
  }

  /// Sift's batch tier over columns: one call per range of rows.
  init(columns name: String, _ columns: SiftColumns, _ predicate: SiftPredicate) {
    self.name = name
    countMatches = { range in predicate.indices(matching: columns, in: range).count }
    matchesRecord = { predicate.matches(columns.record($0)) }
  }
}
