#if canImport(Glibc)
  import Glibc
#endif

/// Asks Linux to back the process's heap with 2 MB pages, once a long-running command has
/// loaded what it reads for the rest of its life (the rules of `sift route` and `sift
/// serve`).
///
/// Why: a line's candidates are runs scattered over an index of hundreds of megabytes, and
/// so are their `IN` lists and the ids written for them. With 4 KB pages each is on a page
/// of its own, more pages than the TLB holds, so a check waits for a page walk as well as
/// for the line (perf on `Benchmarks/route-scale.sh`: loading the candidates' headers was
/// 19 % of routing). Measured: routing 1.01–1.51× as fast, median 1.32× over six
/// interleaved pairs of one binary with and without the advice, 1,000,000 rules.
///
/// How: every private anonymous mapping (the heap, and the blocks malloc maps on their own)
/// gets `MADV_HUGEPAGE`, so that later faults in it take huge pages where the system allows,
/// and `MADV_COLLAPSE` (Linux 6.1), which turns its pages into huge pages now rather than
/// when `khugepaged` gets round to it. Both are hints: where the kernel lacks them,
/// transparent huge pages are off (`never` in `/sys/kernel/mm/transparent_hugepage/enabled`)
/// or no huge page is free, they fail and nothing changes but speed. Peak memory and load
/// time did not change.
enum HugePages {
  /// `MADV_COLLAPSE` from Linux's `mman-common.h`; Debian 12's C library predates it.
  private static let collapse: Int32 = 25
  private static let size = 2 << 20

  /// Advises every private anonymous mapping that holds a whole huge page; returns how
  /// many the kernel collapsed.
  @discardableResult
  static func adviseHeap() -> Int {
    var collapsed = 0
    for range in anonymousMappings() {
      // Only whole huge pages inside the mapping.
      let start = (range.lowerBound + size - 1) & ~(size - 1)
      let end = range.upperBound & ~(size - 1)
      guard end > start, let address = UnsafeMutableRawPointer(bitPattern: start) else { continue }
      _ = madvise(address, end - start, MADV_HUGEPAGE)
      if madvise(address, end - start, collapse) == 0 { collapsed += 1 }
    }
    return collapsed
  }

  /// The private read-write mappings of no file (and the `[heap]`), from `/proc/self/maps`.
  static func anonymousMappings() -> [Range<Int>] {
    guard let file = fopen("/proc/self/maps", "r") else { return [] }
    defer { fclose(file) }
    var ranges: [Range<Int>] = []
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0, let line {
      if let range = anonymousRange(String(cString: line)) { ranges.append(range) }
    }
    return ranges
  }

  /// One line of `/proc/self/maps` (`start-end perms offset dev inode [path]`): its range
  /// when it is a private read-write mapping of no file, or the `[heap]`.
  static func anonymousRange(_ line: String) -> Range<Int>? {
    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard fields.count >= 5, fields[1].hasPrefix("rw"), fields[1].hasSuffix("p"), fields[4] == "0" else {
      return nil
    }
    if fields.count > 5 && fields[5] != "[heap]" { return nil }
    let bounds = fields[0].split(separator: "-")
    guard bounds.count == 2, let start = Int(bounds[0], radix: 16), let end = Int(bounds[1], radix: 16), start < end
    else { return nil }
    return start..<end
  }
}
