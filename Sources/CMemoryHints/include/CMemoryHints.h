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
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
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

/// Prepares glibc's malloc for a thread about to allocate tens of megabytes (the tree of a 10,000-step flow):
/// the heap of its arena grows in steps of 64 MB and asks for 2 MB pages, as `GLIBC_TUNABLES` with
/// `glibc.malloc.hugetlb=1` and `glibc.malloc.top_pad` would, so that the kernel brings the memory in with
/// one fault for 512 pages. Blocks up to 32 MB come from the heap too, and what is freed stays for reuse.
///
/// The main thread's arena grows by `sbrk`: a 16 MB block makes it grow now, and all it grew by is advised.
/// Another thread's arena is made of 64 MB-aligned mappings (glibc's `HEAP_MAX_SIZE`): the one a 16 MB block
/// comes from, the one the arena grows, is advised whole. (A small block may come from a free chunk of an older
/// mapping when the arena was another thread's before, as in a process whose threads come and go.) Only hints:
/// on another C library, or when the heap is not laid out so, nothing or nothing useful happens.
static inline void flowkit_expect_large_heap(void) {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  const size_t step = (size_t)64 << 20;
  mallopt(M_TOP_PAD, (int)step);
  mallopt(M_TRIM_THRESHOLD, (int)(4 * step));
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  void *probe = malloc(1);
  if (probe == NULL) return;
  char *start = sbrk(0);
  if (start != (void *)-1 && (char *)probe < start) {
    // The main arena: a block larger than its free top makes it grow (by the block and a step), and all it grew
    // by is advised.
    free(probe);
    void *volatile grow = malloc(step / 4);  // volatile: the compiler may drop a malloc whose block is not used
    free(grow);
    char *end = sbrk(0);
    if (end != (void *)-1 && end > start) flowkit_advise_huge_pages(start, (size_t)(end - start));
  } else {
    free(probe);
    void *volatile grow = malloc(step / 4);
    if (grow == NULL) return;
    flowkit_advise_huge_pages((void *)((uintptr_t)grow & ~(uintptr_t)(step - 1)), step);
    free(grow);
  }
#endif
}

#endif
