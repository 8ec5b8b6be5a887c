/// `closure-any`: the competent hand-written closure over the same `[String: Any]` the
/// `sift-any` rows get, casting only the fields it reads (`d["priority"] as? Int`), with
/// the struct closure's tests and short-circuit order. A field of another type or a missing
/// one makes the comparison false, as nil does in the predicate.

/// W1: the id string as `Any`.
struct W1ClosureAny: Evaluator {
  let closure: W1Closure
  @inline(__always)
  func evaluate(_ id: Any) -> Bool { (id as? String).map(closure.evaluate) ?? false }
}

/// W2 over a Foundation dictionary.
struct W2ClosureAny: Evaluator {
  let closure: W2Closure
  @inline(__always)
  func evaluate(_ d: [String: Any]) -> Bool {
    guard let account = d["account"] as? String, closure.allowed.contains(account),
      let priority = d["priority"] as? Int, priority >= 3
    else { return false }
    guard let sender = d["sender"] as? String, !closure.spamSuffix.matches(sender) else { return false }
    return (d["tags"] as? [String])?.contains("urgent") ?? false
  }
}

/// W3 over a Foundation dictionary.
struct W3ClosureAny: Evaluator {
  @inline(__always)
  func evaluate(_ d: [String: Any]) -> Bool { (d["subject"] as? String).map(ByteScans.containsInvoiceNumber) ?? false }
}

/// W4 over a Foundation dictionary.
struct W4ClosureAny: Evaluator {
  let closure = W4Closure()
  @inline(__always)
  func evaluate(_ d: [String: Any]) -> Bool { (d["title"] as? String).map(closure.needle.isContained) ?? false }
}

/// C20 over a Foundation dictionary: each field cast where its clause reads it.
struct C20ClosureAny: Evaluator {
  let c: C20Closure

  @inline(__always)
  func evaluate(_ d: [String: Any]) -> Bool {
    guard let account = d["account"] as? String, c.allowed.contains(account),
      let priority = d["priority"] as? Int, priority >= 3, priority < 6,
      let sender = d["sender"] as? String, c.exampleSuffix.matches(sender), !ByteScans.hasBytePrefix(sender, "noreply"),
      let tags = d["tags"] as? [String], tags.contains("urgent"),
      let subject = d["subject"] as? String, c.invoice.isContained(in: subject),
      let title = d["title"] as? String, c.report.isContained(in: title),
      let badge = d["badge"] as? Int, (1...10).contains(badge),
      d["thread"] is String
    else { return false }
    // The OR ends in TRUEPREDICATE, so it is true once reached, whatever its clauses say;
    // the closure still reads the first one, as the predicate does.
    return ((d["relevance"] as? Double) ?? 0) > 0.5 || true
  }
}
