import Foundation
import Sift
import SiftFocus

enum FocusFuzzing {
  /// Input: an APNs payload. The reader returns content or an error that renders, never a
  /// trap; a badge is within `0...maximumBadge`, and the unread-count arithmetic stays
  /// there from any count; a service's decision table decides the content exactly as the
  /// Focus policy and the app's filter do, for every shape of row (inline allow lists,
  /// side-table filters, long user ids, Focus modes that silence apps, allowed senders,
  /// critical alerts with and without permission); and the history record of it round-trips
  /// through JSON.
  static func apns(_ bytes: [UInt8]) {
    let content: NotificationContent
    do {
      content = try NotificationContent(apnsPayload: bytes)
    } catch {
      guard !error.description.isEmpty else { violated("a payload error says what is wrong", "") }
      return
    }
    if let badge = content.badge, !(0...NotificationContent.maximumBadge).contains(badge) {
      violated("a badge is within 0...maximumBadge", "\(badge)")
    }
    for count in [0, 1, NotificationContent.maximumBadge - 1, NotificationContent.maximumBadge] {
      let next = FocusSystem.badge(after: count, content)
      guard (0...NotificationContent.maximumBadge).contains(next) else {
        violated("counting stays within 0...maximumBadge", "\(count) -> \(next)")
      }
    }
    // Built for each input rather than kept in a global: nothing outlives the input, so
    // the leak checker sees only what an input leaves behind (a compiled predicate held
    // by a global reads as a leak to it: Swift keeps tag bits in enum payload pointers).
    let rows = Self.rows()
    let table = Self.table(rows)
    for row in rows {
      guard let index = table.find(row.user) else { violated("every user of the table is found", row.user) }
      for app in Self.apps {
        let filter = row.filters.first { $0.app.utf8.elementsEqual(app.utf8) }?.filter
        let critical = app == Self.pager || filter?.allowsCriticalAlerts == true
        let expected = row.policy.decide(content, app: app, filter: filter, allowsCriticalAlerts: critical)
        let decided = table.decide(content, row: index, app: app)
        guard decided == expected else {
          violated("the table decides as the policy and the filter", "\(row.user) \(app): \(decided) vs \(expected)")
        }
      }
    }
    let record = DeliveryRecord(
      sequence: 1, app: Self.pager, content: content, focus: "Work",
      decision: NotificationDecision(outcome: .delivered, reason: .matched)
    ).trimmed()
    guard let data = try? JSONEncoder().encode(record),
      let back = try? JSONDecoder().decode(DeliveryRecord.self, from: data), back == record
    else { violated("a history record round-trips through JSON", "\(record)") }
  }

  static let pager = "com.example.pager"
  static let apps = ["com.example.mail", pager, "com.example.chat", "com.example.mail\u{0}", ""]

  /// One user's row: the Focus policy and the filters per app.
  struct Row {
    var user: String
    var policy: FocusPolicy
    var filters: [AppFilter]
  }

  static func rows() -> [Row] {
    func allow(_ ids: [String], critical: Bool = false, timeSensitive: Bool = true) -> NotificationFilter {
      let predicate = try! SiftPredicate(format: "SELF IN %@", arguments: [.array(ids.map { .string($0) })])
      return NotificationFilter(
        predicate: predicate, allowsTimeSensitive: timeSensitive, allowsCriticalAlerts: critical)
    }
    let open = FocusPolicy.default(forFocus: "Work")
    let silencing = FocusPolicy(
      allowsTimeSensitive: true, allowedApps: .only(["com.example.chat"]), allowedSenders: ["mom", "a\u{0}b"])
    let strict = FocusPolicy(allowsTimeSensitive: false, allowedApps: .allExcept([pager]), allowedSenders: [])
    let mail = "com.example.mail"
    return [
      Row(user: "inline", policy: open, filters: [AppFilter(app: mail, filter: allow(["work", "a\u{0}b", ""]))]),
      Row(user: "inline-critical", policy: open, filters: [AppFilter(app: mail, filter: allow(["x"], critical: true))]),
      Row(
        user: "long-ids", policy: open,
        filters: [AppFilter(app: mail, filter: allow(["work-account-identifier", "caf\u{E9}"], timeSensitive: false))]),
      Row(
        user: "general", policy: open,
        filters: [
          AppFilter(
            app: mail, filter: NotificationFilter(predicate: try! SiftPredicate(format: "SELF BEGINSWITH 'w'"))),
          AppFilter(app: pager, filter: .unavailable("broken")),
        ]),
      Row(
        user: "3F2504E0-4F89-41D3-9A0C-0305E82C3301", policy: silencing,
        filters: [AppFilter(app: "com.example.chat", filter: allow(["team"]))]),
      Row(
        user: "strict", policy: strict, filters: [AppFilter(app: mail, filter: allow(["work"], timeSensitive: false))]),
      Row(user: "nothing", policy: open, filters: []),
    ]
  }

  /// The rows in one table.
  static func table(_ rows: [Row]) -> DecisionTable {
    var table = DecisionTable()
    table.setAllowsCriticalAlerts(true, app: pager)
    for row in rows {
      let index = table.slot(for: row.user)
      table.setMode("Focus", policy: row.policy, row: index)
      table.setFilters(row.filters, row: index)
    }
    return table
  }

  /// Payloads built from the keys the reader maps, their edge values and some malformed
  /// text.
  static var seeds: [[UInt8]] {
    let criteria = [
      #""work""#, #""a\u0000b""#, #""""#, #""work-account-identifier""#, #""caf\u00e9""#, #""cafe\u0301""#, "12",
      "null",
    ]
    let badges = [
      "0", "1", "-1", "2147483647", "2147483648", "9223372036854775807", "-9223372036854775808", "1e30", "\"3\"",
    ]
    let levels = [#""passive""#, #""active""#, #""time-sensitive""#, #""critical""#, #""urgent""#]
    var seeds: [String] = []
    let alerts = [#"{"title": "t", "body": "b"}"#, #""a body""#]
    for (k, c) in criteria.enumerated() {
      for (j, b) in badges.enumerated() {
        for (i, alert) in alerts.enumerated() {
          let level = levels[(k + j + i) % levels.count]
          seeds.append(
            #"{"aps": {"alert": \#(alert), "filter-criteria": \#(c), "badge": \#(b), "#
              + #""interruption-level": \#(level), "thread-id": "x"}, "custom": [1, 2]}"#)
        }
      }
    }
    seeds += [
      #"{"aps": {"alert": "body only", "relevance-score": 2.5, "target-content-id": "work/inbox"}}"#,
      #"{"aps": {"alert": {"launch-image": "x"}, "sound": "default"}, "aps2": {}}"#,
      #"{"aps": []}"#, #"[]"#, #"{"aps": {"badge": null}}"#, #"{"aps": {"#, "", #"{"aps": {}} trailing"#,
    ]
    return seeds.map { Array($0.utf8) }
  }
}
