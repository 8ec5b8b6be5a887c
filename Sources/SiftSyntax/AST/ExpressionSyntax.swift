/// A parsed expression: the part of the language that yields a value.
///
/// Equality is structural: source ranges are ignored.
public struct ExpressionSyntax: Hashable, Sendable {
  /// What kind of expression this is, with its parts.
  public var kind: Kind
  /// The bytes of the source text this expression was parsed from (for a bound format
  /// argument: the specifier).
  public var range: SourceRange

  /// Creates a node.
  public init(_ kind: Kind, range: SourceRange = .at(0)) {
    self.kind = kind
    self.range = range
  }

  /// The kinds of expression.
  /// Leaves (constants, `SELF`, variables) are stored inline; only cases that contain
  /// other nodes are boxed, which saves an allocation per literal when parsing.
  public enum Kind: Hashable, Sendable {
    /// A literal or a bound `%@`/numeric argument. A minus sign directly before a number
    /// literal is folded into it.
    case constant(SiftValue)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// `$name`.
    case variable(String)
    /// A key path `a.b.c` read from `base`, or from the evaluated object when `base` is nil.
    /// Keys may be collection operators (`@count`). Never empty.
    indirect case keyPath(base: ExpressionSyntax?, keys: [String])
    /// `{e1, e2, …}`: elements are evaluated at evaluation time.
    case aggregate([ExpressionSyntax])
    /// `base[index]`.
    indirect case index(ExpressionSyntax, IndexSyntax)
    /// `-e` (on anything but a number literal).
    indirect case negate(ExpressionSyntax)
    /// `~e`: ones' complement.
    indirect case bitwiseNot(ExpressionSyntax)
    /// `lhs OP rhs`.
    indirect case binary(BinaryOperator, ExpressionSyntax, ExpressionSyntax)
    /// A built-in function call: `sum:({1, 2})`, also written `sum({1, 2})`.
    case function(BuiltinFunction, [ExpressionSyntax])
    /// `FUNCTION(receiver, 'name', args…)`: a function registered by name.
    indirect case customFunction(receiver: ExpressionSyntax, name: String, arguments: [ExpressionSyntax])
    /// `SUBQUERY(collection, $variable, predicate)`.
    indirect case subquery(collection: ExpressionSyntax, variable: String, predicate: PredicateSyntax)
    /// `CAST(value, 'Type')`.
    indirect case cast(ExpressionSyntax, type: String)
    /// `TERNARY(predicate, then, else)`.
    indirect case ternary(PredicateSyntax, ExpressionSyntax, ExpressionSyntax)
    /// `$name := value`.
    indirect case assignment(variable: String, value: ExpressionSyntax)
  }

  /// Structural equality; ranges are ignored.
  public static func == (a: ExpressionSyntax, b: ExpressionSyntax) -> Bool { a.kind == b.kind }
  /// Hashes the structure; ranges are ignored.
  public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

/// What goes in `[…]` after an expression.
public indirect enum IndexSyntax: Hashable, Sendable {
  /// `[FIRST]`.
  case first
  /// `[LAST]`.
  case last
  /// `[SIZE]`: the element count.
  case size
  /// `[expression]`: an integer position, or a dictionary key.
  case expression(ExpressionSyntax)
}

/// Binary arithmetic, bitwise and set operators, spelled as canonical text prints them.
public enum BinaryOperator: String, Hashable, Sendable, CaseIterable {
  /// `+`
  case add = "+"
  /// `-`
  case subtract = "-"
  /// `*`
  case multiply = "*"
  /// `/`
  case divide = "/"
  /// `**`
  case power = "**"
  /// `<<`
  case shiftLeft = "<<"
  /// `>>`
  case shiftRight = ">>"
  /// `&`
  case bitwiseAnd = "&"
  /// `|`
  case bitwiseOr = "|"
  /// `^`
  case bitwiseXor = "^"
  /// `UNION`: the distinct elements of both collections.
  case union = "UNION"
  /// `INTERSECT`: the distinct elements of the left collection that the right one has.
  case intersect = "INTERSECT"
  /// `MINUS`: the distinct elements of the left collection that the right one lacks.
  case minus = "MINUS"
}
