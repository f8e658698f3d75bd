"""Drive a chain of N states with sismic, one event per step, as `flowbench engine` drives our engine.

The statechart is YAML: states s0..s{N-1}, each with one transition on event `next` to the following state,
and a final state `done`. Prints: N, events/s, load seconds (parsing the YAML statechart).
Usage: python chain_sismic.py N [SECONDS]
"""
import sys
import time

from sismic.interpreter import Interpreter
from sismic.io import import_from_yaml


def statechart_yaml(steps):
    lines = ["statechart:", "  name: chain", "  root state:", "    name: root", "    initial: s0", "    states:"]
    for index in range(steps):
        target = f"s{index + 1}" if index + 1 < steps else "done"
        lines += [f"    - name: s{index}", "      transitions:", f"      - target: {target}", "        event: next"]
    lines += ["    - name: done", "      type: final"]
    return "\n".join(lines) + "\n"


def main():
    steps = int(sys.argv[1])
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    text = statechart_yaml(steps)
    start = time.perf_counter()
    statechart = import_from_yaml(text)
    load = time.perf_counter() - start

    events = 0
    elapsed = 0.0
    # Walk the chain from the start, over again if it ends, until the time budget is spent.
    while elapsed < budget:
        interpreter = Interpreter(statechart)
        interpreter.execute_once()  # enter the initial state
        start = time.perf_counter()
        for _ in range(steps):
            interpreter.queue("next")
            interpreter.execute_once()
            events += 1
            if events % 64 == 0 and elapsed + time.perf_counter() - start >= budget:
                break
        elapsed += time.perf_counter() - start
    assert events > 0
    print(f"{steps} {events / elapsed:.0f} {load:.4f}")


if __name__ == "__main__":
    main()
