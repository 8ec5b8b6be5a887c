import Sift
import SiftC

/// The C interface (include/sift.h) driven with arbitrary bytes, as a C caller would drive
/// it: every entry point gets the fuzz input's pieces, results are checked against each
/// other, and every handle made is freed once (a second free must be refused).
enum ABIFuzzing {
  /// Input: flags byte, predicate, 0, JSON argument array (may be empty), 0, a JSON Lines
  /// buffer (also evaluated as one document, a string and a set's document, in a set holding
  /// the predicate's handle and in one holding its text).
  static func abi(_ bytes: [UInt8]) {
    guard let flagsByte = bytes.first else { return }
    let input = parts(Array(bytes.dropFirst()), 3)
    let format = Array(input[0])
    let args = Array(input[1])
    let buffer = Array(input[2])
    let flags = UInt32(flagsByte & 0x0F)  // 0x8 is an unknown flag: refused

    var predicate: OpaquePointer? = nil
    var error: OpaquePointer? = nil
    let rc = withC(format) { f, fn in
      withC(args) { a, an in sift_predicate_compile(f, fn, a, an, nil, 0, flags, &predicate, &error) }
    }
    if rc != 0 {
      if predicate != nil { violated("a failed compile makes no predicate", "\(rc)") }
      check(error, status: rc)
      return
    }
    if flags & 0x8 != 0 { violated("unknown flags are refused", "\(flags)") }
    if error != nil { violated("a compile that succeeds makes no error", "") }

    // `random`, `now()`: two evaluations may differ, so they are compared with nothing.
    let comparable = !isNondeterministic(predicate)
    withC(buffer) { base, textCount in
      do {
        // One document, and the same bytes as a string SELF.
        var e: OpaquePointer? = nil
        let one = sift_predicate_evaluate(predicate, base, textCount, &e)
        if one < 0 { check(e, status: one) } else if e != nil { violated("a decision makes no error", "") }
        if ![1, 0, -5, -7].contains(one) { violated("evaluate returns 1, 0, json or evaluation", "\(one)") }
        let asString = sift_predicate_evaluate_string(predicate, base, textCount, &e)
        if asString < 0 { check(e, status: asString) }

        // Every line in one call, and each line alone: the same decisions.
        var lines: OpaquePointer? = nil
        let bulk = sift_predicate_evaluate_lines(predicate, base, textCount, 0x3, &lines, nil)
        if bulk != 0 { violated("evaluate_lines succeeds on any bytes", "\(bulk)") }
        var results: UnsafePointer<UInt8>? = nil
        var count = 0
        var starts: UnsafePointer<UInt64>? = nil
        var lengths: UnsafePointer<UInt64>? = nil
        var spanCount = 0
        _ = sift_lines_results(lines, &results, &count)
        _ = sift_lines_spans(lines, &starts, &lengths, &spanCount)
        var errors = 0
        var matched = 0
        _ = sift_lines_counts(lines, nil, &matched, &errors)
        var expectedCount = 0
        for k in 0..<count {
          let start = Int(starts![k])
          let decided = sift_predicate_evaluate(predicate, base + start, Int(lengths![k]), nil)
          let alone: UInt8 = decided == 1 ? 1 : decided == 0 ? 0 : 2
          if comparable && results![k] != alone {
            violated("a line decides in bulk as alone", "line \(k): \(results![k]) vs \(decided)")
          }
          if alone == 1 { expectedCount += 1 }
        }
        if comparable && expectedCount != matched {
          violated("the match count is the matches", "\(matched) vs \(expectedCount)")
        }
        for k in 0..<errors {
          var code: Int32 = 0
          var message: UnsafePointer<CChar>? = nil
          var length = 0
          if sift_lines_error(lines, k, nil, &code, nil, &message, &length, nil) != 0 || message == nil {
            violated("every error is readable", "\(k)")
          }
        }
        if sift_lines_free(lines) != 0 || sift_lines_free(lines) != -2 {
          violated("a result frees once", "")
        }

        // A set holding the predicate, when a set can hold it.
        var set: OpaquePointer? = nil
        _ = sift_set_create(0, &set)
        if sift_set_insert(set, 7, predicate) == 0 {
          var ids = [UInt64](repeating: 0, count: 2)
          var found = 0
          let m = sift_set_match_ids(set, base, textCount, &ids, 2, &found, &e)
          if m < 0 { check(e, status: m) }
          if m == 0 && (found > 1 || (found == 1 && ids[0] != 7)) { violated("a set finds its ids", "\(ids)") }
          // The set answers as matches would.
          if comparable && m == 0 && (found == 1) != (one == 1) {
            violated("a set matches as the predicate", "\(found) \(one)")
          }
          _ = sift_set_remove(set, 7)
        }
        _ = sift_set_free(set)

        // The same text inserted from text, with no handle: it goes in whenever the
        // predicate compiled (but for APNs), and the set answers as the predicate does.
        var textSet: OpaquePointer? = nil
        _ = sift_set_create(0, &textSet)
        let inserted = withC(format) { f, fn in
          withC(args) { a, an in sift_set_insert_format(textSet, 8, f, fn, a, an, flags, &e) }
        }
        if inserted < 0 { check(e, status: inserted) }
        if (inserted == 0) == (flags & 0x1 != 0) { violated("text goes into a set as its predicate", "\(inserted)") }
        if inserted == 0 {
          var ids = [UInt64](repeating: 0, count: 2)
          var found = 0
          let m = sift_set_match_ids(textSet, base, textCount, &ids, 2, &found, &e)
          if m < 0 { check(e, status: m) }
          if comparable && m == 0 && (found == 1) != (one == 1) {
            violated("a set from text matches as the predicate", "\(found) \(one)")
          }
        }
        _ = sift_set_free(textSet)
      }
    }
    var length = 0
    var small = [CChar](repeating: 0, count: 4)
    _ = sift_predicate_format(predicate, &small, 4, &length)
    _ = sift_predicate_keys(predicate, &small, 4, &length)
    var hash: UInt64 = 0
    _ = sift_predicate_hash(predicate, &hash)
    if sift_predicate_equal(predicate, predicate) != 1 { violated("a predicate equals itself", "") }
    if sift_predicate_free(predicate) != 0 || sift_predicate_free(predicate) != -2
      || sift_predicate_evaluate(predicate, "1", 1, nil) != -2
    {
      violated("a freed predicate is refused", "")
    }
  }

