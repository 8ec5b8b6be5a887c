import Foundation
import Sift
import Testing

/// One line of `Cases/*.jsonl`:
/// `{"id": "…", "format": "…", "args": […], "object": …, "variables": {…}, "expect": …}`
/// where `expect` is `true`, `false`, `{"error": "<EvaluationError.Kind>"}` or
/// `{"parse_error": true}`. `args`, `object` and `variables` are optional (`[]`, `null`, `{}`).
struct ConformanceCase: Sendable, CustomTestStringConvertible {
  /// What a case expects.
  enum Expectation: Hashable, Sendable, CustomStringConvertible {
    case result(Bool)
    case error(EvaluationError.Kind)
    case parseError

    var description: String {
      switch self {
      case .result(let b): "\(b)"
      case .error(let k): "error \(k.rawValue)"
      case .parseError: "parse error"
      }
    }
  }

  var id: String
  /// `file.jsonl:line`.
  var location: String
  var format: String
  var arguments: [SiftValue]
  var object: SiftValue
  var variables: [String: SiftValue]
  var expectation: Expectation
  /// Set when the line could not be read; the case then fails with this message.
  var loadError: String?

  var testDescription: String { id }
}

/// Reads the conformance cases next to this file.
enum ConformanceData {
  /// The `Cases` folder, found from this source file's path.
  static let casesDirectory: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Cases", isDirectory: true)

  /// Every case of every `Cases/*.jsonl` file, files in name order, lines in file order.
  static let all: [ConformanceCase] = load()

  static func load(from directory: URL = casesDirectory) -> [ConformanceCase] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0.hasSuffix(".jsonl") }.sorted()
    } catch {
      return [broken("<no cases>", "\(directory.path): \(error)")]
    }
    var cases: [ConformanceCase] = []
    for name in names {
      let url = directory.appendingPathComponent(name)
      guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        cases.append(broken(name, "cannot read \(url.path) as UTF-8"))
        continue
      }
      for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { continue }
        cases.append(parse(String(trimmed), location: "\(name):\(offset + 1)"))
      }
    }
    return cases
  }

  static func broken(_ location: String, _ message: String) -> ConformanceCase {
    ConformanceCase(
      id: location, location: location, format: "", arguments: [], object: .null, variables: [:],
      expectation: .result(false), loadError: message)
  }

  /// One JSON line into a case.
  static func parse(_ line: String, location: String) -> ConformanceCase {
    let value: SiftValue
    do {
      value = try SiftValue(json: line)
    } catch {
      return broken(location, "\(location): not JSON: \(error)")
    }
    guard case .dictionary(let fields) = value else { return broken(location, "\(location): not a JSON object") }
    guard case .string(let id)? = fields["id"] else { return broken(location, "\(location): no string \"id\"") }
    func fail(_ message: String) -> ConformanceCase { broken(id, "\(location) (\(id)): \(message)") }
    let known: Set<String> = ["id", "format", "args", "object", "variables", "expect"]
    if let extra = fields.keys.first(where: { !known.contains($0) }) { return fail("unknown field \"\(extra)\"") }
    guard case .string(let format)? = fields["format"] else { return fail("no string \"format\"") }
    var arguments: [SiftValue] = []
    switch fields["args"] {
    case nil, .null?: break
    case .array(let a)?: arguments = a
    default: return fail("\"args\" is not an array")
    }
    var variables: [String: SiftValue] = [:]
    switch fields["variables"] {
    case nil, .null?: break
    case .dictionary(let d)?: variables = d
    default: return fail("\"variables\" is not an object")
    }
    let expectation: ConformanceCase.Expectation
    switch fields["expect"] {
    case .bool(let b)?:
      expectation = .result(b)
    case .dictionary(let d)? where d.count == 1:
      if case .string(let kindName)? = d["error"] {
        guard let kind = EvaluationError.Kind(rawValue: kindName) else { return fail("unknown error kind \(kindName)") }
        expectation = .error(kind)
      } else if d["parse_error"] == .bool(true) {
        expectation = .parseError
      } else {
        return fail("\"expect\" object must be {\"error\": kind} or {\"parse_error\": true}")
      }
    default:
      return fail("\"expect\" must be true, false, {\"error\": kind} or {\"parse_error\": true}")
    }
    return ConformanceCase(
      id: id, location: location, format: format, arguments: arguments, object: fields["object"] ?? .null,
      variables: variables, expectation: expectation, loadError: nil)
  }
}
