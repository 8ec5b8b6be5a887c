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
import CSiftRE2
import Synchronization

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
  /// True when a budgeted match (``RegexPattern/matches(_:stepsLeft:)``) stopped because
  /// the evaluation's step budget could not pay for the next tier of backtracking.
  var exhaustedBudget = false

  init(message: String, patternOffset: Int? = nil, exhaustedBudget: Bool = false) {
    self.message = message
    self.patternOffset = patternOffset
    self.exhaustedBudget = exhaustedBudget
  }

  var description: String {
    patternOffset.map { "\(message) (at byte \($0) of the pattern)" } ?? message
  }
}

/// MATCHES: a compiled, whole-string, Unicode-aware regular expression. Sendable and shareable.
///
/// How a pattern runs is decided once, from its syntax tree (``RegexNode``):
/// - `.*literal.*` (literal without regex metacharacters, after unescaping `\.` and the like)
///   is a substring search that gives PCRE2's answer: the subject must contain the literal and
///   no line terminator (`.` does not match those). With [c], only an ASCII literal is searched
///   directly, and only in ASCII subjects.
/// - Every other pattern first looks for the literal its matches must contain (`.*invoice
///   [0-9]+.*` needs `invoice `): a subject without it does not match, with no regex run.
/// - A pattern over which backtracking is provably cheap (``RegexAnalysis``) runs on PCRE2's
///   JIT, the fastest engine here; `.*R.*` runs as an unanchored search for `R` when that
///   search is cheap and the subject has no line terminator.
/// - Any other regular pattern runs on RE2, in time linear in the subject, when its meaning
///   translates exactly (``RegexTranslation``).
/// - The rest, among them the patterns that need backtracking features (back references,
///   lookaround, atomic groups, possessive quantifiers, …), run on PCRE2's backtracking with a
///   bounded match limit. Inside an evaluation the limit grows in tiers, each paid for from
///   the step budget before it runs (``matches(_:stepsLeft:)``), so a pattern that needs
///   little backtracking costs little and a catastrophic one stops when the budget is spent;
///   outside one, the limit is scaled down for long subjects (``scaledMatchLimit(_:_:)``).
///
/// An empty pattern never matches.
final class RegexPattern: @unchecked Sendable {  // immutable; owns classAfterRequired's memory
  /// The ways a whole-string match runs.
  enum Engine: Sendable, Equatable {
    /// PCRE2's JIT (or interpreter): backtracking that is provably cheap for this pattern.
    case backtrackingSafe
    /// RE2: linear time.
    case re2
    /// PCRE2 with a match limit scaled to the subject: the pattern needs backtracking, or
    /// it is regular but RE2 cannot say it with PCRE2's meaning. (PCRE2's own DFA matcher
    /// was tried for those and dropped: it disagreed with PCRE2's backtracking answer on
    /// `.` before U+2028 and on `^` after the start, under newline ANY.)
    case backtrackingBounded
  }

  /// The pattern text.
  let pattern: String
  /// Whether it was compiled with [c] (PCRE2_CASELESS).
  let caseInsensitive: Bool
  /// The match-time limits.
  let limits: RegexLimits
  /// How a whole-string match runs (when no shortcut answers).
  let engine: Engine
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
  /// The literal every match contains (nil for none), searched before any engine runs.
  private let required: StringNeedle?
  /// Whether ``required`` begins every match of ``search``: the search then starts at the
  /// literal's first occurrence instead of at the subject's start.
  private let requiredStartsSearch: Bool
  /// When the search is a literal then an ASCII class at least once (`invoice [0-9]+`),
  /// the class's bytes: the search is answered by finding the literal and testing the
  /// byte after each occurrence, with no regex run.
  private let classAfterRequired: UnsafeBufferPointer<Bool>?
  /// The pattern in RE2's syntax (for ``Engine/re2``), compiled at its first match: most
  /// patterns are decided by a shortcut or never see a subject that needs RE2, and an RE2
  /// costs more to build than the rest of a predicate.
  private let re2: LazyRE2?

