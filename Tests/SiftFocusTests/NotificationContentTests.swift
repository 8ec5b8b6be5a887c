import SiftFocus
import Testing

// MARK: - Local content

@Test func contentDefaultsMatchAFreshMutableContent() {
  let content = NotificationContent()
  #expect(content.title == "" && content.subtitle == "" && content.body == "")
  #expect(content.threadIdentifier == "")
  #expect(content.filterCriteria == nil && content.targetContentIdentifier == nil)
  #expect(content.interruptionLevel == .active)
  #expect(content.relevanceScore == 0)
  #expect(content.badge == nil && content.userInfo.isEmpty)
}

@Test func contentIsMutableFieldByField() {
  var content = NotificationContent()
  content.title = "Curt Rothert"
  content.filterCriteria = "work-account-identifier"
  content.interruptionLevel = .timeSensitive
  #expect(
    content
      == NotificationContent(
        title: "Curt Rothert", filterCriteria: "work-account-identifier",
        interruptionLevel: .timeSensitive))
}

@Test(arguments: [(-1.0, 0.0), (0.0, 0.0), (0.25, 0.25), (1.0, 1.0), (7.5, 1.0), (.nan, 0.0), (-.infinity, 0.0)])
func relevanceScoreIsClampedOnInitAndSet(given: Double, expected: Double) {
  #expect(NotificationContent(relevanceScore: given).relevanceScore == expected)
  var content = NotificationContent(relevanceScore: 0.5)
  content.relevanceScore = given
  #expect(content.relevanceScore == expected)
}

@Test func interruptionLevelRawValuesAreTheAPNsStrings() {
  #expect(InterruptionLevel.allCases.map(\.rawValue) == ["passive", "active", "time-sensitive", "critical"])
}

// MARK: - APNs payloads

@Test func apnsPayloadWithEveryKey() throws {
  let payload = """
    {"aps": {"alert": {"title": "Curt Rothert", "subtitle": "Slide Feedback", "body": "See slide 22.",
                       "launch-image": "feedback.png"},
             "badge": 3, "sound": "default", "thread-id": "feedback", "filter-criteria": "work-account-identifier",
             "interruption-level": "time-sensitive", "relevance-score": 0.75, "target-content-id": "work/slides",
             "category": "FEEDBACK"},
     "deck": "keynote", "slides": [22, 28]}
    """
  let content = try NotificationContent(apnsPayload: payload)
  #expect(content.title == "Curt Rothert")
  #expect(content.subtitle == "Slide Feedback")
  #expect(content.body == "See slide 22.")
  #expect(content.badge == 3)
  #expect(content.threadIdentifier == "feedback")
  #expect(content.filterCriteria == "work-account-identifier")
  #expect(content.interruptionLevel == .timeSensitive)
  #expect(content.relevanceScore == 0.75)
  #expect(content.targetContentIdentifier == "work/slides")
  // Unknown keys: top-level ones under their own name, leftover aps keys nested under "aps".
  #expect(
    content.userInfo == [
      "deck": "keynote", "slides": [22, 28],
      "aps": ["sound": "default", "category": "FEEDBACK", "alert": ["launch-image": "feedback.png"]],
    ])
}

@Test func apnsPayloadFromBytesEqualsFromString() throws {
  let text = #"{"aps": {"alert": "Hi", "filter-criteria": "a"}, "x": 1}"#
  let fromString = try NotificationContent(apnsPayload: text)
  #expect(try NotificationContent(apnsPayload: Array(text.utf8)) == fromString)
  #expect(try NotificationContent(apnsPayload: text.utf8) == fromString)
}

