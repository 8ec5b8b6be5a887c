import Foundation
import Testing

/// `SiftBenchmarks --json` writes one valid JSON object per line, also for rows whose
/// names hold backslashes (the ReDoS rows): the built benchmark binary (debug, next to the
/// test bundle) runs a few quick rows of each kind of writer, and Foundation's JSON reader
/// parses every line. The `focus-scale` and `index` rows go through the same writer
/// (`JSONLine`) but build hundreds of thousands of predicates, too slow for a test.
@Suite struct BenchmarkJSONTests {
  @Test(arguments: [
    // The adversarial suite's writer, on the row whose name broke the output.
    (["--json", "--quick", #"adversarial redos (\w+\s?)+$ 1KB"#], "adversarial", [#"redos (\w+\s?)+$ 1KB"#]),
    // The parse suite (Report.row).
    (["--json", "--quick", "--count", "100", "parse W1"], "parse", ["W1"]),
    // The evaluation suite (EvaluationReport), whose unknown figures are null.
    (["--json", "--count", "100", "--engine", "sift", "--mode", "hot", "eval W1 hot"], "eval", ["W1"]),
  ])
  func everyLineParses(_ arguments: [String], _ suite: String, _ workloads: [String]) throws {
    let output = try Self.run(arguments)
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(output.hasSuffix("\n"))
    #expect(!lines.isEmpty, "no rows for \(arguments)")
    var seen: [String] = []
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
      let row = try #require(object as? [String: Any], "not an object: \(line)")
      #expect(row["suite"] as? String == suite, "\(line)")
      seen.append(try #require(row["workload"] as? String, "\(line)"))
    }
    #expect(seen == workloads)
  }

  /// The `SiftBenchmarks` executable of the build this test bundle belongs to.
  static func binary() throws -> URL {
    let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let candidate = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("SiftBenchmarks")
    guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
      throw BinaryNotFound(path: candidate.path)
    }
    return candidate
  }

  struct BinaryNotFound: Error, CustomStringConvertible {
    var path: String
    var description: String { "SiftBenchmarks not found at \(path): build with `swift build --build-tests`" }
  }

  /// Runs the benchmarks with `arguments`; their standard output (stderr is discarded).
  static func run(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = try binary()
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(arguments)")
    return String(decoding: data, as: UTF8.self)
  }
}