  /// True when the `.*literal.*` rewrite applied.
  var isLiteralSearch: Bool { literal != nil }

  /// The literal every match must contain, as text (empty for none).
  var requiredLiteral: String { required?.text ?? "" }

  /// Whether a search is answered by a literal and the byte after it (no regex runs).
  var isLiteralThenClass: Bool { classAfterRequired != nil }

  deinit { classAfterRequired?.deallocate() }

  /// `jit: false` keeps PCRE2's interpreter, the fallback where the JIT is unavailable (so
  /// tests can reach the depth limit, which only the interpreter honours). `engine` forces
  /// one engine (for tests comparing them); `allowRE2: false` skips building an RE2 (a
  /// pattern known only at evaluation time, compiled once and used once).
  init(
    _ pattern: String, caseInsensitive: Bool, limits: RegexLimits = RegexLimits(), jit: Bool = true,
    engine forced: Engine? = nil, allowRE2: Bool = true
  ) throws(RegexFailure) {
    self.pattern = pattern
    self.caseInsensitive = caseInsensitive
    self.limits = limits
    if pattern.isEmpty {
      code = nil
      literal = nil
      search = nil
      codeHandle = .none
      searchHandle = .none
      required = nil
      requiredStartsSearch = false
      classAfterRequired = nil
      re2 = nil
      engine = .backtrackingSafe
      return
    }
    code = try CompiledRegex(pattern, caseInsensitive: caseInsensitive, anchored: true, jit: jit)
    let tree = RegexParser.parse(RegexLiteral.translatingICUEscapes(pattern).0, caseInsensitive: caseInsensitive)
    var chosen: Engine = .backtrackingBounded
    if tree.isRegular && RegexAnalysis.isBacktrackingSafe(tree, search: false) { chosen = .backtrackingSafe }
    var re2: LazyRE2? = nil
    if tree.isRegular, chosen == .backtrackingBounded || forced == .re2, allowRE2 || forced == .re2,
      let text = RegexTranslation.re2(tree)
    {
      re2 = LazyRE2(text)
      if forced == nil { chosen = .re2 }
    }
    if let forced {
      guard forced != .re2 || re2?.compiled != nil else {
        throw RegexFailure(message: "no RE2 translation of \(pattern)")
      }
      chosen = forced
    }
    engine = chosen
    self.re2 = re2
    let requiredScalars = RegexAnalysis.requiredLiteral(tree)
    required =
      requiredScalars.isEmpty ? nil : StringNeedle(String(String.UnicodeScalarView(requiredScalars)), options: [])
    var startsSearch = false
    var classBytes: [Bool]? = nil
    if forced == nil, let text = RegexLiteral.dotStarLiteral(pattern),
      caseInsensitive == false || text.utf8.allSatisfy({ $0 < 0x80 })
    {
      literal = StringNeedle(text, options: caseInsensitive ? [.caseInsensitive] : [])
      search = nil
    } else {
      literal = nil
      // `.*R.*` as a search for R, when backtracking over R as a search is cheap.
      search =
        forced != nil
        ? nil
        : RegexLiteral.dotStarMiddle(pattern).flatMap { middle in
          let translated = RegexLiteral.translatingICUEscapes(middle).0
          let middleTree = RegexParser.parse(translated, caseInsensitive: caseInsensitive)
          guard RegexAnalysis.isBacktrackingSafe(middleTree, search: true) else { return nil }
          startsSearch = !requiredScalars.isEmpty && RegexAnalysis.startsWith(middleTree, requiredScalars)
          if let (literal, bytes) = RegexAnalysis.literalThenClass(middleTree),
            literal == Array(String(String.UnicodeScalarView(requiredScalars)).utf8)
          {
            classBytes = bytes
          }
          return try? CompiledRegex(middle, caseInsensitive: caseInsensitive, anchored: false, jit: jit)
        }
    }
    requiredStartsSearch = startsSearch
    classAfterRequired = classBytes.map { UnsafeBufferPointer(frozenCopyOf: $0) { $0 } }
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
    let rc: Int32 = withUTF8Bytes(subject) { s in matches(bytes: s) }
    if rc >= 0 { return true }  // 0: matched, ovector too small for the groups (we ask for none)
    if rc == PCRE2_ERROR_NOMATCH { return false }
    throw RegexFailure.matchFailure(rc, limits, subjectLength: subject.utf8.count, engine: engine)
  }

