import CSiftJSON
import Sift
import SiftCommandLine
import Synchronization

// The one file of the C interface that talks to the engine: compiling (PredicateSyntax,
// SiftPredicate), deciding JSON (LineEvaluator, the simdjson path of `sift filter`), JSON
// values (SiftValue(json:)) and sets (SiftPredicateSet). Everything else in SiftC deals in
// bytes, handles and error records, so a change of the engine's internals touches only this.

/// Why a call failed, before it becomes an error object.
struct Failure: Error {
  var status: Status
  /// For evaluation errors the EvaluationError kind; otherwise the status's word.
  var kind: StaticString
  var message: String
  /// A UTF-8 byte offset: in the predicate's text (syntax and evaluation errors) or in the JSON.
  var offset: Int?
  /// Renders the diagnostic with its caret, when there is one: only when an error object
  /// is made (a caller that passes no `sift_error **` does not pay for it).
  var render: (@Sendable () -> String)?

  init(
    _ status: Status, _ message: String, offset: Int? = nil, kind: StaticString? = nil,
    render: (@Sendable () -> String)? = nil
  ) {
    self.status = status
    self.kind = kind ?? status.word
    self.message = message
    self.offset = offset
    self.render = render
  }
}

/// What one evaluation came to.
enum Decision {
  case match
  case noMatch
  case failure(Failure)
}

/// The compile flags of sift.h.
struct CompileFlags: OptionSet {
  let rawValue: UInt32
  static let apns = CompileFlags(rawValue: 0x1)
  static let taggedValues = CompileFlags(rawValue: 0x2)
  static let andBindsTighter = CompileFlags(rawValue: 0x4)
  static let all: CompileFlags = [.apns, .taggedValues, .andBindsTighter]
}

/// A compiled predicate as the C interface holds it: immutable, shared by every thread.
final class CompiledPredicate: Sendable {
  let syntax: PredicateSyntax
  let format: String
  let apns: Bool
  let variables: [String: SiftValue]
  /// Compiled without a schema: for strings, sets, and for naming an error's kind.
  let predicate: SiftPredicate
  let canonical: [UInt8]
  /// `ReadKeys.topLevel` as JSON text, `null` when the whole document is read.
  let keysJSON: [UInt8]
  /// Idle deciders. One per thread that evaluated concurrently; each holds a simdjson
  /// parser, made at the first JSON evaluation (a predicate held only for a set or for
  /// strings never makes one).
  private let idle = Mutex<[Decider]>([])

  private init(
    syntax: PredicateSyntax, format: String, apns: Bool, variables: [String: SiftValue], predicate: SiftPredicate
  ) {
    self.syntax = syntax
    self.format = format
    self.apns = apns
    self.variables = variables
    self.predicate = predicate
    canonical = Array(syntax.predicateFormat.utf8)
    let keys = apns ? nil : ReadKeys.topLevel(syntax)
    keysJSON = Array((keys.map { SiftValue.array($0.map(SiftValue.string)) } ?? .null).jsonText.utf8)
  }

  /// Parses and compiles; `arguments` and `variables` are JSON text (nil: none).
  static func compile(
    format: UnsafeRawBufferPointer, arguments: UnsafeRawBufferPointer?, variables: UnsafeRawBufferPointer?,
    flags: CompileFlags
  ) throws(Failure) -> CompiledPredicate {
    let (syntax, text) = try parse(format: format, arguments: arguments, flags: flags)
    let tagged = flags.contains(.taggedValues)
    var vars: [String: SiftValue] = [:]
    if let variables {
      // The object itself names the variables; only its values are tagged.
      guard case .dictionary(let values) = try json(variables, what: "the variables", tagged: false) else {
        throw Failure(.json, "the variables must be a JSON object")
      }
      vars = values
      if tagged {
        for (name, value) in values { vars[name] = try TaggedValues.untag(value, what: "the variables") }
      }
    }
    do throws(PredicateSyntaxError) {
      let plain = try SiftPredicate(syntax: syntax, format: text, options: CompileOptions())
      return CompiledPredicate(
        syntax: syntax, format: text, apns: flags.contains(.apns), variables: vars, predicate: plain)
    } catch {
      throw Failure(.syntax, error.error.message, offset: error.error.range.start, render: { error.description })
    }
  }

