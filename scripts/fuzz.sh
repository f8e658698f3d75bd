#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/build.sh) and runs each for SECONDS (default 60).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     targets: yaml json expression schema flow scenario store
#
# FUZZ_JOBS=N runs N targets at a time (default: the number of cores), each a single libFuzzer process.
#
# Each run starts from the seed corpus built from our own files (Fuzz/seeds.py) plus Tests/FuzzRegressions,
# and keeps what it learns in .build-fuzz/corpus/<target> for the next run. Limits per run: -timeout=5 (one
# input taking longer is a hang), -rss_limit_mb=2048, leaks detected by AddressSanitizer. Findings
# (crash-*, timeout-*, leak-*, oom-*) are written to fuzz-out/<target>/ with the log; replay one with
# `.build-fuzz/bin/fuzz-<target> FILE` ($FUZZ_BUILD/bin when FUZZ_BUILD is set). Exits 1 when any target found something, 2 on a build failure.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

seconds=60
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then seconds=$1; shift; fi
# libFuzzer reads -max_total_time=0 as "no limit".
if [ "$seconds" -lt 1 ]; then seconds=1; fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(yaml json expression schema flow scenario store); fi

# A crashed instrumented Swift binary must not sit in the backtracer: libFuzzer reports the crash itself.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:symbolize=1}
# One-time global initialisation and a swift-foundation leak are not FlowKit leaks (see the file).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/Fuzz/lsan.supp:print_suppressions=0}

# FUZZ_BUILD: where Fuzz/build.sh builds (default .build-fuzz).
build=${FUZZ_BUILD:-$root/.build-fuzz}
export FUZZ_BUILD=$build
# FUZZ_NO_BUILD=1 runs the binaries already built (for runs in parallel while the sources change).
if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
  Fuzz/build.sh "${targets[@]}" 2> >(grep -v 'warning: Cannot export local symbol' >&2) || {
    echo "fuzz: build failed" >&2
    exit 2
  }
fi
for t in "${targets[@]}"; do
  [ -x "$build/bin/fuzz-$t" ] || { echo "fuzz: no target '$t' built in $build/bin (run Fuzz/build.sh $t)" >&2; exit 2; }
done
python3 Fuzz/seeds.py "$build/seeds" "${targets[@]}" 2>/dev/null || { echo "fuzz: cannot write the seed corpus" >&2; exit 2; }

jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: FUZZ_JOBS must be a positive whole number, not '$jobs'" >&2; exit 2; }
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# Runs target $1 and writes its summary line to $results/$1; exits 1 when it found something.
fuzz_target() {
  local t=$1
  local bin=$build/bin/fuzz-$t corpus=$build/corpus/$t artifacts=$root/fuzz-out/$t
  mkdir -p "$corpus" "$artifacts"
  local log=$artifacts/fuzz.log marker=$artifacts/.started
  touch "$marker"
  echo "== fuzz $t for ${seconds}s ($(date +%T))" >&2
  # The outer timeout only guards against a wedged process; libFuzzer stops itself after -max_total_time.
  timeout --kill-after=10 $((seconds + 120)) "$bin" \
    -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$corpus" "$build/seeds/$t" >"$log" 2>&1
  local status=$?
  local runs speed size found result
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  size=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1 | sed 's/corp: //')
  found=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' \
    -o -name 'oom-*' \) -newer "$marker" 2>/dev/null | head -3 | xargs -r -n1 basename | tr '\n' ' ')
  if [ $status -eq 0 ] && [ -z "$found" ]; then
    result=ok
  else
    result="FOUND (exit $status): ${found:-see $log} — $(grep -m1 -E '^==[0-9]+==ERROR|^SUMMARY|Fatal error|deadly signal|ALARM' "$log")"
  fi
  local line="fuzz $t: ${runs:-0} runs, ${speed:-0} exec/s, corpus ${size:-?}, ${seconds}s: $result"
  echo "$line" >"$results/$t"
  echo "$line" >&2
  [ "$result" = ok ]
}

# At most $jobs targets at a time; the summary keeps the order of the targets.
findings=0
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || findings=1
    running=$((running - 1))
  fi
  fuzz_target "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || findings=1
  running=$((running - 1))
done
summary=()
for t in "${targets[@]}"; do summary+=("$(cat "$results/$t" 2>/dev/null || echo "fuzz $t: no result")"); done

echo
printf '%s\n' "${summary[@]}"
exit $findings
