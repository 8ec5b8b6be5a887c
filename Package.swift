// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Sift",
  products: [
    .library(name: "Sift", targets: ["Sift"]),
    .executable(name: "sift", targets: ["SiftCLI"]),
    .library(name: "SiftFocus", targets: ["SiftFocus"]),
    .executable(name: "ExampleChatApp", targets: ["ExampleChatApp"]),
    // libsiftc.so: the C interface of include/sift.h, for other languages (python/ uses
    // it). Not "sift": that is the command line's product.
    .library(name: "siftc", type: .dynamic, targets: ["SiftC"]),
    .executable(name: "sift-nats", targets: ["SiftNATSTool"]),
    // The SQLite crash test's writer, for a service's own crash tests too.
    .executable(name: "FocusCrashWriter", targets: ["FocusCrashWriter"]),
  ],
  targets: [
    // Text to syntax tree, canonical printer, diagnostics. Standard library only.
    .target(name: "SiftSyntax", linkerSettings: [.linkedLibrary("m")]),
    // PCRE2 through a module map and a shim header (PCRE2_CODE_UNIT_WIDTH must be set before pcre2.h).
    .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
    // SQLite (Debian's libsqlite3-dev): SiftFocus's durable state for a service with many users.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // RE2 (Debian's libre2-dev) behind a small C interface: linear-time MATCHES for
    // regular patterns.
    .target(name: "CSiftRE2", linkerSettings: [.linkedLibrary("re2")]),
    // The NATS C client (Debian's libnats-dev 3.4): JetStream and its key-value store, for
    // `sift serve`.
    .systemLibrary(name: "CNATS", pkgConfig: "libnats", providers: [.apt(["libnats-dev"])]),
    // A small Swift face over CNATS: connections, streams, pull consumers, buckets.
    .target(name: "SiftNATS", dependencies: ["CNATS"]),
    // `sift-nats`: streams, buckets, publishing and reading, for the README's walk-through
    // and the serve benchmark (Debian has no NATS command-line client).
    .executableTarget(name: "SiftNATSTool", dependencies: ["SiftNATS"]),
    // simdjson (Debian's libsimdjson-dev) behind a small C interface: the JSON every
    // command reads, viewed in place by the VM. SIMDJSON_THREADS_ENABLED must match the
    // library's build (simdjson.pc): it changes the parser's layout.
    .target(
      name: "CSiftJSON",
      cxxSettings: [.define("SIMDJSON_THREADS_ENABLED", to: "1")],
      linkerSettings: [.linkedLibrary("simdjson")]
    ),
    // The engine users import: compile and evaluate; re-exports SiftSyntax.
    .target(name: "Sift", dependencies: ["SiftSyntax", "CPCRE2", "CSiftRE2", "CSiftJSON", "CSiftPrefetch"]),
    // The `sift` subcommands and their I/O, a library so tests and fuzz targets reach them.
    .target(name: "SiftCommandLine", dependencies: ["Sift", "CSiftJSON", "SiftNATS", "CSiftPrefetch"]),
    .executableTarget(name: "SiftCLI", dependencies: ["SiftCommandLine"]),
    // The C interface (include/sift.h) as @_cdecl functions over the engine's APIs.
    .target(name: "SiftC", dependencies: ["Sift", "SiftCommandLine", "CSiftJSON"]),
    // The Focus filter layer: app-side filter model, system-side decisions, notifications.
    .target(name: "SiftFocus", dependencies: ["Sift", "CSQLite", "CSiftPrefetch"]),
    // __builtin_prefetch for SiftFocus's batch decisions, the index's candidate checks and
    // `sift route`'s id table (Swift cannot spell it).
    .target(name: "CSiftPrefetch"),
    // The talk's chat app on top of SiftFocus.
    .executableTarget(name: "ExampleChatApp", dependencies: ["SiftFocus"]),
    // Writes acknowledged Focus changes until killed: the SQLite crash test's writer, and
    // the second process of the two-writer test.
    .executableTarget(name: "FocusCrashWriter", dependencies: ["SiftFocus"]),
    // Counts heap allocations for the benchmarks by interposing malloc (benchmark-only).
    .target(name: "MallocCounter", path: "Benchmarks/MallocCounter"),
    .executableTarget(
      name: "SiftBenchmarks",
      dependencies: ["Sift", "SiftFocus", "SiftCommandLine", "CPCRE2", "MallocCounter"],
      path: "Benchmarks/SiftBenchmarks"
    ),
    // The measuring half of Benchmarks/serve.sh (sift serve end to end, on a real server).
    .executableTarget(name: "ServeBench", dependencies: ["SiftNATS"], path: "Benchmarks/ServeBench"),
    // The tree-walking reference evaluator: the oracle of the differential tests and fuzzing.
    .target(name: "SiftReference", dependencies: ["Sift"], path: "Tests/SiftReference"),
    // Fuzz entry points (Tests/Fuzz/README.md); SiftFuzz is libFuzzer's binary with -DFUZZING,
    // otherwise a replay tool.
    .target(
      name: "SiftFuzzTargets", dependencies: ["Sift", "SiftReference", "SiftCommandLine", "SiftFocus", "SiftC"],
      path: "Tests/Fuzz/Targets"),
    .executableTarget(name: "SiftFuzz", dependencies: ["SiftFuzzTargets"], path: "Tests/Fuzz/SiftFuzz"),
    // The deterministic generator every test target draws its random cases from.
    .target(name: "SiftTestSupport", path: "Tests/SiftTestSupport"),
    .testTarget(name: "SiftSyntaxTests", dependencies: ["SiftSyntax", "SiftTestSupport"]),
    .testTarget(
      name: "SiftTests", dependencies: ["Sift", "SiftReference", "CSiftJSON", "SiftTestSupport"],
      exclude: ["Conformance/Cases", "Golden"]),
    .testTarget(name: "SiftCLITests", dependencies: ["SiftCLI", "SiftCommandLine", "Sift", "SiftNATS", "SiftTestSupport"]),
    .testTarget(name: "SiftFuzzTests", dependencies: ["SiftFuzzTargets"]),
    .testTarget(name: "SiftFocusTests", dependencies: ["SiftFocus"]),
    // The C interface: its C test program (Tests/C) built with `cc` and run, and its parts.
    .testTarget(name: "SiftCTests", dependencies: ["SiftC", "SiftCommandLine"]),
  ],
  swiftLanguageModes: [.v6],
  cxxLanguageStandard: .cxx17
)