  /// Parses `format` with its JSON `arguments` (nil: none) into a tree, and its text.
  static func parse(format: UnsafeRawBufferPointer, arguments: UnsafeRawBufferPointer?, flags: CompileFlags)
    throws(Failure) -> (PredicateSyntax, String)
  {
    let formatBytes = Array(format.uint8)
    if let bad = UTF8Check.firstInvalidByte(format) {
      throw Failure(.utf8, "the predicate is not valid UTF-8 (byte \(bad))", offset: bad)
    }
    var args: [SiftValue] = []
    if let arguments {
      guard case .array(let values) = try json(arguments, what: "the arguments", tagged: flags.contains(.taggedValues))
      else {
        throw Failure(.json, "the arguments must be a JSON array")
      }
      args = values
    }
    let options = ParseOptions(
      compoundPrecedence: flags.contains(.andBindsTighter) ? .andBindsTighter : .orBindsTighter)
    do throws(PredicateSyntaxError) {
      let syntax = try PredicateSyntax(parsingUTF8: formatBytes, arguments: args, options: options)
      return (syntax, String(decoding: formatBytes, as: UTF8.self))
    } catch {
      throw Failure(.syntax, error.error.message, offset: error.error.range.start, render: { error.description })
    }
  }

  /// JSON text as a value; with `tagged`, `{"$date": n}` and `{"$dict": {…}}` are read.
  private static func json(_ bytes: UnsafeRawBufferPointer, what: String, tagged: Bool) throws(Failure) -> SiftValue {
    let value: SiftValue
    do throws(JSONError) {
      value = try SiftValue(json: bytes.uint8, maxDepth: LineEvaluatorLimits.maxDepth)
    } catch {
      throw Failure(.json, "\(what) are not valid JSON: \(error.message)", offset: error.offset)
    }
    return tagged ? try TaggedValues.untag(value, what: what) : value
  }

  // MARK: Evaluation

  /// One JSON document through the simdjson path of `sift filter`.
  func evaluate(document: UnsafeRawBufferPointer) -> Decision {
    withDecider { decider in
      switch decider.decide(document, readable: nil) {
      case .match: return .match
      case .noMatch: return .noMatch
      case .error(let message, let offset):
        return .failure(explain(document, lineMessage: nil, lineOffset: offset, fallback: message))
      }
    }
  }

  /// A string as `SELF`; no JSON is read.
  func evaluate(string: String) -> Decision {
    do throws(EvaluationError) {
      return try predicate.evaluate(with: string, variables: variables) ? .match : .noMatch
    } catch {
      return .failure(evaluationFailure(error))
    }
  }

  /// Every line of a JSON Lines buffer.
  func evaluateLines(_ buffer: UnsafeRawBufferPointer, spans: Bool, matched: Bool) -> LinesResult {
    var result = LinesResult.Builder(spans: spans, matched: matched)
    withDecider { decider in
      LineSplitter.forEachLine(buffer) { start, length in
        let line = UnsafeRawBufferPointer(rebasing: buffer[start..<start + length])
        let outcome = decider.decide(line, readable: buffer.count - start)
        switch outcome {
        case .match: result.append(.match, start: start, line: line)
        case .noMatch: result.append(.noMatch, start: start, line: line)
        case .error(let message, let offset):
          result.append(.error, start: start, line: line)
          result.appendError(explain(line, lineMessage: message, lineOffset: offset, fallback: message))
        }
      }
    }
    return result.finish()
  }

  /// A decider of this predicate for the length of `body`: an idle one, or a new one.
  private func withDecider<R>(_ body: (Decider) -> R) -> R {
    let decider = idle.withLock { $0.popLast() } ?? Decider(self)
    defer { idle.withLock { $0.append(decider) } }
    return body(decider)
  }

  /// The error a line or document failed with, worded as the engine words it, with its
  /// kind: the decider reports a message only, so the failing input goes again through
  /// Sift's own JSON reader and the schema-free predicate (the rare path; the common one
  /// stays as fast as `sift filter`). `lineMessage` is the decider's message for a line
  /// (kept as `sift filter --decisions` writes it), nil for a document.
  private func explain(_ bytes: UnsafeRawBufferPointer, lineMessage: String?, lineOffset: Int?, fallback: String)
    -> Failure
  {
    let value: SiftValue
    do throws(JSONError) {
      value = try SiftValue(json: bytes.uint8, maxDepth: LineEvaluatorLimits.maxDepth)
    } catch {
      let message = lineMessage ?? "not valid JSON: \(error.message)"
      return Failure(.json, message, offset: lineMessage == nil ? error.offset : lineOffset)
    }
    do throws(EvaluationError) {
      _ = try evaluatePlain(value)
    } catch {
      return evaluationFailure(error)
    }
    // The decider failed where the plain predicate does not: its own compile of the
    // predicate without a schema, reported as LineEvaluator reports it.
    return Failure(.evaluation, fallback, kind: "invalidArgument")
  }

