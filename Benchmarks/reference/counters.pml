/* The state space of `flowbench explore` (Benchmarks/FlowBenchmarkSupport/ExploreBenchmark.swift) in Promela,
 * for SPIN: three counters, each stepped modulo SIDE by its own move, and a move that sets all three back to 0
 * (the flow's restart and reset). SIDE^3 states. Benchmarks/compare.sh builds it with
 *   spin -DSIDE=100 -a counters.pml && cc -O2 -DNOREDUCE -DSAFETY -DBFS -o pan pan.c && ./pan -w22
 * (breadth-first, as `flowrun explore` is; no partial-order reduction: one process) and reads the states stored,
 * "pan: rate ... states/second" and the maximum resident set size. */
byte a, b, c;

active proctype counters() {
  do
  :: a = (a + 1) % SIDE
  :: b = (b + 1) % SIDE
  :: c = (c + 1) % SIDE
  :: atomic { a = 0; b = 0; c = 0 }
  od
}
