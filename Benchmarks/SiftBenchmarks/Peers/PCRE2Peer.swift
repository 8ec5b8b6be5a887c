import CPCRE2

/// A direct PCRE2 JIT whole-string match (W3): the regex engine Sift itself uses, without
/// Sift around it. Compiled once with `PCRE2_UTF | PCRE2_UCP` (Unicode `\w \d \b`, as ICU)
/// and anchored at both ends (`PCRE2_ANCHORED | PCRE2_ENDANCHORED`: MATCHES is a whole-string
/// match), then JIT-compiled; each match runs on the string's UTF-8 in place and reuses one
/// match data block (one per thread; this benchmark is single-threaded).
///
/// With `newlineAny`, the newline convention is ANY, so that `.` excludes every line
/// terminator ICU excludes (LF VT FF CR NEL LS PS), as Sift compiles its patterns; PCRE2's
/// default (LF only) is the plain `pcre2-jit` row. On this data, which has no line
/// terminators, both give the same answers; the difference between the rows is the price of
/// ICU's meaning of `.`.
final class PCRE2WholeMatch {
  private let code: OpaquePointer
  private let matchData: OpaquePointer

  init(_ pattern: String, newlineAny: Bool = true) {
    let context = pcre2_compile_context_create_8(nil)
    defer { pcre2_compile_context_free_8(context) }
    if newlineAny { pcre2_set_newline_8(context, UInt32(PCRE2_NEWLINE_ANY)) }
    var error: Int32 = 0
    var offset = 0
    let options = PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED | PCRE2_ENDANCHORED
    let compiled = Array(pattern.utf8).withUnsafeBufferPointer {
      pcre2_compile_8($0.baseAddress, $0.count, options, &error, &offset, context)
    }
    guard let compiled else { fatalError("PCRE2 cannot compile \(pattern): error \(error) at \(offset)") }
    guard pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE) == 0 else { fatalError("PCRE2 JIT unavailable") }
    code = compiled
    matchData = pcre2_match_data_create_from_pattern_8(compiled, nil)
  }

  deinit {
    pcre2_match_data_free_8(matchData)
    pcre2_code_free_8(code)
  }

  @inline(__always)
  func matches(_ subject: String) -> Bool {
    let rc = ByteScans.withBytes(subject) { bytes in
      // An empty string may have no base address; PCRE2 wants a pointer even for length 0.
      let p = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
      return pcre2_jit_match_8(code, p, bytes.count, 0, 0, matchData, nil)
    }
    if rc >= 0 { return true }
    if rc == PCRE2_ERROR_NOMATCH { return false }
    fatalError("PCRE2 match error \(rc)")
  }
}

/// W3 through `PCRE2WholeMatch`.
struct PCRE2Evaluator: Evaluator {
  let regex: PCRE2WholeMatch
  init(newlineAny: Bool = true) { regex = PCRE2WholeMatch(".*invoice [0-9]+.*", newlineAny: newlineAny) }
  func evaluate(_ n: NotificationItem) -> Bool { regex.matches(n.subject) }
}
