import SiftFuzzTargets
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every fuzz target over its seeds (the grammar examples and conformance cases) and over
/// every crasher kept in `Tests/Fuzz/Crashers/<target>/`: a fixed crash stays fixed. A
/// property that breaks stops the test process with the property's name.
@Suite struct FuzzReplayTests {
  static let root: String = {
    // …/Tests/SiftFuzzTests/FuzzReplayTests.swift → the package root.
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
  }()

  @Test(arguments: FuzzTarget.allCases)
  func seedsPass(_ target: FuzzTarget) {
    let seeds = FuzzSeeds.seeds(for: target, packageRoot: Self.root)
    #expect(seeds.count > 100, "seeds for \(target.rawValue) were not found under \(Self.root)")
    for seed in seeds { seed.withUnsafeBytes { target.run($0) } }
  }

  @Test(arguments: FuzzTarget.allCases)
  func crashersStayFixed(_ target: FuzzTarget) {
    let dir = "\(Self.root)/Tests/Fuzz/Crashers/\(target.rawValue)"
    #expect(access(dir, F_OK) == 0, "missing \(dir)")
    for name in FuzzSeeds.files(in: dir) where !name.hasPrefix(".") {
      let bytes = FuzzSeeds.readFile("\(dir)/\(name)")
      #expect(bytes != nil, "cannot read \(name)")
      bytes?.withUnsafeBytes { target.run($0) }
    }
  }
}
