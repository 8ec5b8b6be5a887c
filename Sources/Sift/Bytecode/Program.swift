/// A compiled predicate: immutable, shareable across threads.
struct Program: Sendable {
  var code: [Instruction] = []
  /// Source range of the syntax each instruction implements (pc -> range).
  var ranges: [SourceRange] = []
  var constants: [SiftValue] = []
  /// Keys, variable names and type names.
  var names: [String] = []
  var paths: [[String]] = []
  var comparisons: [ComparisonDescriptor] = []
  var needles: [StringNeedle] = []
  var stringSets: [StringSet] = []
  var likes: [LikePattern] = []
  var regexes: [RegexPattern] = []
  var subprograms: [Subprogram] = []
  /// Custom function names in `FUNCTION(…)`, resolved at evaluation time.
  var registerCount = 1
}

/// The predicate of a SUBQUERY, with the variable it binds.
struct Subprogram: Sendable {
  var variable: String
  var program: Program
}

/// What a `compare`, `stringTest`, `like` or `matches` instruction compares.
struct ComparisonDescriptor: Sendable, Hashable {
  var op: ComparisonOperator
  var options: ComparisonOptions
  var quantifier: Quantifier?
  /// The constant right operand of a specialised instruction, for its generic fallback.
  var constant: SiftValue?
}
