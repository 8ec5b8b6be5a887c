import SiftTestSupport
import Testing

@testable import Sift

/// A predicate set packs each short `IN` list of strings into bytes (``PackedStrings``)
/// instead of keeping an array per predicate: the packing must read back as the list, and
/// a set must answer as each predicate alone does for every kind of subject, also after a
/// rebuild has packed the lists again.
@Suite struct PackedStringsTests {
  static let lists: [[String]] = [
    [""], ["a"], ["acct-1", "acct-22", "acct-333"], ["é", "e\u{301}", "ß", "日本語"],
    (0..<StringSet.linearLimit).map { "member-\($0)" }, [String(repeating: "long ", count: 40)],
    // Over a quarter of the arena's 1 MiB chunk: a packing of its own, outside the chunks.
    ["a", String(repeating: "x", count: 300_000)],
  ]

  @Test(arguments: lists)
  func aPackingReadsBackAsItsList(_ list: [String]) {
    let members = list.map(SiftValue.string)
    let arena = PackedStringArena()
    guard case .int(let address)? = arena.pack(members), let packed = UnsafeRawPointer(bitPattern: address) else {
      Issue.record("a packing is an address")
      return
    }
    #expect(PackedStrings.array(packed) == .array(members))
    for s in list + ["", "acct-2", "e", "member-99"] {
      let expected = list.contains { Array($0.utf8) == Array(s.utf8) }
      #expect(withUTF8Bytes(s) { PackedStrings.contains(packed, $0) } == expected, "\(s) in \(list)")
    }
  }

  /// Subjects of every kind against a set of `x IN %@ AND n >= %@` predicates: strings in
  /// and out of the lists (also canonically equal spellings), numbers, null, arrays, a
  /// missing key.
  @Test func aSetAnswersAsEachPredicateAloneForEverySubject() throws {
    var rng = SplitMix64(seed: 5)
    let pool = ["acct-1", "acct-2", "acct-3", "é", "e\u{301}", "", "x"]
    var predicates: [SiftPredicate] = []
    let set = SiftPredicateSet<Int>()
    for id in 0..<2_100 {
      let count = 1 + rng.below(StringSet.linearLimit + 2)
      let list = SiftValue.array((0..<count).map { _ in .string(rng.pick(pool)) })
      let args: [SiftValue] = [list, .int(rng.below(3))]
      let format = rng.chance(50) ? "x IN %@ AND n >= %@" : "ANY x IN %@ OR n == %@"
      predicates.append(try SiftPredicate(format: format, arguments: args))
      try set.insert(format: format, arguments: args, id: id)
    }
    let subjects: [SiftValue] =
      pool.map(SiftValue.string) + [
        .int(1), .double(2.5), .bool(true), .null, .array([.string("acct-2")]), .array([.int(1), .string("x")]),
        .dictionary(["k": .string("acct-1")]),
      ]
    func check(_ label: String) {
      for subject in subjects {
        for n in [0, 2] {
          let record = SiftValue.dictionary(["x": subject, "n": .int(n)])
          let expected = predicates.indices.filter { predicates[$0].matches(record) && set.contains(id: $0) }
          #expect(set.matches(record) == expected, "\(label): \(subject), n = \(n)")
        }
      }
      let missing = SiftValue.dictionary(["n": .int(2)])
      #expect(
        set.matches(missing) == predicates.indices.filter { predicates[$0].matches(missing) && set.contains(id: $0) })
    }
    check("as inserted")
    // By the 1,051st removal at the latest (more free slots than live ones, over 1,024)
    // the set rebuilds, packing the rest again; a rebuild renumbers the slots.
    for id in 0..<1_051 { _ = set.remove(id: id) }
    #expect(set.index.slotCount < 2_100, "the set rebuilt")
    check("after a rebuild")
  }
}
