import Foundation
import Testing

/// The C test program (Tests/C/sift_abi_test.c), compiled with the system `cc` against
/// include/sift.h and the libsiftc.so of this build, and run: every function of the header,
/// from C, with the misuse the header promises to survive.
@Suite struct CProgramTests {
  static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The products directory of this build (where SwiftPM put libsiftc.so and this test).
  static func productsDirectory() -> URL? {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var directory = URL(fileURLWithPath: exe).deletingLastPathComponent()
    for _ in 0..<3 {
      if FileManager.default.fileExists(atPath: directory.appendingPathComponent("libsiftc.so").path) {
        return directory
      }
      directory = directory.deletingLastPathComponent()
    }
    return nil
  }

  static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func theCProgramPasses() throws {
    let products = try #require(Self.productsDirectory(), "libsiftc.so is not next to the test binary")
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sift-abi-\(getpid())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let binary = scratch.appendingPathComponent("sift_abi_test").path
    let compile = try Self.run(
      "/usr/bin/cc",
      [
        "-std=c99", "-Wall", "-Wextra", "-Werror", "-I", Self.root.appendingPathComponent("include").path,
        Self.root.appendingPathComponent("Tests/C/sift_abi_test.c").path, "-L", products.path, "-lsiftc",
        "-Wl,-rpath,\(products.path)", "-lpthread", "-o", binary,
      ])
    #expect(compile.status == 0, "cc failed:\n\(compile.output)")
    guard compile.status == 0 else { return }
    let result = try Self.run(binary, [])
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains(" passed, 0 failed"), "\(result.output)")
  }
}
