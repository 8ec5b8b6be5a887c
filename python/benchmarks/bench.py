#!/usr/bin/env python3
"""Sift from Python next to the Python peers, side by side in one run.

    python3 python/benchmarks/bench.py [--install] [--records N] [--slow N] [--rounds R] [--quick]

--install   pip-installs the peers first, one by one (a peer that does not install is
            skipped with the reason printed): rule-engine, common-expression-language (CEL),
            cel-expr-python, jmespath, jq, duckdb, polars
--records   records per workload (default 1,000,000)
--slow      records for the per-record peers that take microseconds each (rule-engine, the
            CEL packages, jmespath, jq; default 100,000: their time per record is the same
            over a prefix, and a million would take minutes per round)
--rounds    interleaved rounds (default 3): every engine runs every workload once per round,
            the order rotating between rounds; the tables give the median
--quick     20,000 records, 10,000 for the slow peers, 2 rounds

Measures, over the same seeded notification records (notifications.py, the Swift
benchmark's generator) as Python dicts and as JSON Lines:
  1. W1-W4 and Q2 per record through every engine (ns per record, ratio to the lambda);
  2. one `evaluate(json_bytes)` call for W2, hot (the first 1,000 records again and again)
     and streaming (each of the records once);
  3. `Predicate.filter_lines` on the 1,000,000-line file of Benchmarks/compare-filter.sh for
     Q1 and Q2 against `sift filter --threads 1` on the same file (SIFT=path, or
     .build/release/sift, built when missing);
  4. `PredicateSet.match` with 100,000 focus-shape predicates (calls per second);
  5. the resident set over 10,000,000 `evaluate` calls.
Every engine's match count is compared with the lambda's; a difference is printed.
"""
import argparse
import gc
import os
import platform
import re
import statistics
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import orjson

import sift

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import notifications  # noqa: E402

PEERS = ["rule-engine", "common-expression-language", "cel-expr-python", "jmespath", "jq", "duckdb", "polars"]
ALLOWED = ["acct-1", "acct-4", "acct-7"]
ALLOWED_SET = frozenset(ALLOWED)
W2 = "account IN %@ AND priority >= 3 AND NOT (sender ENDSWITH[c] '@spam.example') AND ANY tags == 'urgent'"
Q2 = "priority >= 3 AND NOT sender ENDSWITH[c] '@spam.example' AND ANY tags == 'urgent'"
WORKLOADS = {
    "W1": ("SELF IN %@", [ALLOWED]),
    "W2": (W2, [ALLOWED]),
    "W3": ("subject MATCHES '.*invoice [0-9]+.*'", []),
    "W4": ("title CONTAINS[cd] 'résumé'", []),
    "Q2": (Q2, []),
}


def install():
    for name in PEERS:
        done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", name], capture_output=True, text=True)
        if done.returncode != 0:
            reason = (done.stderr.strip().splitlines() or ["no output"])[-1]
            print(f"bench: {name} did not install, skipped: {reason}", file=sys.stderr)


def skipped(name, error):
    print(f"bench: {name} skipped: {error}", file=sys.stderr)


# ---- engines: name -> {workload: callable over the data} -------------------------------

RX = re.compile(r".*invoice [0-9]+.*")


def folded(text):
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).casefold()


def lambdas():
    return {
        "W1": lambda s: s in ALLOWED_SET,
        "W2": lambda r: r["account"] in ALLOWED_SET and r["priority"] >= 3
        and not r["sender"].lower().endswith("@spam.example") and "urgent" in r["tags"],
        "W3": lambda r: RX.fullmatch(r["subject"]) is not None,
        "W4": lambda r: "resume" in folded(r["title"]),
        "Q2": lambda r: r["priority"] >= 3 and not r["sender"].lower().endswith("@spam.example") and "urgent" in r["tags"],
    }


def per_record(engines):
    """Per-record engines: {workload: predicate over one input} -> {workload: count fn}."""
    out = {}
    for w, test in engines.items():
        out[w] = (lambda test: lambda data: sum(1 for x in data if test(x)))(test)
    return out


