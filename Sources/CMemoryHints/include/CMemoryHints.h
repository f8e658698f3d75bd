// Hints about memory that Swift cannot give: a cache prefetch, and a request for huge pages. The explorer's state
// set is far larger than the cache (FlowRuntime's StateSet and HashSlots): the exploring thread asks for the table
// slots of the states it takes next while it takes the ones before, and the table and the rows ask for 2 MB pages,
// so that a look-up at a random place seldom misses the translation cache as well.
#ifndef FLOWKIT_CMEMORYHINTS_H
#define FLOWKIT_CMEMORYHINTS_H

#include <stddef.h>
#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/// Asks the processor to bring the cache line holding `address` in for a read soon; never faults, never waits.
static inline __attribute__((always_inline)) void flowkit_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

/// Asks the kernel to back the whole 2 MB pages within `[start, start + bytes)` with huge pages when they are
/// first touched (Linux with transparent huge pages set to `madvise` or `always`; elsewhere nothing). Memory
/// already touched is left as it is, so call it on memory not yet written. Only a hint: a refusal is ignored.
static inline void flowkit_advise_huge_pages(void *start, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t huge = (uintptr_t)2 << 20;
  uintptr_t first = ((uintptr_t)start + huge - 1) & ~(huge - 1);
  uintptr_t end = ((uintptr_t)start + bytes) & ~(huge - 1);
  if (end > first) (void)madvise((void *)first, end - first, MADV_HUGEPAGE);
#else
  (void)start;
  (void)bytes;
#endif
}

#endif
