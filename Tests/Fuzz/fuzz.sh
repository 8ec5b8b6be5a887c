#!/usr/bin/env bash
# Fuzz Sift with libFuzzer under the address sanitizer.
#
#   Tests/Fuzz/fuzz.sh SECONDS [TARGET…]     (default: every target; see Tests/Fuzz/README.md)
#
# Builds SiftFuzz with -sanitize=fuzzer,address in .build-fuzz, seeds each target's corpus
# (.fuzz/corpus/TARGET, kept between runs) from the grammar examples and conformance cases,
# runs each target for SECONDS, and keeps crashers, hangs (> 1 s) and leaks in
# Tests/Fuzz/Crashers/TARGET/, where `swift test` replays them. FUZZ_SEED fixes libFuzzer's
# seed (CI's smoke uses it). Exits 1 if any target found a problem, 2 on bad usage.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

all_targets=(parse round-trip evaluate differential json-lines filter apns)
if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: Tests/Fuzz/fuzz.sh SECONDS [TARGET…]   targets: ${all_targets[*]}" >&2
  exit 2
fi
seconds=$1
shift
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t'" >&2; exit 2; }
done

echo "== building the fuzz binary (.build-fuzz)"
# --disable-dead-strip keeps the sanitizer-coverage constructor; without it libFuzzer runs
# blind. -Xswiftc -sanitize=fuzzer: with Swift 6.3.1, a build into an empty build folder
# compiles the library modules with --sanitize=address alone (no coverage counters) unless
# the flag is also passed to every compile.
swift build -c release --build-path .build-fuzz --sanitize=fuzzer --sanitize=address \
  -Xswiftc -sanitize=fuzzer --disable-dead-strip -Xswiftc -DFUZZING --product SiftFuzz >/dev/null
fuzzer=.build-fuzz/release/SiftFuzz
sections=$(readelf -S "$fuzzer")  # not piped into grep -q: under pipefail its early exit fails the pipe
if [[ $sections != *__sancov_cntrs* ]]; then
  echo "fuzz.sh: $fuzzer has no coverage counters" >&2
  exit 1
fi

export SWIFT_BACKTRACE=enable=no
# XCTest is not linked here, so nothing needs a leak suppression: every leak is Sift's.
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
status=0
summary=()
for t in "${targets[@]}"; do
  corpus=.fuzz/corpus/$t
  crashers=Tests/Fuzz/Crashers/$t
  mkdir -p "$corpus" "$crashers" .fuzz/seeds/$t
  rm -f .fuzz/seeds/$t/*
  SIFT_FUZZ_TARGET=$t SIFT_FUZZ_WRITE_SEEDS=.fuzz/seeds/$t SIFT_PACKAGE_ROOT=$root "$fuzzer" >/dev/null 2>&1
  log=.fuzz/$t.log
  echo "== $t: ${seconds}s"
  set +e
  SIFT_FUZZ_TARGET=$t "$fuzzer" "$corpus" .fuzz/seeds/$t \
    -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -max_len=4096 \
    -dict=Tests/Fuzz/sift.dict -artifact_prefix="$crashers/" -print_final_stats=1 \
    ${FUZZ_SEED:+-seed=$FUZZ_SEED} >"$log" 2>&1
  rc=$?
  set -e
  if ! grep -q "INFO: Loaded [0-9]* modules" "$log"; then
    echo "fuzz.sh: $t ran without coverage instrumentation (see $log)" >&2
    exit 1
  fi
  runs=$(grep -o "stat::number_of_executed_units: [0-9]*" "$log" | awk '{print $2}' | tail -1)
  cov=$(grep -o "cov: [0-9]* ft: [0-9]*" "$log" | tail -1)
  corpus_size=$(ls "$corpus" | wc -l)
  if [[ $rc -ne 0 ]]; then
    status=1
    found=$(grep -E "^(==[0-9]+==ERROR|SUMMARY|Fatal error|ALARM|ERROR: libFuzzer)" "$log" | head -3 | tr '\n' ' ')
    summary+=("$t: FAILED (exit $rc) after ${runs:-?} runs, $cov: $found; input kept in $crashers/, log $log")
  else
    summary+=("$t: ${runs:-?} runs, $cov, corpus $corpus_size files, no crash, hang or leak")
  fi
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status
