import Foundation

/// Foundation's `#Predicate` (the macro expands to a tree of `PredicateExpressions` that
/// `evaluate` walks). What it can express on Linux decides the rows:
/// - W1 and W2 as written below (ENDSWITH[c] as a case-insensitive `Regex` anchored at the end,
///   since `Predicate` has no `hasSuffix` and no case-insensitive comparison on Linux);
/// - W3 with a `Regex`, anchored at both ends to keep MATCHES' whole-string meaning;
/// - not W4 nor C20: `CONTAINS[cd]` needs `localizedStandardContains`, which the Linux
///   Foundation does not offer in predicates (`Regex` has no diacritic-insensitive mode).
struct PredicateMacroEvaluator<Input>: Evaluator {
  let predicate: Predicate<Input>
  func evaluate(_ input: Input) -> Bool { (try? predicate.evaluate(input)) ?? false }
}

enum PredicateMacros {
  static func w1(allowed: [String]) -> Predicate<String> {
    #Predicate<String> { allowed.contains($0) }
  }

  static func w2(allowed: [String]) -> Predicate<NotificationItem> {
    let spam = try! Regex("@spam\\.example\\z").ignoresCase().matchingSemantics(.unicodeScalar)
    return #Predicate<NotificationItem> { n in
      allowed.contains(n.account) && n.priority >= 3 && !n.sender.contains(spam) && n.tags.contains("urgent")
    }
  }

  static func w3() -> Predicate<NotificationItem> {
    let invoice = try! Regex("\\A.*invoice [0-9]+.*\\z").matchingSemantics(.unicodeScalar)
    return #Predicate<NotificationItem> { n in n.subject.contains(invoice) }
  }
}
