/// Deterministic notification records: the same seed gives the same records, in the same
/// order, on every run, so every engine sees the same data and match counts are comparable
/// between runs. The first records are the hot set; a prefix of the stream is the stream of
/// a shorter run (`--count` generates only the hot set).
///
/// The mix is chosen so that every workload has matches, near misses and the spellings its
/// semantics must get right: senders ending in `@spam.example` in mixed case (and look-alikes
/// such as `@notspam.example` and `@spåm.example`), `urgent` next to `Urgent`, subjects with
/// `invoice <number>` next to `Invoice 12`, `invoice #12` and `invoices`, and titles with
/// `résumé` precomposed, decomposed (e + U+0301), upper- and lowercase, and inside `presumed`.
/// Subjects and titles are 20–60 UTF-8 bytes.
struct NotificationGenerator {
  /// The fixed seed of every run.
  static let seed: UInt64 = 0x5157_4654_2025_0001

  private var random = SplitMix64(seed: Self.seed)

  /// The next record.
  mutating func next() -> NotificationItem {
    let account = Self.accounts[random.below(Self.accounts.count)]
    let priority = random.below(6)
    let sender = makeSender()
    let tags = makeTags()
    let subject = fit(makeSubject())
    let title = fit(makeTitle())
    let badge = random.below(13)
    let thread: String? = random.chance(30) ? nil : "thread-\(random.below(5000))"
    let relevance = random.unit()
    let category = random.pick(Self.categories)
    let bytes = random.below(2_000_000)
    let kind = random.pick(Self.kinds)
    let lang = random.pick(Self.languages)
    let recipients = makeRecipients()
    let score = random.below(5)
    return NotificationItem(
      account: account, priority: priority, sender: sender, tags: tags, subject: subject, title: title,
      badge: badge, thread: thread, relevance: relevance, category: category, bytes: bytes, kind: kind,
      lang: lang, recipients: recipients, score: score)
  }

  /// `count` records from the start of the sequence.
  static func records(_ count: Int) -> ContiguousArray<NotificationItem> {
    var generator = NotificationGenerator()
    var out = ContiguousArray<NotificationItem>()
    out.reserveCapacity(count)
    for _ in 0..<count { out.append(generator.next()) }
    return out
  }

  // MARK: Fields

  static let accounts = (0..<8).map { "acct-\($0)" }
  static let categories = ["work", "family", "finance", "social", "promotions"]
  static let kinds = ["message", "reminder", "alert"]
  static let languages = ["en", "EN", "En", "fr", "de", "en-GB"]
  static let people = [
    "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "noreply", "noreply-billing", "zoë",
    "renée", "josé", "ivan.petrov",
  ]
  /// Domains with weights in percent: spam in several cases, look-alikes, and ordinary mail.
  static let domains: [(String, Int)] = [
    ("example.com", 26), ("Example.COM", 6), ("EXAMPLE.com", 4), ("mail.example.org", 14), ("corp.example.co", 10),
    ("spam.example", 12), ("SPAM.example", 5), ("Spam.Example", 5), ("spam.EXAMPLE", 3), ("notspam.example", 5),
    ("spam.example.net", 5), ("spåm.example", 3), ("SPAM.EXAMPLE", 2),
  ]
  static let tagPool = ["urgent", "work", "family", "finance", "muted", "newsletter", "travel", "Urgent", "urgent-ish"]
  static let clients = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Zürich AG"]
  static let days = ["Monday", "Tuesday", "Friday", "the 3rd", "March 14", "next week"]
  static let fillers = ["(follow-up)", "please", "thanks!", "FYI", "— see below", "[ext]", "re: earlier", "ok?"]
  /// How `résumé` is written in titles: precomposed, decomposed, cased, partly accented.
  static let resumeSpellings = [
    "Résumé", "résumé", "RESUME", "resume", "Resume", "Re\u{301}sume\u{301}", "RE\u{301}SUME\u{301}", "résume",
    "RÉSUMÉ", "Re\u{301}sumé",
  ]

  private mutating func makeSender() -> String {
    var local = random.pick(Self.people)
    if random.chance(40) { local += String(random.below(100)) }
    var roll = random.below(100)
    for (domain, weight) in Self.domains {
      if roll < weight { return local + "@" + domain }
      roll -= weight
    }
    return local + "@example.com"
  }

