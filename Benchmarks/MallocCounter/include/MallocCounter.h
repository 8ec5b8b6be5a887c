#ifndef SIFT_BENCH_MALLOC_COUNTER_H
#define SIFT_BENCH_MALLOC_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/* Heap allocations counted so far (malloc, calloc, realloc, posix_memalign, aligned_alloc,
 * memalign; free is not counted), while counting was on. The benchmark reads it before and
 * after an untimed pass and divides the difference by the evaluations. */
uint64_t sift_bench_allocations(void);

/* Turns counting on or off (off at start). Off, an allocation costs one relaxed load more
 * than glibc's own; on, it also pays a locked increment (several nanoseconds), which is
 * why timed rounds run with counting off. */
void sift_bench_count_allocations(bool on);

/* The bytes glibc's allocator has handed out and not had back: small blocks (mallinfo2's
 * uordblks) and mapped ones (hblkhd). Unlike the resident set it goes down when memory is
 * freed, so the focus-scale suite measures each path's bytes per user on its own. */
uint64_t sift_bench_heap_bytes(void);

#endif
