#!/usr/bin/env bash
# `sift filter` next to a hand-written C++ simdjson loop with the same guarantees (the
# ceiling for a per-line, validating JSON Lines filter), simdjson's parse_many, jq and
# DuckDB, on the same generated notification lines.
#
#   Benchmarks/compare-filter.sh [N]          N lines (default 1000000; or N=...)
#   ROUNDS=7                                  interleaved rounds (the median is reported)
#   SIFT=path/to/sift                         use this binary instead of building one
#   SCRATCH_PATH=/tmp/cmp-build               swift build's --scratch-path (default: .build)
#   SKIP="jq duckdb"                          leave these tools out (also: parse-many)
#   PYTHON=python3                            the Python that generates the data and runs DuckDB
#
# Queries:
#   Q1  filterCriteria IN {'acct-101', 'acct-104', 'acct-107'}
#   Q2  priority >= 3 AND NOT sender ENDSWITH[c] '@spam.example' AND ANY tags == 'urgent'
#   Q3  subject MATCHES '.*Invoice [0-9]+.*'
#
# Steps: generate N lines of about 130 bytes with reference/generate_notifications.py
# (seeded: the same N gives the same file, kept in .bench-data/); build `sift` in release
# mode and reference/simdjson_filter.cpp with g++ -O3 -march=native against Debian's
# libsimdjson-dev and libpcre2-dev; check on a file of awkward lines (empty, invalid JSON
# and UTF-8, CRLF, a last line without a newline, duplicate keys, values of the wrong kind,
# lines that are not objects) that the C++ loop writes byte for byte what `sift filter`
# writes, reports the same line numbers as errors and exits with the same status; one
# untimed pass of every tool over the data, checking that `sift filter`, the C++ loop and
# parse_many write byte-identical output for each query and that every tool counts the
# same matches; then ROUNDS rounds, each running every tool on every query once (the
# order of the tools rotates from round to round) and once on a file of one line (its
# start-up); then a Markdown table of the median throughput, sift / C++ for each query,
# the median start-up, the machine and the date.
#
# Times are wall-clock times of the whole process, output to /dev/null, file in the page
# cache, so they include start-up (a few ms for sift and the C++ program; jq's is small).
# DuckDB is the exception: its time is the query alone, measured inside Python after a
# warm-up query (Python's start-up and `import duckdb` are left out), with 2 threads; every
# other tool uses one.
#
# Installs nothing. Needs g++, pkg-config, libsimdjson-dev and libpcre2-dev (Debian:
# apt-get install g++ pkg-config libsimdjson-dev libpcre2-dev), python3, and swift unless
# SIFT is set; uses jq and the duckdb Python package when they are there.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
lines=${1:-${N:-1000000}}
rounds=${ROUNDS:-7}
python=${PYTHON:-python3}
skip=" ${SKIP:-} "
ids=acct-101,acct-104,acct-107

die() {
  echo "compare-filter: $*" >&2
  exit 1
}
note() { echo "compare-filter: $*" >&2; }

[[ $lines =~ ^[1-9][0-9]*$ ]] || die "N must be a positive number of lines, not '$lines'"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive number, not '$rounds'"
[[ -n ${EPOCHREALTIME:-} ]] || die "needs bash 5 (EPOCHREALTIME)"

# --- what is needed ------------------------------------------------------------------------
command -v g++ >/dev/null || die "g++ is missing (Debian: apt-get install g++)"
command -v pkg-config >/dev/null || die "pkg-config is missing (Debian: apt-get install pkg-config)"
pkg-config --exists simdjson ||
  die "simdjson is missing: pkg-config knows no 'simdjson' (Debian: apt-get install libsimdjson-dev)"
pkg-config --exists libpcre2-8 ||
  die "PCRE2 is missing: pkg-config knows no 'libpcre2-8' (Debian: apt-get install libpcre2-dev)"
command -v "$python" >/dev/null || die "$python is missing"

have_jq=false
if [[ $skip != *" jq "* ]]; then
  if command -v jq >/dev/null; then have_jq=true; else note "jq is not installed: no jq row"; fi
fi
have_duckdb=false
if [[ $skip != *" duckdb "* ]]; then
  if "$python" -c 'import duckdb' 2>/dev/null; then
    have_duckdb=true
  else
    note "the duckdb Python package is not installed for $python: no DuckDB row (pip install duckdb)"
  fi
fi
have_many=true
checked="sift filter and the C++ loop"
if [[ $skip == *" parse-many "* ]]; then
  have_many=false
else
  checked="sift filter, the C++ loop and parse_many"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/compare-filter.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- the binaries --------------------------------------------------------------------------
