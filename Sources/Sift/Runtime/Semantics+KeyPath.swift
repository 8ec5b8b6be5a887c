extension Semantics {
  /// One key applied to a value: dictionary lookup, mapped over arrays, nil through nil;
  /// `self` is the value itself. Mapping over an array takes one step per element from
  /// `steps`; `depth` counts the arrays already entered (see ``maxValueDepth``).
  static func value(forKey key: String, in base: SiftValue, steps: inout Int, depth: Int = 0)
    throws(EvaluationError) -> SiftValue
  {
    if key == "self" { return base }
    switch base {
    case .dictionary(let d): return d.literalValue(forKey: key) ?? .null
    case .null: return .null
    case .array(let elements):
      if depth == maxValueDepth { throw tooDeep() }
      try charge(elements.count, &steps)
      var out: [SiftValue] = []
      out.reserveCapacity(elements.count)
      for e in elements { out.append(try value(forKey: key, in: e, steps: &steps, depth: depth + 1)) }
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
  /// operator applies the rest of the path, as one key path, to each element. Every
  /// element a key or an operator walks takes one step from `steps`.
  static func keyPath(_ keys: ArraySlice<String>, on base: SiftValue, steps: inout Int, depth: Int = 0)
    throws(EvaluationError) -> SiftValue
  {
    var current = base
    var i = keys.startIndex
    while i < keys.endIndex {
      let key = keys[i]
      i += 1
      guard collectionOperators.contains(key) else {
        current = try value(forKey: key, in: current, steps: &steps, depth: depth)
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
      if depth == maxValueDepth { throw tooDeep() }
      try charge(collection.count, &steps)
      var values: [SiftValue] = []
      values.reserveCapacity(collection.count)
      for e in collection {
        values.append(rest.isEmpty ? e : try keyPath(rest, on: e, steps: &steps, depth: depth + 1))
      }
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

  /// First occurrences by `==` without options. Hashed, so a large collection costs linear
  /// time, not the quadratic time of comparing each value with every kept one.
  static func distinct(_ values: [SiftValue]) -> [SiftValue] {
    var seen = Set<EqualityKey>()
    var out: [SiftValue] = []
    for v in values where seen.insert(EqualityKey(v)).inserted { out.append(v) }
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

/// A value hashed and compared by `==` without options (``Semantics/equal(_:_:_:)``): 1,
/// 1.0 and TRUE are one key; strings compare by their scalars. NaN equals nothing, so each
/// NaN is its own key, as with a linear search.
struct EqualityKey: Hashable {
  let value: SiftValue

  init(_ value: SiftValue) { self.value = value }

  static func == (a: EqualityKey, b: EqualityKey) -> Bool { Semantics.equal(a.value, b.value, []) }

  /// Equal values hash alike. Only two levels of a collection are hashed, which keeps
  /// hashing cheap and free of recursion; equality settles the rest.
  func hash(into hasher: inout Hasher) { Self.hash(value, into: &hasher, nested: true) }

  private static func hash(_ v: SiftValue, into hasher: inout Hasher, nested: Bool) {
    switch v {
    case .null: hasher.combine(0 as UInt8)
    case .bool(let b): hashNumber(b ? 1 : 0, into: &hasher)
    case .int(let i): hashNumber(i, into: &hasher)
    case .double(let d):
      // An integral double equals the int of the same value.
      if let i = Int(exactly: d) { hashNumber(i, into: &hasher) } else { hasher.combine(d) }
    case .string(let s):
      hasher.combine(2 as UInt8)
      hasher.combine(s)
    case .date(let d):
      hasher.combine(3 as UInt8)
      hasher.combine(d == 0 ? 0 : d)  // -0.0 is the same time as 0.0
    case .array(let a):
      hasher.combine(4 as UInt8)
      hasher.combine(a.count)
      if nested { for e in a { hash(e, into: &hasher, nested: false) } }
    case .dictionary(let d):
      hasher.combine(5 as UInt8)
      hasher.combine(d.count)
      guard nested else { return }
      // Order-independent: entries are hashed one by one and their hashes summed.
      var sum = 0
      for (k, e) in d {
        var entry = Hasher()
        entry.combine(k)
        hash(e, into: &entry, nested: false)
        sum &+= entry.finalize()
      }
      hasher.combine(sum)
    }
  }

  private static func hashNumber(_ i: Int, into hasher: inout Hasher) {
    hasher.combine(1 as UInt8)
    hasher.combine(i)
  }
}
