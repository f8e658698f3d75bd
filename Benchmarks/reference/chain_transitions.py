"""Drive a chain of N states with transitions, one event per step, as `flowbench engine` drives our engine.

A Machine with states s0..s{N-1} and done, and N triggers: `next_i` moves s{i} to the following state.
Prints: N, events/s, load seconds (building the Machine).
Usage: python chain_transitions.py N [SECONDS]
"""
import sys
import time

from transitions import Machine


class Model:
    pass


def main():
    steps = int(sys.argv[1])
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    states = [f"s{index}" for index in range(steps)] + ["done"]
    triggers = [f"next_{index}" for index in range(steps)]
    start = time.perf_counter()
    model = Model()
    machine = Machine(model=model, states=states, initial="s0", auto_transitions=False)
    for index in range(steps):
        machine.add_transition(triggers[index], states[index], states[index + 1])
    load = time.perf_counter() - start

    events = 0
    elapsed = 0.0
    while elapsed < budget:
        machine.set_state("s0", model)
        trigger = model.trigger
        start = time.perf_counter()
        for index in range(steps):
            trigger(triggers[index])
            events += 1
        elapsed += time.perf_counter() - start
    assert model.state == "done"
    print(f"{steps} {events / elapsed:.0f} {load:.4f}")


if __name__ == "__main__":
    main()