if [[ -n ${SIFT:-} ]]; then
  sift=$SIFT
  [[ -x $sift ]] || die "SIFT=$sift is not an executable"
else
  command -v swift >/dev/null || die "swift is missing (or point SIFT= at a sift binary)"
  build=(swift build -c release --product sift --package-path "$root")
  [[ -n ${SCRATCH_PATH:-} ]] && build+=(--scratch-path "$SCRATCH_PATH")
  note "building sift: ${build[*]}"
  "${build[@]}" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; die "swift build failed"; }
  sift=$("${build[@]}" --show-bin-path)/sift
fi

cpp=$work/simdjson_filter
note "building the C++ reference: g++ -O3 -march=native reference/simdjson_filter.cpp"
# shellcheck disable=SC2046 # pkg-config's flags are meant to be split
g++ -O3 -march=native -std=c++17 -o "$cpp" "$here/reference/simdjson_filter.cpp" \
  $(pkg-config --cflags --libs simdjson libpcre2-8) || die "the C++ reference did not build"

# --- the data ------------------------------------------------------------------------------
mkdir -p "$root/.bench-data"
data=$root/.bench-data/compare-$lines.jsonl
generator=$here/reference/generate_notifications.py
if [[ ! -s $data || $generator -nt $data ]]; then
  note "generating $lines lines into ${data#"$root/"}"
  "$python" "$generator" "$lines" "$data.tmp"
  mv "$data.tmp" "$data"
fi
bytes=$(wc -c <"$data")

# --- the queries ---------------------------------------------------------------------------
queries=(q1 q2 q3)
declare -A pred jqf sql
IFS=, read -ra id_list <<<"$ids"
in_list=$(printf "'%s', " "${id_list[@]}")
in_list=${in_list%, }
pred[q1]="filterCriteria IN {$in_list}"
pred[q2]="priority >= 3 AND NOT sender ENDSWITH[c] '@spam.example' AND ANY tags == 'urgent'"
pred[q3]="subject MATCHES '.*Invoice [0-9]+.*'"
jq_or=$(printf '.filterCriteria == "%s" or ' "${id_list[@]}")
jqf[q1]="select(${jq_or% or })"
jqf[q2]='select(.priority >= 3 and ((.sender // "" | ascii_downcase | endswith("@spam.example")) | not) and any((.tags // [])[]; . == "urgent"))'
jqf[q3]='select(.subject | type == "string" and test("^.*Invoice [0-9]+.*$"))'
sql[q1]="filterCriteria IN ($in_list)"
sql[q2]="priority >= 3 AND NOT coalesce(ends_with(lower(sender), '@spam.example'), false) AND coalesce(list_contains(tags, 'urgent'), false)"
sql[q3]="regexp_full_match(subject, '.*Invoice [0-9]+.*')"

cat >"$work/duckdb_count.py" <<'PY'
import sys, time
import duckdb
path, where = sys.argv[1], sys.argv[2]
con = duckdb.connect()
con.execute("SET threads = 2")
source = ("read_ndjson(?, columns = {'filterCriteria': 'VARCHAR', 'priority': 'BIGINT', "
          "'sender': 'VARCHAR', 'tags': 'VARCHAR[]', 'subject': 'VARCHAR'})")
con.execute(f"SELECT * FROM {source} LIMIT 1", [path]).fetchall()  # warm-up
start = time.perf_counter()
count = con.execute(f"SELECT count(*) FROM {source} WHERE {where}", [path]).fetchone()[0]
print(count, round((time.perf_counter() - start) * 1e6))
PY

# run TOOL QUERY [FILE]: the tool's output on stdout.
run() {
  local file=${3:-$data}
  case $1 in
    sift) "$sift" filter --threads 1 "${pred[$2]}" "$file" ;;
    sift2) "$sift" filter --threads 2 "${pred[$2]}" "$file" ;;
    cpp) "$cpp" --ids "$ids" "$2" "$file" ;;
    many) "$cpp" --parse-many --ids "$ids" "$2" "$file" ;;
    jq) jq -c "${jqf[$2]}" "$file" ;;
    *) die "no tool $1" ;;
  esac
}