def engines_per_record():
    """(name, slow, {workload: fn(data) -> matches}, input) with input 'dict', 'json' or 'string'."""
    rows = [("lambda", False, per_record(lambdas()))]
    preds = {w: sift.Predicate(f, *a) for w, (f, a) in WORKLOADS.items()}
    rows.append(("sift evaluate(dict)", False, per_record(
        {w: (p.evaluate_string if w == "W1" else p.evaluate) for w, p in preds.items()})))
    rows.append(("sift evaluate(json bytes)", False, per_record({w: p.evaluate for w, p in preds.items()})))
    rows.append(("sift filter(list of dicts)", False, {
        w: (lambda p, w: lambda data: sum(1 for s in data if p.evaluate_string(s)) if w == "W1" else len(p.filter(data)))(p, w)
        for w, p in preds.items()}))
    rows.append(("sift filter_lines(bytes)", False, {
        w: (lambda p: lambda data: len(p.filter_lines(data)))(p) for w, p in preds.items()}))
    try:
        import rule_engine

        rules = {
            "W1": "account in ['acct-1', 'acct-4', 'acct-7']",
            "W2": "account in ['acct-1', 'acct-4', 'acct-7'] and priority >= 3 "
                  "and not sender.as_lower.ends_with('@spam.example') and 'urgent' in tags",
            "W3": "subject =~ '.*invoice [0-9]+.*'",
            "Q2": "priority >= 3 and not sender.as_lower.ends_with('@spam.example') and 'urgent' in tags",
        }
        rows.append(("rule-engine", True, per_record({w: rule_engine.Rule(t).matches for w, t in rules.items()})))
    except ImportError as e:
        skipped("rule-engine", e)
    try:
        import cel

        exprs = {
            "W1": 'account in ["acct-1", "acct-4", "acct-7"]',
            "W2": 'account in ["acct-1", "acct-4", "acct-7"] && priority >= 3 '
                  '&& !sender.matches("(?i)@spam[.]example$") && "urgent" in tags',
            "W3": 'subject.matches("^.*invoice [0-9]+.*$")',
            "Q2": 'priority >= 3 && !sender.matches("(?i)@spam[.]example$") && "urgent" in tags',
        }
        rows.append(("common-expression-language (CEL)", True,
                     per_record({w: cel.compile(t).execute for w, t in exprs.items()})))
    except ImportError as e:
        skipped("common-expression-language", e)
    try:
        from cel_expr_python import cel as gcel
        from cel_expr_python.ext import ext_strings

        T = gcel.Type
        env = gcel.NewEnv(
            variables={"account": T("string"), "priority": T("int"), "sender": T("string"),
                       "tags": T.List(T("string")), "subject": T("string")},
            extensions=[ext_strings.ExtStrings()])
        exprs = {
            "W1": 'account in ["acct-1", "acct-4", "acct-7"]',
            "W2": 'account in ["acct-1", "acct-4", "acct-7"] && priority >= 3 '
                  '&& !sender.lowerAscii().endsWith("@spam.example") && "urgent" in tags',
            "W3": 'subject.matches("^.*invoice [0-9]+.*$")',
            "Q2": 'priority >= 3 && !sender.lowerAscii().endsWith("@spam.example") && "urgent" in tags',
        }
        compiled = {w: env.compile(t) for w, t in exprs.items()}
        rows.append(("cel-expr-python", True, per_record(
            {w: (lambda e: lambda r: e.eval(data=r).value())(e) for w, e in compiled.items()})))
    except ImportError as e:
        skipped("cel-expr-python", e)
    try:
        import jmespath

        rows.append(("jmespath", True, per_record(
            {"W1": jmespath.compile("contains(['acct-1', 'acct-4', 'acct-7'], account)").search})))
    except ImportError as e:
        skipped("jmespath", e)
    try:
        import jq

        programs = {
            "W1": '.account | IN("acct-1", "acct-4", "acct-7")',
            "W2": '(.account | IN("acct-1", "acct-4", "acct-7")) and .priority >= 3 and '
                  '((.sender | ascii_downcase | endswith("@spam.example")) | not) and any(.tags[]; . == "urgent")',
            "W3": '.subject | test("^.*invoice [0-9]+.*$")',
            "Q2": '.priority >= 3 and ((.sender | ascii_downcase | endswith("@spam.example")) | not) '
                  'and any(.tags[]; . == "urgent")',
        }
        rows.append(("jq (per record)", True, per_record(
            {w: (lambda p: lambda r: p.input_value(r).first())(jq.compile(t)) for w, t in programs.items()})))
    except ImportError as e:
        skipped("jq", e)
    return rows


