/// Consumes a value so the optimizer cannot delete the work that produced it.
/// (`@inline(never)` alone is not enough: the call is still removed when it has no effects.)
@_optimize(none) @inline(never) func blackHole<T>(_ value: T) {}

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
      return nanoseconds(clock.measure { body(fixedCount) }) / Double(fixedCount)
    }
    var iterations = 1
    while true {
      let elapsed = nanoseconds(clock.measure { body(iterations) })
      if elapsed >= minimumRoundNanoseconds / 4 || iterations >= 1 << 30 { break }
      iterations *= 2
    }
    iterations *= 4
    var samples: [Double] = []
    for _ in 0..<rounds {
      samples.append(nanoseconds(clock.measure { body(iterations) }) / Double(iterations))
    }
    samples.sort()
    return samples[samples.count / 2]
  }

  private func nanoseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
  }
}

/// Command-line options shared by every suite: `--quick`, `--json`, `--filter NAME`.
struct BenchmarkOptions {
  var quick = false
  var json = false
  var filter: String? = nil
  var count: Int? = nil

  init(_ arguments: [String]) {
    var rest = arguments[...]
    while let arg = rest.popFirst() {
      switch arg {
      case "--quick": quick = true
      case "--json": json = true
      case "--filter": filter = rest.popFirst()
      case "--count": count = rest.popFirst().flatMap { Int($0) }
      default: filter = arg
      }
    }
  }

  func includes(_ name: String) -> Bool {
    guard let filter else { return true }
    return name.contains(filter)
  }

  var sampler: Sampler {
    var s =
      quick ? Sampler(rounds: 5, minimumRoundNanoseconds: 20e6) : Sampler(rounds: 11, minimumRoundNanoseconds: 100e6)
    s.fixedCount = count
    return s
  }
}
