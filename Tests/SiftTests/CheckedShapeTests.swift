import Testing

@testable import Sift

/// The index prefetches an `IN` list's storage through the value's first word
/// (``CheckedShape``): that word must be the address of the array's storage, or the hint
/// is a wasted prefetch on every candidate.
@Suite struct CheckedShapeTests {
  @Test(arguments: [1, 3, 40])
  func anArrayValuesFirstWordIsItsStorage(count: Int) {
    let value = SiftValue.array((0..<count).map { .string("acct-\($0)") })
    guard case .array(let elements) = value else { return }
    let elements0 = elements.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    let word = withUnsafePointer(to: value) { $0.arrayStorageAddress }
    // The elements follow the storage's header: the object header and the count and
    // capacity words, 32 bytes on a 64-bit platform.
    #expect(word + 32 == elements0)
  }

  @Test func theArraySlotIsTheFirstArrayTheCodeReads() throws {
    let set = SiftPredicateSet<Int>()
    try set.insert(
      format: "priority >= %@ AND filterCriteria IN %@", arguments: [.int(3), .array([.string("a"), .string("b")])],
      id: 1)
    let shapes = set.index.checkedShapes
    #expect(shapes.count == 1)
    let slot = try #require(shapes.first?.arraySlot)
    #expect(slot >= 0)
  }
}