  /// What LineEvaluator's slow path does with a whole value.
  private func evaluatePlain(_ value: SiftValue) throws(EvaluationError) -> Bool {
    guard apns else { return try predicate.evaluate(with: value, variables: variables) }
    var criteria = SiftValue.null
    if case .dictionary(let top) = value, case .dictionary(let aps)? = top["aps"] {
      criteria = aps["filter-criteria"] ?? .null
    }
    if case .string(let text) = criteria { return try predicate.evaluate(with: text, variables: variables) }
    return try predicate.evaluate(with: criteria, variables: variables)
  }

  private func evaluationFailure(_ error: EvaluationError) -> Failure {
    let format = self.format
    return Failure(
      .evaluation, error.message, offset: error.range.start, kind: Status.word(of: error.kind),
      render: { error.render(source: format) })
  }

  // MARK: Identity

  func isEqual(to other: CompiledPredicate) -> Bool {
    syntax == other.syntax && apns == other.apns && variables == other.variables
  }

  var hash: UInt64 {
    var hasher = Hasher()
    hasher.combine(syntax)
    hasher.combine(apns)
    hasher.combine(variables)
    return UInt64(bitPattern: Int64(hasher.finalize()))
  }

  /// Fit for a set: a set evaluates documents with no variables and no APNs rule.
  var fitsASet: Bool { !apns && variables.isEmpty }
}

/// The limits LineEvaluator applies, repeated where this layer reads JSON itself.
enum LineEvaluatorLimits {
  static let maxDepth = 512
}

/// One LineEvaluator (it parses with its own simdjson parser, so one thread at a time) and
/// the padded copy a caller's document is decided in.
final class Decider: @unchecked Sendable {
  // @unchecked: a decider is used by one thread at a time; CompiledPredicate hands it out
  // from under a lock and takes it back after the call.
  private let evaluator: LineEvaluator?
  private let failure: String?
  private var scratch = PaddedCopy()

  init(_ predicate: CompiledPredicate) {
    do throws(PredicateSyntaxError) {
      evaluator = try LineEvaluator(
        syntax: predicate.syntax, format: predicate.format, apns: predicate.apns, variables: predicate.variables)
      failure = nil
    } catch {
      // It compiled once already (CompiledPredicate.compile); kept rather than trapped.
      evaluator = nil
      failure = error.error.message
    }
  }

  /// Decides `bytes`; `readable` is how many bytes may be read from its start (nil: only
  /// its own, so it is copied into padded memory first).
  func decide(_ bytes: UnsafeRawBufferPointer, readable: Int?) -> LineEvaluator.Outcome {
    guard let evaluator else { return .error(message: failure ?? "the predicate does not compile", offset: nil) }
    let padding = Int(SIFT_JSON_PADDING)
    if let readable, readable - bytes.count >= padding, let base = bytes.baseAddress {
      return evaluator.decide(
        UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count), readable: readable)
    }
    let (copy, readable) = scratch.copy(bytes)
    return evaluator.decide(copy, readable: readable)
  }
}

/// A set of predicates under ids of one type.
final class PredicateSetObject: Sendable {
  enum Storage: Sendable {
    case numbers(SiftPredicateSet<UInt64>)
    case bytes(SiftPredicateSet<[UInt8]>)
  }

  /// The ids of one match.
  enum IDs {
    case numbers([UInt64])
    case bytes([[UInt8]])
  }

  let storage: Storage
  /// Idle matchers (SetJSONMatcher, as `sift route` matches): one per thread that matched
  /// concurrently, each with its own simdjson parser, made at the first match.
  private let idle = Mutex<[SetMatcher]>([])

  init(bytes: Bool) { storage = bytes ? .bytes(SiftPredicateSet()) : .numbers(SiftPredicateSet()) }

  var isBytes: Bool {
    if case .bytes = storage { return true }
    return false
  }

  func insert(_ predicate: CompiledPredicate, number: UInt64) {
    if case .numbers(let set) = storage { set.insert(predicate.predicate, id: number) }
  }

