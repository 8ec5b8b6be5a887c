/// Wall-clock sampling: a warm-up, then `rounds` timed rounds of `iterations` calls.
struct Sampler {
  var rounds: Int
  var minimumRoundNanoseconds: Double
  /// When set, run exactly this many calls once (for instruction counts under callgrind).
  var fixedCount: Int? = nil

  /// Median nanoseconds per call of `body`, after a warm-up that also sizes each round so
  /// that it lasts at least `minimumRoundNanoseconds`.
  func medianNanoseconds(_ body: (Int) -> Void) -> Double {
    let clock = ContinuousClock()
    if let fixedCount {
      return clock.measure { body(fixedCount) }.nanoseconds / Double(fixedCount)
    }
    var iterations = 1
    while true {
      let elapsed = clock.measure { body(iterations) }.nanoseconds
      if elapsed >= minimumRoundNanoseconds / 4 || iterations >= 1 << 30 { break }
      iterations *= 2
    }
    iterations *= 4
    var samples: [Double] = []
    for _ in 0..<rounds {
      samples.append(clock.measure { body(iterations) }.nanoseconds / Double(iterations))
    }
    return samples.median
  }
}

extension Duration {
  /// The duration in nanoseconds.
  var nanoseconds: Double {
    Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
  }
}

extension Array where Element == Double {
  /// The middle value (the upper middle for an even count); NaN when empty.
  var median: Double {
    guard !isEmpty else { return .nan }
    return sorted()[count / 2]
  }
}
