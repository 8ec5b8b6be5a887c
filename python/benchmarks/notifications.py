"""The benchmark's notification records: Benchmarks/SiftBenchmarks/Data/NotificationGenerator.swift
ported call for call (the same SplitMix64 seed, draws and templates), so every engine here
sees the same seeded records and the same record mix as the Swift benchmarks."""

MASK = (1 << 64) - 1
SEED = 0x5157_4654_2025_0001


class SplitMix64:
    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E37_79B9_7F4A_7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & MASK
        return z ^ (z >> 31)

    def below(self, bound):
        return (self.next() * bound) >> 64

    def chance(self, percent):
        return self.below(100) < percent

    def pick(self, choices):
        return choices[self.below(len(choices))]

    def unit(self):
        return (self.next() >> 11) * 2.0**-53


ACCOUNTS = ["acct-%d" % k for k in range(8)]
CATEGORIES = ["work", "family", "finance", "social", "promotions"]
KINDS = ["message", "reminder", "alert"]
LANGUAGES = ["en", "EN", "En", "fr", "de", "en-GB"]
PEOPLE = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "noreply", "noreply-billing", "zoë",
          "renée", "josé", "ivan.petrov"]
DOMAINS = [("example.com", 26), ("Example.COM", 6), ("EXAMPLE.com", 4), ("mail.example.org", 14),
           ("corp.example.co", 10), ("spam.example", 12), ("SPAM.example", 5), ("Spam.Example", 5),
           ("spam.EXAMPLE", 3), ("notspam.example", 5), ("spam.example.net", 5), ("spåm.example", 3),
           ("SPAM.EXAMPLE", 2)]
TAG_POOL = ["urgent", "work", "family", "finance", "muted", "newsletter", "travel", "Urgent", "urgent-ish"]
CLIENTS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Zürich AG"]
DAYS = ["Monday", "Tuesday", "Friday", "the 3rd", "March 14", "next week"]
FILLERS = ["(follow-up)", "please", "thanks!", "FYI", "— see below", "[ext]", "re: earlier", "ok?"]
RESUME = ["Résumé", "résumé", "RESUME", "resume", "Resume", "Re\u0301sume\u0301", "RE\u0301SUME\u0301", "résume",
          "RÉSUMÉ", "Re\u0301sumé"]


class Generator:
    def __init__(self):
        self.random = SplitMix64(SEED)

    def next(self):
        r = self.random
        account = ACCOUNTS[r.below(len(ACCOUNTS))]
        priority = r.below(6)
        sender = self.sender()
        tags = self.tags()
        subject = self.fit(self.subject())
        title = self.fit(self.title())
        badge = r.below(13)
        thread = None if r.chance(30) else "thread-%d" % r.below(5000)
        relevance = r.unit()
        category = r.pick(CATEGORIES)
        size = r.below(2_000_000)
        kind = r.pick(KINDS)
        lang = r.pick(LANGUAGES)
        recipients = self.recipients()
        score = r.below(5)
        return {"account": account, "priority": priority, "sender": sender, "tags": tags, "subject": subject,
                "title": title, "badge": badge, "thread": thread, "relevance": relevance, "category": category,
                "bytes": size, "kind": kind, "lang": lang, "recipients": recipients, "score": score}

    def sender(self):
        r = self.random
        local = r.pick(PEOPLE)
        if r.chance(40):
            local += str(r.below(100))
        roll = r.below(100)
        for domain, weight in DOMAINS:
            if roll < weight:
                return local + "@" + domain
            roll -= weight
        return local + "@example.com"

    def tags(self):
        r = self.random
        count = r.below(4)
        tags = []
        while len(tags) < count:
            tag = "urgent" if r.chance(20) else r.pick(TAG_POOL)
            if tag not in tags:
                tags.append(tag)
        return tags

    def subject(self):
        r = self.random
        number = r.below(100 if r.chance(50) else 100_000)
        case = r.below(20)
        if case in (0, 1):
            return "Your invoice %d is ready" % number
        if case == 2:
            return "Reminder: invoice %d is due %s" % (number, r.pick(DAYS))
        if case == 3:
            return "Fwd: invoice %d for %s" % (number, r.pick(CLIENTS))
        if case == 4:
            return "Paid — invoice %d, thank you" % number
        if case == 5:
            return "%s sent invoice %d" % (r.pick(CLIENTS), number)
        if case == 6:
            return "Invoice %d attached" % number
        if case == 7:
            return "invoice #%d is overdue" % number
        if case == 8:
            return "Your invoice is ready for review"
        if case == 9:
            return "invoices %d summary for %s" % (number, r.pick(CLIENTS))
        if case == 10:
            return "Re: invoice  %d question" % number
        if case == 11:
            return "Meeting notes for %s" % r.pick(DAYS)
        if case == 12:
            return "Lunch %s? Café downstairs" % r.pick(DAYS)
        if case == 13:
            return "Build %d failed on main" % number
        if case == 14:
            return "Weekly digest: %d new posts" % number
        if case == 15:
            return "Trip to Zürich — itinerary"
        if case == 16:
            return "Your order has shipped"
        if case == 17:
            return "Password reset requested"
        if case == 18:
            return "Ínvoice reminder from %s" % r.pick(CLIENTS)
        return "Team offsite planning, round %d" % number

    def title(self):
        r = self.random
        spelling = r.pick(RESUME)
        person = r.pick(PEOPLE)
        case = r.below(20)
        if case == 0:
            return "%s's %s for review" % (person, spelling)
        if case == 1:
            return "Updated %s attached" % spelling
        if case == 2:
            return "%s — %s application" % (spelling, r.pick(CLIENTS))
        if case == 3:
            return "Please read my %s draft" % spelling
        if case == 4:
            return "We presumed it was fine"
        if case == 5:
            return "Resumption of service at %s" % r.pick(CLIENTS)
        if case == 6:
            return "Summary: rèsum%d and sumé" % r.below(10)
        if case == 7:
            return "Re-sume the meeting later"
        if case in (8, 9):
            return "Quarterly Report for %s" % r.pick(CLIENTS)
        if case == 10:
            return "REPORT: %s outage" % r.pick(DAYS)
        if case == 11:
            return "Weekly report — %s" % person
        if case == 12:
            return "Répört from %s" % r.pick(CLIENTS)
        if case == 13:
            return "Dinner plans with %s" % person
        if case == 14:
            return "Café menu for %s" % r.pick(DAYS)
        if case == 15:
            return "Naïve Bayes notes, part %d" % r.below(9)
        if case == 16:
            return "Flight to Zürich confirmed"
        if case == 17:
            return "Your package is on its way"
        if case == 18:
            return "New sign-in from %s" % r.pick(CLIENTS)
        return "Calendar: %s standup" % r.pick(DAYS)

    def recipients(self):
        r = self.random
        count = 21 + r.below(4) if r.chance(5) else r.below(4)
        return ["r%d@example.com" % k for k in range(count)]

    def fit(self, text):
        r = self.random
        while len(text.encode()) < 20:
            text += " " + r.pick(FILLERS)
        if r.chance(30):
            filler = r.pick(FILLERS)
            if len(text.encode()) + 1 + len(filler.encode()) <= 60:
                text += " " + filler
        return text


def records(n):
    g = Generator()
    return [g.next() for _ in range(n)]
