/// The cost model of an evaluation: what each kind of work takes from the one budget,
/// ``EvaluationLimits/maxSteps`` (Documentation/Limits.md lists it with measured times).
/// Every kind of work that can grow with the input is charged in proportion to the bytes
/// or elements it touches, so a budget bounds time, not just loop iterations:
///
/// | work | steps |
/// | --- | --- |
/// | a collection element visited (ANY/ALL/NONE, IN/CONTAINS on a collection, `==` of two collections, a key path mapped over an array, a collection operator, an aggregate function) | 1 |
/// | a SUBQUERY element | 1 + the instructions of the subpredicate / 4 |
/// | a string compared, searched or matched (`==`, `<`…, BEGINSWITH, ENDSWITH, CONTAINS, IN a string, MATCHES on a linear engine) | its bytes / 64 |
/// | the same under `[c]` or `[d]` (text may be folded) | its bytes / 8 |
/// | LIKE | subject bytes × (1 + pattern bytes / 8) / 64 |
/// | MATCHES on PCRE2's backtracking (back references, lookaround, …) | subject bytes / 64, then per tier of match limit `L`: `L` × (1 + subject bytes / 16); the first tier is worth about 16,384 steps, each next one has 8 times the limit, the last one what the budget has left |
/// | a string built (`+`, `uppercase:`, `lowercase:`, `CAST` to a string) | its bytes / 64 |
/// | a pattern compiled at evaluation time (MATCHES or LIKE against a value) | its bytes / 8 |
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

  /// The steps of a LIKE over `bytes` with a pattern of `patternBytes`: the matcher may
  /// revisit the subject once per pattern unit in the worst case.
  @inline(__always)
  static func like(_ bytes: Int, patternBytes: Int) -> Int { (bytes * (1 + patternBytes >> 3)) >> 6 }
}

extension SiftValue {
  /// The UTF-8 length of a string value; 0 for anything else.
  @inline(__always)
  var stringBytes: Int {
    if case .string(let s) = self { return s.utf8.count }
    return 0
  }
}