  /// Whether the compiled predicate calls a function whose evaluations may differ: its
  /// canonical text, read back through the interface, parsed (a function call comes only
  /// from the format, never from an argument). Text that does not parse back (a huge
  /// collection argument) counts as deterministic.
  private static func isNondeterministic(_ predicate: OpaquePointer?) -> Bool {
    var length = 0
    _ = sift_predicate_format(predicate, nil, 0, &length)
    var text = [CChar](repeating: 0, count: length + 1)
    guard sift_predicate_format(predicate, &text, text.count, &length) == 0,
      let parsed = try? SiftPredicate(
        format: String(decoding: text.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    else { return false }
    return Determinism.isNondeterministic(parsed.syntax)
  }

  /// An error object: readable, with the call's status, and freed once.
  private static func check(_ error: OpaquePointer?, status: Int32) {
    guard let error else { violated("a failure makes an error object", "\(status)") }
    if sift_error_code(error) != status { violated("the error's code is the status", "\(status)") }
    if sift_error_message(error, nil) == nil || sift_error_rendered(error, nil) == nil || sift_error_kind(error) == nil
    {
      violated("an error's strings are there", "\(status)")
    }
    if sift_error_free(error) != 0 || sift_error_free(error) != -2 { violated("an error frees once", "") }
  }

  /// `bytes` as a C pointer (never NULL, even when empty) and its length.
  private static func withC<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>, Int) -> R) -> R {
    (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!, bytes.count) }
  }
}
