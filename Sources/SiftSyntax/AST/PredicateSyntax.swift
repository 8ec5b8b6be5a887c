/// A parsed predicate: the part of the language that yields true or false.
///
/// Equality is structural: source ranges are ignored, so a tree parsed from canonical
/// text equals the tree that was printed.
public struct PredicateSyntax: Hashable, Sendable {
  /// What kind of predicate this is, with its parts.
  public var kind: Kind
  /// The bytes of the source text this predicate was parsed from.
  public var range: SourceRange

  /// Creates a node.
  public init(_ kind: Kind, range: SourceRange = .at(0)) {
    self.kind = kind
    self.range = range
  }

  /// The kinds of predicate.
  public indirect enum Kind: Hashable, Sendable {
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    /// `lhs OP rhs`, with an optional `ANY`/`ALL` qualifier and string options.
    case comparison(ComparisonSyntax)
    /// `NOT p` / `!p`.
    case not(PredicateSyntax)
    /// `a AND b AND …` (at least two operands; a parenthesised AND stays a separate node).
    case and([PredicateSyntax])
    /// `a OR b OR …` (at least two operands).
    case or([PredicateSyntax])
    /// `lhs selector: rhs`, a comparison by a named method (`SELF isKindOfClass: %@`),
    /// answered by the function registered under the selector, or a built-in one. The
    /// selector keeps its colon: `isKindOfClass:`.
    case customSelector(lhs: ExpressionSyntax, selector: String, rhs: ExpressionSyntax)
  }

  /// Structural equality; ranges are ignored.
  public static func == (a: PredicateSyntax, b: PredicateSyntax) -> Bool { a.kind == b.kind }
  /// Hashes the structure; ranges are ignored.
  public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

/// A comparison predicate: `[ANY|ALL] lhs OP[options] rhs`.
public struct ComparisonSyntax: Hashable, Sendable {
  /// `ANY`/`SOME` or `ALL`, if written. `NONE x` is parsed as `NOT ANY x`.
  public var quantifier: Quantifier?
  /// The left operand.
  public var lhs: ExpressionSyntax
  /// The operator.
  public var op: ComparisonOperator
  /// The `[cdnl]` options written after the operator.
  public var options: ComparisonOptions
  /// The right operand.
  public var rhs: ExpressionSyntax

  /// Creates a comparison.
  public init(
    quantifier: Quantifier? = nil, _ lhs: ExpressionSyntax, _ op: ComparisonOperator,
    options: ComparisonOptions = [], _ rhs: ExpressionSyntax
  ) {
    self.quantifier = quantifier
    self.lhs = lhs
    self.op = op
    self.options = options
    self.rhs = rhs
  }
}

/// The aggregate qualifier of a comparison.
public enum Quantifier: String, Hashable, Sendable, CaseIterable {
  /// `ANY` (also written `SOME`): true if some element of the left collection satisfies it.
  case any = "ANY"
  /// `ALL`: true if every element of the left collection satisfies it.
  case all = "ALL"
}

/// The comparison operators, spelled as canonical text prints them.
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
  /// `==` (also `=`).
  case equal = "=="
  /// `!=` (also `<>`).
  case notEqual = "!="
  /// `<`.
  case less = "<"
  /// `<=` (also `=<`).
  case lessOrEqual = "<="
  /// `>`.
  case greater = ">"
  /// `>=` (also `=>`).
  case greaterOrEqual = ">="
  /// `BETWEEN {lo, hi}`, both bounds inclusive.
  case between = "BETWEEN"
  /// `IN`: element of a collection, or substring of a string.
  case `in` = "IN"
  /// `CONTAINS`: substring, or collection membership.
  case contains = "CONTAINS"
  /// `BEGINSWITH`.
  case beginsWith = "BEGINSWITH"
  /// `ENDSWITH`.
  case endsWith = "ENDSWITH"
  /// `LIKE`: `*` and `?` wildcards, whole string.
  case like = "LIKE"
  /// `MATCHES`: regular expression, whole string.
  case matches = "MATCHES"
}

/// The string options written in brackets after an operator: `[c]`, `[d]`, `[n]`, `[l]`.
public struct ComparisonOptions: OptionSet, Hashable, Sendable {
  /// The option bits.
  public var rawValue: UInt8
  /// Creates options from bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// `c`: case-insensitive.
  public static let caseInsensitive = ComparisonOptions(rawValue: 1)
  /// `d`: diacritic-insensitive.
  public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
  /// `n`: the caller promises normalised input.
  public static let normalized = ComparisonOptions(rawValue: 4)
  /// `l`: locale-sensitive.
  public static let localeSensitive = ComparisonOptions(rawValue: 8)

  /// The letters in canonical order, `cdnl`; empty when no option is set.
  public var letters: String {
    var s = ""
    if contains(.caseInsensitive) { s += "c" }
    if contains(.diacriticInsensitive) { s += "d" }
    if contains(.normalized) { s += "n" }
    if contains(.localeSensitive) { s += "l" }
    return s
  }
}
