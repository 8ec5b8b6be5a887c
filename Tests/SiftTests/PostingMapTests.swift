import Testing

@testable import Sift

/// A key's postings come out in the order they were added, inline ones and the list
/// beyond them alike, so a match through one key needs no sort.
@Suite struct PostingMapTests {
  @Test(arguments: [1, 3, 4, 5, 6, 9, 100])
  func postingsComeOutInTheOrderTheyWereAdded(count: Int) {
    var map = PostingMap()
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
}
