/// Why evaluating a predicate failed. NSPredicate raises an exception in these cases;
/// Sift throws, with the source range of the part that failed.
public struct EvaluationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The category of failure; the VM and the reference evaluator agree on it.
  public var kind: Kind
  /// What went wrong, in one sentence.
  public var message: String
  /// The UTF-8 byte range, in the predicate's source text, of the expression that failed.
  public var range: SourceRange

  /// Creates an error.
  public init(_ kind: Kind, _ message: String, at range: SourceRange = .at(0)) {
    self.kind = kind
    self.message = message
    self.range = range
  }

  /// The categories of evaluation failure.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// An operand has the wrong type (`priority < '10'`, `5 BEGINSWITH '5'`, `ANY` over a number).
    case typeMismatch
    /// An index is past the end of a collection, negative, or not an integer.
    case indexOutOfRange
    /// A `$variable` has no value.
    case unboundVariable
    /// An argument is malformed: `BETWEEN` without two bounds, `CAST` to an unknown type,
    /// a key path that needs a key after a collection operator.
    case invalidArgument
    /// Division or modulus by zero.
    case divisionByZero
    /// A regular expression is invalid, or matching it exceeded PCRE2's match or depth limit.
    case regex
    /// `FUNCTION` names a function that is not registered.
    case unknownFunction
    /// The evaluation step budget ran out (large `SUBQUERY` or aggregate work).
    case limitExceeded
  }

  /// `message`.
  public var description: String { message }

  /// The rendered diagnostic against `source` (the predicate's source text).
  public func render(source: String) -> String {
    DiagnosticRenderer(source: source).render(severity: "error", message: message, range: range, hint: nil)
  }
}

extension EvaluationError {
  /// The most bytes of a value, key or name quoted in a message.
  static let excerptBytes = 64

  /// `text` as a message quotes it: whole when it is at most ``excerptBytes`` UTF-8 bytes,
  /// otherwise its first bytes (cut at a character boundary), an ellipsis and its length.
  /// A message is written once per failing line by `sift filter --decisions` and kept by
  /// services: a 1 MiB value in it would be copied each time.
  static func excerpt(_ text: String) -> String {
    let n = text.utf8.count
    guard n > excerptBytes else { return text }
    var kept = ""
    var bytes = 0
    for c in text {
      let size = c.utf8.count
      if bytes + size > excerptBytes - 16 { break }
      kept.append(c)
      bytes += size
    }
    return "\(kept)… (\(n) bytes)"
  }
}
