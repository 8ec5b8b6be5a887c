import Foundation

/// The closures a hurried engineer writes: `Set` for a tiny set, `lowercased()` and
/// Foundation `folding` on every call, a Swift `Regex`. Extra rows (`closure-naive`), never
/// the baseline: they show what the competent closure saves.

/// W1 with a `Set<String>` (hashes every id).
struct W1NaiveClosure: Evaluator {
  let allowed: Set<String>

  func evaluate(_ id: String) -> Bool { allowed.contains(id) }
}

/// W2 with a `Set` and `lowercased().hasSuffix` (allocates a lowercased copy of every sender).
struct W2NaiveClosure: Evaluator {
  let allowed: Set<String>

  func evaluate(_ n: NotificationItem) -> Bool {
    allowed.contains(n.account) && n.priority >= 3 && !n.sender.lowercased().hasSuffix("@spam.example")
      && n.tags.contains("urgent")
  }
}

/// W3 with a Swift `Regex`, whole match, matching Unicode scalars as MATCHES does.
struct W3NaiveClosure: Evaluator {
  let regex = try! Regex(".*invoice [0-9]+.*").matchingSemantics(.unicodeScalar)

  func evaluate(_ n: NotificationItem) -> Bool { (try? regex.wholeMatch(in: n.subject)) != nil }
}

/// W4 with Foundation `folding` of every title, then a substring test.
struct W4NaiveClosure: Evaluator {
  func evaluate(_ n: NotificationItem) -> Bool {
    n.title.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).contains("resume")
  }
}
