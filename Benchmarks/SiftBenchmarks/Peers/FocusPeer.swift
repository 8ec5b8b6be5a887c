import SiftFocus

/// W1 through the focus layer: the decision the system makes for a notification under a
/// Focus whose app context is `SELF IN %@` (the criteria string is `SELF`). Compared with
/// the bare `sift` row of W1 over the same account ids.
struct SiftFocusEvaluator: Evaluator {
  let filter: NotificationFilter
  func evaluate(_ input: NotificationContent) -> Bool { filter.decide(input).outcome == .delivered }
}
