import CSiftJSON
import Synchronization

/// A compiled predicate: parse and compile once, evaluate many times, from any thread.
///
/// ```swift
/// let allowed = try SiftPredicate(format: "SELF IN %@", arguments: [["work", "family"]])
/// allowed.matches("work")   // true
/// ```
public struct SiftPredicate: Sendable, CustomStringConvertible {
  /// Everything a predicate holds, behind one reference: copying a predicate (into a
  /// notification filter, an app context, a closure) is one retain, not one per field.
  private final class Storage: Sendable {
    let format: String
    let arguments: [SiftValue]
    let substitutions: [String: SiftValue]
    let options: CompileOptions
    let syntax: PredicateSyntax
    let program: Program
    /// How an `Encodable` input is encoded for this predicate, worked out at its first
    /// such evaluation (most predicates never see one, so compiling stays one program).
    let encoding = Mutex<EncodingPlan?>(nil)
    /// ``batchSplit``: nil until worked out, then the split or none.
    let batchSplit = Mutex<BatchSplit??>(nil)
    /// `options.layout` without a reference count: the options keep it alive, and a typed
    /// evaluation reads it once per call.
    let layoutRef: Unmanaged<FieldLayout>?

    init(
      format: String, arguments: [SiftValue], substitutions: [String: SiftValue], options: CompileOptions,
      syntax: PredicateSyntax, program: Program
    ) {
      self.format = format
      self.arguments = arguments
      self.substitutions = substitutions
      self.options = options
      self.syntax = syntax
      self.program = program
      layoutRef = options.layout.map { Unmanaged.passUnretained($0) }
    }
  }

  private let storage: Storage

  /// The format string as given.
  public var format: String { storage.format }
  /// The arguments bound to its specifiers.
  public var arguments: [SiftValue] { storage.arguments }
  /// Variables substituted with ``withSubstitutionVariables(_:)``.
  public var substitutions: [String: SiftValue] { storage.substitutions }
  /// The options it was compiled with.
  public var options: CompileOptions { storage.options }
  /// The syntax tree (arguments and substitutions bound).
  public var syntax: PredicateSyntax { storage.syntax }
  var program: Program { storage.program }
  /// The plan for `Encodable` inputs (``EncodingPlan``), made once.
  var encodingPlan: EncodingPlan {
    storage.encoding.withLock { plan in
      if let plan { return plan }
      let made = EncodingPlan(self)
      plan = made
      return made
    }
  }

  /// The two parts the batch tier runs a top-level AND in when the whole is not a test
  /// chain (``BatchSplit``), compiled at the predicate's first batch that needs them.
  var batchSplit: BatchSplit? {
    storage.batchSplit.withLock { state in
      if let state { return state }
      let made = BatchSplit.make(storage.syntax, options: storage.options)
      state = .some(made)
      return made
    }
  }

  /// The typed layout this predicate was compiled for, if any (read without copying the
  /// options).
  var layout: FieldLayout? { storage.options.layout }
  /// The same, unretained (valid as long as this predicate).
  var layoutRef: Unmanaged<FieldLayout>? { storage.layoutRef }

  /// Parses and compiles `format`, binding `arguments` to its `%@`, `%K` and numeric
  /// specifiers. Syntax and compile errors (an invalid constant `MATCHES` pattern, a key
  /// missing from the schema) throw a ``PredicateSyntaxError`` with a rendered diagnostic.
  public init(format: String, arguments: [SiftValue] = [], options: CompileOptions = CompileOptions())
    throws(PredicateSyntaxError)
  {
    try self.init(format: format, arguments: arguments, substitutions: [:], options: options)
  }

  init(format: String, arguments: [SiftValue], substitutions: [String: SiftValue], options: CompileOptions)
    throws(PredicateSyntaxError)
  {
    var syntax = try PredicateSyntax(parsing: format, arguments: arguments, options: options.parse)
    if !substitutions.isEmpty { syntax = syntax.substitutingVariables(substitutions) }
    let program: Program
    do {
      program = try Compiler.compile(
        syntax, slots: options.slotResolver, functions: options.functions, limits: options.limits)
    } catch {
      throw PredicateSyntaxError(error, source: format)
    }
    storage = Storage(
      format: format, arguments: arguments, substitutions: substitutions, options: options, syntax: syntax,
      program: program)
  }

  /// Compiles a syntax tree already parsed (or built), its arguments bound: the tree a
  /// service parsed once to inspect, compiled without parsing its text again. ``format`` is
  /// then the tree's canonical text.
  public init(syntax: PredicateSyntax, options: CompileOptions = CompileOptions()) throws(PredicateSyntaxError) {
    try self.init(syntax: syntax, format: nil, options: options)
  }

