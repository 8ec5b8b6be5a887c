import Sift

/// Median time to parse each reference predicate (text to syntax tree, arguments bound).
enum ParseBenchmarks {
  static func run(_ options: BenchmarkOptions) {
    let sampler = options.sampler
    for workload in Workloads.predicates where options.includes("parse \(workload.name)") {
      let format = workload.format
      let arguments = workload.arguments
      let ns = sampler.medianNanoseconds { n in
        for _ in 0..<n { blackHole(try? PredicateSyntax(parsing: format, arguments: arguments)) }
      }
      Report.row(options, suite: "parse", workload: workload.name, engine: "sift", nanoseconds: ns)
    }
  }
}
