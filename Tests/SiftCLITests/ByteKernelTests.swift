import Foundation
import Sift
import Testing

/// `key IN {strings}` is decided on simdjson's bytes without building a `String`; the lines
/// it writes must be exactly those the library's own evaluation of each line matches.
@Suite("sift filter decides IN on the line's bytes")
struct ByteKernelTests {
  static let members = ["acct-1", "é", "e\u{301}", "", "a-member-longer-than-sixteen-bytes", "ß", "🙂", "x\"y"]

  /// Values of every kind and spelling: escapes, composed and decomposed forms, long and
  /// short strings, near misses, non-strings, duplicate keys, a missing key.
  static let values: [String] = [
    #""acct-1""#, #""acct-2""#, #""\u00e9""#, #""é""#, #""e\u0301""#, #""""#, #""a-member-longer-than-sixteen-bytes""#,
    #""a-member-longer-than-sixteen-byteZ""#, #""\u00df""#, #""SS""#, #""\ud83d\ude42""#, #""x\"y""#, "1", "null",
    #"["acct-1"]"#, #"{"k": "acct-1"}"#, "true", #""ACCT-1""#, #""acct-1 ""#,
  ]

  @Test(arguments: ["k IN %@", "k IN[c] %@"])
  func theBytesDecideAsTheLibraryDoes(_ format: String) throws {
    var lines: [String] = []
    for value in Self.values {
      lines.append(#"{"k": \#(value), "other": 1}"#)
      lines.append(#"{"k": "nope", "k": \#(value)}"#)  // the last occurrence wins
    }
    lines.append(#"{"other": "acct-1"}"#)
    let arguments: [SiftValue] = [.array(Self.members.map { .string($0) })]
    let predicate = try SiftPredicate(format: format, arguments: arguments)
    var expected = ""
    for line in lines where predicate.matches(try SiftValue(json: line)) { expected += line + "\n" }
    #expect(expected.split(separator: "\n").count >= 6)
    let argsJSON = SiftValue.array(arguments).jsonText
    for threads in ["1", "2"] {
      let result = try SiftProcess.run(
        ["filter", "--threads", threads, "--args", argsJSON, format], input: .text(lines.joined(separator: "\n") + "\n")
      )
      #expect(result.exited(0), "\(result.stderr)")
      #expect(result.stdout == expected, "\(format) threads \(threads)")
    }
  }
}
