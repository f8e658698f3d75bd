// A cache prefetch, which Swift does not offer: the exploring thread asks for the table slots of the states it
// takes next while it takes the one before (FlowRuntime's StateSet).
#ifndef FLOWKIT_CPREFETCH_H
#define FLOWKIT_CPREFETCH_H

/// Asks the processor to bring the cache line holding `address` in for a read soon; never faults, never waits.
static inline __attribute__((always_inline)) void flowkit_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

#endif
