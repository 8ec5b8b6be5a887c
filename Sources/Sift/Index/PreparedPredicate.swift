/// A predicate taken apart for a set, before the set's lock is taken: its shape and its
/// constants (``ShapeExtraction``), and whether it may share a compiled shape.
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
    shareable = indexable && ShapeExtraction.canShare(predicate)
    flattened = shareable ? ConstantSlice.flattenable(constants) : 0
  }

  var key: ShapeKey { ShapeKey(syntax: shape, limits: predicate.options.limits, flattened: flattened) }

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