  func insert(_ predicate: CompiledPredicate, bytes: [UInt8]) {
    if case .bytes(let set) = storage { set.insert(predicate.predicate, id: bytes) }
  }

  /// Parses `format` and adds it under the id without compiling it alone: a predicate of a
  /// shape the set already holds is kept as its constants (`insert(syntax:format:id:)`).
  func insert(format: UnsafeRawBufferPointer, arguments: UnsafeRawBufferPointer?, flags: CompileFlags, id: ID)
    throws(Failure)
  {
    let (syntax, text) = try CompiledPredicate.parse(format: format, arguments: arguments, flags: flags)
    let outcome: Result<Void, PredicateSyntaxError>
    switch (storage, id) {
    case (.numbers(let set), .number(let number)):
      outcome = Result { () throws(PredicateSyntaxError) in try set.insert(syntax: syntax, format: text, id: number) }
    case (.bytes(let set), .bytes(let bytes)):
      outcome = Result { () throws(PredicateSyntaxError) in try set.insert(syntax: syntax, format: text, id: bytes) }
    case (.numbers, .bytes): throw Failure(.argument, "the set has number ids")
    case (.bytes, .number): throw Failure(.argument, "the set has byte ids")
    }
    if case .failure(let error) = outcome {
      throw Failure(.syntax, error.error.message, offset: error.error.range.start, render: { error.description })
    }
  }

  /// An id of either type.
  enum ID {
    case number(UInt64)
    case bytes([UInt8])
  }

  /// Adds every pair as one update (`insert(contentsOf:)`): a concurrent match sees all of
  /// them or none, and the index is settled once.
  func insert(_ predicates: [CompiledPredicate], numbers: UnsafeBufferPointer<UInt64>) {
    if case .numbers(let set) = storage {
      set.insert(contentsOf: zip(numbers, predicates).lazy.map { (id: $0, predicate: $1.predicate) })
    }
  }

  func remove(number: UInt64) -> Bool {
    if case .numbers(let set) = storage { return set.remove(id: number) }
    return false
  }

  func remove(bytes: [UInt8]) -> Bool {
    if case .bytes(let set) = storage { return set.remove(id: bytes) }
    return false
  }

  var count: Int {
    switch storage {
    case .numbers(let set): set.count
    case .bytes(let set): set.count
    }
  }

  /// The ids whose predicates match the JSON document, read on simdjson's DOM as `sift
  /// route` reads it (SetJSONMatcher); Sift's own reader words a JSON error.
  func match(_ document: UnsafeRawBufferPointer) throws(Failure) -> IDs {
    try withMatcher { matcher throws(Failure) in try matcher.match(document) }
  }

  /// The number ids of the predicates that match the JSON document, the first `capacity`
  /// written to `ids`; returns how many matched. SIFT_ID_NUMBER sets only.
  func matchNumbers(_ document: UnsafeRawBufferPointer, into ids: UnsafeMutablePointer<UInt64>?, capacity: Int)
    throws(Failure) -> Int
  {
    try withMatcher { matcher throws(Failure) in try matcher.matchNumbers(document, into: ids, capacity: capacity) }
  }

  /// An idle matcher, or a new one, for the length of `body`.
  private func withMatcher<R>(_ body: (SetMatcher) throws(Failure) -> R) throws(Failure) -> R {
    let matcher = idle.withLock { $0.popLast() } ?? SetMatcher(storage)
    defer { idle.withLock { $0.append(matcher) } }
    return try body(matcher)
  }
}

/// One SetJSONMatcher of a set (it parses with its own simdjson parser, so one thread at a
/// time) and the padded copy a caller's document is matched in.
final class SetMatcher: @unchecked Sendable {
  // @unchecked: used by one thread at a time; PredicateSetObject hands it out from under a
  // lock and takes it back after the call.
  private enum Matcher {
    case numbers(SetJSONMatcher<UInt64>)
    case bytes(SetJSONMatcher<[UInt8]>)
  }

  private let matcher: Matcher
  // Unchecked: one thread at a time (above).
  @exclusivity(unchecked) private var scratch: PaddedCopy

  init(_ storage: PredicateSetObject.Storage) {
    switch storage {
    case .numbers(let set): matcher = .numbers(SetJSONMatcher(set))
    case .bytes(let set): matcher = .bytes(SetJSONMatcher(set))
    }
    scratch = PaddedCopy()
  }