def bulk_engines(path):
    """Engines that read the JSON Lines file themselves: {workload: fn() -> matches}."""
    rows = []
    try:
        import duckdb

        con = duckdb.connect()
        con.execute("SET threads = 1")
        src = ("read_ndjson(?, columns = {'account': 'VARCHAR', 'priority': 'BIGINT', 'sender': 'VARCHAR', "
               "'tags': 'VARCHAR[]', 'subject': 'VARCHAR', 'title': 'VARCHAR'})")
        wheres = {
            "W1": "account IN ('acct-1', 'acct-4', 'acct-7')",
            "W2": "account IN ('acct-1', 'acct-4', 'acct-7') AND priority >= 3 AND NOT "
                  "ends_with(lower(sender), '@spam.example') AND list_contains(tags, 'urgent')",
            "W3": "regexp_full_match(subject, '.*invoice [0-9]+.*')",
            "W4": "contains(lower(strip_accents(title)), 'resume')",
            "Q2": "priority >= 3 AND NOT ends_with(lower(sender), '@spam.example') AND list_contains(tags, 'urgent')",
        }
        con.execute(f"SELECT * FROM {src} LIMIT 1", [str(path)]).fetchall()
        rows.append(("DuckDB read_ndjson, 1 thread", {
            w: (lambda q: lambda: con.execute(f"SELECT count(*) FROM {src} WHERE {q}", [str(path)]).fetchone()[0])(q)
            for w, q in wheres.items()}))
    except ImportError as e:
        skipped("duckdb", e)
    try:
        import polars as pl

        exprs = {
            "W1": pl.col("account").is_in(ALLOWED),
            "W2": pl.col("account").is_in(ALLOWED) & (pl.col("priority") >= 3)
            & ~pl.col("sender").str.to_lowercase().str.ends_with("@spam.example")
            & pl.col("tags").list.contains("urgent"),
            "W3": pl.col("subject").str.contains(r"^.*invoice [0-9]+.*$"),
            "Q2": (pl.col("priority") >= 3) & ~pl.col("sender").str.to_lowercase().str.ends_with("@spam.example")
            & pl.col("tags").list.contains("urgent"),
        }
        rows.append(("Polars read_ndjson + filter", {
            w: (lambda e: lambda: pl.read_ndjson(path).filter(e).height)(e) for w, e in exprs.items()}))
    except ImportError as e:
        skipped("polars", e)
    return rows


# ---- measuring ----------------------------------------------------------------------------

def timed(fn, *args):
    gc.collect()
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def median(values):
    return statistics.median(values) if values else float("nan")