@Test func apnsStringAlertIsTheBody() throws {
  let content = try NotificationContent(apnsPayload: #"{"aps": {"alert": "Build finished"}}"#)
  #expect(content.body == "Build finished" && content.title == "" && content.subtitle == "")
  #expect(content.userInfo.isEmpty)
}

@Test func apnsMinimalPayloadKeepsDefaults() throws {
  #expect(try NotificationContent(apnsPayload: #"{"aps": {}}"#) == NotificationContent())
}

@Test(arguments: InterruptionLevel.allCases)
func apnsInterruptionLevels(level: InterruptionLevel) throws {
  let content = try NotificationContent(apnsPayload: #"{"aps": {"interruption-level": "\#(level.rawValue)"}}"#)
  #expect(content.interruptionLevel == level)
}

@Test(arguments: [("-0.5", 0.0), ("0", 0.0), ("1", 1.0), ("0.5", 0.5), ("2", 1.0), ("1e300", 1.0)])
func apnsRelevanceScoreIsClamped(json: String, expected: Double) throws {
  let content = try NotificationContent(apnsPayload: #"{"aps": {"relevance-score": \#(json)}}"#)
  #expect(content.relevanceScore == expected)
}

@Test(arguments: [
  (#"{"aps": {"badge": "3"}}"#, "aps.badge must be an integer, not a string"),
  (#"{"aps": {"badge": 2.5}}"#, "aps.badge must be an integer, not a number"),
  (#"{"aps": {"alert": 7}}"#, "aps.alert must be an object or a string, not an integer"),
  (#"{"aps": {"alert": {"title": ["x"]}}}"#, "aps.alert.title must be a string, not an array"),
  (#"{"aps": {"alert": {"subtitle": 1}}}"#, "aps.alert.subtitle must be a string, not an integer"),
  (#"{"aps": {"alert": {"body": null}}}"#, "aps.alert.body must be a string, not null"),
  (#"{"aps": {"filter-criteria": 12}}"#, "aps.filter-criteria must be a string, not an integer"),
  (#"{"aps": {"thread-id": true}}"#, "aps.thread-id must be a string, not a Boolean"),
  (#"{"aps": {"target-content-id": {}}}"#, "aps.target-content-id must be a string, not an object"),
  (#"{"aps": {"relevance-score": "high"}}"#, "aps.relevance-score must be a number, not a string"),
  (#"{"aps": {"interruption-level": 1}}"#, "aps.interruption-level must be a string, not an integer"),
  (
    #"{"aps": {"interruption-level": "urgent"}}"#,
    #"aps.interruption-level "urgent" is not one of "passive", "active", "time-sensitive", "critical""#
  ),
  (#"{"aps": "alert"}"#, "aps must be an object, not a string"),
  (#"{"alert": "Hi"}"#, "an APNs payload must have an aps object"),
  (#"["aps"]"#, "an APNs payload must be a JSON object, not an array"),
])
func apnsWrongShapesAreErrors(payload: String, message: String) {
  #expect(throws: APNsPayloadError(message: message)) { try NotificationContent(apnsPayload: payload) }
}

@Test(arguments: [
  (#"{"aps": {"badge": 3,}}"#, 20),
  (#"{"aps": {"alert": "unterminated}}"#, 18),
  (#"{"aps": {}} trailing"#, 12),
  ("", 0),
])
func apnsMalformedJSONReportsTheOffset(payload: String, offset: Int) throws {
  let error = try #require(throws: APNsPayloadError.self) { try NotificationContent(apnsPayload: payload) }
  #expect(error.offset == offset)
  #expect(error.message.hasPrefix("malformed JSON: "))
  #expect(error.description.hasSuffix(" at offset \(offset)"))
  // The byte entry point reports the same error.
  #expect(throws: error) { try NotificationContent(apnsPayload: Array(payload.utf8)) }
}

/// The decision reads `filterCriteria`, `senderIdentifier` and `targetContentIdentifier`;
/// they lead the layout, so deciding an array of notifications reads the first cache line of
/// each (README, Focus filters, Speed); the whole value is 144 bytes.
@Test func decisionFieldsLeadACompactLayout() {
  #expect(MemoryLayout<NotificationContent>.stride == 144)
  #expect(MemoryLayout<NotificationContent>.offset(of: \NotificationContent.filterCriteria) == 0)
  #expect(MemoryLayout<NotificationContent>.offset(of: \NotificationContent.senderIdentifier) == 16)
  #expect(MemoryLayout<NotificationContent>.offset(of: \NotificationContent.targetContentIdentifier) == 32)
}
