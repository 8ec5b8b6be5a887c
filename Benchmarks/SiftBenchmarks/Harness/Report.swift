import Sift

enum Report {
  static func row(_ options: BenchmarkOptions, suite: String, workload: String, engine: String, nanoseconds: Double) {
    if options.json {
      print(
        JSONLine.make([
          "suite": .string(suite), "workload": .string(workload), "engine": .string(engine),
          "ns_per_op": JSONLine.number(rounded(nanoseconds)),
          "ops_per_sec": JSONLine.number((1e9 / nanoseconds).rounded(.down)),
        ]))
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
