// RE2 behind the C interface in sift_re2.h. Matching a compiled RE2 is thread-safe.
#include "sift_re2.h"

#include <re2/re2.h>

#include <new>

struct sift_re2 {
  re2::RE2 re;
  sift_re2(const re2::StringPiece &pattern, const re2::RE2::Options &options) : re(pattern, options) {}
};

sift_re2 *sift_re2_compile(const char *pattern, size_t length, size_t max_memory) {
  re2::RE2::Options options;
  options.set_encoding(re2::RE2::Options::EncodingUTF8);
  options.set_log_errors(false);
  options.set_case_sensitive(true);
  options.set_dot_nl(false);
  options.set_never_nl(false);
  options.set_longest_match(false);
  options.set_max_mem(static_cast<int64_t>(max_memory));
  sift_re2 *re = new (std::nothrow) sift_re2(re2::StringPiece(pattern, length), options);
  if (!re) return nullptr;
  if (!re->re.ok()) {
    delete re;
    return nullptr;
  }
  return re;
}

void sift_re2_free(sift_re2 *re) { delete re; }

int sift_re2_full_match(const sift_re2 *re, const char *subject, size_t length) {
  return re2::RE2::FullMatch(re2::StringPiece(subject, length), re->re) ? 1 : 0;
}

int sift_re2_partial_match(const sift_re2 *re, const char *subject, size_t length) {
  return re2::RE2::PartialMatch(re2::StringPiece(subject, length), re->re) ? 1 : 0;
}
