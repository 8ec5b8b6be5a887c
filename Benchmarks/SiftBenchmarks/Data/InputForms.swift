import Foundation
import Sift
import SiftFocus

/// The same records in every input form an engine takes. Each form is converted on first
/// use, before any timing, and only if a selected engine needs it (a million records in every
/// form take gigabytes, and first-touching memory is slow on these machines). Forms share
/// string storage with the records (Swift strings are copy-on-write), so they differ only in
/// their containers, as they would in an application.
final class InputForms {
  /// The records as the app models them (closures, `#Predicate`, `sift-typed`).
  let items: ContiguousArray<NotificationItem>
  /// The same records as a type that only answers keys (`sift-kvc`): `NotificationItem`
  /// has a field table too, and a type with both is read through its table.
  lazy var keyValueItems = ContiguousArray(items.lazy.map(KeyValueItem.init))
  /// The account id of each record: `SELF` for W1.
  lazy var accountIDs = ContiguousArray(items.lazy.map(\.account))
  /// The account id as a value (`sift-value` for W1).
  /// Notifications whose `filterCriteria` is the account id (the Focus case of W1).
  lazy var notifications = ContiguousArray(
    items.lazy.map { item -> NotificationContent in
      var content = NotificationContent(title: item.sender, subtitle: item.subject, body: item.title)
      content.filterCriteria = item.account
      return content
    })
  lazy var accountValues = ContiguousArray(items.lazy.map { SiftValue.string($0.account) })
  /// The account id as `Any` (`sift-any` and `nspredicate-block` for W1).
  lazy var accountAnys = ContiguousArray(items.lazy.map { $0.account as Any })
  /// Each record as a value tree: a dictionary with one entry per field (`thread` may be null).
  lazy var valueTrees = ContiguousArray(items.lazy.map { SiftValue.dictionary($0.siftDictionary) })
  /// Each record as a Foundation dictionary, as hand-written Swift builds one for an API
  /// that takes `[String: Any]` (`thread` is absent when nil).
  lazy var foundationDictionaries = ContiguousArray(items.lazy.map(\.foundationDictionary))
  /// Each record as a schema-bound record.
  lazy var records = ContiguousArray(items.lazy.map { SiftRecord(schema: Self.schema, values: $0.siftValues) })
  /// The records as columns (`sift-columns`): one array per field; the fields with few
  /// distinct values (account, category, kind, lang) dictionary-encoded.
  lazy var columns = SiftColumns([
    ("account", .dictionary(items.map(\.account))), ("priority", .integers(items.map(\.priority))),
    ("sender", .strings(items.map(\.sender))), ("tags", .stringArrays(items.map(\.tags))),
    ("subject", .strings(items.map(\.subject))), ("title", .strings(items.map(\.title))),
    ("badge", .integers(items.map(\.badge))),
    ("thread", .values(items.map { $0.thread.map(SiftValue.string) ?? .null })),
    ("relevance", .doubles(items.map(\.relevance))), ("category", .dictionary(items.map(\.category))),
    ("bytes", .integers(items.map(\.bytes))), ("kind", .dictionary(items.map(\.kind))),
    ("lang", .dictionary(items.map(\.lang))), ("recipients", .stringArrays(items.map(\.recipients))),
    ("score", .integers(items.map(\.score))),
  ])
  /// Each record boxed in an object, as `NSPredicate.evaluate(with:)` is given one.
  lazy var boxes = ContiguousArray(items.lazy.map(NotificationBox.init))

  /// The schema of `records`.
  static let schema = SiftSchema(fields: NotificationItem.fieldNames)

  init(_ items: ContiguousArray<NotificationItem>) { self.items = items }

  var count: Int { items.count }
}

/// A record in an object, as NSPredicate callers hold their model objects (passing a class
/// reference as `Any?` does not allocate a box, as a large struct would on every call).
final class NotificationBox {
  let item: NotificationItem
  init(_ item: NotificationItem) { self.item = item }
}

extension NotificationItem {
  /// The fields as values, in `fieldNames` order.
  var siftValues: [SiftValue] {
    [
      .string(account), .int(priority), .string(sender), .array(tags.map(SiftValue.string)), .string(subject),
      .string(title), .int(badge), thread.map(SiftValue.string) ?? .null, .double(relevance), .string(category),
      .int(bytes), .string(kind), .string(lang), .array(recipients.map(SiftValue.string)), .int(score),
    ]
  }

  /// The fields as a value dictionary.
  var siftDictionary: [String: SiftValue] {
    Dictionary(uniqueKeysWithValues: zip(Self.fieldNames, siftValues))
  }

  /// The fields as a Foundation dictionary; nil `thread` is left out.
  var foundationDictionary: [String: Any] {
    var d: [String: Any] = [
      "account": account, "priority": priority, "sender": sender, "tags": tags, "subject": subject, "title": title,
      "badge": badge, "relevance": relevance, "category": category, "bytes": bytes, "kind": kind, "lang": lang,
      "recipients": recipients, "score": score,
    ]
    if let thread { d["thread"] = thread }
    return d
  }
}

/// The app's own type answering keys for Sift: what a user writes to evaluate predicates
/// against a model struct without converting it first (here a wrapper, since the struct
/// itself also has a field table, which would be read instead).
struct KeyValueItem: SiftKeyValueCoding {
  let item: NotificationItem
  func siftValue(forKey key: String) -> SiftValue? { item.siftValue(forKey: key) }
}

/// The lookups `KeyValueItem` answers with. Arrays are converted on each lookup, as a plain
/// conformance must (the protocol returns values).
extension NotificationItem {
  func siftValue(forKey key: String) -> SiftValue? {
    switch key {
    case "account": .string(account)
    case "priority": .int(priority)
    case "sender": .string(sender)
    case "tags": .array(tags.map(SiftValue.string))
    case "subject": .string(subject)
    case "title": .string(title)
    case "badge": .int(badge)
    case "thread": thread.map(SiftValue.string) ?? .null
    case "relevance": .double(relevance)
    case "category": .string(category)
    case "bytes": .int(bytes)
    case "kind": .string(kind)
    case "lang": .string(lang)
    case "recipients": .array(recipients.map(SiftValue.string))
    case "score": .int(score)
    default: nil
    }
  }
}

/// The app's struct as a `SiftTyped` value: one table, written once, read in place by a
/// predicate compiled for the type (`sift-typed`).
extension NotificationItem: SiftTyped {
  static let siftFields = SiftFields<NotificationItem>()
    .field("account", \.account)
    .field("priority", \.priority)
    .field("sender", \.sender)
    .field("tags", \.tags)
    .field("subject", \.subject)
    .field("title", \.title)
    .field("badge", \.badge)
    .field("thread", \.thread)
    .field("relevance", \.relevance)
    .field("category", \.category)
    .field("bytes", \.bytes)
    .field("kind", \.kind)
    .field("lang", \.lang)
    .field("recipients", \.recipients)
    .field("score", \.score)
}
