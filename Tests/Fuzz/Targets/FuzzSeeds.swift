import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// Seed inputs for each target, built from the grammar's examples (`Grammar/examples`) and
/// the conformance cases (`Tests/SiftTests/Conformance/Cases`), so fuzzing starts from the
/// whole language rather than from nothing.
package enum FuzzSeeds {
  /// The seeds of `target`, given the package root.
  package static func seeds(for target: FuzzTarget, packageRoot root: String) -> [[UInt8]] {
    let predicates = grammarExamples(root) + conformanceCases(root).map(\.format)
    switch target {
    case .parse, .roundTrip:
      return predicates
    case .evaluate:
      return conformanceCases(root).map { c in
        c.format + [0] + c.object + [0] + Array("work-account-identifier".utf8) + [0] + c.args
      }
    case .differential:
      return conformanceCases(root).map { $0.format + [0] + $0.object }
    case .filter:
      // Each conformance predicate with its arguments over a few objects from the cases,
      // one per line; then keys that only `%K` can name (a NUL, a dot, a quote).
      let cases = conformanceCases(root)
      let seeds = cases.enumerated().map { index, c in
        let objects = (0..<4).map { cases[(index &* 7 &+ $0 &* 13) % cases.count].object }
        return c.format + [0] + c.args + [0] + Array(objects.joined(separator: [0x0A])) + [0x0A]
      }
      let keys = [#""a\u0000b""#, #""a.b""#, #""\u0000""#, #""q\"""#]
      return seeds
        + keys.map { key in
          Array("%K == 1\0[\(key)]\0{\(key): 1}\n{\(key): 2, \"a\": 1}\n{\"a\": 1, \(key): 1}\n".utf8)
        }
    case .apns:
      return FocusFuzzing.seeds
    case .jsonLines:
      // Conformance files are JSON Lines of `sift cases` requests already; each seed
      // takes a few lines, with one shape byte in front.
      let lines = conformanceLines(root)
      return stride(from: 0, to: lines.count, by: 4).map { start in
        let chunk = lines[start..<min(start + 4, lines.count)]
        return [UInt8(truncatingIfNeeded: start &* 37)] + Array(chunk.joined(separator: [0x0A]))
      }
    }
  }

  struct Case {
    var format: [UInt8]
    var object: [UInt8]
    var args: [UInt8]
  }

  static func grammarExamples(_ root: String) -> [[UInt8]] {
    ["valid", "invalid", "known-issues"].flatMap { folder -> [[UInt8]] in
      let dir = "\(root)/Grammar/examples/\(folder)"
      return files(in: dir).filter { $0.hasSuffix(".predicate") }.compactMap { readFile("\(dir)/\($0)") }
    }
  }

  static func conformanceLines(_ root: String) -> [[UInt8]] {
    let dir = "\(root)/Tests/SiftTests/Conformance/Cases"
    return files(in: dir).filter { $0.hasSuffix(".jsonl") }.flatMap { name -> [[UInt8]] in
      (readFile("\(dir)/\(name)") ?? []).split(separator: 0x0A).map(Array.init)
    }
  }

  static func conformanceCases(_ root: String) -> [Case] {
    conformanceLines(root).compactMap { line in
      guard case .dictionary(let c)? = try? line.withUnsafeBufferPointer({ try SiftValue(json: $0) }),
        case .string(let format)? = c["format"]
      else { return nil }
      return Case(
        format: Array(format.utf8), object: Array((c["object"] ?? .null).jsonText.utf8),
        args: Array((c["args"] ?? .array([])).jsonText.utf8))
    }
  }

  /// The names in a directory, sorted (so seeds come out in the same order every run).
  package static func files(in dir: String) -> [String] {
    guard let handle = opendir(dir) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// A whole file, or nil when it cannot be read.
  package static func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = fread(&chunk, 1, chunk.count, file)
      if n > 0 { bytes.append(contentsOf: chunk[..<n]) }
      if n < chunk.count { break }
    }
    return bytes
  }

  /// Writes `seeds` as files `seed-0001`, … into `dir` (which must exist).
  package static func write(_ seeds: [[UInt8]], to dir: String) -> Bool {
    for (index, seed) in seeds.enumerated() {
      let name = "\(dir)/seed-\(String(index + 1).leftPadded(to: 4))"
      guard let file = fopen(name, "wb") else { return false }
      let written = seed.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
      fclose(file)
      guard written == seed.count else { return false }
    }
    return true
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
