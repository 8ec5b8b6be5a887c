import SiftFocus

/// The notifications the example sends: the talk's "Slide Feedback" from the work account,
/// a personal message, one that arrives as an APNs payload, and one without filterCriteria.
enum Notifications {
  static var stream: [NotificationContent] {
    var slideFeedback = NotificationContent()
    slideFeedback.title = "Curt Rothert"
    slideFeedback.subtitle = "Slide Feedback"
    slideFeedback.body = "The run through today was great. I had few comments about slide 22 and 28."
    slideFeedback.filterCriteria = "work-account-identifier"

    var dinner = NotificationContent()
    dinner.title = "Mom"
    dinner.subtitle = "Dinner on Sunday?"
    dinner.filterCriteria = "personal-account-identifier"

    // A remote notification: the criteria travel in the APNs payload.
    let remote = try! NotificationContent(
      apnsPayload: #"""
        {"aps": {"alert": {"title": "Build bot", "subtitle": "Nightly build failed"},
                 "filter-criteria": "work-account-identifier", "badge": 1}}
        """#)

    var announcement = NotificationContent()
    announcement.title = "Example Chat"
    announcement.subtitle = "New version available"
    return [slideFeedback, dinner, remote, announcement]
  }
}
