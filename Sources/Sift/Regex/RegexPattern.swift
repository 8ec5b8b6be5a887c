// MATCHES through PCRE2.
//
// Compile options: PCRE2_UTF | PCRE2_UCP (so \w \d \b \s and POSIX classes are Unicode, as in ICU),
// PCRE2_ANCHORED | PCRE2_ENDANCHORED (MATCHES is a whole-string match), PCRE2_CASELESS for [c],
// PCRE2_NEVER_BACKSLASH_C (\C could split a UTF-8 sequence), and newline convention ANY (so `.`
// excludes the same line terminators as ICU: LF VT FF CR NEL LS PS). ICU's `\uhhhh` and
// `\Uhhhhhhhh` escapes, which PCRE2 rejects, are rewritten to `\x{…}` first (error offsets are
// mapped back to the pattern as written). The code is compiled and
// JIT-compiled once and is immutable, so one RegexPattern is shared by any number of threads; each
// thread matches with its own match data, match context and JIT stack (RegexThreadState), created
// the first time that thread matches anything, so matching allocates nothing.

import CPCRE2

/// Match-time limits, so a catastrophic pattern fails quickly with an error instead of hanging.
struct RegexLimits: Sendable, Hashable {
  /// PCRE2's match limit (backtracking steps; also honoured by the JIT).
  var matchLimit: UInt32 = 1_000_000
  /// PCRE2's depth limit (backtracking depth of the interpreter; the JIT ignores it and is bounded
  /// by its stack instead, see `RegexThreadState.jitStackMaximum`).
  var depthLimit: UInt32 = 10_000

  init(matchLimit: UInt32 = 1_000_000, depthLimit: UInt32 = 10_000) {
    self.matchLimit = matchLimit
    self.depthLimit = depthLimit
  }
}

/// A regular expression that could not be compiled, or a match that hit a limit.
struct RegexFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// For compile errors PCRE2's own message ("missing closing parenthesis"); for match errors,
  /// which limit was hit.
  var message: String
  /// For compile errors, the UTF-8 byte offset in the pattern where PCRE2 noticed the error.
  var patternOffset: Int?

  init(message: String, patternOffset: Int? = nil) {
    self.message = message
    self.patternOffset = patternOffset
  }

  var description: String {
    patternOffset.map { "\(message) (at byte \($0) of the pattern)" } ?? message
  }
}

/// MATCHES: a compiled, whole-string, Unicode-aware regular expression. Sendable and shareable.
///
/// A pattern of the form `.*literal.*` (literal without regex metacharacters, after unescaping `\.`
/// and the like) is answered by a substring search that gives PCRE2's answer: the subject must
/// contain the literal and no line terminator (`.` does not match those). With [c], only an ASCII
/// literal is searched directly, and only in ASCII subjects; other subjects go to PCRE2, whose
/// caseless matching uses simple Unicode case folding (so it differs from `CONTAINS[c]` for "ß").
/// Any other `.*R.*` pattern (see `RegexLiteral.dotStarMiddle`) is answered, for subjects without
/// line terminators, by an unanchored search for `R`, which PCRE2 starts with its first-character
/// scan instead of backtracking over the greedy `.*`. An empty pattern never matches.
final class RegexPattern: Sendable {
  /// The pattern text.
  let pattern: String
  /// Whether it was compiled with [c] (PCRE2_CASELESS).
  let caseInsensitive: Bool
  /// The match-time limits.
  let limits: RegexLimits
  /// The compiled code; nil for the empty pattern.
  private let code: CompiledRegex?
  /// `code` and `search` as plain handles (no retain on the matching path; the objects above own them).
  private let codeHandle: CompiledRegex.Handle
  private let searchHandle: CompiledRegex.Handle
  /// The literal of a `.*literal.*` pattern (an ASCII literal lowercased under [c]).
  private let literal: StringNeedle?
  /// For another `.*R.*` pattern: `R`, compiled for an unanchored search, used when the subject has
  /// no line terminator (then it gives the same answer without backtracking over the leading `.*`).
  private let search: CompiledRegex?

  /// True when the `.*literal.*` rewrite applied.
  var isLiteralSearch: Bool { literal != nil }

  /// `jit: false` keeps PCRE2's interpreter, the fallback where the JIT is unavailable (so
  /// tests can reach the depth limit, which only the interpreter honours).
  init(_ pattern: String, caseInsensitive: Bool, limits: RegexLimits = RegexLimits(), jit: Bool = true)
    throws(RegexFailure)
  {
    self.pattern = pattern
    self.caseInsensitive = caseInsensitive
    self.limits = limits
    if pattern.isEmpty {
      code = nil
      literal = nil
      search = nil
      codeHandle = .none
      searchHandle = .none
      return
    }
    code = try CompiledRegex(pattern, caseInsensitive: caseInsensitive, anchored: true, jit: jit)
    if let text = RegexLiteral.dotStarLiteral(pattern), caseInsensitive == false || text.utf8.allSatisfy({ $0 < 0x80 })
    {
      literal = StringNeedle(text, options: caseInsensitive ? [.caseInsensitive] : [])
      search = nil
    } else {
      literal = nil
      search = RegexLiteral.dotStarMiddle(pattern).flatMap {
        try? CompiledRegex($0, caseInsensitive: caseInsensitive, anchored: false, jit: jit)
      }
    }
    codeHandle = code?.handle ?? .none
    searchHandle = search?.handle ?? .none
  }

  /// Whether the whole-string match runs JIT-compiled code (which ignores the depth limit).
  var usesJIT: Bool { code?.jit ?? false }

  /// Whether matching searches for the middle of a `.*R.*` pattern (when the subject allows).
  var isDotStarSearch: Bool { search != nil }

