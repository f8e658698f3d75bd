#!/usr/bin/env python3
"""Checks that docs/architecture.md shows the target graph of Package.swift exactly, and two rules of the sources.

Every edge `A --> B` of the Mermaid diagram must be a dependency of target A in `swift package dump-package`,
and every dependency of every non-test target must be an edge; the test-target table must list each test
target with exactly its dependencies. The sources import FoundationEssentials rather than Foundation, and each
tool's @main type has a synchronous `main()`. Prints the differences and exits 1 when there are any.

Usage: scripts/check-architecture.py   (from the package root; CI runs it)
"""
import json
import re
import subprocess
import sys

doc = open("docs/architecture.md", encoding="utf-8").read()
package = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True,
                                    text=True).stdout)

declared, declared_tests = set(), {}
for target in package["targets"]:
    deps = {list(d.values())[0][0] for d in target["dependencies"]}
    if target["type"] == "test":
        declared_tests[target["name"]] = deps
    else:
        declared |= {(target["name"], dep) for dep in deps}

diagram = re.search(r"```mermaid\n(.*?)```", doc, re.S).group(1)
drawn = set(re.findall(r"^\s*(\w+)\s*-->\s*(\w+)\s*$", diagram, re.M))

table = re.search(r"\| test target \| depends on \|\n\|[-| ]+\|\n((?:\|.*\|\n)+)", doc)
listed = {}
for row in table.group(1).splitlines():
    name, deps = [cell.strip() for cell in row.strip("|").split("|")]
    listed[name.strip("`")] = set(re.findall(r"`(\w+)`", deps))

# The tools' modules import FoundationEssentials, falling back to Foundation only where it does not exist (the
# `#if canImport(FoundationEssentials)` block): Foundation itself, linked statically, brings ICU and its data in.
# FlowApp is an app's module and imports Foundation (UserDefaults) as apps do.
plain_foundation = subprocess.run(["grep", "-rln", "--include=*.swift", "-E", "^(@preconcurrency |package |internal )?import Foundation$",
                                   "Sources", "--exclude-dir=FlowApp"], capture_output=True, text=True).stdout.split()

# The tools' entry points are synchronous: an `async` main (written, or ArgumentParser's for an
# AsyncParsableCommand without one) parks the main thread in dispatch_main(), whose pthread_exit unwinds it, and in
# the static build that first unwind costs about 200 million instructions at every start (FlowRun.main explains).
# Only the static build pays, so perf-guard's dynamic build would not see it come back.
entry_points = subprocess.run(["grep", "-rl", "--include=*.swift", "^@main", "Sources"], capture_output=True,
                              text=True).stdout.split()
async_mains = [path for path in entry_points
               if not re.search(r"^\s*static func main\(\)\s*\{", open(path, encoding="utf-8").read(), re.M)]

problems = [f"docs/architecture.md: in Package.swift, not in the diagram: {a} --> {b}"
            for a, b in sorted(declared - drawn)]
problems += [f"{path}: the @main type needs a synchronous `static func main()`; an async main unwinds the main "
             "thread at every start (see FlowRun.main in Sources/flowrun/FlowRun.swift)" for path in async_mains]
problems += [f"docs/architecture.md: in the diagram, not in Package.swift: {a} --> {b}"
             for a, b in sorted(drawn - declared)]
problems += [f"{path}: imports Foundation outside `#if canImport(FoundationEssentials) ... #else`; import "
             "FoundationEssentials (see docs/architecture.md, FlowLoading)" for path in plain_foundation]
for name in sorted(set(declared_tests) | set(listed)):
    if declared_tests.get(name) != listed.get(name):
        problems.append(f"docs/architecture.md: test target {name}: Package.swift {sorted(declared_tests.get(name, []))}, "
                        f"docs {sorted(listed.get(name, []))}")
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