  func match(_ document: UnsafeRawBufferPointer) throws(Failure) -> PredicateSetObject.IDs {
    let (bytes, readable) = scratch.copy(document)
    switch matcher {
    case .numbers(let m):
      switch m.matches(bytes, readable: readable) {
      case .matched(let ids): return .numbers(ids)
      case .invalid(let error): throw Self.notJSON(error)
      }
    case .bytes(let m):
      switch m.matches(bytes, readable: readable) {
      case .matched(let ids): return .bytes(ids)
      case .invalid(let error): throw Self.notJSON(error)
      }
    }
  }

  /// ``PredicateSetObject/matchNumbers(_:into:capacity:)``: the ids go from the set's table
  /// straight into the caller's buffer. Building an array of ids first, through generic code
  /// not specialised for `UInt64`, was about a tenth of a match with few candidates.
  func matchNumbers(_ document: UnsafeRawBufferPointer, into ids: UnsafeMutablePointer<UInt64>?, capacity: Int)
    throws(Failure) -> Int
  {
    guard case .numbers(let m) = matcher else { throw Failure(.argument, "the set has byte ids: use sift_set_match") }
    let (bytes, readable) = scratch.copy(document)
    do throws(JSONError) {
      return try m.withMatches(bytes, readable: readable) { slots, table in
        if let ids {
          for (i, slot) in slots.prefix(capacity).enumerated() { ids[i] = table[Int(slot)] }
        }
        return slots.count
      }
    } catch {
      throw Self.notJSON(error)
    }
  }

  /// The failure of a document Sift's own reader refused, at the byte it names.
  private static func notJSON(_ error: JSONError) -> Failure {
    Failure(.json, "not valid JSON: \(error.message)", offset: error.offset)
  }
}

/// A buffer that a caller's document is copied into with simdjson's padding after it (the
/// library never reads past the caller's own bytes).
struct PaddedCopy: ~Copyable {
  private var storage: UnsafeMutableRawBufferPointer = .allocate(byteCount: 4096, alignment: 64)

  deinit { storage.deallocate() }

  /// `bytes` copied in, and how many bytes may be read from the copy's start.
  mutating func copy(_ bytes: UnsafeRawBufferPointer) -> (UnsafeBufferPointer<UInt8>, readable: Int) {
    let padding = Int(SIFT_JSON_PADDING)
    if storage.count < bytes.count + padding {
      storage.deallocate()
      storage = .allocate(byteCount: bytes.count + padding, alignment: 64)
    }
    if bytes.count > 0, let source = bytes.baseAddress {
      storage.baseAddress!.copyMemory(from: source, byteCount: bytes.count)
    }
    return (
      UnsafeBufferPointer(start: storage.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count),
      storage.count
    )
  }
}

/// `SIFT_COMPILE_TAGGED_VALUES`: the JSON a language binding writes for values JSON has no
/// form for. Every object is tagged, so a dictionary can never be mistaken for a date.
enum TaggedValues {
  /// Seconds from 1970-01-01 to 2001-01-01 (Foundation's reference date), both UTC.
  static let unixToReference = 978_307_200.0

  static func untag(_ value: SiftValue, what: String) throws(Failure) -> SiftValue {
    switch value {
    case .array(let elements):
      var out: [SiftValue] = []
      out.reserveCapacity(elements.count)
      for element in elements { out.append(try untag(element, what: what)) }
      return .array(out)
    case .dictionary(let members):
      if members.count == 1, let date = members["$date"] {
        switch date {
        case .int(let seconds): return .date(secondsSinceReferenceDate: Double(seconds) - unixToReference)
        case .double(let seconds): return .date(secondsSinceReferenceDate: seconds - unixToReference)
        default: throw Failure(.json, "in \(what), \"$date\" must be a number of seconds since 1970")
        }
      }
      if members.count == 1, case .dictionary(let inner)? = members["$dict"] {
        var out: [String: SiftValue] = [:]
        out.reserveCapacity(inner.count)
        for (key, element) in inner { out[key] = try untag(element, what: what) }
        return .dictionary(out)
      }
      throw Failure(
        .json, "in \(what), an object must be {\"$date\": seconds} or {\"$dict\": {…}} (SIFT_COMPILE_TAGGED_VALUES)")
    case .null, .bool, .int, .double, .string, .date:
      return value
    }
  }
}
