/// The part of a shape the index can use: the comparisons it can index, joined as the
/// predicate joins them. A predicate is true only if every operand of an AND is true and
/// some operand of an OR is, so one indexed comparison of an AND, or one of each operand of
/// an OR, is a *necessary* condition: a predicate none of whose indexed comparisons holds
/// for a record cannot match it, and is not even a candidate.
///
/// NOT, `!=`, ALL, `TRUEPREDICATE` and every comparison that is not a key path against a
/// constant are opaque: they never exclude anything.
indirect enum ClausePlan: Sendable {
  case test(IndexableTest)
  case all([ClausePlan])
  case any([ClausePlan])
  /// `FALSEPREDICATE`: true for no record.
  case never
  case opaque

  /// The plan of a shape (see ``ShapeExtraction``).
  init(_ p: PredicateSyntax) {
    switch p.kind {
    case .constant(let value):
      self = value ? .opaque : .never
    case .comparison(let c):
      self = IndexableTest(c).map(ClausePlan.test) ?? .opaque
    case .and(let operands):
      self = .all(operands.map(ClausePlan.init))
    case .or(let operands):
      self = .any(operands.map(ClausePlan.init))
    case .not, .customSelector:
      self = .opaque
    }
  }

  /// The index entries for a predicate of this plan with `constants`, the necessary
  /// condition with the lowest `cost` (about how many candidates it would let through);
  /// nil when there is none (the predicate is then evaluated for every record). An empty
  /// list: the predicate matches no record.
  func atoms(_ constants: [SiftValue], cost: (IndexAtom) -> Int) -> [IndexAtom]? {
    choose(constants, cost)?.atoms
  }

  private func choose(_ constants: [SiftValue], _ cost: (IndexAtom) -> Int) -> (cost: Int, atoms: [IndexAtom])? {
    switch self {
    case .test(let t):
      return t.atom(constants).map { atom in atom.map { (cost($0), [$0]) } ?? (0, []) }
    case .never:
      return (0, [])
    case .opaque:
      return nil
    case .all(let operands):
      var best: (cost: Int, atoms: [IndexAtom])?
      for operand in operands {
        guard let choice = operand.choose(constants, cost) else { continue }
        if best == nil || choice.cost < best!.cost { best = choice }
        if choice.cost == 0 { break }
      }
      return best
    case .any(let operands):
      var total = 0
      var atoms: [IndexAtom] = []
      for operand in operands {
        guard let choice = operand.choose(constants, cost) else { return nil }
        total += choice.cost
        atoms += choice.atoms
      }
      return (total, atoms)
    }
  }
}

/// A comparison the index may use: `[ANY] keyPath OP constant` with OP one of `==`, `IN`,
/// `BEGINSWITH`, `<`, `<=`, `>`, `>=`, `BETWEEN` (or the constant on the left of `==` and
/// the orderings, turned around).
struct IndexableTest: Sendable {
  var keys: [String]
  var quantified: Bool
  var op: ComparisonOperator
  var options: ComparisonOptions
  /// Which of the predicate's constants.
  var constant: Int

  init?(_ c: ComparisonSyntax) {
    guard c.quantifier != .all else { return nil }
    quantified = c.quantifier == .any
    options = c.options
    if let keys = SubjectPath.keys(of: c.lhs), let k = ShapeExtraction.parameter(c.rhs) {
      self.keys = keys
      op = c.op
      constant = k
    } else if !quantified, let k = ShapeExtraction.parameter(c.lhs), let keys = SubjectPath.keys(of: c.rhs),
      let flipped = Self.flipped(c.op)
    {
      self.keys = keys
      op = flipped
      constant = k
    } else {
      return nil
    }
    guard [.equal, .in, .beginsWith, .less, .lessOrEqual, .greater, .greaterOrEqual, .between].contains(op) else {
      return nil
    }
  }

  /// `c OP x` as `x OP' c`, for the operators where Sift's rules are symmetric.
  private static func flipped(_ op: ComparisonOperator) -> ComparisonOperator? {
    switch op {
    case .equal: .equal
    case .less: .greater
    case .lessOrEqual: .greaterOrEqual
    case .greater: .less
    case .greaterOrEqual: .lessOrEqual
    default: nil
    }
  }

