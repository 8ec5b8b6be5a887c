#!/usr/bin/env python3
"""N notification lines of JSON for Benchmarks/compare-filter.sh, the same for the same N.

    generate_notifications.py N OUTPUT

Each line is a compact object of about 128 bytes, for example
{"filterCriteria":"acct-104","priority":4,"sender":"dana.lee@Spam.Example","tags":["urgent","billing"],"subject":"Invoice 4821 due"}
with a mix chosen so that each query of compare-filter.sh matches a fair share, near
misses included:
- Q1 `filterCriteria IN {'acct-101', 'acct-104', 'acct-107'}`: about 28 %. Ten accounts,
  and a few near misses (`ACCT-104`, `acct-1040`, `acct-104 `, a missing key, null).
- Q2 `priority >= 3 AND NOT sender ENDSWITH[c] '@spam.example' AND ANY tags == 'urgent'`:
  about 8 %. A quarter of the senders end in `@spam.example` in mixed case, with
  look-alikes (`@notspam.example`, `@spam.example.net`, `@sp4m.example`); `tags` holds 0-3
  of `urgent`, `Urgent`, `urgent-ish` and others.
- Q3 `subject MATCHES '.*Invoice [0-9]+.*'`: about 16 %, next to `invoice 12`,
  `Invoice #12`, `Invoices ready` and `Invoice  12` (two spaces).
Only ASCII senders' tails, and no number beyond 64 bits: the C++ reference is exact here.
"""
import json
import random
import sys

SEED = 20261201
ACCOUNTS = ["acct-%d" % (100 + k) for k in range(10)]
NEAR_ACCOUNTS = ["ACCT-104", "acct-1040", "acct-104 ", None, "missing"]
NAMES = ["alice", "bob", "carol", "dana.lee", "erik", "fatima", "gus", "hana", "ivan", "jo",
         "billing", "noreply", "support", "ops-team"]
DOMAINS = ["example.com", "mail.example.org", "corp.example", "customer.example.net", "example.co.uk"]
SPAM = ["spam.example", "SPAM.example", "Spam.Example", "spam.EXAMPLE"]
LOOKALIKES = ["notspam.example", "spam.example.net", "sp4m.example", "spam-example.com"]
TAGS = ["urgent", "Urgent", "urgent-ish", "billing", "team", "later", "ops"]
SUBJECTS = [
    (8, "Invoice {n} due"), (5, "Re: Invoice {n} overdue"), (3, "Fwd: Invoice {n}"),
    (4, "invoice {n}"), (3, "Invoice #{n}"), (3, "Invoices ready"), (2, "Invoice  {n}"),
    (10, "Lunch on Friday?"), (10, "Standup moved to {h}:30"), (10, "Your order {n} shipped"),
    (8, "Nightly build #{n} failed"), (6, "Café at {h}?"), (8, "Slide feedback"),
    (10, "Weekly report, week {w}"), (10, "Re: Re: Planning for Q{q}"),
]


def main():
    n, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(SEED)
    subjects = [text for weight, text in SUBJECTS for _ in range(weight)]
    compact = dict(separators=(",", ":"), ensure_ascii=False)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for _ in range(n):
            record = {}
            if rng.random() < 0.05:
                account = rng.choice(NEAR_ACCOUNTS)
                if account != "missing":
                    record["filterCriteria"] = account
            else:
                record["filterCriteria"] = rng.choice(ACCOUNTS)
            record["priority"] = rng.randrange(6)
            r = rng.random()
            domain = rng.choice(SPAM) if r < 0.25 else rng.choice(LOOKALIKES) if r < 0.30 else rng.choice(DOMAINS)
            record["sender"] = "%s%d@%s" % (rng.choice(NAMES), rng.randrange(100), domain)
            record["tags"] = rng.sample(TAGS, rng.randrange(4))
            record["subject"] = rng.choice(subjects).format(
                n=rng.randrange(1, 100000), h=rng.randrange(8, 18), w=rng.randrange(1, 53), q=rng.randrange(1, 5))
            f.write(json.dumps(record, **compact) + "\n")


if __name__ == "__main__":
    main()
