/// What a (folded) predicate will at least need once compiled, counted in one pass before
/// any code is generated, so a predicate that cannot fit fails at once instead of after
/// compiling tens of thousands of patterns (a 1 MiB chain of MATCHES took 11 s to reach the
/// 16-bit table limit).
struct CompileSize {
  /// Instructions of the main program it cannot do without: one per comparison, one jump
  /// between the operands of each AND and OR, and the final `ret`.
  var minimumInstructions = 1
  /// Constant MATCHES patterns, each compiled (and JIT-compiled) with the predicate.
  var patterns = 0

  init(_ p: PredicateSyntax) { count(p, main: true) }

  private mutating func count(_ p: PredicateSyntax, main: Bool) {
    switch p.kind {
    case .constant: if main { minimumInstructions += 1 }
    case .not(let inner): count(inner, main: main)
    case .and(let xs), .or(let xs):
      if main { minimumInstructions += max(xs.count - 1, 0) }
      for x in xs { count(x, main: main) }
    case .comparison(let c):
      if main { minimumInstructions += 1 }
      if c.op == .matches, case .constant(.string) = c.rhs.kind { patterns += 1 }
      count(c.lhs)
      count(c.rhs)
    }
  }

  /// Patterns in predicates nested in expressions (TERNARY, SUBQUERY) count; their code is
  /// another program.
  private mutating func count(_ e: ExpressionSyntax) {
    switch e.kind {
    case .constant, .evaluatedObject, .variable: return
    case .keyPath(let base, _): if let base { count(base) }
    case .aggregate(let xs), .function(_, let xs): for x in xs { count(x) }
    case .index(let base, let index):
      count(base)
      if case .expression(let i) = index { count(i) }
    case .negate(let x), .bitwiseNot(let x), .cast(let x, _), .assignment(_, let x): count(x)
    case .binary(_, let a, let b):
      count(a)
      count(b)
    case .customFunction(let receiver, _, let args):
      count(receiver)
      for x in args { count(x) }
    case .subquery(let collection, _, let body):
      count(collection)
      count(body, main: false)
    case .ternary(let p, let a, let b):
      count(p, main: false)
      count(a)
      count(b)
    }
  }
}
