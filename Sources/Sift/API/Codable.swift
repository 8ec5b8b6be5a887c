extension SiftValue: Codable {
  private struct DateBox: Codable {
    var date: Double
    enum CodingKeys: String, CodingKey { case date = "$date" }
  }

  /// Decodes JSON-like data; `{"$date": seconds}` is a date.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let b = try? container.decode(Bool.self) {
      self = .bool(b)
    } else if let i = try? container.decode(Int.self) {
      self = .int(i)
    } else if let d = try? container.decode(Double.self) {
      self = .double(d)
    } else if let s = try? container.decode(String.self) {
      self = .string(s)
    } else if let a = try? container.decode([SiftValue].self) {
      self = .array(a)
    } else if let box = try? container.decode(DateBox.self) {
      self = .date(secondsSinceReferenceDate: box.date)
    } else {
      self = .dictionary(try container.decode([String: SiftValue].self))
    }
  }

  /// Encodes as JSON-like data; a date as `{"$date": seconds}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let b): try container.encode(b)
    case .int(let i): try container.encode(i)
    case .double(let d): try container.encode(d)
    case .string(let s): try container.encode(s)
    case .date(let d): try container.encode(DateBox(date: d))
    case .array(let a): try container.encode(a)
    case .dictionary(let d): try container.encode(d)
    }
  }
}

extension SiftPredicate: Codable {
  private enum CodingKeys: String, CodingKey {
    case format, canonical, arguments, variables, schema, maxSteps, regexMatchLimit, regexDepthLimit, andBindsTighter
  }

  /// Decodes the format, arguments and substitutions and compiles them again. Registered
  /// custom functions are not encoded: register them again through ``CompileOptions``.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    var options = CompileOptions()
    options.schema = try c.decodeIfPresent(SiftSchema.self, forKey: .schema)
    if let steps = try c.decodeIfPresent(Int.self, forKey: .maxSteps) { options.limits.maxSteps = steps }
    if let limit = try c.decodeIfPresent(Int.self, forKey: .regexMatchLimit) { options.limits.regexMatchLimit = limit }
    if let limit = try c.decodeIfPresent(Int.self, forKey: .regexDepthLimit) { options.limits.regexDepthLimit = limit }
    if try c.decodeIfPresent(Bool.self, forKey: .andBindsTighter) == true {
      options.parse.compoundPrecedence = .andBindsTighter
    }
    try self.init(
      format: try c.decode(String.self, forKey: .format),
      arguments: try c.decodeIfPresent([SiftValue].self, forKey: .arguments) ?? [],
      substitutions: try c.decodeIfPresent([String: SiftValue].self, forKey: .variables) ?? [:],
      options: options)
  }

  /// Encodes the format with its bound arguments and substitutions (and the schema, if any),
  /// plus the canonical text for readers; decoding reads `format` and `arguments`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(format, forKey: .format)
    try c.encode(predicateFormat, forKey: .canonical)
    try c.encode(arguments, forKey: .arguments)
    if !substitutions.isEmpty { try c.encode(substitutions, forKey: .variables) }
    try c.encodeIfPresent(options.schema, forKey: .schema)
    // Only limits that differ from the default are written, so data for default limits
    // stays what older versions wrote and read.
    let limits = options.limits
    let defaults = EvaluationLimits()
    if limits.maxSteps != defaults.maxSteps { try c.encode(limits.maxSteps, forKey: .maxSteps) }
    if limits.regexMatchLimit != defaults.regexMatchLimit {
      try c.encode(limits.regexMatchLimit, forKey: .regexMatchLimit)
    }
    if limits.regexDepthLimit != defaults.regexDepthLimit {
      try c.encode(limits.regexDepthLimit, forKey: .regexDepthLimit)
    }
    if options.parse.compoundPrecedence == .andBindsTighter { try c.encode(true, forKey: .andBindsTighter) }
  }
}
