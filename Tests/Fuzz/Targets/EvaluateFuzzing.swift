import Sift
import SiftReference

enum EvaluateFuzzing {
  /// Input: predicate, 0, JSON object, 0, `SELF` string, 0, JSON array of arguments.
  static func evaluate(_ bytes: [UInt8]) {
    let input = parts(bytes, 4)
    let format = Array(input[0])
    let object = json(input[1]) ?? .null
    let selfString = String(decoding: input[2], as: UTF8.self)
    let arguments: [SiftValue]
    if case .array(let values)? = json(input[3]) { arguments = values } else { arguments = [] }

    guard let syntax = try? PredicateSyntax(parsingUTF8: format, arguments: arguments) else { return }
    let text = syntax.predicateFormat
    guard let predicate = try? SiftPredicate(format: text) else { return }
    _ = try? predicate.evaluate(with: object)
    _ = try? predicate.evaluate(with: selfString)
    _ = predicate.matches(selfString)
    _ = try? predicate.evaluate(with: object, variables: ["v": object, "s": .string(selfString)])

    // The same predicate bound to a schema built from the object's keys, on a record.
    guard case .dictionary(let fields) = object else { return }
    let names = fields.keys.sorted()
    let schema = SiftSchema(fields: names)
    let record = SiftRecord(schema: schema, values: names.map { fields[$0]! })
    if Determinism.isNondeterministic(predicate.syntax) { return }
    // A key the schema lacks is a compile error, by design; only compare what compiles.
    guard let bound = try? SiftPredicate(format: text, options: CompileOptions(schema: schema)) else { return }
    let plain = Result { () throws(EvaluationError) in try predicate.evaluate(with: object) }
    let viaRecord = Result { () throws(EvaluationError) in try bound.evaluate(with: record) }
    switch (plain, viaRecord) {
    case (.success(let a), .success(let b)) where a == b: break
    case (.failure(let a), .failure(let b)) where a.kind == b.kind: break
    default:
      violated("a record gives what its dictionary gives", "\(text) on \(object.jsonText): \(plain) vs \(viaRecord)")
    }
  }

  /// Input: predicate, 0, JSON object. MATCHES is left out: the reference uses ICU's
  /// dialect and the VM PCRE2's, which differ by design (the regex tests cover MATCHES);
  /// so are `random` and `now()`, whose two evaluations may differ.
  static func differential(_ bytes: [UInt8]) {
    let input = parts(bytes, 2)
    guard let syntax = try? PredicateSyntax(parsingUTF8: Array(input[0])) else { return }
    let text = syntax.predicateFormat
    if text.contains("MATCHES") || Determinism.isNondeterministic(syntax) { return }
    let object = json(input[1]) ?? .null
    var reference = ReferenceEvaluator()
    let expected = Result { () throws(EvaluationError) in try reference.evaluate(syntax, object: object) }
    let actual: Result<Bool, EvaluationError>
    do {
      let compiled = try SiftPredicate(format: text)
      actual = Result { () throws(EvaluationError) in try compiled.evaluate(with: object) }
    } catch {
      violated("a canonical predicate without MATCHES compiles", "\(text)\n\(error)")
    }
    switch (expected, actual) {
    case (.success(let a), .success(let b)) where a == b: return
    case (.failure(let a), .failure(let b)) where a.kind == b.kind: return
    // The reference has no step budget.
    case (_, .failure(let b)) where b.kind == .limitExceeded: return
    default:
      violated("the VM agrees with the reference", "\(text) on \(object.jsonText): reference \(expected), vm \(actual)")
    }
  }

  static func json(_ bytes: ArraySlice<UInt8>) -> SiftValue? {
    bytes.withUnsafeBufferPointer { try? SiftValue(json: $0) }
  }
}
