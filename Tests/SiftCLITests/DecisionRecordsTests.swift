import Foundation
import Sift
import Testing

extension SiftCLITests {
  /// `--decisions` builds each input's record prefix once and writes line numbers as digits
  /// straight into the output buffer; the bytes are those of a record built as text.
  @Suite("sift filter --decisions records")
  struct DecisionRecords {
    /// The record as text, the way it was built before the prefix was built once per input.
    static func record(_ file: String?, _ line: Int, _ rest: String) -> String {
      var out = "{"
      if let file {
        JSONWriter.writeString("file", to: &out)
        out += ": "
        JSONWriter.writeString(file, to: &out)
        out += ", "
      }
      return out + "\"line\": \(line), " + rest + "}"
    }

    /// Names that need escaping; line numbers of one to five digits; more output than one
    /// buffer holds; standard input between two files; an error line in each input.
    @Test(arguments: ["plain.jsonl", #"quote " and \ backslash.jsonl"#, "tab\tnewline\nbell\u{7}.jsonl", "é ü 😀.jsonl"])
    func recordsAreTheBytesOfTheTextualRecord(_ name: String) throws {
      let directory = try TemporaryDirectory()
      var content = ""
      for i in 1...12_000 { content += i % 7 == 0 ? "{\"a\": 1}\n" : (i == 5_000 ? "not json\n" : "{\"a\": \(i)}\n") }
      try directory.write(name, content)
      let path = directory.path + "/" + name
      let stdin = "{\"a\": 1}\n\n{\"a\": 0}\n"
      let r = try SiftProcess.run(["filter", "--decisions", "a == 1", path, "-", path], input: .text(stdin))
      #expect(r.exited(1), "\(r.status)")
      var expected = ""
      func expect(_ file: String?, _ lines: [Substring]) {
        for (index, line) in lines.enumerated() {
          let number = index + 1
          if line == "not json" || line.isEmpty {
            let message = line.isEmpty ? "line is empty (not a JSON value)" : nil
            if let message {
              var text = "\"error\": {\"message\": "
              JSONWriter.writeString(message, to: &text)
              expected += Self.record(file, number, text + "}") + "\n"
            } else {
              // The message is the JSON reader's; the test takes it from the output.
              expected += "<error \(number)>\n"
            }
          } else {
            expected += Self.record(file, number, "\"match\": \(line == "{\"a\": 1}")") + "\n"
          }
        }
      }
      expect(path, content.split(separator: "\n", omittingEmptySubsequences: false).dropLast())
      expect(nil, stdin.split(separator: "\n", omittingEmptySubsequences: false).dropLast())
      expect(path, content.split(separator: "\n", omittingEmptySubsequences: false).dropLast())
      let actual = r.lines
      let wanted = expected.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
      #expect(actual.count == wanted.count)
      var differences = 0
      for (got, want) in zip(actual, wanted) where got != want {
        if want.hasPrefix("<error "), got.hasPrefix(String(Self.record(path, 5_000, "").dropLast())),
          got.contains(#""error": {"message": "line is not valid JSON: "#)
        {
          continue
        }
        differences += 1
        if differences <= 3 { Issue.record("expected \(want), got \(got)") }
      }
      #expect(differences == 0)
    }
  }
}