# --- the contract check: awkward lines, the C++ loop against sift -------------------------
edge=$work/edge.jsonl
{
  printf '%s\n' \
    '{"filterCriteria":"acct-104","priority":4,"sender":"a@b.example","tags":["urgent"],"subject":"Invoice 42 due"}' \
    '' '   ' \
    '{"filterCriteria":5,"priority":"3","tags":["urgent"]}' \
    '5' '"x"' 'null' 'true' '[]' '[1]' '["s"]' \
    '[{"filterCriteria":"acct-104","priority":4,"subject":"Invoice 1"}]' \
    '[null,[{"filterCriteria":"acct-104"}]]' \
    '{"filterCriteria":"acct-104","filterCriteria":"acct-999","priority":1}' \
    '{"filterCriteria":"acct-999","filterCriteria":"acct-104","priority":9,"priority":4,"tags":["urgent"]}' \
    '{"filterCriteria":"acct-104"' \
    '{"filterCriteria":"acct\u002d104","subject":"x\nInvoice 42"}' \
    '{"filterCriteria":"acct-104\u0000","subject":"Invoice 42\u2028x"}' \
    '{"priority":3.5,"sender":"X@SPAM.EXAMPLE","tags":["urgent"]}' \
    '{"priority":3.5,"sender":"X@notSPAM.EXAMPLE","tags":["x","urgent"]}' \
    '{"priority":true,"tags":["urgent"]}' \
    '{"priority":4,"sender":5,"tags":["urgent"]}' \
    '{"priority":4,"sender":"x@notspam.example","tags":"urgent"}' \
    '{"priority":4,"tags":[["urgent"]],"subject":5}' \
    '{"priority":4,"tags":{"a":"urgent"},"subject":["Invoice 4"]}' \
    '{"priority":[4],"tags":["urgent"],"subject":null}' \
    '{"priority":4,"tags":["urgent"],"sender":null,"subject":"Invoice ٤٢"}' \
    '{"priority":1,"sender":5,"subject":{"a":1}}'
  printf '{"filterCriteria":"acct-107","subject":"Invoice 7"}\r\n'
  printf '{"filterCriteria":"\xff"}\n'
  printf '{"a":{"b":[1,2,{"c":[[[[1]]]]}]},"filterCriteria":"acct-107","subject":"Re: Invoice 1"}\n'
  printf '{"filterCriteria":"acct-101","priority":5,"tags":["urgent"],"subject":"Invoice 3 "}\r'
} >"$edge"
error_lines() { sed -nE 's/^[^:]+: [^:]+:([0-9]+): .*/\1/p' "$1" | tr '\n' ' '; }
for q in "${queries[@]}"; do
  status_sift=0 status_cpp=0
  run sift "$q" "$edge" >"$work/edge-sift.out" 2>"$work/edge-sift.err" || status_sift=$?
  run cpp "$q" "$edge" >"$work/edge-cpp.out" 2>"$work/edge-cpp.err" || status_cpp=$?
  cmp -s "$work/edge-sift.out" "$work/edge-cpp.out" ||
    die "contract check, $q: the C++ loop's output differs from sift filter's ($(cmp "$work/edge-sift.out" "$work/edge-cpp.out" 2>&1 || true))"
  [[ $(error_lines "$work/edge-sift.err") == "$(error_lines "$work/edge-cpp.err")" ]] ||
    die "contract check, $q: error lines differ: sift $(error_lines "$work/edge-sift.err")/ C++ $(error_lines "$work/edge-cpp.err")"
  [[ $status_sift == "$status_cpp" ]] || die "contract check, $q: exit status sift $status_sift, C++ $status_cpp"
done
note "contract check passed: $(wc -l <"$edge") awkward lines, Q1-Q3, same output, error lines and status"

