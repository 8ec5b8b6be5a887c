import Foundation
import Sift

/// One evaluation row's figures.
struct EvaluationResult {
  var workload: String
  var engine: String
  var mode: String
  /// Median over rounds.
  var nanosecondsPerEvaluation: Double
  /// Median over rounds of closure time / engine time; NaN without a closure row.
  var ratioToClosure: Double
  /// Hot: matches in one pass over the hot set; stream: over the whole pass; nil with `--count`.
  var matches: Int?
  /// Over an untimed pass of the hot set (hot and stream rows show the same figure).
  var allocationsPerEvaluation: Double

  var evaluationsPerSecond: Double { 1e9 / nanosecondsPerEvaluation }
}

/// Table and JSON Lines output of the evaluation rows.
enum EvaluationReport {
  static func header(_ title: String, _ options: BenchmarkOptions) {
    guard !options.json else { return }
    print("")
    print(title)
    print(
      "  " + "engine".padding(23) + "evals/s".leftPadding(10) + "ns/eval".leftPadding(10)
        + "ratio".leftPadding(9) + "matches".leftPadding(10) + "allocs/eval".leftPadding(13))
  }

  static func row(_ r: EvaluationResult, _ options: BenchmarkOptions) {
    if options.json {
      print(
        JSONLine.make([
          "suite": "eval", "workload": .string(r.workload), "engine": .string(r.engine), "mode": .string(r.mode),
          "evals_per_sec": JSONLine.number(r.evaluationsPerSecond.rounded()),
          "ns_per_eval": JSONLine.number(rounded(r.nanosecondsPerEvaluation, 2)),
          "ratio_to_closure": JSONLine.number(rounded(r.ratioToClosure, 4)),
          "matches": r.matches.map { .int($0) } ?? .null,
          "allocs_per_eval": JSONLine.number(rounded(r.allocationsPerEvaluation, 3)),
        ]))
    } else {
      print(
        "  " + r.engine.padding(23) + rate(r.evaluationsPerSecond).leftPadding(10)
          + fixed(r.nanosecondsPerEvaluation, 1).leftPadding(10) + ratio(r.ratioToClosure).leftPadding(9)
          + (r.matches.map(String.init) ?? "-").leftPadding(10) + fixed(r.allocationsPerEvaluation, 2).leftPadding(13))
    }
    fflush(nil)  // a full run takes minutes: show each row as it comes, also when piped
  }

  private static func rounded(_ x: Double, _ digits: Int) -> Double {
    guard x.isFinite else { return x }
    let scale = (0..<digits).reduce(1.0) { p, _ in p * 10 }
    return (x * scale).rounded() / scale
  }

  private static func fixed(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return "-" }
    let r = rounded(x, digits)
    if digits == 0 { return String(Int(r)) }
    var s = String(r)
    if let dot = s.firstIndex(of: ".") {
      let have = s.distance(from: dot, to: s.endIndex) - 1
      if have < digits { s += String(repeating: "0", count: digits - have) }
    } else if digits > 0 {
      s += "." + String(repeating: "0", count: digits)
    }
    return s
  }

  /// Evaluations per second with a unit: 26.8M, 512k.
  private static func rate(_ x: Double) -> String {
    guard x.isFinite else { return "-" }
    if x >= 1e6 { return fixed(x / 1e6, x >= 1e8 ? 0 : 2) + "M" }
    if x >= 1e3 { return fixed(x / 1e3, 1) + "k" }
    return fixed(x, 0)
  }

  /// Three significant digits: 1.00, 0.123, 0.0042.
  private static func ratio(_ x: Double) -> String {
    guard x.isFinite else { return "-" }
    if x >= 100 { return fixed(x, 0) }
    if x >= 10 { return fixed(x, 1) }
    if x >= 1 { return fixed(x, 2) }
    if x >= 0.1 { return fixed(x, 3) }
    if x >= 0.01 { return fixed(x, 4) }
    return fixed(x, 5)
  }
}