  /// ``matches(_:)`` on a subject's UTF-8 bytes (validated), with no `String` built.
  func matches(utf8 s: UnsafeBufferPointer<UInt8>) throws(RegexFailure) -> Bool {
    if codeHandle.isNone { return false }
    let rc = matches(bytes: s)
    if rc >= 0 { return true }
    if rc == PCRE2_ERROR_NOMATCH { return false }
    throw RegexFailure.matchFailure(rc, limits, subjectLength: s.count, engine: engine)
  }

  /// ``matches(_:)`` inside an evaluation: a backtracking match (``Engine/backtrackingBounded``)
  /// runs in tiers of growing match limits, each charged to `stepsLeft` before it runs, up to
  /// the configured match limit. Throws a failure with ``RegexFailure/exhaustedBudget`` when
  /// the budget cannot pay for the next tier. Other engines charge nothing here: their work
  /// is linear in the subject and the caller charges its bytes.
  func matches(_ subject: String, stepsLeft: inout Int) throws(RegexFailure) -> Bool {
    if codeHandle.isNone { return false }
    let rc: Int32 = withUTF8Bytes(subject) { s in withUnsafeMutablePointer(to: &stepsLeft) { matches(bytes: s, $0) } }
    if rc >= 0 { return true }
    if rc == PCRE2_ERROR_NOMATCH { return false }
    if rc == Self.budgetExhausted {
      throw RegexFailure(message: "the step budget ran out during backtracking", exhaustedBudget: true)
    }
    if rc == PCRE2_ERROR_MATCHLIMIT {
      throw RegexFailure(message: "regular expression match limit (\(limits.matchLimit)) exceeded")
    }
    throw RegexFailure.matchFailure(rc, limits, subjectLength: subject.utf8.count, engine: engine)
  }

  /// The result code a budgeted match returns when the budget ran out (below PCRE2's codes).
  private static let budgetExhausted: Int32 = Int32.min

  /// The steps of the budget (``Cost``) a PCRE2 match step is charged on `n` bytes: a step
  /// may rescan the subject (a lookahead `(?=.*b)`, a back reference, a repeat after a
  /// repeat), which measured about 1.4 ns a byte, so a step is charged as 16 bytes of
  /// string work: the whole default budget is then about 20 ms of the worst backtracking.
  @inline(__always)
  static func stepsPerMatchStep(_ n: Int) -> Int { 1 + n >> 4 }

  /// The match limit of a budgeted match's first tier on `n` bytes: about
  /// ``firstTierSteps`` of budget, and never below 32 match steps.
  static func firstTierLimit(_ n: Int) -> UInt32 { UInt32(max(32, firstTierSteps / stepsPerMatchStep(n))) }

  /// The budget the first tier of a backtracking match is worth. Each later tier has 8
  /// times the limit of the one before.
  static let firstTierSteps = 1 << 14

