import CSiftJSON
import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// Decides one JSON line at a time for `sift filter` and `sift bench`: simdjson validates
/// the line and hands over only the values the predicate reads (see ``FilterPlan``).
package final class LineEvaluator {
  /// What became of one line.
  package enum Outcome {
    case match
    case noMatch
    /// The line is not valid JSON, or evaluating the predicate failed.
    case error(message: String, offset: Int?)
  }

  let plan: FilterPlan
  private let predicate: SiftPredicate
  /// The predicate compiled without a schema, for a line whose value is not an object
  /// under the record plan (a key on an array maps, on a number it is an error: only the
  /// full value says). Compiled at the first such line: most streams have none, and a
  /// large predicate costs as much to compile as thousands of lines to decide.
  private var plainPredicate: Result<SiftPredicate, PredicateSyntaxError>?
  private let syntax: PredicateSyntax
  private let format: String
  private let variables: [String: SiftValue]
  private let parser: OpaquePointer
  /// The record plan's keys, in slot order: the schema the predicate was compiled for.
  private let keys: [String]
  /// The C key paths handed to simdjson: one per record key, or `aps.filter-criteria`.
  private let paths: UnsafeMutablePointer<sift_json_key>
  private let pathCount: Int
  /// The record plan's keys, read in one pass over a line's fields (nil for other plans).
  private let recordPlan: OpaquePointer?
  /// The keys' UTF-8 bytes, each with its length: a key may hold a NUL (`"a\u0000b"`), so
  /// nothing here is a C string.
  private let keyStorage: [UnsafeMutableBufferPointer<CChar>]

  static let apnsPath = ["aps", "filter-criteria"]
  /// As deep as Sift's own JSON reader goes.
  static let maxDepth = 512

  /// Compiles the parsed predicate once, for the cheapest plan that serves it (`apns`:
  /// `SELF` is `aps.filter-criteria`); throws its compile error. `format` is its text, for
  /// diagnostics.
  package init(syntax: PredicateSyntax, format: String, apns: Bool, variables: [String: SiftValue])
    throws(PredicateSyntaxError)
  {
    self.syntax = syntax
    self.format = format
    var plan = apns ? .apnsCriteria : FilterPlan.plan(for: syntax)
    var schema = SiftSchema(fields: [])
    var compiled: SiftPredicate? = nil
    if case .record(let keys) = plan {
      schema = SiftSchema(fields: keys)
      compiled = try? SiftPredicate(syntax: syntax, format: format, options: CompileOptions(schema: schema))
      if compiled == nil { plan = .document }
    }
    if compiled == nil {
      let plain = try SiftPredicate(syntax: syntax, format: format, options: CompileOptions())
      compiled = plain
      plainPredicate = .success(plain)
    }
    self.plan = plan
    self.predicate = compiled!
    self.variables = variables
    let keys: [String]
    switch plan {
    case .record(let k): keys = k
    case .apnsCriteria: keys = Self.apnsPath
    case .document: keys = []
    }
    if case .record = plan { self.keys = keys } else { self.keys = [] }
    keyStorage = keys.map { key in
      let bytes = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(key.utf8.count, 1))
      _ = bytes.initialize(from: key.utf8.lazy.map { CChar(bitPattern: $0) })
      return bytes
    }
    pathCount = keys.count
    paths = .allocate(capacity: max(keys.count, 1))
    for (i, key) in keys.enumerated() {
      paths[i] = sift_json_key(ptr: keyStorage[i].baseAddress, len: key.utf8.count)
    }
    if case .record = plan {
      guard let made = sift_json_record_plan_create(paths, keys.count) else { fatalError("out of memory") }
      recordPlan = made
    } else {
      recordPlan = nil
    }
    guard let parser = sift_json_parser_create(1 << 16, Self.maxDepth) else { fatalError("out of memory") }
    self.parser = parser
  }

  deinit {
    sift_json_parser_destroy(parser)
    if let recordPlan { sift_json_record_plan_destroy(recordPlan) }
    paths.deallocate()
    for key in keyStorage { key.deallocate() }
  }

  /// The predicate without a schema, compiled now if this is the first line that needs it.
  private func plain() throws(EvaluationError) -> SiftPredicate {
    if plainPredicate == nil {
      do throws(PredicateSyntaxError) {
        plainPredicate = .success(try SiftPredicate(syntax: syntax, format: format, options: CompileOptions()))
      } catch {
        plainPredicate = .failure(error)
      }
    }
    switch plainPredicate! {
    case .success(let p): return p
    case .failure(let error): throw EvaluationError(.invalidArgument, error.error.message)
    }
  }

  /// Decides one line; `readable` is the number of readable bytes from the line's start
  /// (at least `line.count + SIFT_JSON_PADDING`).
  package func decide(_ line: UnsafeBufferPointer<UInt8>, readable: Int) -> Outcome {
    let status = line.baseAddress!.withMemoryRebound(to: CChar.self, capacity: line.count) {
      sift_json_parse(parser, $0, line.count, readable)
    }
    guard status == Int32(SIFT_JSON_OK.rawValue) else { return slowPath(line) }
    do {
      let matched: Bool
      switch plan {
      case .record:
        var fields: UnsafePointer<sift_json_field>? = nil
        guard sift_json_record_fields(parser, recordPlan, &fields) == Int32(SIFT_JSON_OK.rawValue), let fields else {
          matched = try plain().evaluate(with: value(at: 0, depth: 0), variables: variables)
          break
        }
        // Decided in simdjson's DOM: strings, integers and arrays of strings are viewed
        // where the parser keeps them, nothing is built per line.
        matched = try keys.withUnsafeBufferPointer { (keys) throws(EvaluationError) in
          try predicate.evaluate(json: parser, plan: recordPlan!, fields: fields, keys: keys, variables: variables)
        }
      case .apnsCriteria:
        matched = try evaluateAPNs(value(at: 0, depth: 2))
      case .document:
        matched = try predicate.evaluate(with: value(at: 0, depth: 0), variables: variables)
      }
      return matched ? .match : .noMatch
    } catch {
      return .error(message: error.message, offset: nil)
    }
  }

  private func evaluateAPNs(_ criteria: SiftValue) throws(EvaluationError) -> Bool {
    if case .string(let text) = criteria { return try predicate.evaluate(with: text, variables: variables) }
    return try predicate.evaluate(with: criteria, variables: variables)
  }

  /// A line simdjson rejected goes to Sift's own reader, which has the last word on what is
  /// JSON: it words the error with a byte offset, and it reads what simdjson refuses but
  /// Sift accepts (an integer beyond 64 bits is a double to Sift; found by fuzzing).
  private func slowPath(_ line: UnsafeBufferPointer<UInt8>) -> Outcome {
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      return .error(message: "line is empty (not a JSON value)", offset: nil)
    }
    let value: SiftValue
    do {
      value = try SiftValue(json: line, maxDepth: Self.maxDepth)
    } catch {
      return .error(message: "line is not valid JSON: \(error.message)", offset: error.offset)
    }
    do {
      let matched: Bool
      switch plan {
      case .record, .document: matched = try plain().evaluate(with: value, variables: variables)
      case .apnsCriteria:
        var criteria = SiftValue.null
        if case .dictionary(let top) = value, case .dictionary(let aps)? = top["aps"] {
          criteria = aps["filter-criteria"] ?? .null
        }
        matched = try evaluateAPNs(criteria)
      }
      return matched ? .match : .noMatch
    } catch {
      return .error(message: error.message, offset: nil)
    }
  }

  /// The value at `paths[first..<first + depth]` of the parsed line, nil when absent.
  private func value(at first: Int, depth: Int) -> SiftValue {
    var events: UnsafePointer<sift_json_event>? = nil
    var count = 0
    let status = sift_json_value_at(parser, paths + first, depth, &events, &count)
    guard status == Int32(SIFT_JSON_OK.rawValue), let events else { return .null }
    return JSONEventValue.value(UnsafeBufferPointer(start: events, count: count))
  }

}
