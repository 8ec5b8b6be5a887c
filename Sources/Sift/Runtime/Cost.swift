/// The cost model of an evaluation: what each kind of work takes from the one budget,
/// ``EvaluationLimits/maxSteps``. Every kind of work that can grow with the input is
/// charged in proportion to the bytes or elements it touches, inside values as well as at
/// their top level, so a budget bounds time, not just loop iterations. Documentation/Limits.md
/// has the whole table with the measured time of each rate; in short:
///
/// | work | steps |
/// | --- | --- |
/// | a collection element walked, or an element of two collections of one size compared by `==` at any depth | 1 |
/// | a value grouped (UNION, INTERSECT, MINUS, distinct, `mode:`) | ``grouping`` + its hash walk |
/// | a SUBQUERY element | 1 + the instructions of the subpredicate / 4 |
/// | a string compared, searched or matched | its bytes / 64 (/ 8 under `[c]` or `[d]`) |
/// | a dictionary key hashed | ``lookup(_:)`` |
/// | LIKE | subject bytes × (1 + pattern bytes / 8) / 64 |
/// | MATCHES on PCRE2's backtracking | subject bytes / 64, then its tiers as they run |
/// | case mapping, `capitalizedString`, `description`, `median:` | ``caseMapping(_:)``, ``capitalizing(_:)``, the text's bytes / 8, ``sorting(_:)`` |
/// | a value an input builds, a Foundation collection converted | ``weight(_:cap:)``, ``foundationElement`` per element |
///
/// Strings shorter than the divisor cost nothing: they are bounded by the instructions and
/// elements that reach them. Work is charged before it is done, so the budget stops it. A
/// backtracking match is charged a tier at a time (``RegexPattern/matches(_:stepsLeft:)``):
/// one that needs little backtracking pays for one small tier, a catastrophic one climbs
/// until the budget cannot pay for the next.
enum Cost {
  /// Bytes of byte-wise string work per step.
  static let bytesPerStep = 64
  /// Bytes per step when the text may be case- or diacritic-folded.
  static let foldedBytesPerStep = 8

  /// The steps of `bytes` of string work.
  @inline(__always)
  static func string(_ bytes: Int, folding: Bool) -> Int { folding ? bytes >> 3 : bytes >> 6 }

  /// The steps of a comparison of two values under `options`: their strings' bytes.
  @inline(__always)
  static func comparison(_ a: SiftValue, _ b: SiftValue, _ options: ComparisonOptions) -> Int {
    let folding = !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty
    return string(a.stringBytes + b.stringBytes, folding: folding)
  }

  /// The steps of a comparison of two strings under `options`.
  @inline(__always)
  static func comparison(_ a: String, _ b: String, _ options: ComparisonOptions) -> Int {
    let folding = !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty
    return string(a.utf8.count + b.utf8.count, folding: folding)
  }

