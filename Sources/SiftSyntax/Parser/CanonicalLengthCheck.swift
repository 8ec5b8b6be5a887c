/// The last check of a parse: a tree the parser accepts prints (``PredicateSyntax/predicateFormat``)
/// to text it accepts again, so the parser refuses a tree whose canonical text would be
/// longer than ``SyntaxLimits/maxInputLength``.
///
/// Text grows when printed: a control character in a string prints as six bytes
/// (`\u0001`), `1e15` as `1000000000000000.0`, `a=NO` as `a == FALSE`. And an argument
/// prints as its own text, which the input length does not count: `%K == 1` with a key of
/// 1,040,000 NULs would print as 6,240,008 bytes, `a == %@` with 200,000 `\u{1}` as 1.2 MB.
///
/// **Cheap.** The source's own tokens print to at most 6 bytes each of theirs (a control
/// character in a string; `LimitsTests.canonicalTextGrowsAtMostSixfold`), and an argument
/// to at most ``argumentBound(_:)``. A parse whose bound, with a margin (8 × the text), fits
/// the limit is accepted without more work: every predicate under 128 KiB without large
/// string arguments. Any other is measured by the printer itself, counting bytes
/// (``CanonicalLength``) without building the text.
///
/// **Collection arguments are not counted.** An array or dictionary bound by `%@` (the
/// ids of `account IN %@`) is measured as `{}`: passing lists too large for the text is
/// what `%@` is for (``SyntaxLimits/maxAggregateElements``' hint says so), a list of more
/// than 10,000 elements does not parse back as a literal aggregate anyway, and a
/// dictionary prints in a form that is for reading only. A bound string, key path or
/// number is a value the text could have held, and is held to the text's limit.
enum CanonicalLengthCheck {
  /// The margin on the source's own growth (at most 6) below which nothing is measured.
  static let textGrowthBound = 8

  /// Throws when `tree`, parsed from `textBytes` bytes with `arguments` bound to its
  /// specifiers, prints to more than `limit` bytes.
  static func check(
    _ tree: PredicateSyntax, textBytes: Int, arguments: ArraySlice<SiftValue>, limit: Int
  ) throws(SyntaxError) {
    guard mayExceed(textBytes: textBytes, arguments: arguments, limit: limit) else { return }
    let measured = arguments.contains(where: isCollection) ? CollectionElision().predicate(tree) : tree
    let length = CanonicalPrinter.length(measured)
    if length > limit { throw error("predicate", length: length, limit: limit, textBytes: textBytes) }
  }

  /// The same for an expression parsed on its own.
  static func check(
    _ tree: ExpressionSyntax, textBytes: Int, arguments: ArraySlice<SiftValue>, limit: Int
  ) throws(SyntaxError) {
    guard mayExceed(textBytes: textBytes, arguments: arguments, limit: limit) else { return }
    let measured = arguments.contains(where: isCollection) ? CollectionElision().expression(tree) : tree
    let length = CanonicalPrinter.length(measured)
    if length > limit { throw error("expression", length: length, limit: limit, textBytes: textBytes) }
  }

  /// Whether the bound on the canonical length passes `limit`.
  static func mayExceed(textBytes: Int, arguments: ArraySlice<SiftValue>, limit: Int) -> Bool {
    var bound = textBytes.multipliedReportingOverflow(by: textGrowthBound)
    if bound.overflow || bound.partialValue > limit { return true }
    for argument in arguments {
      bound = bound.partialValue.addingReportingOverflow(argumentBound(argument))
      if bound.overflow || bound.partialValue > limit { return true }
    }
    return false
  }

  /// At most how many bytes an argument prints as, wherever it is bound: a string as a
  /// quoted string (`%@`, `%s`) or a key path (`%K`: each key at most `#"` + 6 bytes a byte
  /// + `"`, the dots as themselves, so at most 6 bytes a byte + 3); a number or a date
  /// within 48 (`CAST(-2.2250738585072014e-308, "NSDate")`); a collection as `{}`.
  static func argumentBound(_ value: SiftValue) -> Int {
    switch value {
    case .string(let s):
      let (product, overflow) = s.utf8.count.multipliedReportingOverflow(by: 6)
      return overflow ? .max : product + 3
    case .array, .dictionary: return 2
    case .null, .bool, .int, .double, .date: return 48
    }
  }

  private static func isCollection(_ value: SiftValue) -> Bool {
    switch value {
    case .array, .dictionary: true
    case .null, .bool, .int, .double, .string, .date: false
    }
  }

  private static func error(_ what: String, length: Int, limit: Int, textBytes: Int) -> SyntaxError {
    SyntaxError(
      "the canonical text of this \(what) would be \(length) bytes long; the limit is \(limit)",
      at: SourceRange(start: 0, end: textBytes),
      hint: "SyntaxLimits.maxInputLength also bounds the text a \(what) prints as, so that it parses back: "
        + "a bound string or %K key counts as its printed text, and a control character prints as 6 bytes")
  }
}

/// A tree with every collection constant (only a bound `%@` array or dictionary is one)
/// replaced by an empty array, for ``CanonicalLengthCheck``.
struct CollectionElision {
  func predicate(_ p: PredicateSyntax) -> PredicateSyntax {
    var p = p
    switch p.kind {
    case .constant: break
    case .comparison(var c):
      c.lhs = expression(c.lhs)
      c.rhs = expression(c.rhs)
      p.kind = .comparison(c)
    case .not(let inner): p.kind = .not(predicate(inner))
    case .and(let ps): p.kind = .and(ps.map(predicate))
    case .or(let ps): p.kind = .or(ps.map(predicate))
    case .customSelector(let lhs, let selector, let rhs):
      p.kind = .customSelector(lhs: expression(lhs), selector: selector, rhs: expression(rhs))
    }
    return p
  }

  func expression(_ e: ExpressionSyntax) -> ExpressionSyntax {
    var e = e
    switch e.kind {
    case .constant(.array), .constant(.dictionary): e.kind = .constant(.array([]))
    case .constant, .evaluatedObject, .variable: break
    case .keyPath(let base, let keys): e.kind = .keyPath(base: base.map(expression), keys: keys)
    case .aggregate(let elements): e.kind = .aggregate(elements.map(expression))
    case .index(let base, let index):
      let newIndex: IndexSyntax =
        switch index {
        case .expression(let i): .expression(expression(i))
        default: index
        }
      e.kind = .index(expression(base), newIndex)
    case .negate(let x): e.kind = .negate(expression(x))
    case .bitwiseNot(let x): e.kind = .bitwiseNot(expression(x))
    case .binary(let op, let a, let b): e.kind = .binary(op, expression(a), expression(b))
    case .function(let f, let args): e.kind = .function(f, args.map(expression))
    case .customFunction(let receiver, let name, let args):
      e.kind = .customFunction(receiver: expression(receiver), name: name, arguments: args.map(expression))
    case .subquery(let collection, let variable, let body):
      e.kind = .subquery(collection: expression(collection), variable: variable, predicate: predicate(body))
    case .cast(let x, let type): e.kind = .cast(expression(x), type: type)
    case .ternary(let p, let a, let b): e.kind = .ternary(predicate(p), expression(a), expression(b))
    case .assignment(let variable, let value): e.kind = .assignment(variable: variable, value: expression(value))
    }
    return e
  }
}
