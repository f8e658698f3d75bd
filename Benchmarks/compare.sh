#!/usr/bin/env bash
# Speed, side by side, in one run: builds the release binaries, puts the Python references (check-jsonschema,
# sismic, transitions) in Benchmarks/.venv and SPIN (apt-get), measures both sides on this machine now, and
# prints a Markdown table with ratios and the targets of issue 14.
#
#   bash Benchmarks/compare.sh            # everything
#
# Environment: SCRATCH_PATH (default .build) is the SwiftPM scratch path; BUDGET (default 2) the seconds each
# Python chain driver runs for. Whole-process times are medians of hyperfine runs (or of a timing loop when
# hyperfine cannot be installed), flowlint's and check-jsonschema's taken in turns; in-process times are the best
# of several runs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=${SCRATCH_PATH:-.build}
budget=${BUDGET:-2}
export SWIFT_BACKTRACE=enable=no

note() { printf '== %s\n' "$*" >&2; }

# --- tools -------------------------------------------------------------------------------------------------
if ! command -v hyperfine >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  note "installing hyperfine"
  apt-get install -y -qq hyperfine >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null 2>&1; } || true
fi
# The static build links libyaml and libedit (scripts/build-release.sh).
if { ! dpkg -s libyaml-dev >/dev/null 2>&1 || ! dpkg -s libedit-dev >/dev/null 2>&1; } && [ "$(id -u)" = 0 ]; then
  apt-get install -y -qq libyaml-dev libedit-dev >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq libyaml-dev libedit-dev; }
fi
if ! command -v spin >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  note "installing spin (the SPIN model checker, the reference for explore)"
  apt-get install -y -qq spin >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq spin >/dev/null 2>&1; } || true
fi

note "building release binaries ($scratch)"
# As README says to install them (scripts/build-release.sh): fully static executables.
release() { bash scripts/build-release.sh --scratch-path "$scratch" "$@"; }
release --product flowlint >&2
release --product flowrun >&2
release --product flowbench >&2
bin=$(release --show-bin-path)

venv=Benchmarks/.venv
if ! "$venv/bin/python" -c 'import sismic, transitions' >/dev/null 2>&1 || [ ! -x "$venv/bin/check-jsonschema" ]; then
  note "creating $venv with check-jsonschema, sismic and transitions"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q check-jsonschema sismic transitions >&2
fi
py=$venv/bin/python
cjs=$venv/bin/check-jsonschema

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/flowbench" generate 1000 >"$work/generated-1000.yaml"
"$bin/flowbench" generate 10000 >"$work/generated-10000.yaml"
cc -O2 -o "$work/yamlscan" Benchmarks/reference/yamlscan.c -lyaml

# run_times RUNS WARMUPS FILE COMMAND...: runs COMMAND WARMUPS times unmeasured, then RUNS times, and appends the
# wall-clock seconds of each measured run to FILE, a line each.
run_times() {
  local runs=$1 warmups=$2 file=$3
  shift 3
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup "$warmups" --runs "$runs" --export-json "$work/h.json" --style none "$(printf '%q ' "$@")" \
      >/dev/null 2>&1 || { echo "command failed: $*" >&2; return 1; }
    "$py" -c 'import json,sys; print(*json.load(open(sys.argv[1]))["results"][0]["times"], sep="\n")' "$work/h.json" >>"$file"
  else
    "$py" - "$runs" "$warmups" "$@" >>"$file" <<'EOF'
import subprocess, sys, time
runs, warmups, command = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
for run in range(warmups + runs):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if run >= warmups:
        print(time.perf_counter() - start)
EOF
  fi
}

# median_of FILE: the median of the seconds in FILE, one a line.
median_of() { "$py" -c 'import statistics,sys; print("%.4f" % statistics.median(map(float, open(sys.argv[1]))))' "$1"; }

# median_seconds RUNS COMMAND...: the median wall-clock time of RUNS whole-process runs (after one warm-up).
median_seconds() {
  local runs=$1
  shift
  : >"$work/times"
  run_times "$runs" 1 "$work/times" "$@" && median_of "$work/times"
}

