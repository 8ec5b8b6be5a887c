/* Header-only: sift_prefetch is static inline in include/sift_prefetch.h. This file gives
   the target a translation unit. */
#include "sift_prefetch.h"
