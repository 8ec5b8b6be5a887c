#ifndef SIFT_PREFETCH_H
#define SIFT_PREFETCH_H

/* A software prefetch, which Swift has no spelling for: asks the core to bring the cache
   line at `address` in without waiting for it (a plain load would hold the reorder buffer
   until the line arrives). SiftFocus's decision table fetches the entries of the next
   users of a batch with it. */
static inline void sift_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
