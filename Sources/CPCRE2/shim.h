#ifndef CPCRE2_SHIM_H
#define CPCRE2_SHIM_H
/* Must precede pcre2.h: it selects the 8-bit (UTF-8) code unit API. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
/* PCRE2_UNSET is ~(size_t)0, which does not import into Swift. */
static inline int cpcre2_is_unset(PCRE2_SIZE value) { return value == PCRE2_UNSET; }
#endif
