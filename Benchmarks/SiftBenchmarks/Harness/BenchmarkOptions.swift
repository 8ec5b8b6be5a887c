/// Command-line options shared by every suite.
///
/// `--quick`, `--json`, `--filter TEXT` (or a positional TEXT), `--count N`, and for the
/// evaluation rows `--engine NAME[,NAME…]` (exact engine names) and `--mode hot|stream`.
struct BenchmarkOptions {
  var quick = false
  var json = false
  var filter: String? = nil
  var count: Int? = nil
  /// Exact engine names to run in the evaluation suite; nil runs every engine.
  var engines: Set<String>? = nil
  /// `hot` or `stream`; nil runs both.
  var mode: String? = nil

  init(_ arguments: [String]) {
    var rest = arguments[...]
    while let arg = rest.popFirst() {
      switch arg {
      case "--quick": quick = true
      case "--json": json = true
      case "--filter": filter = rest.popFirst()
      case "--count": count = rest.popFirst().flatMap { Int($0) }
      case "--engine": engines = rest.popFirst().map { Set($0.split(separator: ",").map(String.init)) }
      case "--mode": mode = rest.popFirst()
      default: filter = arg
      }
    }
  }

  func includes(_ name: String) -> Bool {
    guard let filter else { return true }
    return name.contains(filter)
  }

  var sampler: Sampler {
    var s =
      quick ? Sampler(rounds: 5, minimumRoundNanoseconds: 20e6) : Sampler(rounds: 11, minimumRoundNanoseconds: 100e6)
    s.fixedCount = count
    return s
  }
}