  /// A backtracking match in tiers: the limit starts at ``firstTierLimit(_:)`` and grows 8
  /// times a tier up to the configured limit; a tier's worst case (limit × steps per match
  /// step) is charged before it runs, and a tier the budget cannot pay in full gets the
  /// limit it can pay, as the last. What a match spent is at most 8/7 of its last tier, so
  /// the charge follows the work actually done.
  private func tiered(_ s: UnsafeBufferPointer<UInt8>, _ stepsLeft: UnsafeMutablePointer<Int>) -> Int32 {
    let perStep = Self.stepsPerMatchStep(s.count)
    var limit = min(Self.firstTierLimit(s.count), limits.matchLimit)
    var tierLimits = limits
    while true {
      let affordable = stepsLeft.pointee / perStep
      let last = affordable < Int(limit)
      if last {
        if affordable <= 0 { return Self.budgetExhausted }
        limit = UInt32(affordable)
      }
      stepsLeft.pointee -= Int(limit) * perStep
      tierLimits.matchLimit = limit
      let rc = codeHandle.match(s, tierLimits)
      if rc != PCRE2_ERROR_MATCHLIMIT { return rc }
      if last { return Self.budgetExhausted }
      if limit == limits.matchLimit { return rc }
      limit = UInt32(min(UInt64(limit) * 8, UInt64(limits.matchLimit)))
    }
  }

  /// PCRE2's result code for the whole of `s`: >= 0 matched, NOMATCH, or an error. With
  /// `stepsLeft`, backtracking runs in budgeted tiers (``tiered(_:_:)``); without, under
  /// the scaled limit.
  private func matches(bytes s: UnsafeBufferPointer<UInt8>, _ stepsLeft: UnsafeMutablePointer<Int>? = nil) -> Int32 {
    var start = 0
    if let literal {
      if let answer = literalMatch(s, literal) { return answer ? 1 : PCRE2_ERROR_NOMATCH }
    } else if let required {
      guard let offset = required.firstOffset(in: s) else { return PCRE2_ERROR_NOMATCH }
      if requiredStartsSearch { start = offset }
    }
    if !searchHandle.isNone && !ByteOps.hasLineTerminator(s) {
      if let classAfterRequired, let required {
        return Self.literalThenClass(s, required, classAfterRequired, from: start) ? 1 : PCRE2_ERROR_NOMATCH
      }
      return searchHandle.match(s, limits, from: start)
    }
    switch engine {
    case .backtrackingSafe: return codeHandle.match(s, limits)
    case .re2:
      // RE2 refusing the translation (its memory budget) leaves the bounded backtracking.
      guard let compiled = re2!.compiled else { return bounded(s, stepsLeft) }
      return compiled.fullMatch(s) ? 1 : PCRE2_ERROR_NOMATCH
    case .backtrackingBounded: return bounded(s, stepsLeft)
    }
  }

  @inline(__always)
  private func bounded(_ s: UnsafeBufferPointer<UInt8>, _ stepsLeft: UnsafeMutablePointer<Int>?) -> Int32 {
    if let stepsLeft { return tiered(s, stepsLeft) }
    return codeHandle.match(s, Self.scaledLimits(limits, s.count))
  }

  /// Whether the occurrence of `literal` at `start`, or a later one, is followed by a byte
  /// of the ASCII class: the search `literal[class]+` without a regex.
  private static func literalThenClass(
    _ s: UnsafeBufferPointer<UInt8>, _ literal: StringNeedle, _ bytes: UnsafeBufferPointer<Bool>, from start: Int
  ) -> Bool {
    // `start` is an occurrence (the prefilter found it); later ones are searched for.
    let m = literal.text.utf8.count
    var at = start
    while true {
      let after = at + m
      if after < s.count, s[after] < 0x80, bytes[Int(s[after])] { return true }
      guard at + 1 < s.count, let next = literal.firstOffset(in: UnsafeBufferPointer(rebasing: s[(at + 1)...])) else {
        return false
      }
      at += 1 + next
    }
  }

  /// The limits of a backtracking match over `length` bytes: PCRE2's match limit counts
  /// backtracking steps, and one step may scan the whole subject, so the limit shrinks as
  /// the subject grows, keeping steps × length within about 64 MiB of work.
  static func scaledLimits(_ limits: RegexLimits, _ length: Int) -> RegexLimits {
    var scaled = limits
    scaled.matchLimit = scaledMatchLimit(limits.matchLimit, length)
    return scaled
  }