  private mutating func makeTags() -> [String] {
    let count = random.below(4)
    var tags: [String] = []
    tags.reserveCapacity(count)
    while tags.count < count {
      // `urgent` is drawn more often than the rest so that W2 has a useful share of matches.
      let tag = random.chance(20) ? "urgent" : random.pick(Self.tagPool)
      if !tags.contains(tag) { tags.append(tag) }
    }
    return tags
  }

  private mutating func makeSubject() -> String {
    let number = random.below(random.chance(50) ? 100 : 100_000)
    switch random.below(20) {
    // Matches of `.*invoice [0-9]+.*`.
    case 0, 1: return "Your invoice \(number) is ready"
    case 2: return "Reminder: invoice \(number) is due \(random.pick(Self.days))"
    case 3: return "Fwd: invoice \(number) for \(random.pick(Self.clients))"
    case 4: return "Paid — invoice \(number), thank you"
    case 5: return "\(random.pick(Self.clients)) sent invoice \(number)"
    // Near misses: wrong case, no digit after the space, plural, two spaces.
    case 6: return "Invoice \(number) attached"
    case 7: return "invoice #\(number) is overdue"
    case 8: return "Your invoice is ready for review"
    case 9: return "invoices \(number) summary for \(random.pick(Self.clients))"
    case 10: return "Re: invoice  \(number) question"
    // Ordinary subjects, some with other numbers and non-ASCII text.
    case 11: return "Meeting notes for \(random.pick(Self.days))"
    case 12: return "Lunch \(random.pick(Self.days))? Café downstairs"
    case 13: return "Build \(number) failed on main"
    case 14: return "Weekly digest: \(number) new posts"
    case 15: return "Trip to Zürich — itinerary"
    case 16: return "Your order has shipped"
    case 17: return "Password reset requested"
    case 18: return "Ínvoice reminder from \(random.pick(Self.clients))"
    default: return "Team offsite planning, round \(number)"
    }
  }

  private mutating func makeTitle() -> String {
    let spelling = random.pick(Self.resumeSpellings)
    let person = random.pick(Self.people)
    switch random.below(20) {
    // Contain `résumé` under [cd], in one spelling or another.
    case 0: return "\(person)'s \(spelling) for review"
    case 1: return "Updated \(spelling) attached"
    case 2: return "\(spelling) — \(random.pick(Self.clients)) application"
    case 3: return "Please read my \(spelling) draft"
    case 4: return "We presumed it was fine"  // "presumed" contains "resume"
    // Near misses.
    case 5: return "Resumption of service at \(random.pick(Self.clients))"
    case 6: return "Summary: rèsum\(random.below(10)) and sumé"
    case 7: return "Re-sume the meeting later"
    // Reports (the 20-clause predicate looks for `report` under [c]).
    case 8, 9: return "Quarterly Report for \(random.pick(Self.clients))"
    case 10: return "REPORT: \(random.pick(Self.days)) outage"
    case 11: return "Weekly report — \(person)"
    case 12: return "Répört from \(random.pick(Self.clients))"
    // Ordinary titles.
    case 13: return "Dinner plans with \(person)"
    case 14: return "Café menu for \(random.pick(Self.days))"
    case 15: return "Naïve Bayes notes, part \(random.below(9))"
    case 16: return "Flight to Zürich confirmed"
    case 17: return "Your package is on its way"
    case 18: return "New sign-in from \(random.pick(Self.clients))"
    default: return "Calendar: \(random.pick(Self.days)) standup"
    }
  }

  private mutating func makeRecipients() -> [String] {
    let count = random.chance(5) ? 21 + random.below(4) : random.below(4)
    return (0..<count).map { "r\($0)@example.com" }
  }

  /// Pads short text with filler words to at least 20 bytes, and sometimes adds one more
  /// when it still fits in 60; no template is longer than 60 bytes.
  private mutating func fit(_ text: String) -> String {
    var text = text
    while text.utf8.count < 20 { text += " " + random.pick(Self.fillers) }
    if random.chance(30) {
      let filler = random.pick(Self.fillers)
      if text.utf8.count + 1 + filler.utf8.count <= 60 { text += " " + filler }
    }
    precondition(text.utf8.count <= 60, "template too long: \(text)")
    return text
  }
}
