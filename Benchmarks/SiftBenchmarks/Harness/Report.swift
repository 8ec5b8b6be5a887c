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