def table(title, header, rows):
    print(f"\n### {title}\n")
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def sift_binary():
    given = os.environ.get("SIFT")
    if given:
        return given
    command = ["swift", "build", "-c", "release", "--product", "sift", "--package-path", str(ROOT)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run(command + ["--show-bin-path"], check=True, capture_output=True, text=True).stdout
    return str(Path(out.strip()) / "sift")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--install", action="store_true")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--slow", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default="1,2,3,4,5", help="sections to run, e.g. 1,3")
    options = parser.parse_args()
    if options.quick:
        options.records, options.slow, options.rounds = 20_000, 10_000, 2
    if options.install:
        install()
    sections = set(options.only.split(","))
    n, slow, rounds = options.records, min(options.slow, options.records), options.rounds
    data_dir = ROOT / ".bench-data"
    data_dir.mkdir(exist_ok=True)

    print(f"bench: generating {n} records", file=sys.stderr)
    records = notifications.records(n)
    lines = [orjson.dumps(r) for r in records]
    jsonl = b"\n".join(lines) + b"\n"
    path = data_dir / f"python-notifications-{n}.jsonl"
    if not path.exists() or path.stat().st_size != len(jsonl):
        path.write_bytes(jsonl)
    accounts = [r["account"] for r in records]
    account_lines = [orjson.dumps(a) for a in accounts]  # W1's SELF as JSON text
    account_jsonl = b"\n".join(account_lines) + b"\n"

    if "1" in sections:
        engines = engines_per_record()
        bulk = bulk_engines(path)
        times, counts = {}, {}
        for k in range(rounds):
            print(f"bench: workloads, round {k + 1} of {rounds}", file=sys.stderr)
            order = engines[k % len(engines):] + engines[: k % len(engines)]
            for w in WORKLOADS:
                for name, is_slow, fns in order:
                    if w not in fns:
                        continue
                    m = slow if is_slow else n
                    if name == "sift evaluate(json bytes)":
                        data = account_lines[:m] if w == "W1" else lines[:m]
                    elif name == "sift filter_lines(bytes)":
                        data = account_jsonl if w == "W1" else jsonl
                    elif w == "W1" and name in ("lambda", "sift evaluate(dict)", "sift filter(list of dicts)"):
                        data = accounts[:m]
                    else:
                        data = records[:m]
                    seconds, found = timed(fns[w], data)
                    times.setdefault((name, w), []).append(seconds / m * 1e9)
                    counts[(name, w)] = (found, m)
                for name, fns in bulk:
                    if w in fns:
                        seconds, found = timed(fns[w])
                        times.setdefault((name, w), []).append(seconds / n * 1e9)
                        counts[(name, w)] = (found, n)
        base = {w: median(times[("lambda", w)]) for w in WORKLOADS}
        lambda_counts = {}
        for w in WORKLOADS:
            test = lambdas()[w]
            inputs = accounts if w == "W1" else records
            lambda_counts[w] = {n: counts[("lambda", w)][0], slow: sum(1 for x in inputs[:slow] if test(x))}
        rows = []
        names = [e[0] for e in engines] + [b[0] for b in bulk]
        for name in names:
            row = [name]
            for w in WORKLOADS:
                if (name, w) not in times:
                    row.append("—")
                    continue
                t = median(times[(name, w)])
                found, m = counts[(name, w)]
                cell = f"{t:,.0f} ({base[w] / t:.2f}×)"
                if m != n:
                    cell += f" [{m // 1000}k]"
                if found != lambda_counts[w].get(m):
                    cell += f" **{found} ≠ {lambda_counts[w].get(m)} matches**"
                row.append(cell)
            rows.append(row)
        rows.append(["matches (lambda, all records)"] + [f"{lambda_counts[w][n]:,}" for w in WORKLOADS])
        table(f"W1–W4 and Q2: ns per record (× the lambda's speed), {n:,} records, median of {rounds} rounds",
              ["engine"] + list(WORKLOADS), rows)
        print("\nW1 is `SELF IN %@` on the account string for the lambda and Sift (`evaluate_string`, "
              "and for `evaluate(json bytes)`), and `account IN …` on the record for the rest. "
              "[100k]: timed over that prefix. — : not expressible (no diacritic folding, no "
              "case-insensitive match, no regex). DuckDB and Polars read the JSON Lines file themselves.")

    if "2" in sections:
        p = sift.Predicate(W2, ALLOWED)
        hot = lines[:1000] * (n // 1000)
        hot_t, stream_t = [], []
        for k in range(rounds):
            for which in (("hot", "stream") if k % 2 == 0 else ("stream", "hot")):
                data = hot if which == "hot" else lines
                evaluate = p.evaluate
                gc.collect()
                start = time.perf_counter()
                for line in data:
                    evaluate(line)
                (hot_t if which == "hot" else stream_t).append((time.perf_counter() - start) / len(data) * 1e9)
        small = [orjson.dumps({k: r[k] for k in ("account", "priority", "sender", "tags")}) for r in records[:1000]]
        small_t = []
        for k in range(rounds):
            gc.collect()
            start = time.perf_counter()
            for line in small * (n // 1000):
                p.evaluate(line)
            small_t.append((time.perf_counter() - start) / n * 1e9)
        size = sum(map(len, lines[:1000])) // 1000
        table(f"one `evaluate(json_bytes)` call, W2, median of {rounds}", ["loop", "ns per call", "target"],
              [[f"hot: the first 1,000 records ({size} bytes on average) again and again", f"{median(hot_t):,.0f}", "≤ 1,000"],
               [f"stream: each of {n:,} records once", f"{median(stream_t):,.0f}", "≤ 1,000"],
               [f"hot, only the four keys W2 reads ({sum(map(len, small)) // 1000} bytes)", f"{median(small_t):,.0f}", "≤ 1,000"]])

    if "3" in sections:
        big = data_dir / "compare-1000000.jsonl"
        generator = ROOT / "Benchmarks" / "reference" / "generate_notifications.py"
        if not big.exists():
            subprocess.run([sys.executable, str(generator), "1000000", str(big)], check=True)
        binary = sift_binary()
        q1 = "filterCriteria IN {'acct-101', 'acct-104', 'acct-107'}"
        rows = []
        for label, fmt in (("Q1", q1), ("Q2", Q2)):
            p = sift.Predicate(fmt)
            py_t, cli_t = [], []
            expected = None
            for k in range(max(rounds, 5)):
                for which in (("python", "cli") if k % 2 == 0 else ("cli", "python")):
                    if which == "python":
                        gc.collect()
                        start = time.perf_counter()
                        with open(big, "rb") as f:
                            found = len(p.filter_lines(f))
                        py_t.append(time.perf_counter() - start)
                    else:
                        # Output to /dev/null: sift filter at its fastest.
                        start = time.perf_counter()
                        subprocess.run([binary, "filter", "--threads", "1", fmt, str(big)], stdout=subprocess.DEVNULL)
                        cli_t.append(time.perf_counter() - start)
            counted = subprocess.run([binary, "filter", "--count", fmt, str(big)], capture_output=True, text=True)
            expected = int(counted.stdout.strip())
            lines_n = 1_000_000
            rows.append([label, f"{lines_n / median(py_t) / 1e6:.2f}", f"{lines_n / median(cli_t) / 1e6:.2f}",
                         f"{median(cli_t) / median(py_t):.2f}", "≥ 0.80",
                         f"{found:,}" + ("" if found == expected else f" ≠ {expected:,}")])
        table(f"`Predicate.filter_lines(open(file, 'rb'))` (a list of the matching lines) against "
              f"`sift filter --threads 1 … > /dev/null` (the whole process), "
              f"{big.name}, median of {max(rounds, 5)} interleaved rounds",
              ["query", "filter_lines, M lines/s", "sift filter, M lines/s", "ratio", "target", "matches"], rows)

    if "4" in sections:
        def mix(i, stream):
            z = (i + stream * 0x9E37_79B9_7F4A_7C15) & notifications.MASK
            z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & notifications.MASK
            z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & notifications.MASK
            return (z ^ (z >> 31)) >> 1

        size = 100_000 if not options.quick else 10_000
        start = time.perf_counter()
        predicates = []
        shape = "filterCriteria IN %@ AND priority >= %d"
        for i in range(size):
            ids = ["acct-%d" % (mix(i * 3 + j, 1) % 1_000_000) for j in range(3)]
            predicates.append((i, sift.Predicate(shape, ids, mix(i, 2) % 6)))
        compiled = time.perf_counter() - start
        arguments = [(["acct-%d" % (mix(i * 3 + j, 1) % 1_000_000) for j in range(3)], mix(i, 2) % 6)
                     for i in range(size)]
        sets = {}
        s = sets["update(pairs): one update"] = sift.PredicateSet()
        start = time.perf_counter()
        s.update(predicates)
        loaded = time.perf_counter() - start
        one_by_one = sets["add(id, p) one by one"] = sift.PredicateSet()
        for i, p in predicates:
            one_by_one.add(i, p)
        predicates = None
        from_text = sets["add(id, format, *args): rules as text"] = sift.PredicateSet()
        start = time.perf_counter()
        for i, (ids, k) in enumerate(arguments):
            from_text.add(i, shape, ids, k)
        added_text = time.perf_counter() - start
        arguments = None
        notes = []
        for k in range(200_000 if not options.quick else 20_000):
            if mix(k, 11) % 2 == 0:  # an account some predicate names
                account = "acct-%d" % (mix((mix(k, 12) % size) * 3 + mix(k, 13) % 3, 1) % 1_000_000)
            else:
                account = "acct-%d" % (mix(k, 14) % 1_000_000)
            notes.append({"filterCriteria": account, "priority": mix(k, 15) % 6,
                          "sender": "u%d@example.com" % (mix(k, 17) % 100_000),
                          "tags": ["urgent", "work"] if mix(k, 16) % 4 == 0 else ["work"]})
        rates = {name: [] for name in sets}
        found = {}
        for k in range(rounds):
            for name in (list(sets) if k % 2 == 0 else list(sets)[::-1]):
                gc.collect()
                match = sets[name].match
                start = time.perf_counter()
                total = 0
                for note in notes:
                    total += len(match(note))
                rates[name].append(len(notes) / (time.perf_counter() - start))
                found[name] = total
        rows = [[f"calls per second, set built with {name}", f"{median(rates[name]):,.0f}", "≥ 300,000"] for name in sets]
        rows.append(["ids found per call", " / ".join(f"{found[name] / len(notes):.3f}" for name in sets), ""])
        rows.append(["predicates compiled per second (`sift.Predicate`)", f"{size / compiled:,.0f}", ""])
        rows.append(["predicates added per second by `update`", f"{size / loaded:,.0f}", ""])
        rows.append(["rules added per second by `add(id, format, *args)` (no `Predicate` each)",
                     f"{size / added_text:,.0f}", ""])
        table(f"`PredicateSet.match` with {size:,} focus-shape predicates "
              "(`filterCriteria IN {3 ids} AND priority >= k`), a dict per call, "
              f"{len(notes):,} notifications, median of {rounds}", ["figure", "measured", "target"], rows)

    if "5" in sections:
        p = sift.Predicate(W2, ALLOWED)
        sample = lines[:1000]
        calls = 10_000_000 if not options.quick else 1_000_000
        for line in sample * 100:
            p.evaluate(line)
        gc.collect()
        before = rss()
        start = time.perf_counter()
        evaluate = p.evaluate
        for k in range(calls // 1000):
            for line in sample:
                evaluate(line)
        seconds = time.perf_counter() - start
        gc.collect()
        after = rss()
        table(f"resident set over {calls:,} `evaluate(json_bytes)` calls (W2), after 100,000 to warm up",
              ["before", "after", "growth", "target", "ns per call"],
              [[f"{before / 2**20:.1f} MiB", f"{after / 2**20:.1f} MiB", f"{(after - before) / 2**20:+.2f} MiB",
                "≤ 5 MiB", f"{seconds / calls * 1e9:,.0f}"]])

    versions = [f"Python {platform.python_version()}", f"sift {sift.__version__}", f"orjson {orjson.__version__}"]
    for module, label in (("rule_engine", "rule-engine"), ("cel", "common-expression-language"),
                          ("jmespath", "jmespath"), ("jq", "jq"), ("duckdb", "duckdb"), ("polars", "polars")):
        try:
            versions.append(f"{label} {__import__(module).__version__}")
        except (ImportError, AttributeError):
            pass
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"\nMachine: {cpu}, {os.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M %Z')}; {', '.join(versions)}.")


if __name__ == "__main__":
    main()