# side_by_side ROUNDS OURS_RUNS THEIRS_RUNS -- OURS... -- THEIRS...: "ours theirs", the median wall-clock times of
# both commands measured in turns: in each of ROUNDS rounds, OURS_RUNS runs of ours and then THEIRS_RUNS of
# theirs. A slow minute of the machine then falls on both sides, not on one. Each side warms up first, and ours
# again in every round: after check-jsonschema has run (15 s on the 10,000-step flow), the first flowlint is slow
# (0.14 to 0.18 s on that flow, with 2 to 6 major page faults, against 0.07 to 0.09 s for the next ones).
side_by_side() {
  local rounds=$1 ours_runs=$2 theirs_runs=$3 ours=() theirs=()
  shift 4
  while [ "$1" != -- ]; do
    ours+=("$1")
    shift
  done
  shift
  theirs=("$@")
  : >"$work/ours"
  : >"$work/theirs"
  for round in $(seq "$rounds"); do
    run_times "$ours_runs" $((round == 1 ? 3 : 1)) "$work/ours" "${ours[@]}" || return 1
    run_times "$theirs_runs" $((round == 1 ? 1 : 0)) "$work/theirs" "${theirs[@]}" || return 1
  done
  echo "$(median_of "$work/ours") $(median_of "$work/theirs")"
}

# median_run FILE COLUMN: the line of FILE (one run a line, figures separated by spaces) whose figure in COLUMN
# is the median (the upper one of an even count).
median_run() { sort -g -k"$2,$2" "$1" | sed -n "$(($(wc -l <"$1") / 2 + 1))p"; }

ratio() { "$py" -c 'import sys; a, b = map(float, sys.argv[1:]); print("%.0f×" % (a / b) if a / b >= 10 else "%.1f×" % (a / b))' "$1" "$2"; }
# gain RATIO: a gain of threads cut (not rounded) to two decimals, so that one just under its target reads as
# under it: 1.78× rather than 1.8×, 1.79× rather than 1.80× (a run on 2026-12-03 printed 1.80× next to "missed").
gain() { "$py" -c 'import math, sys; print("%.2f×" % (math.floor(round(float(sys.argv[1]) * 100, 6)) / 100))' "$1"; }
# faster_or_slower OURS THEIRS (rates): "3.2× faster" or "12× slower".
faster_or_slower() {
  if "$py" -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)' "$1" "$2"; then
    echo "$(ratio "$1" "$2") faster"
  else
    echo "$(ratio "$2" "$1") slower"
  fi
}
fmt() { "$py" -c 'import sys; print(f"{float(sys.argv[1]):,.0f}")' "$1"; }
verdict() { "$py" -c 'import sys; print("met" if eval(sys.argv[1]) else "**missed**")' "$1"; }

