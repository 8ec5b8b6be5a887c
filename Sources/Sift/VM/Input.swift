/// What a predicate is evaluated against: the VM's view of `SELF`.
enum Input {
  case value(SiftValue)
  case object(any SiftKeyValueCoding)
  case record(SiftRecord)

  @inline(__always)
  func root(_ key: String) -> SiftValue {
    switch self {
    case .value(.dictionary(let d)): return d.literalValue(forKey: key) ?? .null
    case .value(let v): return (try? Semantics.value(forKey: key, in: v)) ?? .null
    case .object(let o): return o.siftValue(forKey: key) ?? .null
    case .record(let r): return r[key] ?? .null
    }
  }

  var selfValue: SiftValue {
    switch self {
    case .value(let v): return v
    case .object(let o): return o.siftSelfValue
    case .record(let r): return r.dictionaryValue
    }
  }
}

/// Per-evaluation state outside the registers: variables and the step budget.
struct Environment {
  var variables: [String: SiftValue]
  var functions: SiftFunctions
  var stepsLeft: Int
}
