extension Parser {
  /// Binds the format argument for one specifier. `%@` becomes a constant (strings are not
  /// re-parsed), `%K` a key path, the numeric specifiers numbers.
  func bind(_ specifier: FormatSpecifier, token: Lexeme, ordinal: Int) throws(SyntaxError) -> ExpressionSyntax {
    guard ordinal < arguments.count else {
      throw SyntaxError(
        "no argument for this format specifier: it is number \(ordinal + 1), but "
          + "\(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given",
        at: token.range, hint: "pass one argument per %@, %K or numeric specifier, in order")
    }
    let argument = arguments[ordinal]
    func mismatch(_ expected: String) -> SyntaxError {
      let spelled = sourceText(token.range.start, token.range.end)
      return SyntaxError(
        "\(spelled.isEmpty ? "format specifier" : spelled) expects \(expected), but argument \(ordinal + 1) is "
          + Self.describeArgument(argument),
        at: token.range)
    }
    switch specifier {
    case .object:
      return ExpressionSyntax(.constant(argument), range: token.range)
    case .keyPath:
      guard case .string(let path) = argument else { throw mismatch("a key path string") }
      let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      guard !path.isEmpty, !keys.contains(where: \.isEmpty) else {
        throw SyntaxError(
          "argument \(ordinal + 1) is not a key path: \"\(path)\"", at: token.range,
          hint: "a key path is one or more keys joined by '.'")
      }
      if keys == ["self"] || keys == ["SELF"] {
        return ExpressionSyntax(.evaluatedObject, range: token.range)
      }
      return ExpressionSyntax(.keyPath(base: nil, keys: keys), range: token.range)
    case .integer:
      switch argument {
      case .int: return ExpressionSyntax(.constant(argument), range: token.range)
      case .bool(let b): return ExpressionSyntax(.constant(.int(b ? 1 : 0)), range: token.range)
      case .double(let d) where Int(exactly: d) != nil:
        return ExpressionSyntax(.constant(.int(Int(exactly: d)!)), range: token.range)
      default: throw mismatch("an integer")
      }
    case .floatingPoint:
      switch argument {
      case .double: return ExpressionSyntax(.constant(argument), range: token.range)
      case .int(let i): return ExpressionSyntax(.constant(.double(Double(i))), range: token.range)
      default: throw mismatch("a number")
      }
    case .cString:
      guard case .string = argument else { throw mismatch("a string") }
      return ExpressionSyntax(.constant(argument), range: token.range)
    }
  }
}

extension Parser {
  /// A format argument in a message: "the number 3.5", "the string \"x\"", "an array".
  static func describeArgument(_ value: SiftValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return "the boolean \(b ? "TRUE" : "FALSE")"
    case .int(let i): return "the number \(i)"
    case .double(let d):
      var text = ""
      CanonicalPrinter.writeDouble(d, to: &text)
      return "the number \(text)"
    case .string(let s): return "the string \(quoted(s))"
    case .date: return "a date"
    case .array: return "an array"
    case .dictionary: return "a dictionary"
    }
  }
}

extension PredicateSyntax {
  /// Replaces every free `$variable` whose name is in `variables` with that value, like
  /// `NSPredicate.withSubstitutionVariables(_:)`. Variables bound inside the predicate
  /// (a `SUBQUERY` iterator, an assignment target) are left alone.
  public func substitutingVariables(_ variables: [String: SiftValue]) -> PredicateSyntax {
    VariableSubstitution(values: variables).predicate(self)
  }
}

/// The tree rewrite behind ``PredicateSyntax/substitutingVariables(_:)``.
struct VariableSubstitution {
  var values: [String: SiftValue]

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
    case .constant, .evaluatedObject: break
    case .variable(let name):
      if let value = values[name] { e.kind = .constant(value) }
    case .keyPath(let base, let keys):
      e.kind = .keyPath(base: base.map(expression), keys: keys)
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
      var inner = self
      inner.values[variable] = nil
      e.kind = .subquery(
        collection: expression(collection), variable: variable, predicate: inner.predicate(body))
    case .cast(let x, let type): e.kind = .cast(expression(x), type: type)
    case .ternary(let p, let a, let b): e.kind = .ternary(predicate(p), expression(a), expression(b))
    case .assignment(let variable, let value):
      e.kind = .assignment(variable: variable, value: expression(value))
    }
    return e
  }
}
