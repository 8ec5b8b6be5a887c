// Per-thread PCRE2 matching state: a match data block (one ovector pair: MATCHES only needs
// yes/no), a match context carrying the limits, and a JIT stack. Created the first time a thread
// matches, kept in a pthread key, freed when the thread exits. Compiled code is shared between
// threads; these blocks must not be, and having one per thread means matching never allocates.

import CPCRE2

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

struct RegexThreadState {
  var matchData: OpaquePointer
  var matchContext: OpaquePointer
  var jitStack: OpaquePointer?
  var matchLimit: UInt32
  var depthLimit: UInt32

  /// The JIT stack starts at 32 KiB and may grow to this size.
  static let jitStackMaximum = 4 << 20

  /// A valid pointer for empty subjects and patterns (PCRE2 rejects NULL even with length 0).
  nonisolated(unsafe) static let emptySubject: UnsafePointer<UInt8> = {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    p.initialize(to: 0)
    return UnsafePointer(p)
  }()

  /// The calling thread's state, with `limits` installed in its match context.
  @inline(__always)
  static func current(_ limits: RegexLimits) -> UnsafeMutablePointer<RegexThreadState> {
    let state: UnsafeMutablePointer<RegexThreadState>
    if let raw = pthread_getspecific(regexThreadKey) {
      state = raw.assumingMemoryBound(to: RegexThreadState.self)
    } else {
      state = create()
    }
    if state.pointee.matchLimit != limits.matchLimit {
      pcre2_set_match_limit_8(state.pointee.matchContext, limits.matchLimit)
      state.pointee.matchLimit = limits.matchLimit
    }
    if state.pointee.depthLimit != limits.depthLimit {
      pcre2_set_depth_limit_8(state.pointee.matchContext, limits.depthLimit)
      state.pointee.depthLimit = limits.depthLimit
    }
    return state
  }

  @inline(never)
  private static func create() -> UnsafeMutablePointer<RegexThreadState> {
    guard let matchData = pcre2_match_data_create_8(1, nil),
      let matchContext = pcre2_match_context_create_8(nil)
    else { fatalError("PCRE2: out of memory creating match data") }
    let jitStack = pcre2_jit_stack_create_8(32 << 10, jitStackMaximum, nil)
    if let jitStack {
      pcre2_jit_stack_assign_8(matchContext, nil, UnsafeMutableRawPointer(jitStack))
    }
    let defaults = RegexLimits()
    pcre2_set_match_limit_8(matchContext, defaults.matchLimit)
    pcre2_set_depth_limit_8(matchContext, defaults.depthLimit)
    let state = UnsafeMutablePointer<RegexThreadState>.allocate(capacity: 1)
    state.initialize(
      to: RegexThreadState(
        matchData: matchData, matchContext: matchContext, jitStack: jitStack,
        matchLimit: defaults.matchLimit, depthLimit: defaults.depthLimit))
    pthread_setspecific(regexThreadKey, state)
    return state
  }

  /// The pthread key destructor: frees a thread's state when it exits.
  fileprivate static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { raw in
    guard let raw else { return }
    let state = raw.assumingMemoryBound(to: RegexThreadState.self)
    pcre2_match_data_free_8(state.pointee.matchData)
    pcre2_match_context_free_8(state.pointee.matchContext)
    if let jitStack = state.pointee.jitStack { pcre2_jit_stack_free_8(jitStack) }
    state.deinitialize(count: 1)
    state.deallocate()
  }
}

/// The pthread key under which each thread keeps its RegexThreadState.
private let regexThreadKey: pthread_key_t = {
  var key = pthread_key_t()
  let rc = pthread_key_create(&key, RegexThreadState.destroy)
  precondition(rc == 0, "pthread_key_create failed (\(rc))")
  return key
}()
