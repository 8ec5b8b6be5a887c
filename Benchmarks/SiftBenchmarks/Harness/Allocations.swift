import MallocCounter

/// Heap allocations, counted by the interposed allocator of the `MallocCounter` target.
enum Allocations {
  /// Allocations made while `body` runs (counting is on only meanwhile, so the timed
  /// rounds do not pay for it).
  static func count(_ body: () -> Void) -> UInt64 {
    sift_bench_count_allocations(true)
    let before = sift_bench_allocations()
    body()
    let after = sift_bench_allocations()
    sift_bench_count_allocations(false)
    return after &- before
  }

  /// Whether the counter sees an allocation made on purpose: a 100-byte `String` (longer
  /// than the 15 bytes a string keeps inline, so it must be on the heap).
  static func selfCheck() -> UInt64 {
    let length = 99 + CommandLine.arguments.count  // not a constant the optimizer could fold
    return count { blackHole(String(repeating: "x", count: length)) }
  }
}
