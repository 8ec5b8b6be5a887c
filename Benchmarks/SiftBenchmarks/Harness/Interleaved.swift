/// Interleaved timing of the engines of one workload and mode: every round times each engine
/// once, in turn (A B C A B C …), so a slow spell of the machine hits every engine's round
/// alike, and the ratio of two engines is taken within one round before the median.
struct Interleaved {
  var rows: [EngineRow]
  var rounds: Int
  /// A hot round of one engine lasts at least this long (its passes over the hot set are
  /// sized in the warm-up).
  var minimumRoundNanoseconds: Double

  private let clock = ContinuousClock()

  /// `hot` mode: each engine evaluates the first `hotCount` records, again and again.
  /// Returns nanoseconds per evaluation, `[row][round]`. The warm-up of each engine doubles
  /// its passes until they take a quarter of a round (filling caches, lazy tables and the
  /// branch predictor); a round is then as many passes as fill the minimum round time.
  func hot(hotCount: Int) -> [[Double]] {
    let hot = 0..<hotCount
    var sink = 0
    var passes: [Int] = []
    for row in rows {
      var n = 1
      while true {
        let elapsed = clock.measure { for _ in 0..<n { sink &+= row.countMatches(hot) } }.nanoseconds
        if elapsed >= minimumRoundNanoseconds / 4 || n >= 1 << 24 {
          passes.append(max(1, Int((minimumRoundNanoseconds * Double(n) / max(elapsed, 1)).rounded(.up))))
          break
        }
        n *= 2
      }
    }
    var samples = Array(repeating: [Double](), count: rows.count)
    for _ in 0..<rounds {
      for (k, row) in rows.enumerated() {
        let n = passes[k]
        let elapsed = clock.measure { for _ in 0..<n { sink &+= row.countMatches(hot) } }.nanoseconds
        samples[k].append(elapsed / Double(n * hotCount))
      }
    }
    blackHole(sink)
    return samples
  }

  /// `stream` mode: one pass over all `recordCount` records per engine, cut into contiguous
  /// slices, one slice per engine per round. There are as many slices (and rounds) as
  /// engines, and at least `rounds`; engine k reads slice (round + k) mod slices, so within a
  /// round no two engines read the same records (their forms share string storage), and
  /// between two reads of one slice the other engines stream other slices through the cache.
  /// Returns nanoseconds per evaluation `[row][round]` and each engine's matches over the
  /// whole pass. Before the pass each engine warms up on the hot set.
  func stream(recordCount: Int, hotCount: Int) -> (samples: [[Double]], matches: [Int]) {
    var sink = 0
    for row in rows { sink &+= row.countMatches(0..<min(hotCount, recordCount)) }
    blackHole(sink)
    let count = max(rounds, rows.count)
    let slices = (0..<count).map { r in (recordCount * r / count)..<(recordCount * (r + 1) / count) }
    var samples = Array(repeating: [Double](), count: rows.count)
    var matches = Array(repeating: 0, count: rows.count)
    for r in 0..<count {
      for (k, row) in rows.enumerated() {
        let slice = slices[(r + k) % count]
        var found = 0
        let elapsed = clock.measure { found = row.countMatches(slice) }.nanoseconds
        matches[k] += found
        samples[k].append(elapsed / Double(max(slice.count, 1)))
      }
    }
    return (samples, matches)
  }

  /// `--count N`: exactly `count` evaluations of each engine, once, cycling over the hot set
  /// (no warm-up, for instruction counts under callgrind). Nanoseconds per evaluation.
  func fixedCount(_ count: Int, hotCount: Int) -> [[Double]] {
    var sink = 0
    return rows.map { row in
      let elapsed = clock.measure {
        for _ in 0..<(count / hotCount) { sink &+= row.countMatches(0..<hotCount) }
        sink &+= row.countMatches(0..<(count % hotCount))
      }.nanoseconds
      blackHole(sink)
      return [elapsed / Double(max(count, 1))]
    }
  }

  /// Median over rounds of `baseline / engine` time, per row (so above 1 is faster than the
  /// baseline); NaN for every row when there is no baseline.
  static func medianRatios(_ samples: [[Double]], baseline: Int?) -> [Double] {
    guard let baseline else { return samples.map { _ in .nan } }
    return samples.map { row in
      zip(samples[baseline], row).map { $0 / $1 }.median
    }
  }
}
