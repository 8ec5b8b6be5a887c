import CSiftJSON
import SiftTestSupport
import Testing

@testable import Sift

/// The JSON reader (simdjson's events, viewed in place) agrees with the value tree the same
/// text parses to, case by case over the conformance data and over generated documents
/// with escapes, non-ASCII text, nulls and arrays of every kind.
@Suite("JSON input agrees with the value tree")
struct JSONInputTests {
  /// Parses `text` with simdjson and evaluates `predicate` (compiled for the schema of
  /// `keys`) on the record plan's events.
  final class Document {
    let parser = sift_json_parser_create(1 << 12, 512)!
    deinit { sift_json_parser_destroy(parser) }

    func evaluate(_ predicate: SiftPredicate, keys: [String], text: String, variables: [String: SiftValue])
      -> ConformanceCase.Expectation?
    {
      var bytes = Array(text.utf8)
      let count = bytes.count
      bytes += Array(repeating: 0x20, count: Int(SIFT_JSON_PADDING))
      // Keys copied into memory that outlives the plan's creation (the plan copies them).
      let storage = keys.map { key in
        let p = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(1, key.utf8.count))
        _ = p.initialize(from: key.utf8.map { CChar(bitPattern: $0) })
        return p
      }
      defer { for p in storage { p.deallocate() } }
      var paths = zip(storage, keys).map { sift_json_key(ptr: $0.baseAddress, len: $1.utf8.count) }
      guard let plan = sift_json_record_plan_create(&paths, paths.count) else { return nil }
      defer { sift_json_record_plan_destroy(plan) }
      do {
        let parsed = bytes.withUnsafeBufferPointer { b in
          b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) {
            sift_json_parse(parser, $0, count, b.count)
          }
        }
        guard parsed == Int32(SIFT_JSON_OK.rawValue) else { return nil }
        var fields: UnsafePointer<sift_json_field>? = nil
        guard sift_json_record_fields(parser, plan, &fields) == Int32(SIFT_JSON_OK.rawValue), let fields else {
          return nil
        }
        return keys.withUnsafeBufferPointer { k in
          InputKindTests.outcome { () throws(EvaluationError) in
            try predicate.evaluate(json: parser, plan: plan, fields: fields, keys: k, variables: variables)
          }
        }
      }
    }
  }

  @Test func conformanceCases() throws {
    let document = Document()
    var compared = 0
    for c in ConformanceData.all where c.loadError == nil {
      guard case .dictionary(let d) = c.object, Set(d.keys).count == d.count else { continue }
      let text = c.object.jsonText
      guard let parsed = try? SiftValue(json: text) else { continue }
      guard let plain = try? SiftPredicate(format: c.format, arguments: c.arguments) else { continue }
      let keys = d.keys.sorted()
      guard
        let bound = try? SiftPredicate(
          format: c.format, arguments: c.arguments, options: CompileOptions(schema: SiftSchema(fields: keys)))
      else { continue }
      let tree = InputKindTests.outcome { () throws(EvaluationError) in
        try plain.evaluate(with: parsed, variables: c.variables)
      }
      guard let viaJSON = document.evaluate(bound, keys: keys, text: text, variables: c.variables) else { continue }
      #expect(viaJSON == tree, "\(c.location): \(c.format) on \(text)")
      compared += 1
    }
    #expect(compared > 300, "\(compared)")
  }

  /// Random documents against the string, integer and ANY tests the reader views in place.
  @Test func generatedDocuments() throws {
    let formats = [
      "s == 'caf\u{E9}'", "s ==[c] 'CAFE\u{301}'", "s BEGINSWITH 'a\\\"'", "s ENDSWITH[c] '@spam.example'",
      "s CONTAINS[cd] 'resume'", "s LIKE 'a*b?'", "s MATCHES '.*[0-9]+.*'", "s IN {'a', 'b\\n', 'caf\u{E9}'}",
      "s IN[c] {'A', 'B'}", "n >= 3", "n == 7", "n < -2", "ANY t == 'urgent'", "ALL t BEGINSWITH 'u'",
      "ANY t IN {'x', 'y'}", "NONE t CONTAINS 'e'", "ANY t MATCHES 'u.*'", "s == nil", "t == nil", "n == nil",
      "n >= 3 AND NOT (s ENDSWITH[c] '@spam.example') AND ANY t == 'urgent'",
    ]
    let strings: [SiftValue] = [
      "a", "ab", "a\"x", "caf\u{E9}", "cafe\u{301}", "x@SPAM.example", "R\u{E9}sum\u{E9} 42", "b\n", "\u{0}",
      "urgent", "A", .null, 3, 3.5, true, [], ["u"],
    ]
    let numbers: [SiftValue] = [3, 7, -3, 2.5, 3.0, .null, "3", true, 9_007_199_254_740_993]
    let arrays: [SiftValue] = [
      [], ["urgent"], ["x", "urgent"], ["u1", "u2"], ["urgent", 1], [.null], "urgent", .null, [["urgent"]],
    ]
    var generator = SplitMix64(seed: 24)
    let document = Document()
    let keys = ["n", "s", "t"]
    let predicates = try formats.map {
      (
        try SiftPredicate(format: $0),
        try SiftPredicate(format: $0, options: CompileOptions(schema: SiftSchema(fields: keys)))
      )
    }
    for _ in 0..<400 {
      var d: [String: SiftValue] = [:]
      if generator.next() % 5 != 0 { d["s"] = strings[Int(generator.next() % UInt64(strings.count))] }
      if generator.next() % 5 != 0 { d["n"] = numbers[Int(generator.next() % UInt64(numbers.count))] }
      if generator.next() % 5 != 0 { d["t"] = arrays[Int(generator.next() % UInt64(arrays.count))] }
      let text = SiftValue.dictionary(d).jsonText
      let parsed = try SiftValue(json: text)
      for (k, (plain, bound)) in predicates.enumerated() {
        let tree = InputKindTests.outcome { () throws(EvaluationError) in try plain.evaluate(with: parsed) }
        let viaJSON = document.evaluate(bound, keys: keys, text: text, variables: [:])
        #expect(viaJSON == tree, "\(formats[k]) on \(text)")
      }
    }
  }
}
