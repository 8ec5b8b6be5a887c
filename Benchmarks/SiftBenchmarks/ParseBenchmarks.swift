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

enum Report {
  static func row(_ options: BenchmarkOptions, suite: String, workload: String, engine: String, nanoseconds: Double) {
    if options.json {
      print(
        "{\"suite\": \"\(suite)\", \"workload\": \"\(workload)\", \"engine\": \"\(engine)\", "
          + "\"ns_per_op\": \(rounded(nanoseconds)), \"ops_per_sec\": \(Int(1e9 / nanoseconds))}")
    } else {
      let name = "\(suite) \(workload)".padding(24)
      print("\(name) \(engine.padding(12)) \(rounded(nanoseconds).description.leftPadding(10)) ns/op")
    }
  }

  static func rounded(_ x: Double) -> Double { (x * 10).rounded() / 10 }
}

extension String {
  func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
  func leftPadding(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
