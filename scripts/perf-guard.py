#!/usr/bin/env python3
"""Instruction and allocation counts of FlowKit's hot paths, held to committed thresholds (issue 14).

Each measure runs a release binary once under `valgrind --tool=callgrind` (instruction counts are stable on a
noisy machine; wall-clock times are not) with deterministic hashing, and counts:
  - instructions: callgrind's total of executed instructions (Ir);
  - allocations: calls to malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign, from
    callgrind's call counts (every Swift object, array and string buffer is one of these).

Measures (Benchmarks/perf-thresholds.txt holds the committed figures):
  - `lint FLOW`: the whole `flowlint flows/FLOW` process (start-up, load, schema, compile, rules, report), for
    every seed flow in flows/;
  - `lint generated 10,000 steps`: the same on `flowbench generate 10000` (written to a temporary file first), so
    that work growing faster than the flow (quadratic in its steps) cannot hide under a seed flow's 5%;
  - `engine 100,000 events`: `flowbench events 100000`, 100,000 `next` events through a chain of 1,000 screens;
  - `engine 100,000 events, general path`: the same with `general`, every event through the engine's general
    path (what a tap on a button with an effect takes) rather than the plain-`next` shortcut;
  - `explore anicca-v04.yaml`: `flowbench explore-file flows/anicca-v04.yaml`, what `flowrun explore` does with
    the compiled flow (exploring it and writing the text report);
  - `explore ledger-finance.yaml`: the same on the flow whose deep link checks a code with `matches` (compiling
    the pattern again at every check made the whole `flowrun explore` of this flow 37% more instructions).
  - `explore anicca-v04.yaml in 2 parts`: the whole `flowbench explore-file flows/anicca-v04.yaml 2` process,
    the flow's environments explored in two parts on two threads and merged into one thread's numbering
    (Explorer+Partitioned.swift): what each part learns for itself and the merge are counted, on both threads
    (callgrind runs one thread at a time, and a part's work does not depend on which runs first: flowbench's
    parts take no spare thread, which a part takes when the other is done, at a time that varies);
  - `explore counters 125,000 states`: `flowbench explore 125000`, the generated flow of three counters that
    Benchmarks/compare.sh explores against SPIN (with 50 values each rather than 100), the exploration alone as
    SPIN's rate is (`ExploreOptions.summarizesPaths` off: not the paths and loops `flowrun explore`'s report counts);
  - `scenario rows`: the whole `flowbench scenarios` process: the tables of Tests/Scenarios and their flows
    loaded once, then all their rows run three times (the engine, the scripted providers, each row's checks), so
    that the rows are most of the count (writing every effect's line for every row, which few rows check, was a
    quarter of a run of them).
  For the engine and explore measures (but the one in parts) only the work itself is counted (callgrind's --toggle-collect on `flowbench_measured`), not
  starting the process or loading the flow.

Usage (from the package root):
  scripts/perf-guard.py            # check: exit 1 when a count grew by more than 5% over its threshold
  scripts/perf-guard.py --update   # rewrite Benchmarks/perf-thresholds.txt with this run's counts
Options: --scratch-path DIR (default .build-perf: the release build it makes there), --no-build (use the
binaries already in DIR), --only TEXT (only the measures whose name contains TEXT), --tolerance PERCENT (default 5). Either mode prints old, new and the change of every
count. A count that fell by more than the tolerance is reported too: run --update to hold the gain.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

THRESHOLDS = "Benchmarks/perf-thresholds.txt"
ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign", "valloc"}
HEADER = """\
# Committed instruction and allocation counts for scripts/perf-guard.py (CI fails when one grows by more than
# 5%). Rewritten by `scripts/perf-guard.py --update`; measured on a release build under valgrind's callgrind.
# measure | instructions | allocations
"""


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the committed thresholds")
    parser.add_argument("--scratch-path", default=os.environ.get("SCRATCH_PATH", ".build-perf"))
    parser.add_argument("--no-build", action="store_true", help="use the binaries already built")
    parser.add_argument("--only", metavar="TEXT", help="check only the measures whose name contains TEXT")
    parser.add_argument("--tolerance", type=float, default=5.0, help="percent a count may grow (default 5)")
    return parser.parse_args()


def build(scratch):
    for product in ("flowlint", "flowrun", "flowbench"):
        subprocess.run(["swift", "build", "-c", "release", "--scratch-path", scratch, "--product", product],
                       check=True, stdout=sys.stderr)
    return subprocess.run(["swift", "build", "-c", "release", "--scratch-path", scratch, "--show-bin-path"],
                          check=True, capture_output=True, text=True).stdout.strip()


def measures(bin_path, work):
    """(name, command, callgrind options, exit statuses that count as a run)."""
    result = []
    for flow in sorted(glob.glob("flows/*.yaml")):
        result.append((f"lint {os.path.basename(flow)}", [f"{bin_path}/flowlint", flow], [], {0}))
    generated = os.path.join(work, "generated-10000.yaml")
    with open(generated, "w", encoding="utf-8") as file:
        subprocess.run([f"{bin_path}/flowbench", "generate", "10000"], check=True, stdout=file)
    result.append(("lint generated 10,000 steps", [f"{bin_path}/flowlint", generated], [], {0}))
    # Only flowbench's measured function is counted: not the process, nor loading the flow.
    only_measured = ["--collect-atstart=no", "--toggle-collect=flowbench_measured"]
    result.append(("engine 100,000 events", [f"{bin_path}/flowbench", "events", "100000"], only_measured, {0}))
    result.append(("engine 100,000 events, general path", [f"{bin_path}/flowbench", "events", "100000", "general"],
                   only_measured, {0}))
    result.append(("scenario rows", [f"{bin_path}/flowbench", "scenarios"], [], {0}))
    # In process: valgrind 3.19 crashes when flowrun's async main exits (in libdispatch's signal thread).
    for flow in ["anicca-v04.yaml", "ledger-finance.yaml"]:
        result.append((f"explore {flow}", [f"{bin_path}/flowbench", "explore-file", f"flows/{flow}"], only_measured, {0}))
    # The whole process: --toggle-collect counts only the thread that calls the measured function.
    result.append(("explore anicca-v04.yaml in 2 parts",
                   [f"{bin_path}/flowbench", "explore-file", "flows/anicca-v04.yaml", "2"], [], {0}))
    result.append(("explore counters 125,000 states", [f"{bin_path}/flowbench", "explore", "125000"], only_measured,
                   {0}))
    return result


def count(out_file):
    """(instructions, allocations) from an uncompressed callgrind output file."""
    instructions = None
    allocations = 0
    callee = None
    with open(out_file, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.startswith("cfn="):
                callee = line[4:].strip()
            elif line.startswith("calls=") and callee is not None:
                # A recursive callee is written `malloc'2`; the name is what comes before the quote.
                if callee.split("'")[0] in ALLOCATORS:
                    allocations += int(line[6:].split()[0])
                callee = None
            elif line.startswith(("summary:", "totals:")):
                instructions = int(line.split(":")[1].split()[0])
    if instructions is None:
        raise RuntimeError(f"{out_file}: no totals line")
    return instructions, allocations


def run(measure, work):
    name, command, options, statuses = measure
    out_file = os.path.join(work, re.sub(r"[^A-Za-z0-9]+", "-", name) + ".callgrind")
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1", SWIFT_BACKTRACE="enable=no", NO_COLOR="1")
    process = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", "--compress-strings=no",
         "--compress-pos=no", *options, *command],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment)
    if process.returncode not in statuses:
        raise RuntimeError(f"{name}: `{' '.join(command)}` exited {process.returncode} under valgrind:\n"
                           + process.stderr[-2000:])
    return count(out_file)


def read_thresholds():
    thresholds = {}
    if not os.path.exists(THRESHOLDS):
        return thresholds
    for line in open(THRESHOLDS, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        name, instructions, allocations = [cell.strip() for cell in line.split("|")]
        thresholds[name] = (int(instructions.replace(",", "")), int(allocations.replace(",", "")))
    return thresholds


def write_thresholds(counts):
    width = max(len(name) for name in counts)
    with open(THRESHOLDS, "w", encoding="utf-8") as file:
        file.write(HEADER)
        for name, (instructions, allocations) in counts.items():
            file.write(f"{name.ljust(width)} | {instructions:>15,} | {allocations:>11,}\n")


def change(old, new):
    if old is None:
        return "new"
    if old == 0:
        return "+0.0%" if new == 0 else "+inf%"
    return f"{(new - old) * 100 / old:+.1f}%"


def main():
    arguments = parse_arguments()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if arguments.no_build:
        bin_path = os.path.join(arguments.scratch_path, "release")
    else:
        bin_path = build(arguments.scratch_path)
    thresholds = read_thresholds()
    with tempfile.TemporaryDirectory() as work:
        jobs = [job for job in measures(bin_path, work) if arguments.only is None or arguments.only in job[0]]
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            results = list(pool.map(lambda measure: run(measure, work), jobs))
    counts = {job[0]: result for job, result in zip(jobs, results)}

    failures, gains = [], []
    limit = 1 + arguments.tolerance / 100
    width = max(len(name) for name in counts)
    print(f"{'measure'.ljust(width)} | {'instructions: old':>17} | {'new':>15} | {'change':>7} | "
          f"{'allocations: old':>16} | {'new':>11} | {'change':>7}")
    for name, (instructions, allocations) in counts.items():
        old = thresholds.get(name)
        old_instructions, old_allocations = old if old else (None, None)
        cells = []
        for label, before, now in (("instructions", old_instructions, instructions),
                                   ("allocations", old_allocations, allocations)):
            cells.append(("-" if before is None else f"{before:,}", f"{now:,}", change(before, now)))
            if before is not None and now > before * limit:
                failures.append(f"{name}: {label} {before:,} -> {now:,} ({change(before, now)})")
            elif before is not None and now * limit < before:
                gains.append(f"{name}: {label} {before:,} -> {now:,} ({change(before, now)})")
        print(f"{name.ljust(width)} | {cells[0][0]:>17} | {cells[0][1]:>15} | {cells[0][2]:>7} | "
              f"{cells[1][0]:>16} | {cells[1][1]:>11} | {cells[1][2]:>7}")
    if arguments.only is None:
        for name in sorted(set(thresholds) - set(counts)):
            print(f"{name}: in {THRESHOLDS}, no longer measured")
    if gains and not arguments.update:
        print(f"fell by more than {arguments.tolerance:g}% (run scripts/perf-guard.py --update to hold the gain):")
        for gain in gains:
            print(f"  {gain}")

    if arguments.update:
        if arguments.only is not None:
            counts = {name: counts.get(name, old) for name, old in thresholds.items()} | counts
        write_thresholds(counts)
        print(f"wrote {THRESHOLDS}")
        return 0
    missing = [name for name in counts if name not in thresholds]
    if missing:
        print(f"not in {THRESHOLDS}: {', '.join(missing)} (run scripts/perf-guard.py --update)")
        return 1
    if failures:
        print(f"grew by more than {arguments.tolerance:g}% (fix it, or if the growth is wanted run "
              f"scripts/perf-guard.py --update and say why in the commit):")
        for failure in failures:
            print(f"  {failure}")
        return 1
    print(f"perf guard: {len(counts)} measures within {arguments.tolerance:g}% of {THRESHOLDS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
