/// A type that answers keys with values, so a predicate can be evaluated against it
/// directly (the first key of every key path is asked of the object; the rest of the
/// path is applied to the returned value).
public protocol SiftKeyValueCoding: SiftInput {
  /// The value for `key`, or nil when the object has no such key (treated as `nil`).
  func siftValue(forKey key: String) -> SiftValue?
  /// What `SELF` means for this object on its own (default: `nil`).
  var siftSelfValue: SiftValue { get }
}

extension SiftKeyValueCoding {
  /// By default `SELF` alone is `nil`; key paths still work.
  public var siftSelfValue: SiftValue { .null }
}

/// The fields of a record type, in slot order. A predicate compiled with a schema resolves
/// each key path's first key to a slot number at compile time; an unknown key is a
/// compile error.
public struct SiftSchema: Hashable, Sendable, Codable {
  /// Field names and their slots, shared by every copy: a record carries one reference
  /// for its schema, and two records of one schema compare by identity first.
  private final class Storage: Sendable {
    let fields: [String]
    let slots: [String: Int]

    init(_ fields: [String]) {
      self.fields = fields
      var slots: [String: Int] = [:]
      for (i, f) in fields.enumerated() where slots[f] == nil { slots[f] = i }
      self.slots = slots
    }
  }

  private let storage: Storage

  /// Field names, in slot order.
  public var fields: [String] { storage.fields }

  /// Creates a schema; a repeated field keeps its first slot.
  public init(fields: [String]) { storage = Storage(fields) }

  /// The slot of `field`, if it is part of the schema.
  public func slot(for field: String) -> Int? { storage.slots[field] }

  /// Schemas are equal when their field lists are.
  public static func == (a: SiftSchema, b: SiftSchema) -> Bool {
    a.storage === b.storage || a.storage.fields == b.storage.fields
  }

  /// Hashes the field list.
  public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }

  private enum CodingKeys: String, CodingKey { case fields }

  /// Decodes the field list.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(fields: try container.decode([String].self, forKey: .fields))
  }

  /// Encodes the field list.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(fields, forKey: .fields)
  }
}

/// One record of a schema: values in slot order. The fast input for services.
public struct SiftRecord: Hashable, Sendable {
  /// The schema the values follow.
  public let schema: SiftSchema
  /// One value per field, in slot order.
  public var values: [SiftValue]

  /// Creates a record; missing trailing values are `nil`, extra values are dropped.
  public init(schema: SiftSchema, values: [SiftValue]) {
    self.schema = schema
    var v = Array(values.prefix(schema.fields.count))
    while v.count < schema.fields.count { v.append(.null) }
    self.values = v
  }

  /// A record whose values are exactly `values`, unpadded (the VM is given its values
  /// separately; see ``SiftPredicate``'s stack-encoded records).
  init(schema: SiftSchema, exactly values: [SiftValue]) {
    self.schema = schema
    self.values = values
  }

  /// The value of a field by name, or nil if the schema has no such field.
  public subscript(field: String) -> SiftValue? {
    schema.slot(for: field).map { values[$0] }
  }

  /// The record as a dictionary (what `SELF` is for a record).
  public var dictionaryValue: SiftValue {
    var d: [String: SiftValue] = [:]
    for (i, f) in schema.fields.enumerated() where d[f] == nil { d[f] = values[i] }
    return .dictionary(d)
  }
}

/// Swift functions callable as `FUNCTION(receiver, 'name', args…)`, registered by name.
/// The receiver is the first element of the argument array.
public struct SiftFunctions: Sendable {
  /// A registered function.
  public typealias Function = @Sendable ([SiftValue]) throws(EvaluationError) -> SiftValue
  private var table: [String: Function] = [:]

  /// An empty registry.
  public init() {}

  /// Registers `function` under `name`, replacing any earlier one.
  public mutating func register(_ name: String, _ function: @escaping Function) { table[name] = function }

