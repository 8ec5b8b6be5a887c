/// The compile-time check of a predicate compiled for a ``SiftTyped`` type: a comparison
/// of a field with a constant that no value of the field's kind can take without an error
/// (`age BEGINSWITH 'a'` on an `Int` field, `ANY name == 'x'` on a `String`), or that can
/// never be true because the kinds never compare equal (`age == 'thirty'`), is a compile
/// error with the comparison's range, like a syntax error.
///
/// The check runs the engine's own comparison rules on a representative value of each
/// shape the field's kind allows (a nil too, for an optional): a comparison is rejected
/// only when every one of them fails with a type mismatch, so the check can never reject
/// what evaluation would accept.
enum FieldTypeCheck {
  static func check(_ c: ComparisonSyntax, _ layout: FieldLayout, range: SourceRange) throws(SyntaxError) {
    if let (name, kind) = field(c.lhs, layout), case .constant(let k) = c.rhs.kind {
      try check(name, kind, c, constant: k, fieldOnLeft: true, layout, range)
    } else if let (name, kind) = field(c.rhs, layout), case .constant(let k) = c.lhs.kind, c.quantifier == nil {
      try check(name, kind, c, constant: k, fieldOnLeft: false, layout, range)
    }
  }

  /// The field a key path names in full, with its kind.
  private static func field(_ e: ExpressionSyntax, _ layout: FieldLayout) -> (String, SiftFieldKind)? {
    guard case .keyPath(nil, let keys) = e.kind, let (slot, consumed) = layout.resolve(keys[...]),
      consumed == keys.count
    else { return nil }
    return (layout.flat[slot].name, layout.flat[slot].kind)
  }

  private static func check(
    _ name: String, _ kind: SiftFieldKind, _ c: ComparisonSyntax, constant: SiftValue, fieldOnLeft: Bool,
    _ layout: FieldLayout, _ range: SourceRange
  ) throws(SyntaxError) {
    let what = "'\(name)' (\(kind) in \(layout.typeName))"
    // A quantifier needs a collection; its test then applies to the elements.
    var subjects: [SiftValue]
    if c.quantifier != nil {
      switch kind.storage {
      case .array(let element): subjects = representatives(element)
      case .optional, .any: return
      default:
        throw SyntaxError(
          "\(c.quantifier!.rawValue) needs a collection, and \(what) is not one", at: range,
          hint: "drop \(c.quantifier!.rawValue), or compare an array field")
      }
    } else {
      subjects = representatives(kind.storage)
    }
    guard !subjects.isEmpty else { return }
    if c.op == .equal || c.op == .notEqual, c.quantifier == nil, let a = family(kind.storage),
      let b = family(constant), a != b
    {
      throw SyntaxError(
        "\(what) is never equal to a \(constant.kindName): this comparison is always \(c.op == .equal ? "false" : "true")",
        at: range, hint: "compare it with a \(a) constant")
    }
    var firstError: EvaluationError? = nil
    for subject in subjects {
      do throws(EvaluationError) {
        let (lhs, rhs) = fieldOnLeft ? (subject, constant) : (constant, subject)
        _ = try Semantics.compare(lhs, c.op, rhs, c.options, regex: RegexLimits())
        return
      } catch {
        guard error.kind == .typeMismatch else { return }
        if firstError == nil { firstError = error }
      }
    }
    if let firstError {
      throw SyntaxError(
        "\(c.op.rawValue) cannot apply to \(what): \(firstError.message)", at: range,
        hint: "every value of this field would make the comparison an error")
    }
  }

  /// One value of each shape `kind` allows.
  private static func representatives(_ kind: SiftFieldKind.Storage) -> [SiftValue] {
    switch kind {
    case .string: [.string("a")]
    case .int: [.int(1)]
    case .double: [.double(1.5)]
    case .bool: [.bool(true)]
    case .date: [.date(secondsSinceReferenceDate: 1)]
    case .dictionary: [.dictionary(["k": .int(1)])]
    case .any: []
    case .optional(let k):
      representatives(k).isEmpty ? [] : [.null] + representatives(k)
    case .array(let k):
      representatives(k).isEmpty ? [] : [.array(representatives(k))]
    }
  }

  /// The kinds that compare equal among themselves (numbers and booleans together); nil
  /// for kinds that may hold anything or nil.
  private static func family(_ kind: SiftFieldKind.Storage) -> String? {
    switch kind {
    case .string: "string"
    case .int, .double, .bool: "number"
    case .date: "date"
    case .dictionary: "dictionary"
    case .array: "array"
    case .any, .optional: nil
    }
  }

  private static func family(_ value: SiftValue) -> String? {
    switch value {
    case .string: "string"
    case .int, .double, .bool: "number"
    case .date: "date"
    case .dictionary: "dictionary"
    case .array: "array"
    case .null: nil
    }
  }
}
