/// A stable, indented dump of a syntax tree with source ranges, for golden tests and
/// `sift parse --ast`. One node per line: its kind, its details, then `@start..<end`.
enum TreeDump {
  static func dump(_ p: PredicateSyntax) -> String {
    var lines: [String] = []
    predicate(p, indent: 0, into: &lines)
    return lines.joined(separator: "\n")
  }

  private static func line(_ indent: Int, _ text: String, _ range: SourceRange, _ lines: inout [String]) {
    lines.append(String(repeating: "  ", count: indent) + text + " @" + range.description)
  }

  static func predicate(_ p: PredicateSyntax, indent: Int, into lines: inout [String]) {
    switch p.kind {
    case .constant(let value):
      line(indent, value ? "TRUEPREDICATE" : "FALSEPREDICATE", p.range, &lines)
    case .comparison(let c):
      var head = "comparison " + c.op.rawValue
      if !c.options.isEmpty { head += "[\(c.options.letters)]" }
      if let q = c.quantifier { head += " " + q.rawValue }
      line(indent, head, p.range, &lines)
      expression(c.lhs, indent: indent + 1, into: &lines)
      expression(c.rhs, indent: indent + 1, into: &lines)
    case .not(let inner):
      line(indent, "not", p.range, &lines)
      predicate(inner, indent: indent + 1, into: &lines)
    case .and(let operands):
      line(indent, "and", p.range, &lines)
      for o in operands { predicate(o, indent: indent + 1, into: &lines) }
    case .or(let operands):
      line(indent, "or", p.range, &lines)
      for o in operands { predicate(o, indent: indent + 1, into: &lines) }
    case .customSelector(let lhs, let selector, let rhs):
      line(indent, "selector \(selector)", p.range, &lines)
      expression(lhs, indent: indent + 1, into: &lines)
      expression(rhs, indent: indent + 1, into: &lines)
    }
  }

  static func expression(_ e: ExpressionSyntax, indent: Int, into lines: inout [String]) {
    let r = e.range
    switch e.kind {
    case .constant(let value):
      var text = ""
      CanonicalPrinter.writeConstant(value, to: &text)
      line(indent, "constant \(value.kindName) \(text)", r, &lines)
    case .evaluatedObject:
      line(indent, "self", r, &lines)
    case .variable(let name):
      line(indent, "variable $\(name)", r, &lines)
    case .keyPath(let base, let keys):
      line(indent, "keyPath " + keys.map(CanonicalPrinter.dumpKey).joined(separator: "."), r, &lines)
      if let base { expression(base, indent: indent + 1, into: &lines) }
    case .aggregate(let elements):
      line(indent, "aggregate \(elements.count)", r, &lines)
      for x in elements { expression(x, indent: indent + 1, into: &lines) }
    case .index(let base, let index):
      switch index {
      case .first: line(indent, "index FIRST", r, &lines)
      case .last: line(indent, "index LAST", r, &lines)
      case .size: line(indent, "index SIZE", r, &lines)
      case .expression: line(indent, "index", r, &lines)
      }
      expression(base, indent: indent + 1, into: &lines)
      if case .expression(let i) = index { expression(i, indent: indent + 1, into: &lines) }
    case .negate(let x):
      line(indent, "negate", r, &lines)
      expression(x, indent: indent + 1, into: &lines)
    case .bitwiseNot(let x):
      line(indent, "bitwiseNot", r, &lines)
      expression(x, indent: indent + 1, into: &lines)
    case .binary(let op, let a, let b):
      line(indent, "binary \(op.rawValue)", r, &lines)
      expression(a, indent: indent + 1, into: &lines)
      expression(b, indent: indent + 1, into: &lines)
    case .function(let f, let args):
      line(indent, "function \(f.rawValue)", r, &lines)
      for x in args { expression(x, indent: indent + 1, into: &lines) }
    case .customFunction(let receiver, let name, let args):
      line(indent, "FUNCTION \"\(name)\"", r, &lines)
      expression(receiver, indent: indent + 1, into: &lines)
      for x in args { expression(x, indent: indent + 1, into: &lines) }
    case .subquery(let collection, let variable, let body):
      line(indent, "SUBQUERY $\(variable)", r, &lines)
      expression(collection, indent: indent + 1, into: &lines)
      predicate(body, indent: indent + 1, into: &lines)
    case .cast(let x, let type):
      line(indent, "CAST \"\(type)\"", r, &lines)
      expression(x, indent: indent + 1, into: &lines)
    case .ternary(let p, let a, let b):
      line(indent, "TERNARY", r, &lines)
      predicate(p, indent: indent + 1, into: &lines)
      expression(a, indent: indent + 1, into: &lines)
      expression(b, indent: indent + 1, into: &lines)
    case .assignment(let variable, let value):
      line(indent, "assign $\(variable)", r, &lines)
      expression(value, indent: indent + 1, into: &lines)
    }
  }
}

extension PredicateSyntax {
  /// A stable, indented dump of the tree with the source range of every node.
  public var treeDump: String { TreeDump.dump(self) }
}