  /// ``scaledLimits(_:_:)``'s match limit: the configured one, at most 2^26 / length and
  /// at least 1,000.
  static func scaledMatchLimit(_ limit: UInt32, _ length: Int) -> UInt32 {
    let budget = (1 << 26) / max(length, 1)
    return min(limit, UInt32(clamping: max(1_000, budget)))
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

/// An RE2 built on first use, once, by whichever thread gets there first (a thread that
/// loses the race frees its copy).
final class LazyRE2: Sendable {
  let text: String
  /// 0 not built yet, 1 RE2 refused the pattern, else an unmanaged `RE2Regex`.
  private let slot = Atomic<UInt>(0)

  init(_ text: String) { self.text = text }

  /// The RE2, built now if this is the first call; nil when RE2 refuses the pattern.
  var compiled: RE2Regex? {
    var bits = slot.load(ordering: .acquiring)
    if bits == 0 { bits = build() }
    guard bits != 1 else { return nil }
    return Unmanaged<RE2Regex>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
  }

  @inline(never)
  private func build() -> UInt {
    let made = RE2Regex(text).map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 1
    let (exchanged, current) = slot.compareExchange(expected: 0, desired: made, ordering: .acquiringAndReleasing)
    if exchanged { return made }
    if made != 1 { Unmanaged<RE2Regex>.fromOpaque(UnsafeRawPointer(bitPattern: made)!).release() }
    return current
  }

  deinit {
    let bits = slot.load(ordering: .acquiring)
    if bits > 1 { Unmanaged<RE2Regex>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
  }
}

/// Owns a compiled RE2. Immutable after init; RE2 matches from any number of threads.
final class RE2Regex: @unchecked Sendable {
  private let re: OpaquePointer

  /// RE2's memory for the pattern and its lazily built DFA.
  static let maxMemory = 8 << 20

  init?(_ pattern: String) {
    guard
      let re = withUTF8Bytes(
        pattern,
        { p in
          p.baseAddress.flatMap { base in
            base.withMemoryRebound(to: CChar.self, capacity: p.count) { sift_re2_compile($0, p.count, Self.maxMemory) }
          }
        })
    else { return nil }
    self.re = re
  }

  deinit { sift_re2_free(re) }

  @inline(__always)
  func fullMatch(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    let base = s.baseAddress ?? RegexThreadState.emptySubject
    return base.withMemoryRebound(to: CChar.self, capacity: max(s.count, 1)) {
      sift_re2_full_match(re, $0, s.count) == 1
    }
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
    /// `from`: the offset where an unanchored search may start (a match cannot start
    /// before it).
    @inline(__always)
    func match(_ s: UnsafeBufferPointer<UInt8>, _ limits: RegexLimits, from start: Int = 0) -> Int32 {
      let code = OpaquePointer(bitPattern: address)
      let state = RegexThreadState.current(limits)
      let subject = s.baseAddress ?? RegexThreadState.emptySubject
      if jit {
        return pcre2_jit_match_8(code, subject, s.count, start, 0, state.pointee.matchData, state.pointee.matchContext)
      }
      return pcre2_match_8(
        code, subject, s.count, start, UInt32(PCRE2_NO_UTF_CHECK), state.pointee.matchData,
        state.pointee.matchContext)
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
  static func matchFailure(
    _ rc: Int32, _ limits: RegexLimits, subjectLength: Int = 0, engine: RegexPattern.Engine = .backtrackingSafe
  )
    -> RegexFailure
  {
    switch rc {
    case PCRE2_ERROR_MATCHLIMIT where engine == .backtrackingBounded:
      let scaled = RegexPattern.scaledMatchLimit(limits.matchLimit, subjectLength)
      return RegexFailure(
        message: "regular expression match limit (\(scaled) for a subject of \(subjectLength) bytes) exceeded")
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
