#!/usr/bin/env bash
# `sift filter` against `jq -c 'select(…)'` on the same JSON Lines file, side by side.
#
#   Benchmarks/filter-vs-jq.sh [LINES] [RUNS]      (defaults: 1000000 lines, 3 runs)
#
# Generates LINES seeded notification lines of about 150 bytes (plain, and as APNs
# payloads) in .bench-data/, builds `sift` in release mode, then times each tool RUNS times
# per case, checks that both wrote byte-identical output, and prints the median lines/s
# of each and their ratio. Installs jq from Debian when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
runs=${2:-3}

command -v jq >/dev/null || { apt-get update -qq && apt-get install -y -qq jq; }
swift build -c release --product sift >/dev/null
sift=.build/release/sift
mkdir -p .bench-data
plain=.bench-data/notifications-$lines.jsonl
apns=.bench-data/apns-$lines.jsonl
if [[ ! -s $plain || ! -s $apns ]]; then
  python3 - "$lines" "$plain" "$apns" <<'PY'
import json, random, sys
n, plain, apns = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rng = random.Random(20261130)
accounts = ["work-account-identifier", "personal-account-identifier", "family-account-identifier",
            "side-project-identifier", "newsletter-identifier", "bank-account-identifier"]
titles = ["Slide Feedback", "Dinner on Sunday?", "Nightly build failed", "New version available",
          "Invoice 1234", "Lunch?", "Standup moved", "Your order shipped"]
compact = dict(separators=(",", ":"), ensure_ascii=False)
with open(plain, "w") as f, open(apns, "w") as g:
    for i in range(n):
        account, title = rng.choice(accounts), rng.choice(titles)
        body = "message %d from %s" % (rng.randrange(10**6), account.split("-")[0])
        f.write(json.dumps({"id": i, "filterCriteria": account, "title": title, "body": body,
                            "priority": rng.randrange(6), "unread": rng.random() < 0.5}, **compact) + "\n")
        g.write(json.dumps({"aps": {"alert": {"title": title, "body": body}, "filter-criteria": account,
                                    "badge": rng.randrange(10)}, "id": i}, **compact) + "\n")
PY
fi

allowed='["work-account-identifier","family-account-identifier"]'
jq_plain='select(.filterCriteria == "work-account-identifier" or .filterCriteria == "family-account-identifier")'
jq_apns='select(.aps["filter-criteria"] == "work-account-identifier" or .aps["filter-criteria"] == "family-account-identifier")'

# Median wall-clock seconds of RUNS runs of a command, its output in $2.
time_runs() {
  local out=$1; shift
  local times=()
  for ((r = 0; r < runs; r++)); do
    local start end
    start=$(date +%s.%N)
    "$@" >"$out"
    end=$(date +%s.%N)
    times+=("$(awk "BEGIN { print $end - $start }")")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

printf '%-34s %12s %12s %8s\n' "case ($lines lines, median of $runs)" "sift lines/s" "jq lines/s" "ratio"
run_case() {
  local name=$1 file=$2 jq_filter=$3; shift 3
  local sift_s jq_s
  sift_s=$(time_runs .bench-data/sift.out "$sift" filter "$@" "$file")
  jq_s=$(time_runs .bench-data/jq.out jq -c "$jq_filter" "$file")
  if ! cmp -s .bench-data/sift.out .bench-data/jq.out; then
    echo "filter-vs-jq: $name: sift and jq wrote different output" >&2
    exit 1
  fi
  awk -v name="$name" -v n="$lines" -v s="$sift_s" -v j="$jq_s" \
    'BEGIN { printf "%-34s %12.0f %12.0f %7.1fx\n", name, n / s, n / j, j / s }'
}
run_case "SELF.filterCriteria IN %@" "$plain" "$jq_plain" 'SELF.filterCriteria IN %@' --args "[$allowed]"
run_case "--apns SELF IN %@" "$apns" "$jq_apns" 'SELF IN %@' --apns --args "[$allowed]"
echo "matched lines per case: $(wc -l <.bench-data/sift.out) (outputs identical)"
echo "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(swift --version 2>&1 | head -1)"
