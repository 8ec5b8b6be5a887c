/// Where ``CanonicalPrinter`` writes: a `String`, or a ``CanonicalLength`` that only
/// counts the bytes, so the parser can measure a tree's canonical text
/// (``CanonicalLengthCheck``) without building it, by the same code that prints it.
protocol CanonicalOutput {
  static func += (lhs: inout Self, rhs: String)
  mutating func appendScalar(_ scalar: Unicode.Scalar)
}

extension String: CanonicalOutput {
  mutating func appendScalar(_ scalar: Unicode.Scalar) { unicodeScalars.append(scalar) }
}

/// The UTF-8 length of what would be printed.
struct CanonicalLength: CanonicalOutput {
  var bytes = 0

  static func += (lhs: inout CanonicalLength, rhs: String) { lhs.bytes += rhs.utf8.count }

  mutating func appendScalar(_ scalar: Unicode.Scalar) { bytes += UTF8.width(scalar) }
}

extension CanonicalPrinter {
  /// The UTF-8 length of `p`'s canonical text, counted without building it.
  static func length(_ p: PredicateSyntax) -> Int {
    var out = CanonicalLength()
    write(p, to: &out)
    return out.bytes
  }

  /// The UTF-8 length of `e`'s canonical text.
  static func length(_ e: ExpressionSyntax) -> Int {
    var out = CanonicalLength()
    write(e, level: .expression, to: &out)
    return out.bytes
  }
}