# --- the output and count check: one untimed pass of every tool ---------------------------
tools=(sift sift2 cpp)
$have_many && tools+=(many)
$have_jq && tools+=(jq)
$have_duckdb && tools+=(duckdb)
declare -A count times
for q in "${queries[@]}"; do
  run sift "$q" >"$work/sift.out" || die "sift filter failed on $q"
  count[sift.$q]=$(wc -l <"$work/sift.out")
  for t in sift2 cpp many; do
    [[ $t == many && $have_many == false ]] && continue
    run "$t" "$q" >"$work/$t.out" || die "$t failed on $q"
    cmp -s "$work/sift.out" "$work/$t.out" ||
      die "$q: $t's output differs from sift filter's ($(cmp "$work/sift.out" "$work/$t.out" 2>&1 || true))"
    count[$t.$q]=${count[sift.$q]}
  done
  if $have_jq; then count[jq.$q]=$(run jq "$q" | wc -l); fi
  if $have_duckdb; then
    read -r c _ < <("$python" "$work/duckdb_count.py" "$data" "${sql[$q]}") || die "DuckDB failed on $q"
    count[duckdb.$q]=$c
  fi
  for t in "${tools[@]}"; do
    [[ ${count[$t.$q]} == "${count[sift.$q]}" ]] ||
      die "$q: $t counts ${count[$t.$q]} matches, sift filter ${count[sift.$q]}"
  done
  rm -f "$work"/*.out
done
note "output check passed: $checked wrote byte-identical output; match counts agree"

# --- the rounds ------------------------------------------------------------------------------
# Each round also times every tool on a file of one line (Q1): its start-up, which weighs on
# a small N (sift loads the Swift runtime and Foundation).
one=$work/one.jsonl
head -n 1 "$data" >"$one"
for ((r = 0; r < rounds; r++)); do
  note "round $((r + 1)) of $rounds"
  for q in start "${queries[@]}"; do
    query=$q file=$data
    [[ $q == start ]] && query=q1 file=$one
    for ((k = 0; k < ${#tools[@]}; k++)); do
      t=${tools[$(((k + r) % ${#tools[@]}))]}
      if [[ $t == duckdb ]]; then
        read -r _ us < <("$python" "$work/duckdb_count.py" "$file" "${sql[$query]}") || die "DuckDB failed on $q"
      else
        start=${EPOCHREALTIME//[.,]/}
        run "$t" "$query" "$file" >/dev/null || die "$t failed on $q"
        end=${EPOCHREALTIME//[.,]/}
        us=$((end - start))
      fi
      times[$t.$q]+="$us "
    done
  done
done

# --- the table -------------------------------------------------------------------------------
median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
declare -A rate
for t in "${tools[@]}"; do
  for q in "${queries[@]}"; do
    m=$(median <<<"${times[$t.$q]}")
    rate[$t.$q]=$(awk -v n="$lines" -v us="$m" 'BEGIN { printf "%.2f", n / us }')
  done
  m=$(median <<<"${times[$t.start]}")
  rate[$t.start]=$(awk -v us="$m" 'BEGIN { printf "%.1f", us / 1000 }')
done
# shellcheck disable=SC2016 # backquotes are Markdown here
declare -A label=(
  [sift]='`sift filter --threads 1`'
  [sift2]='`sift filter --threads 2`'
  [cpp]='C++ simdjson, per-line DOM parse (`reference/simdjson_filter.cpp`)'
  [many]='C++ simdjson `parse_many`, 1 MiB chunks (`--parse-many`)'
  [jq]='`jq -c '"'"'select(…)'"'"'`'
  [duckdb]='DuckDB `read_ndjson` `count(*)`, 2 threads, query time only'
)
cpu=$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
echo
echo "### \`sift filter\` next to the C++ ceiling: $lines lines ($((bytes / lines)) bytes each on average), median of $rounds rounds"
echo
echo "| tool (M lines/s) | Q1 \`IN\` | Q2 \`AND\`/\`ENDSWITH[c]\`/\`ANY\` | Q3 \`MATCHES\` | start-up, ms (1 line) |"
echo "| --- | ---: | ---: | ---: | ---: |"
for t in "${tools[@]}"; do
  echo "| ${label[$t]} | ${rate[$t.q1]} | ${rate[$t.q2]} | ${rate[$t.q3]} | ${rate[$t.start]} |"
done
ratio() { awk -v a="${rate[sift.$1]}" -v b="${rate[cpp.$1]}" 'BEGIN { printf "%.2f", a / b }'; }
echo "| **sift / C++ per-line** | **$(ratio q1)** | **$(ratio q2)** | **$(ratio q3)** | |"
ratio2() { awk -v a="${rate[sift2.$1]}" -v b="${rate[sift.$1]}" 'BEGIN { printf "%.2f", a / b }'; }
echo "| **2 threads / 1 thread** | **$(ratio2 q1)** | **$(ratio2 q2)** | **$(ratio2 q3)** | |"
echo "| matching lines | ${count[sift.q1]} | ${count[sift.q2]} | ${count[sift.q3]} | |"
echo
echo "Q1 \`${pred[q1]}\`; Q2 \`${pred[q2]}\`; Q3 \`${pred[q3]}\`."
timing="Wall time of each process, start-up included (output to /dev/null, input in the page cache)"
$have_duckdb && timing+="; DuckDB: the query alone, inside Python, after a warm-up query"
echo "$timing."
echo "Checked: $checked wrote byte-identical output for each query; every tool counted the same matches."
echo
versions="simdjson $(pkg-config --modversion simdjson), PCRE2 $(pkg-config --modversion libpcre2-8), $(g++ --version | head -1)"
$have_jq && versions+=", $(jq --version)"
$have_duckdb && versions+=", DuckDB $("$python" -c 'import duckdb; print(duckdb.__version__)')"
command -v swift >/dev/null && versions+=", $(swift --version 2>&1 | grep -m1 -o 'Swift version [0-9.]*')"
echo "Machine: $cpu, $(nproc) cores; $(date '+%Y-%m-%d %H:%M %Z'); $versions."