  /// The function registered under `name`.
  public subscript(name: String) -> Function? { table[name] }
}

/// Evaluation limits. Each has a default, is configurable and fails with a
/// `limitExceeded` (or `regex`) evaluation error at its edge. Documentation/Limits.md
/// lists every limit of the engine.
public struct EvaluationLimits: Hashable, Sendable, Codable {
  /// The step budget of one evaluation, shared by all its work: one step per collection
  /// element walked (SUBQUERY, ANY/ALL/NONE, IN and CONTAINS on a collection, `==` between
  /// collections, a key mapped over an array, collection operators, aggregate functions),
  /// one per 64 bytes of string work (8 when folded by `[c]`/`[d]`), and the tiers of a
  /// backtracking MATCHES as they run (the cost model: Documentation/Limits.md). Past it
  /// evaluation fails with `limitExceeded`. Under the default any evaluation of an input up
  /// to 1 MiB ends in well under 100 ms. Default 1,000,000.
  public var maxSteps: Int
  /// PCRE2's match limit for one MATCHES test that needs backtracking (back references,
  /// lookaround, …; other patterns run in linear time without one): the last tier of
  /// match limit the budget pays for. Past it the test fails with a `regex` error; the
  /// step budget usually runs out first. Values are clamped to `0...UInt32.max`.
  /// Default 1,000,000.
  public var regexMatchLimit: Int
  /// PCRE2's depth limit for one MATCHES test: the deepest backtracking nesting of PCRE2's
  /// interpreter. The JIT, used whenever PCRE2 can compile a pattern with it, ignores this
  /// limit and is bounded by its 4 MiB stack instead; either way the test fails with a
  /// `regex` error. Values are clamped to `0...UInt32.max`. Default 10,000.
  public var regexDepthLimit: Int

  /// Constant MATCHES patterns one predicate may hold: each is compiled, and JIT-compiled
  /// or translated for RE2, with the predicate (about 30 µs each). Past it compiling fails
  /// with a ``SyntaxError``, before any pattern is compiled. Default 4,096.
  public var maxCompiledPatterns: Int

  /// Creates limits; every parameter has the documented default.
  public init(
    maxSteps: Int = 1_000_000, regexMatchLimit: Int = 1_000_000, regexDepthLimit: Int = 10_000,
    maxCompiledPatterns: Int = 4_096
  ) {
    self.maxSteps = maxSteps
    self.regexMatchLimit = regexMatchLimit
    self.regexDepthLimit = regexDepthLimit
    self.maxCompiledPatterns = maxCompiledPatterns
  }

  /// The limits PCRE2 is given.
  var regex: RegexLimits {
    RegexLimits(matchLimit: UInt32(clamping: regexMatchLimit), depthLimit: UInt32(clamping: regexDepthLimit))
  }

  private enum CodingKeys: String, CodingKey { case maxSteps, regexMatchLimit, regexDepthLimit, maxCompiledPatterns }

  /// Decodes limits; a missing limit (as in data written before it existed) has its default.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = EvaluationLimits()
    maxSteps = try c.decodeIfPresent(Int.self, forKey: .maxSteps) ?? defaults.maxSteps
    regexMatchLimit = try c.decodeIfPresent(Int.self, forKey: .regexMatchLimit) ?? defaults.regexMatchLimit
    regexDepthLimit = try c.decodeIfPresent(Int.self, forKey: .regexDepthLimit) ?? defaults.regexDepthLimit
    maxCompiledPatterns =
      try c.decodeIfPresent(Int.self, forKey: .maxCompiledPatterns) ?? defaults.maxCompiledPatterns
  }

  /// Encodes every limit.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(maxSteps, forKey: .maxSteps)
    try c.encode(regexMatchLimit, forKey: .regexMatchLimit)
    try c.encode(regexDepthLimit, forKey: .regexDepthLimit)
    try c.encode(maxCompiledPatterns, forKey: .maxCompiledPatterns)
  }
}