  /// `a × b` steps, saturating: a charge too large to count is more than any budget.
  @inline(__always)
  static func times(_ a: Int, _ b: Int) -> Int {
    let (p, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? .max : p
  }

  /// The steps of `capitalizedString` on `s`: ASCII is mapped byte by byte (folded
  /// bytes); other text character by character (grapheme breaking, a string built per
  /// letter), about 140 ns a byte measured: four steps a byte.
  @inline(__always)
  static func capitalizing(_ s: String) -> Int {
    let n = s.utf8.count
    return withUTF8Bytes(s) { ASCIIBytes.isASCII($0) } ? string(n, folding: true) : times(n, 4)
  }

  /// The steps of looking a key of `bytes` up in a dictionary: Swift hashes the key's
  /// text (normalising it unless it is ASCII).
  @inline(__always)
  static func lookup(_ key: String) -> Int {
    let n = key.utf8.count
    if n < 16 { return 0 }
    return withUTF8Bytes(key) { ASCIIBytes.isASCII($0) } ? n >> 4 : n >> 1
  }

  /// The steps of mapping the case of `s` (uppercase, lowercase): ASCII byte by byte
  /// (folded bytes); other text through the standard library's Unicode tables, about
  /// 60 ns a byte measured: two steps a byte.
  @inline(__always)
  static func caseMapping(_ s: String) -> Int {
    let n = s.utf8.count
    return withUTF8Bytes(s) { ASCIIBytes.isASCII($0) } ? string(n, folding: true) : times(n, 2)
  }

  /// The steps of converting one element or entry of a Foundation value (`[Any]`,
  /// `NSArray`, `[String: Any]`, a typed Swift array inside `Any`): a dynamic type lookup
  /// and a conversion, 90–200 ns each.
  static let foundationElement = 4

  /// The steps of grouping one value (``EqualityTable``): its hash table probe and the
  /// table's memory, beyond the walk that hashes it.
  static let grouping = 4

  /// The steps of hashing a string of `bytes` to group it (``EqualityKey``), paying for the
  /// `==` that confirms a match too.
  @inline(__always)
  static func hashing(_ bytes: Int) -> Int { bytes >> 4 }

  /// The comparisons of sorting `n` values, beyond the walk: n × log₂ n / 8.
  @inline(__always)
  static func sorting(_ n: Int) -> Int { n <= 1 ? 0 : (n * (Int.bitWidth - n.leadingZeroBitCount)) >> 3 }

  /// The comparisons of sorting `n` strings (a dictionary's keys for its description):
  /// n × log₂ n, a step each (a Unicode-aware string comparison).
  @inline(__always)
  static func sortingStrings(_ n: Int) -> Int { n <= 1 ? 0 : times(n, Int.bitWidth - n.leadingZeroBitCount) }

  /// The steps of a LIKE over `bytes` with a pattern of `patternBytes`: the matcher may
  /// revisit the subject once per pattern unit in the worst case.
  @inline(__always)
  static func like(_ bytes: Int, patternBytes: Int) -> Int { (bytes * (1 + patternBytes >> 3)) >> 6 }
}

extension Cost {
  /// Charges a value an input built to be read (a typed field's array, a Foundation value
  /// converted, a record as a dictionary): a step per element or entry at any depth and
  /// its strings' bytes, as walking it would cost. Scalars are free (a Swift string is
  /// shared, not copied). The count stops as soon as it is over the budget.
  static func built(_ v: SiftValue, steps: inout Int) throws(EvaluationError) {
    switch v {
    case .array, .dictionary: try Semantics.charge(weight(v, cap: steps), &steps)
    case .null, .bool, .int, .double, .string, .date: return
    }
  }

  /// Elements and entries of `v` at any depth, plus its strings' bytes / 64, walked without
  /// recursion; once over `cap`, `cap + 1`.
  static func weight(_ v: SiftValue, cap: Int) -> Int {
    var total = 0
    var pending = [v]
    while let x = pending.popLast() {
      switch x {
      case .array(let a):
        total &+= a.count
        for e in a {
          switch e {
          case .array, .dictionary: pending.append(e)
          case .string(let s): total &+= string(s.utf8.count, folding: false)
          case .null, .bool, .int, .double, .date: break
          }
        }
      case .dictionary(let d):
        total &+= d.count
        for (k, e) in d {
          total &+= string(k.utf8.count, folding: false)
          switch e {
          case .array, .dictionary: pending.append(e)
          case .string(let s): total &+= string(s.utf8.count, folding: false)
          case .null, .bool, .int, .double, .date: break
          }
        }
      case .string(let s): total &+= string(s.utf8.count, folding: false)
      case .null, .bool, .int, .double, .date: break
      }
      if total > cap || total < 0 { return cap == .max ? .max : cap + 1 }
    }
    return total
  }
}

extension SiftValue {
  /// The UTF-8 length of a string value; 0 for anything else.
  @inline(__always)
  var stringBytes: Int {
    if case .string(let s) = self { return s.utf8.count }
    return 0
  }
}
