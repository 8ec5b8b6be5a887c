import Sift

/// What `sift route` finds, before any input, in a rule that reaches something no
/// evaluation can give a value: a `FUNCTION` (or custom selector) that no built-in answers,
/// since route registers no functions, or a `$variable` that nothing binds, since route
/// passes no variables and the rule itself binds it nowhere (no SUBQUERY over it, no `:=`).
/// Evaluating either always fails, and a rule whose evaluation fails does not match.
///
/// Found from the syntax tree alone, never by evaluating. A rule is refused only when no
/// evaluation can make it true (``neverMatches``): `FUNCTION(a, 'nope') == 1` or `$x == 1`
/// alone, in every operand of an OR, or in one operand of an AND. A rule that reaches such a
/// part only on some paths (`a == 1 OR $x == 2`) can still match, and is loaded with a
/// warning.
struct RouteRuleCheck {
  /// One part of the predicate whose every evaluation fails.
  struct Reference: Equatable {
    /// What it is and why it fails, for the report.
    var description: String
    /// Where it is in the predicate's text.
    var range: SourceRange
  }

  /// Every failing part, in the order the walk met them (source order).
  private(set) var references: [Reference] = []
  /// True when no evaluation of the rule can be true.
  private(set) var neverMatches = false

  /// The variables the rule binds itself, anywhere: a SUBQUERY's variable or a `:=`.
  /// Scopes are not followed (a name bound anywhere counts as bound everywhere), so a
  /// variable is only called unbound when nothing at all could give it a value.
  private var bound: Set<String> = []

  init(_ syntax: PredicateSyntax) {
    bound = Self.boundVariables(SyntaxChild.predicate(syntax))
    neverMatches = outcomes(syntax).neverTrue
  }

  /// The names bound by SUBQUERY variables and assignments under `node`.
  private static func boundVariables(_ node: SyntaxChild) -> Set<String> {
    var names: Set<String> = []
    if case .expression(let e) = node {
      switch e.kind {
      case .subquery(_, let variable, _), .assignment(let variable, _): names.insert(variable)
      default: break
      }
    }
    node.forEachChild { names.formUnion(boundVariables($0)) }
    return names
  }

  /// What `p` can never evaluate to. An error counts as neither true nor false, so these
  /// hold whatever the order in which AND and OR operands run or stop early: an AND is
  /// true only when every operand is, an OR only when one is.
  private mutating func outcomes(_ p: PredicateSyntax) -> (neverTrue: Bool, neverFalse: Bool) {
    switch p.kind {
    case .constant(let value):
      return (!value, value)
    case .comparison(let c):
      let lhsFails = alwaysFails(c.lhs)
      let rhsFails = alwaysFails(c.rhs)
      // Both operands are evaluated for a plain comparison. Under ANY or ALL only the
      // collection on the left is sure to be: the right one is not needed to decide an
      // empty collection (ALL of nothing is true), so it is not counted on.
      let fails = lhsFails || (c.quantifier == nil && rhsFails)
      return (fails, fails)
    case .not(let inner):
      let inner = outcomes(inner)
      return (inner.neverFalse, inner.neverTrue)
    case .and(let operands):
      let each = operands.map { outcomes($0) }
      return (each.contains { $0.neverTrue }, each.allSatisfy { $0.neverFalse })
    case .or(let operands):
      let each = operands.map { outcomes($0) }
      return (each.allSatisfy { $0.neverTrue }, each.contains { $0.neverFalse })
    case .customSelector(let lhs, let selector, let rhs):
      // `lhs sel: rhs` calls `sel:` on both operands.
      let unknown = unknownFunction(selector, argumentCount: 1, range: p.range, selector: true)
      let operandFails = [alwaysFails(lhs), alwaysFails(rhs)].contains(true)
      let fails = unknown || operandFails
      return (fails, fails)
    }
  }

  /// True when every evaluation of `e` fails. Each part is walked, even after one that
  /// fails, so that every failing reference is reported.
  private mutating func alwaysFails(_ e: ExpressionSyntax) -> Bool {
    switch e.kind {
    case .constant, .evaluatedObject:
      return false
    case .variable(let name):
      guard !bound.contains(name) else { return false }
      references.append(
        Reference(
          description: "$\(name), which nothing binds",
          range: e.range))
      return true
    case .keyPath(let base, _):
      return base.map { alwaysFails($0) } ?? false
    case .aggregate(let elements), .function(_, let elements):
      return elements.map { alwaysFails($0) }.contains(true)
    case .index(let base, let index):
      let baseFails = alwaysFails(base)
      if case .expression(let position) = index { return [baseFails, alwaysFails(position)].contains(true) }
      return baseFails
    case .negate(let x), .bitwiseNot(let x), .cast(let x, _), .assignment(_, let x):
      return alwaysFails(x)
    case .binary(_, let a, let b):
      return [alwaysFails(a), alwaysFails(b)].contains(true)
    case .customFunction(let receiver, let name, let arguments):
      // The receiver and the arguments are evaluated, then the function looked up.
      let operands = ([receiver] + arguments).map { alwaysFails($0) }.contains(true)
      let unknown = unknownFunction(name, argumentCount: arguments.count, range: e.range, selector: false)
      return operands || unknown
    case .subquery(let collection, _, let predicate):
      // The body runs once per element: not at all on an empty collection.
      let collectionFails = alwaysFails(collection)
      _ = outcomes(predicate)
      return collectionFails
    case .ternary(let condition, let then, let otherwise):
      let test = outcomes(condition)
      let branches = [alwaysFails(then), alwaysFails(otherwise)]
      return (test.neverTrue && test.neverFalse) || !branches.contains(false)
    }
  }

  /// True (and noted) when nothing answers `name` with `argumentCount` arguments.
  private mutating func unknownFunction(_ name: String, argumentCount: Int, range: SourceRange, selector: Bool)
    -> Bool
  {
    guard !BuiltinSelectors.answers(name, argumentCount: argumentCount) else { return false }
    let arguments = argumentCount == 0 ? "" : " with \(argumentCount) argument\(argumentCount == 1 ? "" : "s")"
    let what = selector ? "the selector '\(name)'" : "FUNCTION '\(name)'\(arguments)"
    references.append(Reference(description: "\(what), which is not a built-in", range: range))
    return true
  }

  /// The references as one clause: each with the byte of the predicate where it starts.
  var summary: String {
    references.map { "\($0.description) (at byte \($0.range.start))" }.joined(separator: "; ")
  }

  /// Why nothing else can answer those references, for the end of a report: `command`
  /// registers no functions, and binds no variables but those of the rule's own
  /// `"variables"` when it has some.
  static func why(command: String, bindsVariables: Bool) -> String {
    "\(command) registers no functions and binds no variables" + (bindsVariables ? " but the rule's \"variables\"" : "")
  }

}
