extension Semantics {
  /// One key applied to a value: dictionary lookup, mapped over arrays, nil through nil;
  /// `self` is the value itself.
  static func value(forKey key: String, in base: SiftValue) throws(EvaluationError) -> SiftValue {
    if key == "self" { return base }
    switch base {
    case .dictionary(let d): return d.literalValue(forKey: key) ?? .null
    case .null: return .null
    case .array(let elements):
      var out: [SiftValue] = []
      out.reserveCapacity(elements.count)
      for e in elements { out.append(try value(forKey: key, in: e)) }
      return .array(out)
    case .string(let s) where key == "length":
      return .int(s.utf16.count)
    default:
      throw typeError("no key '\(key)' on a \(base.kindName)")
    }
  }

  static let collectionOperators: Set<String> = [
    "@count", "@sum", "@avg", "@min", "@max", "@unionOfObjects", "@distinctUnionOfObjects",
    "@unionOfArrays", "@distinctUnionOfArrays", "@distinctUnionOfSets",
  ]

  /// Operators that need a key path after them; the union-of-arrays operators take one
  /// optionally.
  static let operatorsNeedingKey: Set<String> = [
    "@sum", "@avg", "@min", "@max", "@unionOfObjects", "@distinctUnionOfObjects",
  ]

  /// A whole key path, with collection operators (`@count`, `@sum.price`, …). A collection
  /// operator applies the rest of the path, as one key path, to each element.
  static func keyPath(_ keys: ArraySlice<String>, on base: SiftValue) throws(EvaluationError) -> SiftValue {
    var current = base
    var i = keys.startIndex
    while i < keys.endIndex {
      let key = keys[i]
      i += 1
      guard collectionOperators.contains(key) else {
        current = try value(forKey: key, in: current)
        continue
      }
      if key == "@count" {
        switch current {
        case .array(let a): return .int(a.count)
        case .dictionary(let d): return .int(d.count)
        case .null: return .null
        default: throw typeError("@count needs a collection, not a \(current.kindName)")
        }
      }
      let rest = keys[i...]
      if rest.isEmpty, operatorsNeedingKey.contains(key) {
        throw EvaluationError(.invalidArgument, "\(key) needs a key after it, as in \(key).self")
      }
      let collection: [SiftValue]
      switch current {
      case .array(let a): collection = a
      case .null: return .null
      default: throw typeError("\(key) needs an array, not a \(current.kindName)")
      }
      var values: [SiftValue] = []
      values.reserveCapacity(collection.count)
      for e in collection { values.append(rest.isEmpty ? e : try keyPath(rest, on: e)) }
      return try collectionOperator(key, values)
    }
    return current
  }

  static func collectionOperator(_ name: String, _ values: [SiftValue]) throws(EvaluationError) -> SiftValue {
    switch name {
    case "@sum": return try Functions.sum(values)
    case "@avg": return try Functions.average(values)
    case "@min": return try Functions.extreme(values, wantMax: false, numbersOnly: false)
    case "@max": return try Functions.extreme(values, wantMax: true, numbersOnly: false)
    case "@unionOfObjects": return .array(values.filter { $0 != .null })
    case "@distinctUnionOfObjects": return .array(distinct(values.filter { $0 != .null }))
    default:
      var flat: [SiftValue] = []
      for v in values {
        switch v {
        case .array(let a): flat.append(contentsOf: a)
        case .null: break
        default: throw typeError("\(name) needs arrays, not a \(v.kindName)")
        }
      }
      return .array(name == "@unionOfArrays" ? flat : distinct(flat))
    }
  }

  static func distinct(_ values: [SiftValue]) -> [SiftValue] {
    var out: [SiftValue] = []
    for v in values where !out.contains(where: { equal($0, v, []) }) { out.append(v) }
    return out
  }

  /// `base[index]`.
  static func index(_ base: SiftValue, _ index: SiftValue) throws(EvaluationError) -> SiftValue {
    switch base {
    case .null: return .null
    case .array(let a):
      guard case .int(let i) = index else {
        throw typeError("an array index must be an integer, not a \(index.kindName)")
      }
      guard i >= 0, i < a.count else {
        throw EvaluationError(.indexOutOfRange, "index \(i) is out of range for an array of \(a.count)")
      }
      return a[i]
    case .dictionary(let d):
      guard case .string(let key) = index else {
        throw typeError("a dictionary key must be a string, not a \(index.kindName)")
      }
      return d.literalValue(forKey: key) ?? .null
    default:
      throw typeError("cannot index a \(base.kindName)")
    }
  }

  /// `base[FIRST]`, `base[LAST]`, `base[SIZE]`.
  static func index(_ base: SiftValue, _ kind: IndexSyntax) throws(EvaluationError) -> SiftValue {
    switch (base, kind) {
    case (.null, _): return .null
    case (.array(let a), .first): return a.first ?? .null
    case (.array(let a), .last): return a.last ?? .null
    case (.array(let a), .size): return .int(a.count)
    case (.dictionary(let d), .size): return .int(d.count)
    default: throw typeError("cannot index a \(base.kindName) with that")
    }
  }
}
