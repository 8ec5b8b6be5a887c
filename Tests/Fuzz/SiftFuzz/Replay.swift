#if !FUZZING
  import SiftFuzzTargets

  #if canImport(Glibc)
    import Glibc
  #endif

  /// Without `-DFUZZING` this is a replay tool: `SiftFuzz TARGET FILE…` runs each file
  /// through the target once (a crash stops it, as under libFuzzer), and
  /// `SiftFuzz --write-seeds TARGET PACKAGE_ROOT DIR` writes the target's seeds into DIR.
  @main enum Replay {
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      if arguments.first == "--write-seeds" {
        guard arguments.count == 4, let target = FuzzTarget(rawValue: arguments[1]),
          FuzzSeeds.write(FuzzSeeds.seeds(for: target, packageRoot: arguments[2]), to: arguments[3])
        else {
          printError("usage: SiftFuzz --write-seeds TARGET PACKAGE_ROOT DIR (DIR must exist)")
          exit(2)
        }
        return
      }
      guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        printError("usage: SiftFuzz \(names) FILE…\n       SiftFuzz --write-seeds TARGET PACKAGE_ROOT DIR")
        exit(2)
      }
      for path in arguments.dropFirst() {
        guard let bytes = FuzzSeeds.readFile(path) else {
          printError("SiftFuzz: cannot read \(path)")
          exit(1)
        }
        bytes.withUnsafeBytes { target.run($0) }
        print("ok: \(path)")
      }
    }

    static func printError(_ message: String) {
      let line = Array((message + "\n").utf8)
      _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
  }
#endif
