import Sift

/// One `--json` record: the fields in the order given, written by Sift's JSON writer, so
/// every name and string is escaped (a workload named `redos (\w+\s?)+$ 1KB` keeps its
/// backslashes, and a quote or a control character cannot end the string), and a figure
/// that is not finite is `null` (JSON has no NaN or infinity).
enum JSONLine {
  static func make(_ fields: KeyValuePairs<String, SiftValue>) -> String {
    var out = "{"
    for (i, field) in fields.enumerated() {
      if i > 0 { out += ", " }
      JSONWriter.writeString(field.key, to: &out)
      out += ": "
      JSONWriter.write(field.value, to: &out)
    }
    return out + "}"
  }

  /// A row of the `focus-scale` and `index` suites: a named figure, its unit and, where
  /// one is set, its target.
  static func make(suite: String, _ name: String, value: Double, unit: String, target: String?) -> String {
    guard let target else {
      return make(["suite": .string(suite), "workload": .string(name), "value": number(value), "unit": .string(unit)])
    }
    return make([
      "suite": .string(suite), "workload": .string(name), "value": number(value), "unit": .string(unit),
      "target": number(target),
    ])
  }

  /// A figure: whole numbers without a fraction, others as the shortest double that reads
  /// back; `null` when not finite.
  static func number(_ x: Double) -> SiftValue {
    guard x.isFinite else { return .null }
    if x == x.rounded(), abs(x) < 1e15 { return .int(Int(x)) }
    return .double(x)
  }

  /// A `target` column, written in the source as text ("0.5", "1000000"): its number, or
  /// the text itself when it is not one.
  static func number(_ text: String) -> SiftValue {
    Double(text).map(number) ?? .string(text)
  }
}
