/// Limits that keep hostile or accidental input from using unbounded time or stack.
/// Every limit has a default, can be changed, and fails with a ``SyntaxError`` at its edge.
public struct SyntaxLimits: Hashable, Sendable {
  /// Longest accepted predicate text, in UTF-8 bytes. Default 1 MiB.
  public var maxInputLength: Int
  /// Deepest accepted nesting of parentheses, braces, brackets, argument lists and prefix
  /// operators (`NOT`, unary `-`, `~`, `:=`); each operator of a chain such as `a + b + c`
  /// and each suffix of `a[0][1].b` also counts one level, because each nests the tree one
  /// node deeper. The limit bounds the recursion of the parser and of everything that walks
  /// the trees it returns. Default 100, which needs about 2 MB of stack in a debug build
  /// (nested `TERNARY`, the costliest construct) and about 0.5 MB in a release build.
  public var maxNestingDepth: Int
  /// Most elements accepted in one `{…}` literal aggregate. Default 10,000.
  public var maxAggregateElements: Int

  /// Creates limits; every parameter has the documented default.
  public init(maxInputLength: Int = 1 << 20, maxNestingDepth: Int = 100, maxAggregateElements: Int = 10_000) {
    self.maxInputLength = maxInputLength
    self.maxNestingDepth = maxNestingDepth
    self.maxAggregateElements = maxAggregateElements
  }
}

/// Which of `AND` and `OR` binds tighter when they are mixed without parentheses.
///
/// Apple does not document it. The two reimplementations that follow Apple's grammar
/// (Apportable and GNUstep) both bind `OR` tighter, so `a OR b AND c` means
/// `(a OR b) AND c`; that is the default. The canonical printer always parenthesises mixed
/// `AND`/`OR`, so printed text means the same under either choice.
public enum CompoundPrecedence: Hashable, Sendable {
  /// `a OR b AND c` is `(a OR b) AND c` (the default).
  case orBindsTighter
  /// `a OR b AND c` is `a OR (b AND c)`, as in C and SQL.
  case andBindsTighter
}

/// How to parse: limits and the one grammar choice Apple leaves open.
public struct ParseOptions: Hashable, Sendable {
  /// Input limits.
  public var limits: SyntaxLimits
  /// The relative precedence of `AND` and `OR`.
  public var compoundPrecedence: CompoundPrecedence

  /// Creates options; every parameter has the documented default.
  public init(limits: SyntaxLimits = SyntaxLimits(), compoundPrecedence: CompoundPrecedence = .orBindsTighter) {
    self.limits = limits
    self.compoundPrecedence = compoundPrecedence
  }

  /// The defaults.
  public static let `default` = ParseOptions()
}
