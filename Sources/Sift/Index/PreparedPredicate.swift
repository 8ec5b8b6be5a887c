/// A predicate taken apart for a set, before the set's lock is taken: its shape, its
/// constants (``ShapeExtraction``), and whether it may share the compiled code of its
/// shape.
///
/// Whether it shares is decided here, once: a predicate whose constants are too heavy for a
/// shared shape (``constantsOutweighSharing(_:limits:)``) keeps its own program from the
/// start.
struct PreparedPredicate {
  /// The predicate compiled on its own: given by the caller, or compiled here only for a
  /// predicate that cannot share (nil for one inserted from its syntax that shares).
  var predicate: SiftPredicate?
  var options: CompileOptions
  /// For a predicate inserted from its syntax: the tree and its text, compiled on their
  /// own only if its shape's code does not compile (then with the tree's own diagnostic).
  var source: (syntax: PredicateSyntax, format: String?)?
  var shape: PredicateSyntax
  var constants: [SiftValue]
  var shareable: Bool
  /// False when the tree itself uses `$__cN` names: they would read as parameters.
  var indexable: Bool

  init(_ predicate: SiftPredicate) {
    self.init(
      syntax: predicate.syntax, options: predicate.options, predicate: predicate,
      canShare: ShapeExtraction.canShare(predicate))
  }

  /// A predicate from its syntax (arguments bound): a shareable one is never compiled on
  /// its own; any other is compiled here, and throws its compile error.
  init(syntax: PredicateSyntax, options: CompileOptions, format: String?) throws(PredicateSyntaxError) {
    let canShare = options.schema == nil && options.layout == nil && ShapeExtraction.canShare(syntax)
    self.init(syntax: syntax, options: options, predicate: nil, canShare: canShare)
    if shareable {
      source = (syntax, format)
    } else {
      predicate = try SiftPredicate(syntax: syntax, format: format, options: options)
    }
  }

  private init(syntax: PredicateSyntax, options: CompileOptions, predicate: SiftPredicate?, canShare: Bool) {
    self.predicate = predicate
    self.options = options
    let limits = options.limits
    let folded = ShapeExtraction.folded(syntax, limits: limits)
    var constants: [SiftValue] = []
    shape = ShapeExtraction.shape(of: folded, constants: &constants)
    self.constants = constants
    indexable = !Self.usesReservedNames(syntax)
    shareable = indexable && canShare && !Self.constantsOutweighSharing(constants, limits: limits)
  }

  var key: ShapeKey {
    ShapeKey(syntax: shape, limits: options.limits, kinds: constants.map(ShapeKey.kind))
  }

  /// Whether `constants` weigh more than a sixteenth of the step budget (one per value,
  /// per element and per 8 bytes of string; for the default budget about 62,500 numbers
  /// or 31,000 short ids).
  ///
  /// Why: a shared shape binds a short literal `IN` set as its array (searched in order)
  /// and builds any other object per predicate; past this size the predicate's own
  /// program, with its hashed set, is the better check, and it is the one the caller
  /// compiled (item 7 of the hostile pass: 550,000 ids were compiled again per line).
  static func constantsOutweighSharing(_ constants: [SiftValue], limits: EvaluationLimits) -> Bool {
    let threshold = limits.maxSteps / 16
    var weight = 0
    for c in constants {
      weight += Cost.weight(c, cap: max(threshold, 0) + 1) + 1
      if weight > threshold { return true }
    }
    return false
  }

  private static func usesReservedNames(_ p: PredicateSyntax) -> Bool {
    p.containsNode { child in
      guard case .expression(let e) = child else { return false }
      switch e.kind {
      case .variable(let name), .assignment(let name, _), .subquery(_, let name, _): return name.hasPrefix("__c")
      default: return false
      }
    }
  }
}
