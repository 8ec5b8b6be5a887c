/// The working arrays of one ``PredicateIndex`` match: the candidates the groups propose,
/// the slots that match, and each group path's value. A caller that matches many inputs
/// (``SetJSONMatcher``: one per thread) keeps one, so a match reuses their memory rather
/// than allocating four arrays and growing the candidate list a doubling at a time.
struct MatchScratch {
  var candidates: [UInt32] = []
  var out: [UInt32] = []
  var pathValues: [SiftValue?] = []
  var pathRead: [Bool] = []
  /// The lanes and budgets of ``PredicateIndex/checkChain(_:_:pool:objectPool:reader:lanes:steps:matched:)``.
  var lanes: [UInt32] = []
  var steps: [Int] = []

  /// Empties every array for the next match, keeping their memory; `paths` values, all
  /// unread.
  mutating func reset(paths: Int) {
    candidates.removeAll(keepingCapacity: true)
    out.removeAll(keepingCapacity: true)
    if pathValues.count != paths {
      pathValues = Array(repeating: nil, count: paths)
      pathRead = Array(repeating: false, count: paths)
      return
    }
    for p in 0..<paths where pathRead[p] {
      pathRead[p] = false
      pathValues[p] = nil
    }
  }
}
