/// The content of one notification, local or decoded from an APNs payload; the Linux
/// counterpart of `UNMutableNotificationContent`, as a value.
///
/// ```swift
/// var content = NotificationContent()
/// content.title = "Build finished"
/// content.filterCriteria = "work-account-identifier"
/// ```
public struct NotificationContent: Sendable, Hashable {
  // Stored in this order so the fields a decision reads share the first cache line and the
  // value packs into 128 bytes (declaration order is layout order).
  /// The string a Focus filter's predicate is evaluated against as `SELF`; `nil` for a
  /// notification that belongs to no particular context (it is then always delivered).
  public var filterCriteria: String?
  /// Who sent it (a person's or a channel's identifier), for a Focus's allowed senders
  /// (``FocusMode/allowedSenders``): a sender the active Focus allows breaks through a Focus
  /// that silences the app. Not read from an APNs payload (Apple's payload has no such key;
  /// a service sets it from its own data); nil by default.
  public var senderIdentifier: String?
  /// The scene or content the notification opens; checked against an app context's
  /// target-content-identifier prefix.
  public var targetContentIdentifier: String?
  /// The headline.
  public var title: String
  /// A line under the title.
  public var subtitle: String
  /// The message text.
  public var body: String
  /// Groups related notifications (APNs `thread-id`).
  public var threadIdentifier: String
  /// Payload keys with no field of their own (custom APNs keys and unmapped `aps` keys).
  public var userInfo: [String: SiftValue]
  /// How the system ranks the notification in a summary, always within `0...1`
  /// (values outside are clamped, NaN becomes 0, on init and on every set).
  public var relevanceScore: Double {
    get { clampedRelevanceScore }
    // A computed property rather than didSet: observers do not run inside this type's own
    // initializers (including the APNs one), so a didSet clamp would be skipped there.
    set { clampedRelevanceScore = Self.clampedRelevance(newValue) }
  }
  /// The storage behind ``relevanceScore``; only ever holds clamped values.
  private var clampedRelevanceScore: Double
  /// The app badge the sender asked for (APNs `aps.badge`): set as the app's badge when the
  /// notification is delivered, 0 clearing it. Always within `0...maximumBadge` (a larger
  /// value is clamped, a negative one becomes 0, on init and on every set), so no count can
  /// overflow.
  public var badge: Int? {
    get { clampedBadge }
    set { clampedBadge = newValue.map(Self.clampedBadge) }
  }
  /// The storage behind ``badge``; only ever holds clamped values.
  private var clampedBadge: Int?
  /// How urgently the notification asks for attention.
  public var interruptionLevel: InterruptionLevel

  /// Creates content; every field has the same default as a fresh `UNMutableNotificationContent`.
  public init(
    title: String = "",
    subtitle: String = "",
    body: String = "",
    threadIdentifier: String = "",
    filterCriteria: String? = nil,
    targetContentIdentifier: String? = nil,
    interruptionLevel: InterruptionLevel = .active,
    relevanceScore: Double = 0,
    badge: Int? = nil,
    userInfo: [String: SiftValue] = [:],
    senderIdentifier: String? = nil
  ) {
    self.title = title
    self.subtitle = subtitle
    self.body = body
    self.threadIdentifier = threadIdentifier
    self.filterCriteria = filterCriteria
    self.targetContentIdentifier = targetContentIdentifier
    self.interruptionLevel = interruptionLevel
    self.clampedRelevanceScore = Self.clampedRelevance(relevanceScore)
    self.clampedBadge = badge.map(Self.clampedBadge)
    self.senderIdentifier = senderIdentifier
    self.userInfo = userInfo
  }

  /// The largest badge count (2³¹ − 1, what an app's badge number holds on Apple
  /// platforms): badges from payloads and apps are clamped to it and counting stops there.
  public static let maximumBadge = Int(Int32.max)

  /// Clamps a badge count to `0...maximumBadge`.
  static func clampedBadge(_ count: Int) -> Int { min(max(count, 0), maximumBadge) }

  /// Clamps to `0...1`; NaN would survive `min`/`max` unchanged, so it maps to 0 explicitly.
  static func clampedRelevance(_ score: Double) -> Double {
    score.isNaN ? 0 : min(max(score, 0), 1)
  }
}
