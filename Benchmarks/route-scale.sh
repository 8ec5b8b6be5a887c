#!/usr/bin/env bash
# `sift route` with many subscription rules of one shape, the issue's workload: R rules
# `filterCriteria IN %@ AND priority >= N` (three ids each; 1 rule in 1,000 subscribed to
# one of 8 popular ids; every line names a popular id, so about R/8,000 rules match it),
# routing L notification lines. Routing is timed alone, after the rules are loaded (the
# difference of two whole runs was noise of ±30%): see route_rate below.
#
#   Benchmarks/route-scale.sh [R] [L]      R rules (default 1000000), L lines (default 1000000)
#   ROUNDS=5                               rounds (the median is reported)
#   SIFT=path/to/sift                      use this binary instead of building one
#
# Data (seeded, kept in .bench-data/): rules.jsonl and lines.jsonl from a Python one-liner.
# Each round times loading the rules alone (an empty input), then routing alone (the lines
# after the first 4 MB, once sift reads them). Reports the medians, the number of ids
# written per line, and sift's peak memory per rule (from /usr/bin/time when present).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
rules_n=${1:-1000000}
lines_n=${2:-1000000}
rounds=${ROUNDS:-5}
die() { echo "route-scale: $*" >&2; exit 1; }
[[ $rules_n =~ ^[1-9][0-9]*$ ]] || die "R must be a positive number of rules"
[[ $lines_n =~ ^[1-9][0-9]*$ ]] || die "L must be a positive number of lines"

if [[ -z ${SIFT:-} ]]; then
  (cd "$root" && swift build -c release --product sift >&2)
  SIFT="$root/.build/release/sift"
fi
data="$root/.bench-data"
mkdir -p "$data"
rules="$data/route-rules-$rules_n.jsonl"
lines="$data/route-lines-$lines_n.jsonl"
if [[ ! -s $rules ]]; then
  python3 - "$rules_n" > "$rules.tmp" <<'PY'
import json, random, sys
n = int(sys.argv[1]); r = random.Random(7)
popular = [f"pop-{k}" for k in range(8)]
out = sys.stdout
for i in range(n):
    ids = [f"acct-{r.randrange(10 * n)}" for _ in range(3)]
    if i % 1000 == 0: ids[0] = popular[(i // 1000) % 8]
    out.write(json.dumps({"id": f"r{i}", "predicate": "filterCriteria IN %@ AND priority >= %@",
                          "args": [ids, r.randrange(5)]}, separators=(",", ":")) + "\n")
PY
  mv "$rules.tmp" "$rules"
fi
if [[ ! -s $lines ]]; then
  python3 - "$lines_n" "$rules_n" > "$lines.tmp" <<'PY'
import json, random, sys
n, rules = int(sys.argv[1]), int(sys.argv[2]); r = random.Random(11)
for i in range(n):
    criteria = f"pop-{r.randrange(8)}"
    sys.stdout.write(json.dumps({"filterCriteria": criteria, "priority": r.randrange(5),
                                 "sender": f"user{r.randrange(1000)}@example.com"}, separators=(",", ":")) + "\n")
PY
  mv "$lines.tmp" "$lines"
fi

now() { echo "${EPOCHREALTIME/./}"; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Routing timed alone: the first lines (4 MB, or a tenth of them) are written to sift's stdin, which a pipe
# lets through only once the rules are loaded and sift reads; then the clock starts, the
# rest is written, and it stops when sift exits. Prints lines routed per second.
route_rate() {
  python3 - "$SIFT" "$rules" "$lines" <<'PY'
import subprocess, sys, time
sift, rules, lines = sys.argv[1:4]
data = open(lines, "rb").read()
cut = data.index(b"\n", min(4 << 20, len(data) // 10)) + 1
p = subprocess.Popen([sift, "route", "--rules", rules], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
p.stdin.write(data[:cut]); p.stdin.flush()
start = time.perf_counter()
p.stdin.write(data[cut:]); p.stdin.close()
if p.wait() != 0: sys.exit("sift route failed")
print(round(data.count(b"\n", cut) / (time.perf_counter() - start)))
PY
}
load=() ; rates=()
for ((k = 0; k < rounds; k++)); do
  t0=$(now); "$SIFT" route --rules "$rules" < /dev/null > /dev/null; t1=$(now)
  load+=($((t1 - t0))); rates+=("$(route_rate)")
done
lm=$(printf '%s\n' "${load[@]}" | median)
rate=$(printf '%s\n' "${rates[@]}" | median)
ids=$("$SIFT" route --rules "$rules" "$lines" | python3 -c 'import sys,json
t=n=0
for l in sys.stdin: t+=len(json.loads(l)["ids"]); n+=1
print(f"{t/n:.1f}")')
peak=""
if [[ -x /usr/bin/time ]]; then
  kb=$(/usr/bin/time -f %M "$SIFT" route --rules "$rules" < /dev/null 2>&1 >/dev/null | tail -1)
  peak=$(awk -v kb="$kb" -v n="$rules_n" 'BEGIN { printf "%.0f", kb * 1024 / n }')
fi
echo "| rules | lines | load (s) | route (lines/s) | ids per line | peak bytes per rule |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
awk -v r="$rules_n" -v l="$lines_n" -v z="$lm" -v rate="$rate" -v ids="$ids" -v peak="${peak:--}" \
  'BEGIN { printf "| %d | %d | %.2f | %d | %s | %s |\n", r, l, z / 1e6, rate, ids, peak }'
echo
echo "$(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d); medians of $rounds rounds"