  /// The index entry of this test with `constants`: `.some(nil)` when the test is true
  /// for no value at all (an empty `IN` set, an empty prefix, a NaN bound), nil when the
  /// constant is not one the index handles. Each case relies on Sift's rules
  /// (Semantics.swift), which the differential test checks:
  ///
  /// - `==`, `IN`: only a string equals a string (under the folding of the options), only
  ///   a number or boolean a number; null, dates and collections equal no string or
  ///   number, and null is in no collection. So the record's value is a candidate key only
  ///   when it is a string or a number, and then only under its own key.
  /// - `BEGINSWITH`: true only for a string whose fold starts with the fold of the prefix
  ///   (with a character boundary, which the exact check tests); anything but a string
  ///   is false or an error. An empty prefix is never a prefix.
  /// - orderings and `BETWEEN` with number bounds: true only for numbers and booleans in
  ///   the interval; strings and dates against a number are errors, null is false.
  /// - `ANY`: the same for some element of an array; ANY over null is false, over
  ///   anything else an error.
  func atom(_ constants: [SiftValue]) -> IndexAtom?? {
    guard constant < constants.count else { return nil }
    switch constants[constant] {
    case .array(let a): return atom(elements: a)
    case .dictionary(let d) where op == .in: return atom(elements: Array(d.values))
    case let c: return atom(c)
    }
  }

  /// The entry for a constant that is not a collection.
  private func atom(_ c: SiftValue) -> IndexAtom?? {
    let fold = FoldMode(options)
    switch op {
    case .equal:
      if case .double(let d) = c, d.isNaN { return .some(nil) }
      guard let key = PostingKey.equality(c, options) else { return nil }
      return group(.equality, fold).keys([key])
    case .beginsWith:
      guard case .string(let s) = c else { return nil }
      let (key, length) = StringSemantics.withFoldedUTF8(s, options) {
        (PostingKey.bytes(UnsafePointer($0.baseAddress), count: $0.count), $0.count)
      }
      if length == 0 { return .some(nil) }
      return IndexAtom(group: group(.prefix, fold), entry: .prefix(key, length: length))
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      guard Semantics.isNumber(c) else { return nil }
      guard let k = PostingKey.number(c) else { return .some(nil) }
      let up = op == .greater || op == .greaterOrEqual
      return range(up ? k : -.infinity, up ? .infinity : k)
    default:
      // IN a string (a substring test), BETWEEN without two bounds: nothing to index.
      return nil
    }
  }

  /// The entry for a collection constant: the members of `IN`, the bounds of `BETWEEN`.
  private func atom(elements: some RandomAccessCollection<SiftValue>) -> IndexAtom?? {
    switch op {
    case .in:
      var keys: [UInt64] = []
      keys.reserveCapacity(elements.count)
      for e in elements {
        if case .null = e { continue }
        if case .double(let d) = e, d.isNaN { continue }
        guard let key = PostingKey.equality(e, options) else { return nil }
        keys.append(key)
      }
      if keys.isEmpty { return .some(nil) }
      return group(.equality, FoldMode(options)).keys(keys)
    case .between:
      guard elements.count == 2 else { return nil }
      let lowBound = elements[elements.startIndex]
      let highBound = elements[elements.index(after: elements.startIndex)]
      guard Semantics.isNumber(lowBound), Semantics.isNumber(highBound) else { return nil }
      guard let low = PostingKey.number(lowBound), let high = PostingKey.number(highBound), low <= high else {
        return .some(nil)
      }
      return range(low, high)
    default:
      // `==` an array, ordering against one: nothing to index.
      return nil
    }
  }

  private func group(_ kind: IndexGroupKey.Kind, _ fold: FoldMode) -> IndexGroupKey {
    IndexGroupKey(keys: keys, quantified: quantified, kind: kind, fold: kind == .range ? .none : fold)
  }

  private func range(_ low: Double, _ high: Double) -> IndexAtom {
    IndexAtom(group: group(.range, .none), entry: .range(low: low, high: high))
  }
}

/// One index entry of a predicate: where (a group: a key path, ANY or not, a kind and a
/// folding) and what (keys, a prefix, an interval).
struct IndexAtom {
  enum Entry {
    /// The keys of the constants (`==` one, `IN` several).
    case keys([UInt64])
    /// The key of a folded prefix and its length in bytes.
    case prefix(UInt64, length: Int)
    case range(low: Double, high: Double)
  }

  var group: IndexGroupKey
  var entry: Entry

  /// How many postings it adds.
  var postings: Int {
    if case .keys(let keys) = entry { return keys.count }
    return 1
  }
}

extension IndexGroupKey {
  fileprivate func keys(_ keys: [UInt64]) -> IndexAtom {
    IndexAtom(group: self, entry: .keys(keys))
  }
}
