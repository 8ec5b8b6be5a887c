import Foundation

// Benchmark bodies live in functions: top-level closures in main.swift are MainActor
// closures in Swift 6 mode and pay an executor check on every call.
func benchmarkMain() -> Int32 {
  let options = BenchmarkOptions(Array(CommandLine.arguments.dropFirst()))
  if !options.json { print("Sift benchmarks (release build expected; median of rounds)") }
  ParseBenchmarks.run(options)
  CompileBenchmarks.run(options)
  let ok = EvaluationBenchmarks.run(options)
  AdversarialBenchmarks.run(options)
  FocusScaleBenchmarks.run(options)
  IndexBenchmarks.run(options)
  return ok ? 0 : 1
}

exit(benchmarkMain())
