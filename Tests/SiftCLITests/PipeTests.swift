import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension SiftCLITests {
  @Suite("pipes and output errors")
  struct Pipes {
    static func bigInput(_ count: Int) -> [UInt8] {
      var text = ""
      for i in 0..<count { text += #"{"id": \#(i), "format": "name == \"n\#(i)\" AND age > \#(i)"}"# + "\n" }
      return Array(text.utf8)
    }

    /// `sift parse --jsonl < big | head -1`: read one line, close the pipe; sift must stop
    /// quietly (no signal, no message, exit 0) instead of crashing.
    @Test func earlyCloseOfStdoutWithInputFromAFile() throws {
      let input = try TemporaryFile(Self.bigInput(200_000))
      let r = try SiftProcess.runReadingOneLine(["parse", "--jsonl"], input: .file(input.path))
      #expect(r.stdout.hasPrefix(#"{"id": 0, "canonical": "name == \"n0\" AND age > 0"}"# + "\n"))
      #expect(r.reason == .exit, "killed by signal \(r.status)")
      #expect(r.status == 0)
      #expect(r.stderr == "")
    }

    /// The same with input through a pipe: sift stops reading, and the writer gets EPIPE.
    @Test func earlyCloseOfStdoutWithPipedInput() throws {
      let r = try SiftProcess.runReadingOneLine(["parse", "--jsonl"], input: .bytes(Self.bigInput(200_000)))
      #expect(r.stdout.hasPrefix(#"{"id": 0, "canonical": "name == \"n0\" AND age > 0"}"# + "\n"))
      #expect(r.exited(0), "\(r.reason) \(r.status)")
      #expect(r.stderr == "")
    }

    @Test func earlyCloseThroughHead() throws {
      let input = try TemporaryFile(Self.bigInput(100_000))
      let r = try SiftProcess.shell(
        #"set -o pipefail; "$SIFT" parse --jsonl < "$1" | head -n 1"#, arguments: [input.path])
      #expect(r.exited(0), "pipeline status \(r.status)")
      #expect(r.stdout == #"{"id": 0, "canonical": "name == \"n0\" AND age > 0"}"# + "\n")
      #expect(r.stderr == "")
    }

    @Test(
      "output into an already closed pipe exits quietly",
      arguments: [["--help"], ["parse", "--help"], ["parse", "a == 1"], ["parse", "--ast", "a == 1"]])
    func outputIntoAClosedPipe(_ arguments: [String]) throws {
      let r = try SiftProcess.shell(#""$SIFT" "$@" | true; exit ${PIPESTATUS[0]}"#, arguments: arguments)
      #expect(r.exited(0), "\(r.reason) \(r.status)")
      #expect(r.stderr == "")
    }

    /// Some parents (Node.js, for one) hand children non-blocking pipes; a full pipe is then
    /// EAGAIN, which must mean "wait", not "stop writing".
    @Test func nonBlockingStdoutThatFillsUp() throws {
      let count = 20_000
      let input = try TemporaryFile(Self.bigInput(count))
      let process = Process()
      process.executableURL = try SiftProcess.binary()
      process.arguments = ["parse", "--jsonl"]
      process.standardInput = FileHandle(forReadingAtPath: input.path)
      let stdout = Pipe()
      let stderr = Pipe()
      let writeEnd = stdout.fileHandleForWriting.fileDescriptor
      #expect(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
      process.standardOutput = stdout
      process.standardError = stderr
      try process.run()
      let errors = Collector(stderr.fileHandleForReading.fileDescriptor)
      // Let sift fill the pipe and hit EAGAIN before anything is read.
      usleep(300_000)
      let output = Collector(stdout.fileHandleForReading.fileDescriptor).finish()
      process.waitUntilExit()
      #expect(process.terminationReason == .exit && process.terminationStatus == 0)
      #expect(errors.finish() == [])
      let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
      #expect(lines.count == count)
      #expect(
        lines.last
          == #"{"id": \#(count - 1), "canonical": "name == \"n\#(count - 1)\" AND age > \#(count - 1)"}"#)
    }

    @Test func nonBlockingStdinThatRunsDry() throws {
      let process = Process()
      process.executableURL = try SiftProcess.binary()
      process.arguments = ["parse", "--jsonl"]
      let stdin = Pipe()
      let readEnd = stdin.fileHandleForReading.fileDescriptor
      #expect(fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK) == 0)
      let stdout = Pipe()
      let stderr = Pipe()
      process.standardInput = stdin
      process.standardOutput = stdout
      process.standardError = stderr
      try process.run()
      let output = Collector(stdout.fileHandleForReading.fileDescriptor)
      let errors = Collector(stderr.fileHandleForReading.fileDescriptor)
      // Input arrives in pieces, with pauses in which a read finds nothing (EAGAIN).
      let fd = stdin.fileHandleForWriting.fileDescriptor
      for piece in [
        #"{"id": 1, "form"#, #"at": "a == 1"}"# + "\n" + #"{"id": 2,"#, #" "format": "b == 2"}"# + "\n",
      ] {
        usleep(100_000)
        SiftProcess.writeAll(Array(piece.utf8), to: fd)
      }
      try stdin.fileHandleForWriting.close()
      process.waitUntilExit()
      #expect(process.terminationReason == .exit && process.terminationStatus == 0)
      #expect(errors.finish() == [])
      #expect(
        String(decoding: output.finish(), as: UTF8.self)
          == #"{"id": 1, "canonical": "a == 1"}"# + "\n" + #"{"id": 2, "canonical": "b == 2"}"# + "\n")
    }

    @Test func writeErrorOnStdoutIsReported() throws {
      let input = try TemporaryFile(Array(#"{"id": 1, "format": "a == 1"}"#.utf8 + [0x0A]))
      let r = try SiftProcess.shell(#"exec "$SIFT" parse --jsonl > /dev/full"#, input: .file(input.path))
      #expect(r.exited(1))
      #expect(r.stderr == "sift: error writing standard output: No space left on device\n")
    }

    @Test func unreadableStdinIsReported() throws {
      // A directory opens for reading but read(2) fails with EISDIR.
      let r = try SiftProcess.run(["parse", "--jsonl"], input: .file("/"))
      #expect(r.exited(1))
      #expect(r.stdout == "")
      #expect(r.stderr == "sift parse: error reading standard input\n")
    }
  }
}
