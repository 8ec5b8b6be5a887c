/// The hand-written closures: the baseline of every ratio. Each is what a competent Swift
/// engineer writes for that one predicate, with the predicate's semantics (Sift's
/// `Documentation/Semantics.md`), over the app's own struct: linear scans for tiny sets,
/// byte-level tests for ASCII constants, a per-scalar fold for `[c]`/`[d]` on arbitrary text.
/// Clauses are tested in the predicate's order with the same short-circuiting.

/// W1 `SELF IN %@`: a linear scan of the three allowed ids with `==` (for three small strings
/// this beats hashing for a `Set`).
struct W1Closure: Evaluator {
  let allowed: [String]

  @inline(__always)
  func evaluate(_ id: String) -> Bool { allowed.contains(id) }
}

/// W2 `account IN %@ AND priority >= 3 AND NOT (sender ENDSWITH[c] '@spam.example') AND
/// ANY tags == 'urgent'`.
struct W2Closure: Evaluator {
  let allowed: [String]
  let spamSuffix: CaseInsensitiveSuffix

  init(allowed: [String]) {
    self.allowed = allowed
    spamSuffix = CaseInsensitiveSuffix("@spam.example", table: ScalarFoldTable(.caseInsensitive))
  }

  @inline(__always)
  func evaluate(_ n: NotificationItem) -> Bool {
    allowed.contains(n.account) && n.priority >= 3 && !spamSuffix.matches(n.sender) && n.tags.contains("urgent")
  }
}

/// W3 `subject MATCHES '.*invoice [0-9]+.*'`: a byte scan for "invoice " and a digit.
struct W3Closure: Evaluator {
  @inline(__always)
  func evaluate(_ n: NotificationItem) -> Bool { ByteScans.containsInvoiceNumber(n.subject) }
}

/// W4 `title CONTAINS[cd] 'résumé'`: the title folded scalar by scalar on the fly (ASCII
/// inline, marks skipped, other scalars through a lazily filled table) and searched for the
/// folded needle "resume".
struct W4Closure: Evaluator {
  let needle = FoldedNeedle("résumé", table: ScalarFoldTable(.caseAndDiacriticInsensitive))

  @inline(__always)
  func evaluate(_ n: NotificationItem) -> Bool { needle.isContained(in: n.title) }
}

/// C20, the 20-clause predicate of `Workloads.twentyClauses`: ten clauses ANDed with an OR of
/// ten more (which ends in TRUEPREDICATE, so it is true whenever it is reached).
struct C20Closure: Evaluator {
  let allowed: [String]
  let exampleSuffix: CaseInsensitiveSuffix
  let invoice: FoldedNeedle
  let report: FoldedNeedle
  let english: FoldedNeedle
  let categories = ["work", "family", "finance"]

  init(allowed: [String]) {
    self.allowed = allowed
    let caseTable = ScalarFoldTable(.caseInsensitive)
    exampleSuffix = CaseInsensitiveSuffix("@example.com", table: caseTable)
    invoice = FoldedNeedle("invoice", table: ScalarFoldTable(.caseAndDiacriticInsensitive))
    report = FoldedNeedle("report", table: caseTable)
    english = FoldedNeedle("en", table: caseTable)
  }

  @inline(__always)
  func evaluate(_ n: NotificationItem) -> Bool {
    allowed.contains(n.account)  // account IN %@
      && n.priority >= 3 && n.priority < 6
      && exampleSuffix.matches(n.sender)  // sender ENDSWITH[c] '@example.com'
      && !ByteScans.hasBytePrefix(n.sender, "noreply")  // NOT (sender BEGINSWITH 'noreply')
      && n.tags.contains("urgent")  // ANY tags == 'urgent'
      && invoice.isContained(in: n.subject)  // subject CONTAINS[cd] 'invoice'
      && report.isContained(in: n.title)  // title LIKE[c] '*report*'
      && (1...10).contains(n.badge)  // badge BETWEEN {1, 10}
      && n.thread != nil
      && (n.relevance > 0.5
        || categories.contains(n.category)  // category IN {'work', 'family', 'finance'}
        || n.tags.allSatisfy { $0 != "muted" }  // ALL tags != 'muted'
        || n.bytes < 1_048_576
        || n.kind == "message"
        || english.isEqual(to: n.lang)  // lang ==[c] 'en'
        || n.recipients.count <= 20  // recipients.@count <= 20
        || n.score * 2 + 1 > 3
        || ByteScans.containsDigit(n.subject)  // subject MATCHES '.*[0-9]+.*'
        || true)  // TRUEPREDICATE
  }
}
