/// A direct child of a syntax node: a predicate or an expression.
///
/// Every walk over the tree (the compiler's checks, the keys a predicate reads, whether
/// it is deterministic) visits children through ``PredicateSyntax/forEachChild(_:)`` and
/// ``ExpressionSyntax/forEachChild(_:)`` and handles only the nodes it cares about, so a
/// new kind of node is taught to the walks in one place.
public enum SyntaxChild: Sendable {
  /// A child predicate (a compound's operand, a SUBQUERY body, a TERNARY condition).
  case predicate(PredicateSyntax)
  /// A child expression (an operand, an argument, an index).
  case expression(ExpressionSyntax)
}

extension PredicateSyntax {
  /// Calls `body` with each direct child, in source order.
  public func forEachChild<E: Error>(_ body: (SyntaxChild) throws(E) -> Void) throws(E) {
    switch kind {
    case .constant: return
    case .comparison(let c):
      try body(.expression(c.lhs))
      try body(.expression(c.rhs))
    case .not(let inner): try body(.predicate(inner))
    case .and(let operands), .or(let operands):
      for operand in operands { try body(.predicate(operand)) }
    case .customSelector(let lhs, _, let rhs):
      try body(.expression(lhs))
      try body(.expression(rhs))
    }
  }

  /// Whether `test` holds for this node or any node below it.
  public func containsNode(where test: (SyntaxChild) -> Bool) -> Bool {
    SyntaxChild.predicate(self).containsNode(where: test)
  }
}

extension ExpressionSyntax {
  /// Calls `body` with each direct child, in source order.
  public func forEachChild<E: Error>(_ body: (SyntaxChild) throws(E) -> Void) throws(E) {
    switch kind {
    case .constant, .evaluatedObject, .variable: return
    case .keyPath(let base, _): if let base { try body(.expression(base)) }
    case .aggregate(let elements), .function(_, let elements):
      for element in elements { try body(.expression(element)) }
    case .index(let base, let index):
      try body(.expression(base))
      if case .expression(let i) = index { try body(.expression(i)) }
    case .negate(let x), .bitwiseNot(let x), .cast(let x, _), .assignment(_, let x): try body(.expression(x))
    case .binary(_, let a, let b):
      try body(.expression(a))
      try body(.expression(b))
    case .customFunction(let receiver, _, let arguments):
      try body(.expression(receiver))
      for argument in arguments { try body(.expression(argument)) }
    case .subquery(let collection, _, let predicate):
      try body(.expression(collection))
      try body(.predicate(predicate))
    case .ternary(let condition, let a, let b):
      try body(.predicate(condition))
      try body(.expression(a))
      try body(.expression(b))
    }
  }

  /// Whether `test` holds for this node or any node below it.
  public func containsNode(where test: (SyntaxChild) -> Bool) -> Bool {
    SyntaxChild.expression(self).containsNode(where: test)
  }
}

extension SyntaxChild {
  /// Calls `body` with each direct child of the node.
  public func forEachChild<E: Error>(_ body: (SyntaxChild) throws(E) -> Void) throws(E) {
    switch self {
    case .predicate(let p): try p.forEachChild(body)
    case .expression(let e): try e.forEachChild(body)
    }
  }

  /// Whether `test` holds for this node or any node below it (depth first, stopping at
  /// the first that does). The recursion is bounded by the parser's nesting limit.
  public func containsNode(where test: (SyntaxChild) -> Bool) -> Bool {
    if test(self) { return true }
    var found = false
    forEachChild { child in if !found, child.containsNode(where: test) { found = true } }
    return found
  }
}