table=$work/table.md
{
  echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), $(swift --version 2>/dev/null | grep -o 'Swift version [0-9.]*' | head -1), by \`bash Benchmarks/compare.sh\`."
  echo
  echo "| what | FlowKit | reference | ratio | target |"
  echo "|---|---|---|---|---|"
} >"$table"

# --- flowlint (schema + semantic checks) vs check-jsonschema (schema only) ----------------------------------
note "flowlint vs check-jsonschema"
documents=(flows/*.yaml "$work/generated-1000.yaml" "$work/generated-10000.yaml")
for document in "${documents[@]}"; do
  name=$(basename "$document")
  case "$name" in
    generated-10000.yaml) rounds=3 ours_runs=4 factor=50 ;;
    generated-*) rounds=3 ours_runs=4 factor=20 ;;
    *) rounds=5 ours_runs=8 factor=100 ;;
  esac
  read -r ours reference < <(side_by_side "$rounds" "$ours_runs" 1 -- "$bin/flowlint" "$document" \
    -- "$cjs" --schemafile schemas/flow.schema.json "$document")
  target="≥ ${factor}× faster: $(verdict "$reference / $ours >= $factor")"
  case "$name" in
    generated-10000.yaml) target="$target; < 0.1 s: $(verdict "$ours < 0.1")" ;;
    generated-*) ;;
    *) target="$target; < 5 ms: $(verdict "$ours < 0.005")" ;;
  esac
  echo "| lint \`$name\` ($(($(wc -c <"$document") / 1000)) kB), whole process | flowlint ${ours} s | check-jsonschema ${reference} s | $(ratio "$reference" "$ours") | $target |" >>"$table"
done
peak=0
for _ in 1 2 3; do
  kb=$(/usr/bin/time -f '%M' "$bin/flowlint" "$work/generated-10000.yaml" 2>&1 >/dev/null | tail -1)
  [ "$kb" -gt "$peak" ] && peak=$kb
done
peak_mb=$((peak / 1024))
echo "| peak memory, flowlint on \`generated-10000.yaml\` | ${peak_mb} MB | | | < 200 MB: $(verdict "$peak_mb < 200") |" >>"$table"

# --- engine vs sismic and transitions -----------------------------------------------------------------------
note "engine vs sismic and transitions"
"$bin/flowbench" engine >"$work/engine.txt"
for steps in 100 1000 10000; do
  line=$(grep -E "N=$steps +" "$work/engine.txt")
  ours_eps=$(sed -E 's/.*N=[0-9]+ +([0-9]+) events\/s.*/\1/' <<<"$line")
  ours_load=$(sed -E 's/.*load ([0-9.]+) s.*/\1/' <<<"$line")
  read -r _ sismic_eps sismic_load < <("$py" Benchmarks/reference/chain_sismic.py "$steps" "$budget")
  read -r _ transitions_eps transitions_load < <("$py" Benchmarks/reference/chain_transitions.py "$steps" "$budget")
  echo "| engine, chain of $steps steps, events/s | $(fmt "$ours_eps") | sismic $(fmt "$sismic_eps"); transitions $(fmt "$transitions_eps") | $(ratio "$ours_eps" "$sismic_eps") sismic; $(ratio "$ours_eps" "$transitions_eps") transitions | ≥ 5,000,000/s: $(verdict "$ours_eps >= 5e6") |" >>"$table"
  load_target=""
  [ "$steps" = 10000 ] && load_target="< 0.1 s: $(verdict "$ours_load < 0.1")"
  echo "| load the chain of $steps steps | ${ours_load} s | sismic ${sismic_load} s; transitions ${transitions_load} s | $(ratio "$sismic_load" "$ours_load") sismic; $(ratio "$transitions_load" "$ours_load") transitions | $load_target |" >>"$table"
done

# --- our YAML loader vs a bare libyaml event scan -----------------------------------------------------------
note "YAML loader vs libyaml event scan"
ours_parse=$("$bin/flowbench" parse "$work/generated-10000.yaml")
read -r scan events < <("$work/yamlscan" "$work/generated-10000.yaml" 5)
compile=$("$bin/flowbench" load | sed -E 's/.*parse\+compile ([0-9.]+) s.*/\1/')
echo "| load and compile \`generated-10000.yaml\` (the flow's 10,000 steps, strings, expressions), in process | ${compile} s | | | < 0.1 s: $(verdict "$compile < 0.1") |" >>"$table"
echo "| load \`generated-10000.yaml\` into a positioned tree, in process | $(printf '%.4f' "$ours_parse") s | libyaml event scan $(printf '%.4f' "$scan") s ($events events) | $(ratio "$ours_parse" "$scan") slower | within 3×: $(verdict "$ours_parse / $scan <= 3") |" >>"$table"

# --- explore: the flows, a chain of 10,000 screens, and SPIN on the same state space ------------------------
note "explore vs SPIN"
"$bin/flowbench" generate-chain 10000 >"$work/chain-10000.yaml"
thread_counts=("")
# The help is read whole before it is searched: `grep -q` stops reading at the first match, and under pipefail
# the help's next write then fails the test with SIGPIPE (it did, now and then, leaving out the two-thread rows).
explore_help=$("$bin/flowrun" explore --help 2>/dev/null || true)
if grep -q -- '--jobs' <<<"$explore_help"; then thread_counts=(1 2); fi
# explore_run FILE JOBS OUT: one run of `flowrun explore FILE` (JOBS empty: its default), appending
# "states seconds states/s peak-KB" from its summary line and /usr/bin/time to OUT.
explore_run() {
  local file=$1 jobs=$2 out=$3 args=()
  [ -n "$jobs" ] && args=(--jobs "$jobs")
  /usr/bin/time -f '%M' -o "$work/explore.rss" "$bin/flowrun" explore "${args[@]}" "$file" \
    >/dev/null 2>"$work/explore.err" || true
  "$py" - "$work/explore.err" "$work/explore.rss" >>"$out" <<'EOF'
import re, sys
summary = [line for line in open(sys.argv[1]) if line.startswith("explored ")]
if not summary:
    sys.exit("flowrun explore printed no summary line:\n" + open(sys.argv[1]).read())
states, seconds = re.match(r"explored (\d+) states and \d+ moves in ([0-9.]+) s", summary[-1]).groups()
rate = re.search(r"\((\d+) states/s\)", summary[-1]).group(1)
print(states, seconds, rate, open(sys.argv[2]).read().split()[-1])
EOF
}
# explore_figures FILE JOBS RUNS-FILE: "states seconds states/s bytes/state" of the run with the median rate in
# RUNS-FILE (explore_run's lines); bytes/state is its peak resident set size less that of the same command stopped at the first state.
explore_figures() {
  local file=$1 jobs=$2 runs=$3 args=()
  [ -n "$jobs" ] && args=(--jobs "$jobs")
  /usr/bin/time -f '%M' -o "$work/base.rss" "$bin/flowrun" explore --max-states 1 "${args[@]}" "$file" \
    >/dev/null 2>&1 || true
  "$py" - "$work/base.rss" $(median_run "$runs" 3) <<'EOF'
import sys
base = int(open(sys.argv[1]).read().split()[-1])
states, seconds, rate, peak = sys.argv[2:]
# A small exploration can peak no higher than the process stopped at its first state (the allocator's noise):
# nothing to divide then.
print(states, seconds, rate, round((int(peak) - base) * 1024 / int(states)) if int(peak) > base else "n/a")
EOF
}
# explore_pair FILE OUT: two one-thread runs of `flowrun explore FILE` at once, appending "seconds states/s" to
# OUT: the time until both have explored (the longer of their summary lines' times) and the states both
# explored over it. Two runs share nothing but the machine (its cores, caches and memory), so their combined
# rate over one run's is the most two threads could gain here: the reference for `--jobs 2`.
explore_pair() {
  local file=$1 out=$2
  "$bin/flowrun" explore --jobs 1 "$file" >/dev/null 2>"$work/pair-1.err" &
  local first=$!
  "$bin/flowrun" explore --jobs 1 "$file" >/dev/null 2>"$work/pair-2.err" || true
  wait "$first" || true
  "$py" - "$work/pair-1.err" "$work/pair-2.err" >>"$out" <<'EOF'
import re, sys
runs = []
for path in sys.argv[1:]:
    summary = [line for line in open(path) if line.startswith("explored ")]
    if not summary:
        sys.exit("flowrun explore printed no summary line:\n" + open(path).read())
    states, seconds = re.match(r"explored (\d+) states and \d+ moves in ([0-9.]+) s", summary[-1]).groups()
    runs.append((int(states), float(seconds)))
seconds = max(seconds for _, seconds in runs)
print(f"{seconds:.2f}", round(sum(states for states, _ in runs) / seconds))
EOF
}
# paired_ratio RUNS OTHER-RUNS COLUMN OTHER-COLUMN: the median over the rounds of the rate in column COLUMN of
# RUNS over that in column OTHER-COLUMN of OTHER-RUNS, line i of each being round i. A round's runs follow one
# another within seconds, so a slower minute of the machine falls on both sides of a round's ratio; a ratio of
# the two sides' median runs took them from different minutes (one run on 2026-12-03 gave two threads 2.3× one
# thread, and two one-thread runs at once 2.4×: more than two cores can give).
paired_ratio() {
  "$py" - "$@" <<'EOF'
import statistics, sys
runs, others = open(sys.argv[1]).read().split("\n"), open(sys.argv[2]).read().split("\n")
column, other = int(sys.argv[3]) - 1, int(sys.argv[4]) - 1
print(statistics.median(float(a.split()[column]) / float(b.split()[other]) for a, b in zip(runs, others) if a and b))
EOF
}
# Each flow is explored explore_rounds times for each thread count (anicca-v01, the flow of the targets, nine
# times), the counts taking turns, so that a slower minute of the machine falls on both; a row gives the run with
# the median rate, and the gain of two threads is the median of the rounds' (paired_ratio). anicca-v01 also takes
# turns with two one-thread runs at once (explore_pair).
explore_rounds=5
for flow in flows/*.yaml; do
  name=$(basename "$flow")
  rounds=$explore_rounds
  [ "$name" = anicca-v01.yaml ] && rounds=9
  for jobs in "${thread_counts[@]}"; do : >"$work/runs-$jobs"; done
  : >"$work/runs-pair"
  for _ in $(seq "$rounds"); do
    for jobs in "${thread_counts[@]}"; do explore_run "$flow" "$jobs" "$work/runs-$jobs"; done
    if [ "$name" = anicca-v01.yaml ] && [ "${#thread_counts[@]}" -gt 1 ]; then explore_pair "$flow" "$work/runs-pair"; fi
  done
  for jobs in "${thread_counts[@]}"; do
    read -r states seconds rate bytes < <(explore_figures "$flow" "$jobs" "$work/runs-$jobs")
    label="default threads" speedup="" target=""
    if [ "$jobs" = 1 ]; then
      label="one thread"
    elif [ -n "$jobs" ]; then
      label="$jobs threads"
      gain=$(paired_ratio "$work/runs-$jobs" "$work/runs-1" 3 3)
      speedup="$(gain "$gain") one thread (median of the rounds')"
    fi
    if [ "$name" = anicca-v01.yaml ] && [ "$jobs" != 2 ]; then
      target="≥ 500,000 states/s: $(verdict "$rate >= 500000"); ≤ 100 B/state: $(if [ "$bytes" = n/a ]; then echo "not measured"; else verdict "$bytes <= 100"; fi)"
    elif [ "$name" = anicca-v01.yaml ]; then
      target="near-linear (≥ 1.8×): $(verdict "$gain >= 1.8")"
    fi
    memory="$bytes B/state resident"
    [ "$bytes" = n/a ] && memory="too little memory to measure per state"
    echo "| explore \`$name\` ($(fmt "$states") states), $label | $(fmt "$rate") states/s ($seconds s, median of $rounds), $memory | | $speedup | $target |" >>"$table"
  done
  if [ -s "$work/runs-pair" ]; then
    read -r seconds rate < <(median_run "$work/runs-pair" 2)
    echo "| explore \`$name\`, two one-thread runs at once (the most two cores give here to work that shares nothing) | $(fmt "$rate") states/s together ($seconds s until both were done, median of $rounds) | | $(gain "$(paired_ratio "$work/runs-pair" "$work/runs-1" 2 3)") one thread (median of the rounds') | the reference for 2 threads |" >>"$table"
  fi
done
: >"$work/runs-chain"
explore_run "$work/chain-10000.yaml" "" "$work/runs-chain"
read -r states seconds _ _ < <(explore_figures "$work/chain-10000.yaml" "" "$work/runs-chain")
chain_total=$(median_seconds 3 "$bin/flowrun" explore "$work/chain-10000.yaml")
echo "| explore a chain of 10,000 screens ($(fmt "$states") states), whole process | $chain_total s (exploring $seconds s) | | | < 0.5 s: $(verdict "$chain_total < 0.5") |" >>"$table"

# The same state space on both sides: three counters modulo 100 and a reset (1,000,000 states), each side run
# explore_rounds times, taking turns; each side's run with the median rate is the one shown.
ours_runs=$work/ours-runs
: >"$ours_runs"
spin_runs=$work/spin-runs
: >"$spin_runs"
if command -v spin >/dev/null 2>&1; then
  mkdir "$work/spin"
  cp Benchmarks/reference/counters.pml "$work/spin/"
  (cd "$work/spin" && spin -DSIDE=100 -a counters.pml >/dev/null && cc -O2 -DNOREDUCE -DSAFETY -DBFS -o pan pan.c)
fi
for _ in $(seq "$explore_rounds"); do
  /usr/bin/time -f '%M' -o "$work/ours.rss" "$bin/flowbench" explore 1000000 >"$work/ours.txt"
  read -r states rate < <(sed -E 's/.* ([0-9]+) states, .*\(([0-9]+) states\/s\).*/\1 \2/' "$work/ours.txt")
  echo "$states $rate $(($(tail -1 "$work/ours.rss") * 1024 / states))" >>"$ours_runs"
  if [ -d "$work/spin" ]; then
    (cd "$work/spin" && /usr/bin/time -f '%M' -o spin.rss ./pan -w22 >spin.txt)
    states=$(grep -Eo '[0-9]+ states, stored' "$work/spin/spin.txt" | grep -Eo '^[0-9]+')
    rate=$(grep -Eo 'rate +[0-9.]+' "$work/spin/spin.txt" | grep -Eo '[0-9.]+$')
    echo "$states $rate $(($(tail -1 "$work/spin/spin.rss") * 1024 / states))" >>"$spin_runs"
  fi
done
read -r ours_states ours_rate ours_bytes < <(median_run "$ours_runs" 2)
ours="$(fmt "$ours_rate") states/s, $ours_bytes B/state resident"
what="explore three counters modulo 100 ($(fmt "$ours_states") states, \`flowbench explore\`), whole process, median of $explore_rounds"
if [ -s "$spin_runs" ]; then
  read -r spin_states spin_rate spin_bytes < <(median_run "$spin_runs" 2)
  echo "| $what | $ours | SPIN $(fmt "$spin_rate") states/s, $spin_bytes B/state resident ($(fmt "$spin_states") states) | $(faster_or_slower "$ours_rate" "$spin_rate") | ≥ SPIN's rate: $(verdict "$ours_rate >= $spin_rate"); ≤ SPIN's bytes: $(verdict "$ours_bytes <= $spin_bytes") |" >>"$table"
else
  echo "| $what | $ours | SPIN not installed (apt-get install spin) | | |" >>"$table"
fi

cat "$table"
