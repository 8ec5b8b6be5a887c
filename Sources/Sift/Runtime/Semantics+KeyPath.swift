extension Semantics {
  /// One key applied to a value: dictionary lookup, mapped over arrays, nil through nil;
  /// `self` is the value itself. Mapping over an array takes one step per element from
  /// `steps`, plus the key's hashing for each (a long key from a long predicate); `depth`
  /// counts the arrays already entered (see ``maxValueDepth``).
  static func value(forKey key: String, in base: SiftValue, steps: inout Int, depth: Int = 0)
    throws(EvaluationError) -> SiftValue
  {
    if key == "self" { return base }
    switch base {
    case .dictionary(let d): return d.literalValue(forKey: key) ?? .null
    case .null: return .null
    case .array(let elements):
      if depth == maxValueDepth { throw tooDeep() }
      // Each element, and the key hashed to look it up in each.
      try charge(Cost.times(elements.count, 1 + Cost.lookup(key)), &steps)
      var out: [SiftValue] = []
      out.reserveCapacity(elements.count)
      for e in elements { out.append(try value(forKey: key, in: e, steps: &steps, depth: depth + 1)) }
      return .array(out)
    case .string(let s) where key == "length":
      return .int(s.utf16.count)
    default:
      throw typeError("no key '\(EvaluationError.excerpt(key))' on a \(base.kindName)")
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
      return try collectionOperator(key, values, steps: &steps)
    }
    return current
  }

  /// A collection operator over the values the rest of its key path gave (the walk to
  /// them already charged): the orderings of `@min`/`@max` charge their string work, the
  /// union of arrays an element per element it gathers, the distinct ones their hashing.
  static func collectionOperator(_ name: String, _ values: [SiftValue], steps: inout Int)
    throws(EvaluationError) -> SiftValue
  {
    switch name {
    case "@sum": return try Functions.sum(values)
    case "@avg": return try Functions.average(values)
    case "@min": return try Functions.extreme(values, wantMax: false, numbersOnly: false, steps: &steps)
    case "@max": return try Functions.extreme(values, wantMax: true, numbersOnly: false, steps: &steps)
    case "@unionOfObjects": return .array(values.filter { $0 != .null })
    case "@distinctUnionOfObjects": return .array(try distinct(values.filter { $0 != .null }, steps: &steps))
    default:
      var flat: [SiftValue] = []
      for v in values {
        switch v {
        case .array(let a):
          try charge(a.count, &steps)
          flat.append(contentsOf: a)
        case .null: break
        default: throw typeError("\(name) needs arrays, not a \(v.kindName)")
        }
      }
      return .array(name == "@unionOfArrays" ? flat : try distinct(flat, steps: &steps))
    }
  }

  /// First occurrences by `==` without options. Grouped through a hash table
  /// (``EqualityTable``, charged to `steps`), so a large collection costs time linear in
  /// its size, not the quadratic time of comparing each value with every kept one.
  static func distinct(_ values: [SiftValue], steps: inout Int) throws(EvaluationError) -> [SiftValue] {
    var seen = EqualityTable(capacity: values.count)
    for v in values { try seen.insert(v, steps: &steps) }
    return seen.values
  }

  /// `base[index]`; a dictionary key from the evaluation is charged for its hashing.
  static func index(_ base: SiftValue, _ index: SiftValue, steps: inout Int) throws(EvaluationError) -> SiftValue {
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
      try charge(Cost.lookup(key), &steps)
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