  /// ``init(syntax:options:)`` with the text the tree was parsed from, for diagnostics
  /// (nil: the tree's canonical text).
  package init(syntax: PredicateSyntax, format: String?, options: CompileOptions) throws(PredicateSyntaxError) {
    try self.init(syntax: syntax, format: format, arguments: [], substitutions: [:], options: options)
  }

  init(
    syntax: PredicateSyntax, format: String?, arguments: [SiftValue], substitutions: [String: SiftValue],
    options: CompileOptions
  ) throws(PredicateSyntaxError) {
    let program: Program
    do {
      program = try Compiler.compile(
        syntax, slots: options.slotResolver, functions: options.functions, limits: options.limits)
    } catch {
      throw PredicateSyntaxError(error, source: format ?? syntax.predicateFormat)
    }
    storage = Storage(
      format: format ?? syntax.predicateFormat, arguments: arguments, substitutions: substitutions, options: options,
      syntax: syntax, program: program)
  }

  /// The canonical text (Apple's `predicateFormat`).
  public var predicateFormat: String { syntax.predicateFormat }

  /// The canonical text.
  public var description: String { predicateFormat }

  /// A copy with `$variables` replaced by values, like
  /// `NSPredicate.withSubstitutionVariables(_:)`.
  public func withSubstitutionVariables(_ variables: [String: SiftValue]) throws(PredicateSyntaxError) -> SiftPredicate
  {
    // The tree is rewritten, not the text re-parsed: a tree built from parts, or holding a
    // dictionary argument, has no text that parses back to it.
    try SiftPredicate(
      syntax: syntax.substitutingVariables(variables), format: format, arguments: arguments,
      substitutions: substitutions.merging(variables) { _, new in new }, options: options)
  }

  /// A stable listing of the compiled bytecode.
  public var bytecodeListing: String { Disassembler.listing(program) }

  // MARK: - Evaluation

  @usableFromInline
  func run(_ value: SiftValue, variables: [String: SiftValue]?) throws(EvaluationError) -> Bool {
    try withUnsafePointer(to: value) { (p) throws(EvaluationError) in
      try run(ValueReader(root: p), variables: variables)
    }
  }

  /// `variables` nil for none: `matches` passes no dictionary, so it retains and releases none.
  func run<R: InputReader>(_ input: R, variables: [String: SiftValue]?) throws(EvaluationError) -> Bool {
    try Self.run(storage.program, maxSteps: storage.options.limits.maxSteps, input, variables: variables)
  }

  /// ``run(_:variables:)`` with the program and budget read by the caller, once for a
  /// whole loop of inputs (the batch tier's rows one by one).
  @inline(__always)
  static func run<R: InputReader>(_ program: Program, maxSteps: Int, _ input: R, variables: [String: SiftValue]?)
    throws(EvaluationError) -> Bool
  {
    // A one-test program on a subject viewed in place: no dispatch loop at all.
    if program.kernel != nil, let answer = try Machine.runKernel(program, input) { return answer }
    var environment = Environment(variables: nil, stepsLeft: maxSteps)
    // A test chain reads no variables; going straight to it skips the dispatch loop's
    // entry.
    if program.code.isTestChain { return try Machine.runTestChain(program.executable, input, &environment) }
    if program.code.usesVariables { environment.variables = variables ?? [:] }
    return try Machine.run(program, input: input, environment: &environment)
  }

  /// Evaluates against `input`: a string as `SELF` (the Focus case: `SELF IN %@` against a
  /// notification's filterCriteria), a ``SiftValue``, a ``SiftRecord``, a ``SiftTyped`` or
  /// ``SiftKeyValueCoding`` value (``SiftInput``). Throws ``EvaluationError`` with the
  /// failing range.
  @inlinable
  public func evaluate(with input: some SiftInput, variables: [String: SiftValue] = Dictionary())
    throws(EvaluationError) -> Bool
  {
    try input.siftEvaluate(self, variables: variables)
  }

  /// Evaluates against `input` (``SiftInput``); **returns false when evaluation fails**
  /// (use ``evaluate(with:variables:)`` to see the error).
  @inlinable
  public func matches(_ input: some SiftInput) -> Bool {
    (try? input.siftEvaluate(self, variables: nil)) ?? false
  }

  /// Evaluates against a JSON-like value. The one input with an overload of its own, so
  /// that literals keep their type: `matches(.null)`, `evaluate(with: ["age": 30])`.
  public func evaluate(with value: SiftValue, variables: [String: SiftValue] = Dictionary()) throws(EvaluationError)
    -> Bool
  {
    try run(value, variables: variables)
  }

