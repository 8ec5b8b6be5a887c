import Sift

/// Median time to parse and compile each reference predicate into a `SiftPredicate`.
enum CompileBenchmarks {
  static func run(_ options: BenchmarkOptions) {
    let sampler = options.sampler
    for workload in Workloads.predicates where options.includes("compile \(workload.name)") {
      let format = workload.format
      let arguments = workload.arguments
      let ns = sampler.medianNanoseconds { n in
        for _ in 0..<n { blackHole(try? SiftPredicate(format: format, arguments: arguments)) }
      }
      Report.row(options, suite: "compile", workload: workload.name, engine: "sift", nanoseconds: ns)
    }
  }
}
