import Sift
import Testing

/// Every conformance case through the compiler and the VM.
@Suite("Conformance: compiler and VM")
struct EngineConformanceTests {
  /// What the engine makes of a case. A compile error on text that parses (an invalid
  /// constant MATCHES pattern) is the `regex` error Semantics.md says it is.
  static func run(_ c: ConformanceCase) -> ConformanceCase.Expectation {
    guard (try? PredicateSyntax(parsing: c.format, arguments: c.arguments)) != nil else { return .parseError }
    let predicate: SiftPredicate
    do {
      predicate = try SiftPredicate(format: c.format, arguments: c.arguments)
    } catch {
      return error.error.message.contains("MATCHES") ? .error(.regex) : .parseError
    }
    do {
      return .result(try predicate.evaluate(with: c.object, variables: c.variables))
    } catch {
      return .error(error.kind)
    }
  }

  @Test(arguments: ConformanceData.all)
  func conformance(_ c: ConformanceCase) {
    if let problem = c.loadError {
      Issue.record("\(problem)")
      return
    }
    #expect(Self.run(c) == c.expectation, "\(c.location): \(c.format)")
  }
}

/// Every input kind gives the same answer: a string `SELF` (the one-test kernel), a
/// schema-bound record (slots and the record kernel) and a ``SiftKeyValueCoding`` object
/// against the value tree, case by case over the conformance data.
@Suite("Conformance: input kinds agree")
struct InputKindTests {
  struct Object: SiftKeyValueCoding {
    let entries: [String: SiftValue]
    let whole: SiftValue
    func siftValue(forKey key: String) -> SiftValue? { entries[key] }
    var siftSelfValue: SiftValue { whole }
  }

  /// A typed value whose fields are the case object's keys, read through closures typed
  /// after each value (String, Int, Double, Bool, [String], or SiftValue for the rest).
  struct Bag: SiftTyped {
    var values: [SiftValue]
    static let siftFields = SiftFields<Bag>()

    static func fields(_ keys: [String], _ values: [SiftValue]) -> SiftFields<Bag> {
      var table = SiftFields<Bag>()
      for (i, (key, value)) in zip(keys, values).enumerated() {
        switch value {
        case .string(let x): table = table.field(key) { _ in x }
        case .int(let x): table = table.field(key) { _ in x }
        case .double(let x): table = table.field(key) { _ in x }
        case .bool(let x): table = table.field(key) { _ in x }
        case .array(let a) where a.allSatisfy({ if case .string = $0 { true } else { false } }):
          let strings = a.map { if case .string(let x) = $0 { x } else { "" } }
          table = table.field(key) { _ in strings }
        default: table = table.field(key) { $0.values[i] }
        }
      }
      return table
    }
  }

  static func outcome(_ body: () throws(EvaluationError) -> Bool) -> ConformanceCase.Expectation {
    do throws(EvaluationError) { return .result(try body()) } catch { return .error(error.kind) }
  }

  static let strings = ["", "a", "acct-1", "work", "Re\u{301}sume\u{301}", "RÉSUMÉ", "invoice 42", "x.y"]

  @Test func allInputKindsAgreeWithTheValueTree() throws {
    var compared = (strings: 0, records: 0, objects: 0, typed: 0)
    for c in ConformanceData.all where c.loadError == nil {
      guard let predicate = try? SiftPredicate(format: c.format, arguments: c.arguments) else { continue }
      let tree = Self.outcome { () throws(EvaluationError) in
        try predicate.evaluate(with: c.object, variables: c.variables)
      }
      // Every predicate against a few strings as SELF: the String entry point (and its
      // kernel) against the same string as a value.
      for s in Self.strings {
        let viaString = Self.outcome { () throws(EvaluationError) in
          try predicate.evaluate(with: s, variables: c.variables)
        }
        let viaValue = Self.outcome { () throws(EvaluationError) in
          try predicate.evaluate(with: SiftValue.string(s), variables: c.variables)
        }
        #expect(viaString == viaValue, "\(c.location): \(c.format) on \(s)")
        compared.strings += 1
      }
      switch c.object {
      case .dictionary(let d):
        let object = Object(entries: d, whole: c.object)
        let viaObject = Self.outcome { () throws(EvaluationError) in
          try predicate.evaluate(with: object, variables: c.variables)
        }
        #expect(viaObject == tree, "\(c.location): \(c.format)")
        compared.objects += 1
        // Keys that differ only in normalisation would share a slot; such objects are
        // not records.
        guard Set(d.keys).count == d.count else { continue }
        let fields = d.keys.sorted()
        let schema = SiftSchema(fields: fields)
        guard
          let bound = try? SiftPredicate(
            format: c.format, arguments: c.arguments, options: CompileOptions(schema: schema))
        else { continue }
        let record = SiftRecord(schema: schema, values: fields.map { d[$0]! })
        let viaRecord = Self.outcome { () throws(EvaluationError) in
          try bound.evaluate(with: record, variables: c.variables)
        }
        #expect(viaRecord == tree, "\(c.location): \(c.format)")
        compared.records += 1
        // Keys with a dot name nested fields in a typed value; such objects are not typed.
        guard !fields.contains(where: { $0.contains(".") }) else { continue }
        let values = fields.map { d[$0]! }
        if let typed = try? SiftPredicate(
          format: c.format, arguments: c.arguments, fields: Bag.fields(fields, values))
        {
          let viaTyped = Self.outcome { () throws(EvaluationError) in
            try typed.evaluate(with: Bag(values: values), variables: c.variables)
          }
          #expect(viaTyped == tree, "\(c.location): \(c.format) (typed)")
          compared.typed += 1
        }
      default: continue
      }
    }
    // The data must exercise each path for the comparison to mean something.
    #expect(
      compared.strings > 5000 && compared.records > 300 && compared.objects > 300 && compared.typed > 250, "\(compared)"
    )
  }
}
