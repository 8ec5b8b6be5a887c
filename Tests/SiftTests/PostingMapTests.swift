import Testing

@testable import Sift

/// A key's postings come out in the order they were added, inline ones and the list
/// beyond them alike, so a match through one key needs no sort.
@Suite struct PostingMapTests {
  @Test(arguments: [1, 3, 4, 5, 6, 9, 100])
  func postingsComeOutInTheOrderTheyWereAdded(count: Int) {
    let map = PostingMap()
    for t in 0..<count {
      map.insert(42, UInt32(10 * t))
      // Another key's postings interleaved with this one's.
      map.insert(7, UInt32(10 * t + 1))
    }
    var out: [UInt32] = [99]
    map.collect(42, into: &out)
    #expect(out == [99] + (0..<count).map { UInt32(10 * $0) })
    var other: [UInt32] = []
    map.collect(7, into: &other)
    #expect(other == (0..<count).map { UInt32(10 * $0 + 1) })
    #expect(map.count(of: 42) == count)
  }

  /// Laying the lists out (``PostingMap/settle(force:)``) moves postings, never reorders or
  /// loses one: after a layout at any point of a load, and further inserts after it, every
  /// key still gives its postings in the order added.
  @Test(arguments: [0, 1, 5, 40, 199])
  func layingTheListsOutKeepsEveryKeysOrder(settleAfter: Int) {
    let map = PostingMap()
    var expected: [UInt64: [UInt32]] = [:]
    for t in 0..<200 {
      // Keys with 1 to 13 postings over the load, interleaved.
      for key in UInt64(1)...13 where t % Int(key) == 0 {
        map.insert(key, UInt32(t * 16) + UInt32(key))
        expected[key, default: []].append(UInt32(t * 16) + UInt32(key))
      }
      if t == settleAfter { map.settle(force: true) }
    }
    for (key, postings) in expected {
      var out: [UInt32] = []
      map.collect(key, into: &out)
      #expect(out == postings, "key \(key)")
    }
    map.settle(force: true)
    for (key, postings) in expected {
      var out: [UInt32] = []
      map.collect(key, into: &out)
      #expect(out == postings, "key \(key) after a second layout")
      #expect(map.count(of: key) == postings.count)
    }
  }
}
