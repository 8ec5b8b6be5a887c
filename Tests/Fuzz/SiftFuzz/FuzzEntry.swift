import SiftFuzzTargets

#if canImport(Glibc)
  import Glibc
#endif

/// The target libFuzzer runs, chosen once from `SIFT_FUZZ_TARGET` (Tests/Fuzz/fuzz.sh sets it).
nonisolated(unsafe) var selectedTarget: FuzzTarget?

/// libFuzzer's entry point: one input through the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  if selectedTarget == nil {
    let name = getenv("SIFT_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      fatalError(
        "set SIFT_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    selectedTarget = target
  }
  selectedTarget!.run(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

/// With `SIFT_FUZZ_WRITE_SEEDS=DIR` (and `SIFT_PACKAGE_ROOT`) the fuzz binary writes the
/// selected target's seeds into DIR and exits, so fuzz.sh needs no second build for them.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  guard let dir = getenv("SIFT_FUZZ_WRITE_SEEDS").map({ String(cString: $0) }) else { return 0 }
  let root = getenv("SIFT_PACKAGE_ROOT").map { String(cString: $0) } ?? "."
  let name = getenv("SIFT_FUZZ_TARGET").map { String(cString: $0) } ?? ""
  guard let target = FuzzTarget(rawValue: name),
    FuzzSeeds.write(FuzzSeeds.seeds(for: target, packageRoot: root), to: dir)
  else { fatalError("cannot write the seeds of '\(name)' to \(dir)") }
  exit(0)
}
