#!/usr/bin/env bash
# `sift serve` end to end on one machine, the server on the same cores: notifications
# routed per second with 1 and 2 workers and 10,000 / 100,000 focus-shape rules
# (`filterCriteria IN %@ AND priority >= N`), outputs with Nats-Msg-Id stored in a stream;
# next to `sift route` on the same lines (no network, no acks) and to a plain consumer that
# fetches and acks without deciding (the ceiling); then the latency from publish to the
# routed record at a paced rate, and from a rule put to every worker having it.
#
#   Benchmarks/serve.sh                 N=100000 notifications, RULES="10000 100000"
#   N=… RULES=… RATE=20000              sizes; the paced rate of the latency run
#
# Builds sift and ServeBench in release mode. Everything runs on 127.0.0.1 in a temporary
# directory, removed at the end. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-100000}
RULES=${RULES:-"10000 100000"}
RATE=${RATE:-20000}
swift build -c release --product sift >&2
swift build -c release --product ServeBench >&2
swift build -c release --product sift-nats >&2
BIN=$(swift build -c release --show-bin-path)
SIFT=$BIN/sift
BENCH=$BIN/ServeBench
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# Data: N notifications over 5,000 accounts; R rules of three accounts each.
python3 - "$WORK" "$N" $RULES <<'PY'
import json, random, sys
work, n, sizes = sys.argv[1], int(sys.argv[2]), [int(x) for x in sys.argv[3:]]
rng = random.Random(26)
with open(f"{work}/lines.jsonl", "w") as f:
    for i in range(n):
        f.write(json.dumps({"n": i, "filterCriteria": f"acct-{rng.randrange(5000)}",
                            "priority": rng.randrange(6), "sender": f"s{rng.randrange(60)}@example.com"}) + "\n")
for r in sizes:
    rng = random.Random(r)
    with open(f"{work}/rules-{r}.jsonl", "w") as route, open(f"{work}/kv-{r}.tsv", "w") as kv:
        for i in range(r):
            value = {"predicate": f"filterCriteria IN %@ AND priority >= {rng.randrange(6)}",
                     "args": [[f"acct-{rng.randrange(5000)}" for _ in range(3)]]}
            route.write(json.dumps({"id": f"r{i}", **value}) + "\n")
            kv.write(f"r{i}\t{json.dumps(value)}\n")
PY

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
URL=nats://127.0.0.1:$PORT
start_server() {
  rm -rf "$WORK/store"
  nats-server -a 127.0.0.1 -p "$PORT" -js -sd "$WORK/store" > "$WORK/server.log" 2>&1 &
  SERVER=$!
  PIDS+=("$SERVER")
  for _ in $(seq 200); do grep -q "Server is ready" "$WORK/server.log" && break; sleep 0.05; done
  "$BIN/sift-nats" --nats "$URL" stream add IN "in.>"
  "$BIN/sift-nats" --nats "$URL" stream add OUT sift.routed 'sift.routed.>'
  "$BIN/sift-nats" --nats "$URL" kv add rules
}
stop_server() { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; }
load_rules() { "$BIN/sift-nats" --nats "$URL" kv load rules < "$1"; }
start_workers() {  # COUNT
  for i in $(seq "$1"); do
    "$SIFT" serve --nats "$URL" --rules-bucket rules --stream IN --consumer workers 2> "$WORK/worker-$i.log" &
    PIDS+=("$!")
  done
  for i in $(seq "$1"); do
    for _ in $(seq 2400); do grep -q "routing" "$WORK/worker-$i.log" && break; sleep 0.05; done
  done
}
stop_workers() {  # COUNT: the last COUNT processes started, SIGTERM then wait for each
  local stopping=()
  for i in $(seq "$1"); do stopping+=("${PIDS[-$i]}"); done
  for p in "${stopping[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${stopping[@]}"; do wait "$p" 2>/dev/null || true; done
}
echo "| measure | rules | workers | result |"
echo "| --- | ---: | ---: | --- |"
for r in $RULES; do
  # sift route: the same lines, the rule load subtracted (a run on no input).
  t0=$( { /usr/bin/time -f %e "$SIFT" route --rules "$WORK/rules-$r.jsonl" < /dev/null > /dev/null; } 2>&1 )
  t1=$( { /usr/bin/time -f %e "$SIFT" route --rules "$WORK/rules-$r.jsonl" "$WORK/lines.jsonl" > /dev/null; } 2>&1 )
  echo "| sift route (no network) | $r | 1 | $(python3 -c "print(int($N/max($t1-$t0,0.001)))") lines/s |"
  for w in 1 2; do
    start_server
    load_rules "$WORK/kv-$r.tsv"
    "$BENCH" load "$URL" in.notify "$WORK/lines.jsonl"
    start_workers "$w"
    echo "| sift serve, outputs stored with Nats-Msg-Id | $r | $w | $("$BENCH" rate "$URL" IN workers "$N") notifications/s |"
    stop_workers "$w"
    stop_server
  done
done
for w in 1 2; do
  start_server
  "$BENCH" load "$URL" in.notify "$WORK/lines.jsonl"
  for i in $(seq "$w"); do "$BENCH" ack-only "$URL" IN plain & PIDS+=("$!"); done
  echo "| plain consumer, fetch 256 + ack each (ceiling) | 0 | $w | $("$BENCH" rate "$URL" IN plain "$N") notifications/s |"
  wait "${PIDS[-1]}" 2>/dev/null || true
  stop_server
done
for r in $RULES; do
  start_server
  load_rules "$WORK/kv-$r.tsv"
  start_workers 2
  head -n $((RATE * 5)) "$WORK/lines.jsonl" > "$WORK/paced.jsonl"
  echo "| latency publish -> routed record at $RATE/s | $r | 2 | $("$BENCH" latency "$URL" in.bench "$WORK/paced.jsonl" "$RATE" sift.routed) |"
  echo "| rule put -> in force | $r | 2 | $("$BENCH" rule-latency "$URL" rules sift.routed 2) |"
  stop_workers 2
  stop_server
done
echo
echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), nats-server $(nats-server --version | cut -d' ' -f2), $(date -u +%Y-%m-%d)"
