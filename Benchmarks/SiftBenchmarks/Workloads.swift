import Sift

/// The four reference predicates (W1–W4) and the 20-clause predicate, with their arguments.
enum Workloads {
  /// The allowed account ids: 3 of the 8 (`acct-0` … `acct-7`) that records carry.
  static let allowedAccountIDs = ["acct-1", "acct-4", "acct-7"]
  static let allowedAccounts = SiftValue.array(allowedAccountIDs.map(SiftValue.string))

  static let predicates: [(name: String, format: String, arguments: [SiftValue])] = [
    ("W1", "SELF IN %@", [allowedAccounts]),
    (
      "W2",
      "account IN %@ AND priority >= 3 AND NOT (sender ENDSWITH[c] '@spam.example') AND ANY tags == 'urgent'",
      [allowedAccounts]
    ),
    ("W3", "subject MATCHES '.*invoice [0-9]+.*'", []),
    ("W4", "title CONTAINS[cd] 'résumé'", []),
    ("C20", twentyClauses, [allowedAccounts]),
  ]

  /// Twenty comparisons of every common kind, joined by AND and OR.
  static let twentyClauses: String = {
    let clauses = [
      "account IN %@", "priority >= 3", "priority < 6", "sender ENDSWITH[c] '@example.com'",
      "NOT (sender BEGINSWITH 'noreply')", "ANY tags == 'urgent'", "subject CONTAINS[cd] 'invoice'",
      "title LIKE[c] '*report*'", "badge BETWEEN {1, 10}", "thread != nil", "relevance > 0.5",
      "category IN {'work', 'family', 'finance'}", "ALL tags != 'muted'", "bytes < 1048576",
      "kind == 'message'", "lang ==[c] 'en'", "recipients.@count <= 20", "score * 2 + 1 > 3",
      "subject MATCHES '.*[0-9]+.*'", "TRUEPREDICATE",
    ]
    return clauses[0..<10].joined(separator: " AND ") + " AND (" + clauses[10...].joined(separator: " OR ")
      + ")"
  }()
}