  /// Whether the whole of `subject` matches. Throws when PCRE2 gives up (match, depth or JIT stack
  /// limit).
  func matches(_ subject: String) throws(RegexFailure) -> Bool {
    if codeHandle.isNone { return false }
    let rc: Int32 = withUTF8Bytes(subject) { s in
      if let literal {
        if let answer = literalMatch(s, literal) { return answer ? 1 : PCRE2_ERROR_NOMATCH }
      } else if !searchHandle.isNone && !ByteOps.hasLineTerminator(s) {
        return searchHandle.match(s, limits)
      }
      return codeHandle.match(s, limits)
    }
    if rc >= 0 { return true }  // 0: matched, ovector too small for the groups (we ask for none)
    if rc == PCRE2_ERROR_NOMATCH { return false }
    throw RegexFailure.matchFailure(rc, limits)
  }

  /// PCRE2's answer for `.*literal.*` by searching, or nil when only PCRE2 can tell (caseless and a
  /// non-ASCII subject).
  @inline(__always)
  private func literalMatch(_ s: UnsafeBufferPointer<UInt8>, _ literal: StringNeedle) -> Bool? {
    if !caseInsensitive {
      return !ByteOps.hasLineTerminator(s) && literal.occursVerbatim(in: s)
    }
    // A match found on ASCII bytes is a PCRE2 match whatever surrounds it.
    if literal.occursVerbatim(in: s) { return !ByteOps.hasLineTerminator(s) }
    return ASCIIBytes.isASCII(s) ? false : nil
  }
}

/// Owns a compiled (and, when possible, JIT-compiled) pcre2_code. Immutable after init.
final class CompiledRegex: @unchecked Sendable {
  let code: OpaquePointer
  let jit: Bool

  /// Compiles `pattern`; `anchored` makes it a whole-string match (ANCHORED | ENDANCHORED).
  init(_ pattern: String, caseInsensitive: Bool, anchored: Bool, jit: Bool = true) throws(RegexFailure) {
    var options = UInt32(PCRE2_UTF) | UInt32(PCRE2_UCP) | UInt32(PCRE2_NEVER_BACKSLASH_C)
    if anchored { options |= UInt32(PCRE2_ANCHORED) | UInt32(PCRE2_ENDANCHORED) }
    if caseInsensitive { options |= UInt32(PCRE2_CASELESS) }
    guard let context = pcre2_compile_context_create_8(nil) else {
      throw RegexFailure(message: "out of memory creating a PCRE2 compile context")
    }
    defer { pcre2_compile_context_free_8(context) }
    pcre2_set_newline_8(context, UInt32(PCRE2_NEWLINE_ANY))
    let (translated, offsetMap) = RegexLiteral.translatingICUEscapes(pattern)
    var errorCode: Int32 = 0
    var errorOffset = 0
    let compiled: OpaquePointer? = withUTF8Bytes(translated) { p in
      pcre2_compile_8(
        p.baseAddress ?? RegexThreadState.emptySubject, p.count, options, &errorCode, &errorOffset, context)
    }
    guard let compiled else {
      throw RegexFailure(message: RegexFailure.pcre2Message(errorCode), patternOffset: offsetMap(errorOffset))
    }
    code = compiled
    self.jit = jit && pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
  }

  deinit { pcre2_code_free_8(code) }

  /// The code's address and whether it is JIT-compiled, as a trivial Sendable value.
  var handle: Handle { Handle(address: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(code))), jit: jit) }

  /// A borrowed reference to compiled code: valid while the owning CompiledRegex lives.
  struct Handle: Sendable {
    let address: UInt
    let jit: Bool
    static let none = Handle(address: 0, jit: false)
    @inline(__always) var isNone: Bool { address == 0 }

    /// Runs one match with this thread's match data; returns PCRE2's result code.
    @inline(__always)
    func match(_ s: UnsafeBufferPointer<UInt8>, _ limits: RegexLimits) -> Int32 {
      let code = OpaquePointer(bitPattern: address)
      let state = RegexThreadState.current(limits)
      let subject = s.baseAddress ?? RegexThreadState.emptySubject
      if jit {
        return pcre2_jit_match_8(code, subject, s.count, 0, 0, state.pointee.matchData, state.pointee.matchContext)
      }
      return pcre2_match_8(
        code, subject, s.count, 0, UInt32(PCRE2_NO_UTF_CHECK), state.pointee.matchData, state.pointee.matchContext)
    }
  }
}

extension RegexFailure {
  /// PCRE2's text for an error code.
  static func pcre2Message(_ code: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 256)
    let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
    guard length > 0 else { return "PCRE2 error \(code)" }
    return String(decoding: buffer[..<Int(length)], as: UTF8.self)
  }

  /// The failure for a negative pcre2 match result other than "no match".
  @inline(never)
  static func matchFailure(_ rc: Int32, _ limits: RegexLimits) -> RegexFailure {
    switch rc {
    case PCRE2_ERROR_MATCHLIMIT:
      return RegexFailure(message: "regular expression match limit (\(limits.matchLimit)) exceeded")
    case PCRE2_ERROR_DEPTHLIMIT:
      return RegexFailure(message: "regular expression depth limit (\(limits.depthLimit)) exceeded")
    case PCRE2_ERROR_JIT_STACKLIMIT:
      return RegexFailure(message: "regular expression JIT stack limit exceeded")
    case PCRE2_ERROR_HEAPLIMIT:
      return RegexFailure(message: "regular expression heap limit exceeded")
    default:
      return RegexFailure(message: "regular expression match failed: \(pcre2Message(rc))")
    }
  }
}
