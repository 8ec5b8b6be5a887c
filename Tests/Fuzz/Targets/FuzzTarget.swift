/// The fuzz targets. Each takes arbitrary bytes and either returns or stops the process
/// with a message naming the broken property (libFuzzer then keeps the input as a crasher).
package enum FuzzTarget: String, CaseIterable, Sendable {
  /// Arbitrary bytes to the parser: a tree or an error, and the error renders.
  case parse
  /// Whatever parses prints, re-parses and prints again to the same text.
  case roundTrip = "round-trip"
  /// A predicate compiled and evaluated against a JSON value, a `SELF` string and a record.
  case evaluate
  /// The VM and the reference evaluator agree on the result or the error kind.
  case differential
  /// The `sift cases` JSON Lines reader: every input line gets exactly one JSON answer.
  case jsonLines = "json-lines"
  /// `sift filter`'s fast path (simdjson, only the keys the predicate reads) decides each
  /// line as the library does on Sift's own JSON value of it.
  case filter
  /// APNs payloads through SiftFocus's reader into the decision path: no trap, badges
  /// bounded, the decision table deciding as the Focus policy and the filters do.
  case apns

  /// Runs the target on one input.
  package func run(_ data: UnsafeRawBufferPointer) {
    let bytes = Array(data.bindMemory(to: UInt8.self))
    switch self {
    case .parse: ParseFuzzing.parse(bytes)
    case .roundTrip: ParseFuzzing.roundTrip(bytes)
    case .evaluate: EvaluateFuzzing.evaluate(bytes)
    case .differential: EvaluateFuzzing.differential(bytes)
    case .jsonLines: JSONLinesFuzzing.cases(bytes)
    case .filter: JSONLinesFuzzing.filter(bytes)
    case .apns: FocusFuzzing.apns(bytes)
    }
  }
}

/// Stops the process: a property a fuzz target checks does not hold.
func violated(_ property: String, _ details: @autoclosure () -> String) -> Never {
  fatalError("fuzz property violated: \(property): \(details())")
}

/// Splits fuzz input into `count` parts at the first `count - 1` zero bytes (missing
/// parts are empty), so one input carries a predicate, a JSON record and more.
func parts(_ bytes: [UInt8], _ count: Int) -> [ArraySlice<UInt8>] {
  var result: [ArraySlice<UInt8>] = []
  var rest = bytes[...]
  while result.count < count - 1, let zero = rest.firstIndex(of: 0) {
    result.append(rest[..<zero])
    rest = rest[(zero + 1)...]
  }
  result.append(rest)
  while result.count < count { result.append([]) }
  return result
}
