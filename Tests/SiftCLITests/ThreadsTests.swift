import Foundation
import Testing

/// `sift filter --threads N`: the same bytes on standard output and standard error, the
/// same `--errors` file and the same exit status as one thread, for every mode.
@Suite("sift filter --threads")
struct ThreadsTests {
  /// Lines that exercise every outcome: matches, non-matches, bad JSON, bad UTF-8, empty
  /// lines, CRLF, values that make the predicate fail, and a last line without a newline.
  static func input(lines: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for k in 0..<lines {
      let line: String
      switch k % 11 {
      case 0: line = "{\"a\": \(k % 7), \"s\": \"x\(k)\"}\r"
      case 3: line = "{\"a\": "
      case 5: line = ""
      case 7: line = "{\"a\": \"text\"}"
      default: line = "{\"a\": \(k % 7), \"s\": \"x\(k)\", \"pad\": \"\(String(repeating: "p", count: k % 300))\"}"
      }
      bytes += Array(line.utf8)
      if k % 11 == 9 { bytes += [0xFF, 0xFE] }
      bytes.append(0x0A)
    }
    bytes += Array("{\"a\": 3}".utf8)
    return bytes
  }

  static let modes: [[String]] = [[], ["--invert"], ["--count"], ["--decisions"], ["--stats"]]

  @Test(arguments: modes)
  func sameBytesAsOneThread(_ mode: [String]) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-threads-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // Enough lines for many chunks (1 MiB each), and a second, small file.
    let big = directory.appendingPathComponent("big.jsonl")
    try Data(Self.input(lines: 40_000)).write(to: big)
    let small = directory.appendingPathComponent("small.jsonl")
    try Data(Self.input(lines: 30)).write(to: small)

    func run(_ threads: Int) throws -> (SiftResult, Data) {
      let errors = directory.appendingPathComponent("errors-\(threads).jsonl")
      let result = try SiftProcess.run(
        ["filter", "--threads", "\(threads)", "--errors", errors.path] + mode + ["a < 4", big.path, small.path])
      return (result, try Data(contentsOf: errors))
    }
    let (one, oneErrors) = try run(1)
    #expect(one.exited(1))
    for threads in [2, 3, 8] {
      let (many, manyErrors) = try run(threads)
      #expect(many.status == one.status, "threads \(threads)")
      #expect(many.stdoutBytes == one.stdoutBytes, "threads \(threads)")
      if mode == ["--stats"] {
        // The last line of --stats holds a rate, which differs; the rest is identical.
        #expect(many.stderr.split(separator: "\n").dropLast() == one.stderr.split(separator: "\n").dropLast())
      } else {
        #expect(many.stderr == one.stderr, "threads \(threads)")
      }
      #expect(manyErrors == oneErrors, "threads \(threads)")
    }
  }

  /// Standard input in small pieces: the same bytes.
  @Test func standardInput() throws {
    let bytes = Self.input(lines: 5_000)
    let one = try SiftProcess.run(["filter", "--threads", "1", "a >= 2"], input: .bytes(bytes))
    let two = try SiftProcess.run(["filter", "--threads", "2", "a >= 2"], input: .bytes(bytes))
    #expect(two.stdoutBytes == one.stdoutBytes && two.stderr == one.stderr && two.status == one.status)
  }

  @Test(arguments: ["0", "-1", "x", "257", ""])
  func aBadThreadCountIsAUsageError(_ value: String) throws {
    let result = try SiftProcess.run(["filter", "--threads", value, "a == 1"], input: .text("{}\n"))
    #expect(result.exited(2))
    #expect(result.stderr.contains("--threads"))
  }
}
