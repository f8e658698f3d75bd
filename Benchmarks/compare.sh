#!/usr/bin/env bash
# Speed, side by side, in one run: builds the release binaries, puts the Python references (check-jsonschema,
# sismic, transitions) in Benchmarks/.venv, measures both sides on this machine now, and prints a Markdown
# table with ratios and the targets of issue 6.
#
#   bash Benchmarks/compare.sh            # everything (about 3 minutes on the 2-core CI machine)
#
# Environment: SCRATCH_PATH (default .build) is the SwiftPM scratch path; BUDGET (default 2) the seconds each
# Python chain driver runs for. Whole-process times are medians of hyperfine runs (or of a timing loop when
# hyperfine cannot be installed); in-process times are the best of several runs.
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
if ! dpkg -s libyaml-dev >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get install -y -qq libyaml-dev >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq libyaml-dev; }
fi

note "building release binaries ($scratch)"
# --static-swift-stdlib, as README says to install them: the Swift runtime and Foundation linked in start faster.
release=(-c release --static-swift-stdlib --scratch-path "$scratch")
swift build "${release[@]}" --product flowlint >&2
swift build "${release[@]}" --product flowbench >&2
bin=$(swift build "${release[@]}" --show-bin-path)

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

# median_seconds RUNS COMMAND...: the median wall-clock time of RUNS whole-process runs (after one warm-up).
median_seconds() {
  local runs=$1
  shift
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/h.json" --style none "$(printf '%q ' "$@")" \
      >/dev/null 2>&1 || { echo "command failed: $*" >&2; return 1; }
    "$py" -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$work/h.json"
  else
    "$py" - "$runs" "$@" <<'EOF'
import statistics, subprocess, sys, time
runs, command = int(sys.argv[1]), sys.argv[2:]
subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
times = []
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append(time.perf_counter() - start)
print("%.4f" % statistics.median(times))
EOF
  fi
}

ratio() { "$py" -c 'import sys; a, b = map(float, sys.argv[1:]); print("%.0f×" % (a / b) if a / b >= 10 else "%.1f×" % (a / b))' "$1" "$2"; }
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
    generated-10000.yaml) ours_runs=10 ref_runs=3 factor=50 ;;
    generated-*) ours_runs=10 ref_runs=3 factor=20 ;;
    *) ours_runs=20 ref_runs=5 factor=20 ;;
  esac
  ours=$(median_seconds "$ours_runs" "$bin/flowlint" "$document")
  reference=$(median_seconds "$ref_runs" "$cjs" --schemafile schemas/flow.schema.json "$document")
  target="≥ ${factor}× faster: $(verdict "$reference / $ours >= $factor")"
  if [ "$name" = generated-10000.yaml ]; then
    target="$target; < 0.25 s: $(verdict "$ours < 0.25")"
  fi
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
  echo "| engine, chain of $steps steps, events/s | $(fmt "$ours_eps") | sismic $(fmt "$sismic_eps"); transitions $(fmt "$transitions_eps") | $(ratio "$ours_eps" "$sismic_eps") sismic; $(ratio "$ours_eps" "$transitions_eps") transitions | ≥ 1,000,000/s: $(verdict "$ours_eps >= 1e6") |" >>"$table"
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

cat "$table"
