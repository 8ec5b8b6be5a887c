import Sift

enum ParseFuzzing {
  static func parse(_ bytes: [UInt8]) {
    do {
      let syntax = try PredicateSyntax(parsingUTF8: bytes)
      _ = syntax.predicateFormat
    } catch {
      // The rendered diagnostic (caret line included) must be producible for any input.
      _ = error.description
    }
  }

  static func roundTrip(_ bytes: [UInt8]) {
    guard let syntax = try? PredicateSyntax(parsingUTF8: bytes) else { return }
    let printed = syntax.predicateFormat
    let again: PredicateSyntax
    do {
      again = try PredicateSyntax(parsing: printed)
    } catch {
      violated(
        "canonical text parses", "input: \(String(decoding: bytes, as: UTF8.self))\nprinted: \(printed)\n\(error)")
    }
    guard again.predicateFormat == printed else {
      violated(
        "printing is a fixed point",
        "input: \(String(decoding: bytes, as: UTF8.self))\nprinted: \(printed)\nagain: \(again.predicateFormat)")
    }
  }
}
