// Counts heap allocations by interposing the C allocator.
//
// An executable's own definitions of malloc and friends take precedence over glibc's for
// every library in the process (the Swift runtime, Foundation, PCRE2 and Sift itself), so
// defining them here sees every allocation. Each one forwards to glibc's exported
// __libc_* entry points, which are the real allocator: no dlsym, no recursion during
// start-up, and memory stays compatible with glibc's malloc_usable_size, which the Swift
// runtime calls. The counter is a relaxed atomic (only the total matters, not its ordering
// against other memory); it is bumped only while counting is on, because even an
// uncontended locked increment would add several nanoseconds to every allocation in the
// timed rounds.

#include <malloc.h>
#include "MallocCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t allocations;
static _Atomic bool counting;

static inline void count_one(void) {
  if (atomic_load_explicit(&counting, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  }
}

uint64_t sift_bench_allocations(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

void sift_bench_count_allocations(bool on) { atomic_store_explicit(&counting, on, memory_order_relaxed); }

void *malloc(size_t size) {
  count_one();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  count_one();
  return __libc_calloc(count, size);
}

// A realloc asks for a (possibly new) block, so it counts, except realloc(p, 0) which
// glibc treats as free.
void *realloc(void *pointer, size_t size) {
  if (pointer == NULL || size != 0) count_one();
  return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

// Swift's runtime allocates through posix_memalign or aligned_alloc when an object needs
// more than the default alignment; those must count too.
int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
  count_one();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

uint64_t sift_bench_heap_bytes(void) {
  struct mallinfo2 info = mallinfo2();
  return (uint64_t)info.uordblks + (uint64_t)info.hblkhd;
}
