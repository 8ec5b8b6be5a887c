/// One notification as an app models it: the plain Swift struct that the hand-written
/// closures, `NSPredicate(block:)` and `#Predicate` read, and that conforms to
/// `SiftKeyValueCoding` for the `sift-kvc` rows. Every other input form is converted from it.
struct NotificationItem: Sendable, Encodable {
  var account: String
  var priority: Int
  var sender: String
  var tags: [String]
  var subject: String
  var title: String
  var badge: Int
  var thread: String?
  var relevance: Double
  var category: String
  var bytes: Int
  var kind: String
  var lang: String
  var recipients: [String]
  var score: Int

  /// Field names in the order of `SiftRecord` slots (and of the dictionaries' keys).
  static let fieldNames = [
    "account", "priority", "sender", "tags", "subject", "title", "badge", "thread", "relevance", "category",
    "bytes", "kind", "lang", "recipients", "score",
  ]
}
