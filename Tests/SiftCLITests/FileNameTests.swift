import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension SiftCLITests {
  /// File names are bytes: one that is not valid UTF-8 (here with byte 0xFF) opens, is
  /// created as given, and is written losslessly in JSON records ("file_bytes").
  @Suite("file names that are not UTF-8")
  struct NonUTF8FileNames {
    /// `DIR/NAME` as bytes, and the bash word that spells it (`"$1"/in-$'\xff'.jsonl`).
    static func path(_ directory: ByteNamedDirectory, _ name: [UInt8]) -> [UInt8] {
      Array(directory.path.utf8) + [UInt8(ascii: "/")] + name
    }

    static func hex(_ bytes: [UInt8]) -> String {
      bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static let input = Array("in-".utf8) + [0xFF] + Array(".jsonl".utf8)

    @Test func decisionsNameTheFileLosslessly() throws {
      let directory = try ByteNamedDirectory()
      try directory.create(Self.input, Array("{\"a\": 1}\n{\"a\": 2}\n".utf8))
      let r = try SiftProcess.shell(
        #"exec "$SIFT" filter --decisions 'a == 1' "$1"/in-$'\xff'.jsonl"#, arguments: [directory.path])
      #expect(r.exited(0), "\(r.status) \(r.stderr)")
      let shown = directory.path + "/in-\u{FFFD}.jsonl"
      let bytes = Self.hex(Self.path(directory, Self.input))
      #expect(
        r.lines == [
          #"{"file": "\#(shown)", "file_bytes": "\#(bytes)", "line": 1, "match": true}"#,
          #"{"file": "\#(shown)", "file_bytes": "\#(bytes)", "line": 2, "match": false}"#,
        ])
      #expect(r.stderr == "")
    }

    /// `--errors` creates the file it names, not one with U+FFFD in its name, and its
    /// records carry the input's bytes too; stderr shows the invalid byte as `\xFF`.
    @Test func errorsFileIsCreatedUnderItsOwnName() throws {
      let directory = try ByteNamedDirectory()
      try directory.create(Self.input, Array("{\"a\": 1}\nnot json\n".utf8))
      let log = Array("log-".utf8) + [0xFE] + Array(".jsonl".utf8)
      let r = try SiftProcess.shell(
        #"exec "$SIFT" filter 'a == 1' --errors "$1"/log-$'\xfe'.jsonl "$1"/in-$'\xff'.jsonl"#,
        arguments: [directory.path])
      #expect(r.exited(1), "\(r.status) \(r.stderr)")
      #expect(r.stdout == "{\"a\": 1}\n")
      #expect(r.stderr.hasPrefix("sift filter: \(directory.path)/in-\\xFF.jsonl:2: line is not valid JSON"))
      #expect(try directory.entries().sorted { $0.lexicographicallyPrecedes($1) } == [Self.input, log])
      let record = String(decoding: try directory.read(log), as: UTF8.self)
      #expect(
        record.hasPrefix(
          #"{"file": "\#(directory.path)/in-\#u{FFFD}.jsonl", "file_bytes": "\#(Self.hex(Self.path(directory, Self.input)))", "line": 2, "error": {"message": "line is not valid JSON: "#
        ), "\(record)")
    }

    /// Every command that reads a named file opens the exact bytes, not the name with
    /// U+FFFD (which is there too, with other content, to catch a decoding CLI).
    @Test(
      arguments: [
        (#"exec "$SIFT" filter 'a == 1' "$1"/in-$'\xff'.jsonl"#, "{\"a\": 1}\n", "{\"a\": 1}\n", ""),
        (#"exec "$SIFT" filter --count 'a == 1' -- "$1"/in-$'\xff'.jsonl"#, "{\"a\": 1}\n", "1\n", ""),
        (#"exec "$SIFT" check "$1"/in-$'\xff'.jsonl"#, "a == 1\n", "", "DIR/in-\\xFF.jsonl: 1 predicate, 0 invalid\n"),
        (
          #"exec "$SIFT" bench 'a == 1' "$1"/in-$'\xff'.jsonl --rounds 1 | head -c 28"#, "{\"a\": 1}\n",
          "round 1: 1 lines (1 matched,", ""
        ),
      ] as [(String, String, String, String)])
    func everyCommandOpensTheExactName(_ script: String, _ content: String, _ stdout: String, _ stderr: String)
      throws
    {
      let directory = try ByteNamedDirectory()
      try directory.create(Self.input, Array(content.utf8))
      try directory.create(Array("in-\u{FFFD}.jsonl".utf8), Array("{\"a\": 1}\n{\"a\": 1}\n# decoy\n".utf8))
      let r = try SiftProcess.shell(script, arguments: [directory.path])
      #expect(r.exited(0), "\(r.status) \(r.stderr)")
      #expect(r.stdout == stdout)
      #expect(r.stderr == stderr.replacingOccurrences(of: "DIR", with: directory.path))
    }

    @Test func aMissingFileIsNamedWithItsBytes() throws {
      let directory = try ByteNamedDirectory()
      let r = try SiftProcess.shell(
        #"exec "$SIFT" filter 'a == 1' "$1"/none-$'\xff'.jsonl"#, arguments: [directory.path])
      #expect(r.exited(1))
      #expect(r.stderr == "sift filter: cannot read \(directory.path)/none-\\xFF.jsonl: No such file or directory\n")
    }

    /// `--errors` naming the input through the same bytes is refused before anything is
    /// truncated.
    @Test func errorsNamingTheInputIsRefused() throws {
      let directory = try ByteNamedDirectory()
      let content = Array("{\"a\": 1}\n".utf8)
      try directory.create(Self.input, content)
      let r = try SiftProcess.shell(
        #"exec "$SIFT" filter 'a == 1' --errors "$1"/in-$'\xff'.jsonl "$1"/in-$'\xff'.jsonl"#,
        arguments: [directory.path])
      #expect(r.exited(2), "\(r.status) \(r.stderr)")
      #expect(
        r.stderr
          == "sift: --errors \(directory.path)/in-\\xFF.jsonl is the input \(directory.path)/in-\\xFF.jsonl; "
          + "it would be overwritten\n")
      #expect(try directory.read(Self.input) == content)
    }
  }
}

/// A temporary directory whose entries are named by bytes (Foundation's paths are
/// `String`s, which cannot hold a name that is not UTF-8); removed with its entries.
final class ByteNamedDirectory {
  let path: String

  init() throws {
    var template = Array((FileManager.default.temporaryDirectory.path + "/sift-cli-test-XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw CocoaError(.fileWriteUnknown)
    }
    path = String(cString: made)
  }

  /// `body` with `path/name` as a C string.
  private func withPath<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
    let bytes = Array(path.utf8) + [UInt8(ascii: "/")] + name + [0]
    return bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
  }

  func create(_ name: [UInt8], _ content: [UInt8]) throws {
    let fd = withPath(name) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(fd) }
    guard content.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) == content.count else {
      throw CocoaError(.fileWriteUnknown)
    }
  }

  func read(_ name: [UInt8]) throws -> [UInt8] {
    let fd = withPath(name) { open($0, O_RDONLY) }
    guard fd >= 0 else { throw CocoaError(.fileReadNoSuchFile) }
    defer { close(fd) }
    var content: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
      guard n > 0 else { break }
      content += chunk[0..<n]
    }
    return content
  }

  /// The names in the directory, as bytes.
  func entries() throws -> [[UInt8]] {
    guard let dir = opendir(path) else { throw CocoaError(.fileReadNoSuchFile) }
    defer { closedir(dir) }
    var names: [[UInt8]] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
      if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
    }
    return names
  }

  deinit {
    for name in (try? entries()) ?? [] { _ = withPath(name) { unlink($0) } }
    rmdir(path)
  }
}
