/// A predicate taken apart for a set, before the set's lock is taken: its shape and its
/// constants (``ShapeExtraction``), and whether it may share a compiled shape.
///
/// Whether it shares is decided here, once: a predicate whose constants are too heavy for a
/// shared program (``constantsOutweighSharing(_:limits:)``) keeps its own from the start,
/// rather than being compiled again at every evaluation that the shared program cannot
/// decide within the budget.
struct PreparedPredicate {
  var predicate: SiftPredicate
  var shape: PredicateSyntax
  var constants: [SiftValue]
  var shareable: Bool
  /// False when the tree itself uses `$__cN` names: they would read as constants.
  var indexable: Bool
  /// The constants kept flattened (``ConstantSlice``): none for a predicate of its own.
  var flattened: UInt64

  init(_ predicate: SiftPredicate) {
    self.predicate = predicate
    let limits = predicate.options.limits
    let folded = ShapeExtraction.folded(predicate.syntax, limits: limits)
    var constants: [SiftValue] = []
    shape = ShapeExtraction.shape(of: folded, constants: &constants)
    self.constants = constants
    indexable = !Self.usesReservedNames(predicate.syntax)
    shareable =
      indexable && ShapeExtraction.canShare(predicate)
      && !Self.constantsOutweighSharing(constants, limits: limits)
    flattened = shareable ? ConstantSlice.flattenable(constants) : 0
  }

  var key: ShapeKey { ShapeKey(syntax: shape, limits: predicate.options.limits, flattened: flattened) }

  /// Whether `constants` weigh more than a sixteenth of the step budget
  /// (``DirectConjunction/weight(_:cap:depth:)``: one per value, per element and per 8
  /// bytes of string; for the default budget about 62,500 numbers or 31,000 short ids).
  ///
  /// Why there: a shared program holds the constants as variables. The direct conjunction
  /// answers a comparison only when 8 × its operands' weights stays within half the budget,
  /// so a heavier constant always goes to the VM, which walks a variable's elements on
  /// every evaluation (where the predicate's own program looks a constant set up in a
  /// hash), and once that walk passes half the budget the shape has to compile the
  /// predicate from its constants to answer exactly (``PredicateShape``): with 550,000
  /// ids, at every evaluation. The predicate's own program answers exactly, as
  /// `matches` does, at no compile: it is the one the caller compiled.
  static func constantsOutweighSharing(_ constants: [SiftValue], limits: EvaluationLimits) -> Bool {
    let threshold = limits.maxSteps / 16
    var weight = 0
    for c in constants {
      // Capped just past the threshold: no constant is walked further than it needs.
      weight += DirectConjunction.weight(c, cap: max(threshold, 0) + 1)
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
