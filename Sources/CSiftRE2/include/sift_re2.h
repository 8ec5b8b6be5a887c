// RE2 (Debian's libre2-dev) behind a small C interface, for MATCHES patterns that are
// regular: RE2 runs them in time linear in the subject. Sift translates a pattern to RE2's
// syntax itself (Sources/Sift/Regex/RegexTranslation.swift), so RE2 only ever sees
// patterns whose meaning it shares with PCRE2's.
#ifndef SIFT_RE2_H
#define SIFT_RE2_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sift_re2 sift_re2;

// Compiles a UTF-8 pattern (case-sensitive, `.` as written: the translation spells out the
// line terminators). NULL when RE2 rejects it or runs out of its memory budget.
sift_re2 *sift_re2_compile(const char *pattern, size_t length, size_t max_memory);
void sift_re2_free(sift_re2 *re);
// 1 when the whole subject matches, 0 when it does not.
int sift_re2_full_match(const sift_re2 *re, const char *subject, size_t length);
// 1 when some part of the subject matches, 0 when none does.
int sift_re2_partial_match(const sift_re2 *re, const char *subject, size_t length);

#ifdef __cplusplus
}
#endif

#endif
