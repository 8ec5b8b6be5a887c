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
    case .constant, .comparison, .customSelector: if main { minimumInstructions += 1 }
    case .not: break
    case .and(let xs), .or(let xs): if main { minimumInstructions += max(xs.count - 1, 0) }
    }
    if case .comparison(let c) = p.kind, c.op == .matches, case .constant(.string) = c.rhs.kind { patterns += 1 }
    p.forEachChild { child in
      switch child {
      case .predicate(let inner): count(inner, main: main)
      case .expression(let e): count(e)
      }
    }
  }

  /// Patterns in predicates nested in expressions (TERNARY, SUBQUERY) count; their code is
  /// another program.
  private mutating func count(_ e: ExpressionSyntax) {
    e.forEachChild { child in
      switch child {
      case .predicate(let inner): count(inner, main: false)
      case .expression(let x): count(x)
      }
    }
  }
}