  /// Evaluates against a JSON-like value (literals keep their type, as above); **returns
  /// false when evaluation fails**.
  public func matches(_ value: SiftValue) -> Bool { (try? run(value, variables: nil)) ?? false }

  /// A string as `SELF`: a one-test program on `SELF` runs as a kernel on its bytes.
  @usableFromInline
  func run(string: String, variables: [String: SiftValue]?) throws(EvaluationError) -> Bool {
    if let kernel = storage.program.kernel, kernel.source == .evaluatedObject {
      return try Machine.runKernel(kernel, storage.program, string)
    }
    return try run(.string(string), variables: variables)
  }

  /// An object that answers keys itself.
  @usableFromInline
  func run(keyValueCoding object: some SiftKeyValueCoding, variables: [String: SiftValue]?) throws(EvaluationError)
    -> Bool
  {
    try withUnsafePointer(to: object) { (p) throws(EvaluationError) in
      try run(ObjectReader(object: UnsafeRawPointer(p), type: type(of: object)), variables: variables)
    }
  }

  /// A schema-bound record. Slots were resolved against the compile-time schema; a record
  /// of another schema would read the wrong fields. (Cheap: schemas sharing storage
  /// compare by identity.)
  @usableFromInline
  func run(record: SiftRecord, variables: [String: SiftValue]?) throws(EvaluationError) -> Bool {
    if !fitsSchema(record) {
      throw EvaluationError(
        .typeMismatch, "the record's schema is not the one this predicate was compiled with", at: syntax.range)
    }
    return try run(record, variables: variables)
  }

  /// Values of `schema` (this predicate's) in memory the caller owns, evaluated as a record
  /// without building one (an `Encodable` value's keys, encoded on the stack). The record
  /// handed to the VM carries the schema only: the predicates that run here never read
  /// `SELF` as a whole (``ReadKeys``).
  func run(_ schema: SiftSchema, _ values: UnsafeBufferPointer<SiftValue>, variables: [String: SiftValue]?)
    throws(EvaluationError) -> Bool
  {
    let record = SiftRecord(schema: schema, exactly: [])
    return try withUnsafePointer(to: record) { (p) throws(EvaluationError) in
      try run(RecordReader(record: p, values: values), variables: variables)
    }
  }

  /// The record through the VM, its values borrowed in place.
  @inline(__always)
  private func run(_ record: SiftRecord, variables: [String: SiftValue]?) throws(EvaluationError) -> Bool {
    try withUnsafePointer(to: record) { (p) throws(EvaluationError) in
      try record.values.withUnsafeBufferPointer { (values) throws(EvaluationError) in
        try run(RecordReader(record: p, values: values), variables: variables)
      }
    }
  }

  /// Whether `record` follows the schema this predicate was compiled with (any record
  /// does when it was compiled without one).
  @inline(__always)
  private func fitsSchema(_ record: SiftRecord) -> Bool { storage.options.schema.map { $0 == record.schema } ?? true }

  /// Evaluates against a JSON document simdjson parsed, as the values of a record plan's
  /// keys (`sift_json_record_fields`; this predicate compiled for the schema of `keys`):
  /// strings, integers and arrays of strings are tested where the parser keeps them, with
  /// nothing built.
  package func evaluate(
    json parser: OpaquePointer, plan: OpaquePointer, fields: UnsafePointer<sift_json_field>,
    keys: UnsafeBufferPointer<String>, variables: [String: SiftValue]
  ) throws(EvaluationError) -> Bool {
    try run(JSONRecordReader(parser: parser, plan: plan, fields: fields, keys: keys), variables: variables)
  }
}

/// How to compile: parse options, an optional schema, custom functions and limits.
public struct CompileOptions: Sendable {
  /// Parse limits and the AND/OR precedence choice.
  public var parse: ParseOptions
  /// When set, key paths resolve to record slots at compile time.
  public var schema: SiftSchema?
  /// Functions for `FUNCTION(receiver, 'name', …)`.
  public var functions: SiftFunctions
  /// Evaluation limits.
  public var limits: EvaluationLimits
  /// The fields of the ``SiftTyped`` type a predicate is compiled for
  /// (``SiftPredicate/init(format:arguments:for:options:)``); takes the place of `schema`.
  var layout: FieldLayout?

  /// Where key paths resolve to slots at compile time.
  var slotResolver: SlotResolver? {
    if let layout { return .layout(layout) }
    return schema.map(SlotResolver.schema)
  }

  /// Creates options; every parameter has a default.
  public init(
    parse: ParseOptions = .default, schema: SiftSchema? = nil, functions: SiftFunctions = SiftFunctions(),
    limits: EvaluationLimits = EvaluationLimits()
  ) {
    self.parse = parse
    self.schema = schema
    self.functions = functions
    self.limits = limits
  }
}
