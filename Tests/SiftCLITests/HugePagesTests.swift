import Testing

@testable import SiftCommandLine

/// `sift route` and `sift serve` advise their heap onto huge pages once the rules are
/// loaded: which mappings that touches, and that the hint leaves memory as it was.
@Suite struct HugePagesTests {
  static let lines: [(line: String, range: Range<Int>?)] = [
    ("55d0a0000000-55d0a4000000 rw-p 00000000 00:00 0 \n", 0x55d0_a000_0000..<0x55d0_a400_0000),
    ("55d0a0000000-55d0a4000000 rw-p 00000000 00:00 0\n", 0x55d0_a000_0000..<0x55d0_a400_0000),
    (
      "55d0a0000000-55d0a4000000 rw-p 00000000 00:00 0                          [heap]\n",
      0x55d0_a000_0000..<0x55d0_a400_0000
    ),
    // A file's pages, shared memory, the stack, read-only or executable mappings: left alone.
    ("7f0000000000-7f0000200000 rw-p 00001000 08:01 1234 /usr/lib/libc.so.6\n", nil),
    ("7f0000000000-7f0000200000 rw-s 00000000 00:05 99 /dev/zero (deleted)\n", nil),
    ("7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]\n", nil),
    ("7f0000000000-7f0000200000 r--p 00000000 00:00 0\n", nil),
    ("7f0000000000-7f0000200000 r-xp 00000000 00:00 0\n", nil),
    // What does not parse is no mapping.
    ("", nil), ("garbage\n", nil), ("zz-10 rw-p 00000000 00:00 0\n", nil), ("20-10 rw-p 00000000 00:00 0\n", nil),
  ]

  @Test(arguments: lines)
  func mapsLinesAreReadAsAnonymousMappingsOrNot(_ line: String, _ range: Range<Int>?) {
    #expect(HugePages.anonymousRange(line) == range)
  }

  /// The mappings read from `/proc/self/maps` include a buffer this process just made.
  @Test func theProcessHeapIsFound() {
    let buffer = [UInt64](repeating: 7, count: 1 << 20)
    let address = buffer.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
    #expect(HugePages.anonymousMappings().contains { $0.contains(address) })
  }

  /// A hint only: what the heap held before, it holds after.
  @Test func advisingTheHeapKeepsItsContents() {
    let buffer = (0..<(4 << 20)).map { UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) }
    #expect(HugePages.adviseHeap() >= 0)
    #expect(buffer.enumerated().allSatisfy { $0.element == UInt32(truncatingIfNeeded: $0.offset &* 2_654_435_761) })
  }
}
