/* Every function of include/sift.h, called from C as a C program would call it, with the
 * misuse the header promises to survive: NULLs, freed, forged and mistyped handles, lengths
 * too large, invalid UTF-8, small buffers, and threads sharing handles.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -Iinclude Tests/C/sift_abi_test.c -L.build/debug -lsiftc \
 *      -Wl,-rpath,$PWD/.build/debug -lpthread -o sift_abi_test && ./sift_abi_test
 *
 * Prints one line per failed check and "N passed, M failed" at the end; exits 1 on any failure.
 * SiftCTests.CProgramTests builds and runs it against the libsiftc.so of the same build. */
#define _POSIX_C_SOURCE 200809L
#include "sift.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed = 0, failed = 0;

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (cond) {                                                            \
      passed++;                                                            \
    } else {                                                               \
      failed++;                                                            \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                      \
  } while (0)

#define EQ(a, b)                                                                                  \
  do {                                                                                            \
    long long _a = (long long)(a), _b = (long long)(b);                                           \
    if (_a == _b) {                                                                               \
      passed++;                                                                                   \
    } else {                                                                                      \
      failed++;                                                                                   \
      fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, #b, _a, _b); \
    }                                                                                             \
  } while (0)

static sift_predicate *compile(const char *format, const char *args, uint32_t flags) {
  sift_predicate *p = NULL;
  sift_error *e = NULL;
  int rc = sift_predicate_compile(format, strlen(format), args, args ? strlen(args) : 0, NULL, 0, flags, &p, &e);
  if (rc != SIFT_OK) {
    fprintf(stderr, "compile %s: %s\n", format, e ? sift_error_rendered(e, NULL) : "?");
    sift_error_free(e);
    failed++;
    return NULL;
  }
  CHECK(e == NULL);
  return p;
}

static int eval(const sift_predicate *p, const char *json) { return sift_predicate_evaluate(p, json, strlen(json), NULL); }

static void test_version(void) {
  CHECK(strcmp(sift_version(), SIFT_VERSION) == 0);
  EQ(sift_abi_version(), SIFT_ABI_VERSION);
}

static void test_compile_and_evaluate(void) {
  sift_predicate *p = compile("account IN %@ AND priority >= 3", "[[\"acct-1\", \"acct-7\"]]", 0);
  EQ(eval(p, "{\"account\": \"acct-7\", \"priority\": 4}"), 1);
  EQ(eval(p, "{\"account\": \"acct-2\", \"priority\": 4}"), 0);
  EQ(eval(p, "{\"account\": \"acct-7\"}"), 0);
  /* Not padded, not terminated: the library copies what simdjson needs. */
  const char doc[] = "{\"account\": \"acct-1\", \"priority\": 9}XXXX";
  EQ(sift_predicate_evaluate(p, doc, sizeof doc - 5, NULL), 1);

  sift_error *e = NULL;
  EQ(sift_predicate_evaluate(p, "{\"account\": ", 12, &e), SIFT_E_JSON);
  CHECK(e != NULL);
  EQ(sift_error_code(e), SIFT_E_JSON);
  CHECK(strcmp(sift_error_kind(e), "json") == 0);
  CHECK(sift_error_offset(e) >= 0);
  size_t n = 0;
  const char *message = sift_error_message(e, &n);
  CHECK(message != NULL && n == strlen(message) && strstr(message, "JSON") != NULL);
  EQ(sift_error_free(e), SIFT_OK);
  EQ(sift_error_free(e), SIFT_E_HANDLE); /* freed twice */

  /* An evaluation error, with its kind and the offset of the failing part. */
  const char *typed = "{\"account\": \"acct-1\", \"priority\": \"high\"}";
  EQ(sift_predicate_evaluate(p, typed, strlen(typed), &e), SIFT_E_EVALUATION);
  CHECK(strcmp(sift_error_kind(e), "typeMismatch") == 0);
  EQ(sift_error_offset(e), 18); /* `priority >= 3` */
  CHECK(strstr(sift_error_rendered(e, NULL), "^") != NULL);
  sift_error_free(e);

  /* A string as SELF. */
  sift_predicate *w1 = compile("SELF IN %@", "[[\"work\", \"family\"]]", 0);
  EQ(sift_predicate_evaluate_string(w1, "work", 4, NULL), 1);
  EQ(sift_predicate_evaluate_string(w1, "play", 4, NULL), 0);
  EQ(sift_predicate_evaluate_string(w1, "\xff", 1, &e), SIFT_E_UTF8);
  EQ(sift_error_offset(e), 0);
  sift_error_free(e);
  /* The same predicate on JSON documents: SELF is the whole value. */
  EQ(eval(w1, "\"family\""), 1);
  EQ(eval(w1, "[\"family\"]"), 0);

  /* APNs: SELF is aps.filter-criteria. */
  sift_predicate *apns = compile("SELF IN %@", "[[\"work\"]]", SIFT_COMPILE_APNS);
  EQ(eval(apns, "{\"aps\": {\"filter-criteria\": \"work\"}}"), 1);
  EQ(eval(apns, "{\"aps\": {}}"), 0);

  /* Variables, tagged values (a date), and AND binding tighter. */
  sift_predicate *v = NULL;
  const char *vf = "priority >= $min AND sent > %@";
  const char *va = "[{\"$date\": 1700000000}]";
  const char *vv = "{\"min\": 3}";
  EQ(sift_predicate_compile(vf, strlen(vf), va, strlen(va), vv, strlen(vv), SIFT_COMPILE_TAGGED_VALUES, &v, NULL),
     SIFT_OK);
  char text[256];
  size_t length = 0;
  EQ(sift_predicate_format(v, text, sizeof text, &length), SIFT_OK);
  CHECK(strstr(text, "CAST(") != NULL && strlen(text) == length);
  EQ(eval(v, "{\"priority\": 3}"), 0); /* no `sent`: nil > a date is false */
  sift_predicate_free(v);
  sift_predicate *unbound = compile("priority >= $min", NULL, 0);
  EQ(sift_predicate_evaluate(unbound, "{\"priority\": 3}", 15, &e), SIFT_E_EVALUATION);
  CHECK(strcmp(sift_error_kind(e), "unboundVariable") == 0);
  sift_error_free(e);
  sift_predicate_free(unbound);
  EQ(sift_predicate_compile(vf, strlen(vf), "[{\"x\": 1}]", 10, vv, strlen(vv), SIFT_COMPILE_TAGGED_VALUES, &v, &e),
     SIFT_E_JSON);
  CHECK(v == NULL);
  sift_error_free(e);
  sift_predicate *precedence = compile("a == 1 OR b == 1 AND c == 1", NULL, SIFT_COMPILE_AND_BINDS_TIGHTER);
  EQ(eval(precedence, "{\"a\": 1}"), 1);
  sift_predicate *loose = compile("a == 1 OR b == 1 AND c == 1", NULL, 0);
  EQ(eval(loose, "{\"a\": 1}"), 0);
  EQ(sift_predicate_equal(precedence, loose), 0);

  /* Canonical text and keys, with a buffer too small. */
  EQ(sift_predicate_format(p, text, 4, &length), SIFT_E_BUFFER);
  CHECK(length > 4);
  EQ(sift_predicate_format(p, NULL, 0, &length), SIFT_E_BUFFER);
  EQ(sift_predicate_format(p, text, sizeof text, &length), SIFT_OK);
  CHECK(strcmp(text, "account IN {\"acct-1\", \"acct-7\"} AND priority >= 3") == 0);
  EQ(sift_predicate_keys(p, text, sizeof text, &length), SIFT_OK);
  CHECK(strcmp(text, "[\"account\", \"priority\"]") == 0 || strcmp(text, "[\"account\",\"priority\"]") == 0);
  EQ(sift_predicate_keys(apns, text, sizeof text, &length), SIFT_OK);
  CHECK(strcmp(text, "null") == 0);

  /* Equality and hashing. */
  sift_predicate *same = compile("account IN %@ AND priority >= 3", "[[\"acct-1\", \"acct-7\"]]", 0);
  EQ(sift_predicate_equal(p, same), 1);
  EQ(sift_predicate_equal(p, w1), 0);
  uint64_t h1 = 0, h2 = 0;
  EQ(sift_predicate_hash(p, &h1), SIFT_OK);
  EQ(sift_predicate_hash(same, &h2), SIFT_OK);
  CHECK(h1 == h2);

  sift_predicate_free(same);
  sift_predicate_free(precedence);
  sift_predicate_free(loose);
  sift_predicate_free(apns);
  sift_predicate_free(w1);
  sift_predicate_free(p);
}

static void test_syntax_errors(void) {
  sift_predicate *p = (sift_predicate *)1;
  sift_error *e = NULL;
  const char *bad = "name == AND x";
  EQ(sift_predicate_compile(bad, strlen(bad), NULL, 0, NULL, 0, 0, &p, &e), SIFT_E_SYNTAX);
  CHECK(p == NULL);
  EQ(sift_error_code(e), SIFT_E_SYNTAX);
  CHECK(strcmp(sift_error_kind(e), "syntax") == 0);
  EQ(sift_error_offset(e), 8);
  const char *rendered = sift_error_rendered(e, NULL);
  CHECK(strstr(rendered, "1:9: error:") != NULL && strstr(rendered, "^") != NULL);
  sift_error_free(e);

  EQ(sift_predicate_compile("a == 'x\xff'", 9, NULL, 0, NULL, 0, 0, &p, &e), SIFT_E_UTF8);
  EQ(sift_error_offset(e), 7);
  sift_error_free(e);
  EQ(sift_predicate_compile("a == %@", 7, "[1,", 3, NULL, 0, 0, &p, &e), SIFT_E_JSON);
  sift_error_free(e);
  EQ(sift_predicate_compile("a == %@", 7, "{}", 2, NULL, 0, 0, &p, NULL), SIFT_E_JSON);
  EQ(sift_predicate_compile("a == 1", 6, NULL, 0, "[]", 2, 0, &p, NULL), SIFT_E_JSON);
  EQ(sift_predicate_compile("a == 1", 6, NULL, 0, NULL, 0, 0x80, &p, NULL), SIFT_E_ARGUMENT);
  EQ(sift_predicate_compile("a == %@", 7, NULL, 0, NULL, 0, 0, &p, NULL), SIFT_E_SYNTAX); /* missing argument */
  EQ(sift_predicate_compile("subject MATCHES '('", 19, NULL, 0, NULL, 0, 0, &p, NULL), SIFT_E_SYNTAX);
}

static void test_misuse(void) {
  sift_predicate *p = compile("a == 1", NULL, 0);
  sift_predicate *out = NULL;
  /* NULLs. */
  EQ(sift_predicate_compile(NULL, 0, NULL, 0, NULL, 0, 0, &out, NULL), SIFT_E_NULL);
  EQ(sift_predicate_compile("a == 1", 6, NULL, 0, NULL, 0, 0, NULL, NULL), SIFT_E_NULL);
  EQ(sift_predicate_evaluate(p, NULL, 0, NULL), SIFT_E_NULL);
  EQ(sift_predicate_evaluate_string(p, NULL, 3, NULL), SIFT_E_NULL);
  EQ(sift_predicate_evaluate_lines(p, "x", 1, 0, NULL, NULL), SIFT_E_NULL);
  EQ(sift_predicate_format(p, NULL, 10, NULL), SIFT_E_NULL);
  EQ(sift_predicate_hash(p, NULL), SIFT_E_NULL);
  /* Lengths too large, or running past the address space. */
  EQ(sift_predicate_evaluate(p, "{}", (size_t)-1, NULL), SIFT_E_TOO_LARGE);
  EQ(sift_predicate_evaluate(p, "{}", SIFT_MAX_LENGTH + 1, NULL), SIFT_E_TOO_LARGE);
  EQ(sift_predicate_evaluate(p, "{}", (size_t)1 << 33, NULL), SIFT_E_TOO_LARGE); /* one document over 4 GiB */
  EQ(sift_predicate_compile("a", (size_t)-1, NULL, 0, NULL, 0, 0, &out, NULL), SIFT_E_TOO_LARGE);
  EQ(sift_predicate_evaluate(p, (const char *)(UINTPTR_MAX - 8), 100, NULL), SIFT_E_TOO_LARGE);
  /* Bad handles: NULL, forged, of another type, freed. None is dereferenced. */
  EQ(sift_predicate_evaluate(NULL, "{}", 2, NULL), SIFT_E_HANDLE);
  EQ(sift_predicate_evaluate((sift_predicate *)0x1234, "{}", 2, NULL), SIFT_E_HANDLE);
  EQ(sift_predicate_evaluate((sift_predicate *)0xdeadbeefcafef00dULL, "{}", 2, NULL), SIFT_E_HANDLE);
  EQ(sift_predicate_evaluate((sift_predicate *)&passed, "{}", 2, NULL), SIFT_E_HANDLE);
  sift_set *s = NULL;
  EQ(sift_set_create(SIFT_ID_NUMBER, &s), SIFT_OK);
  EQ(sift_predicate_evaluate((sift_predicate *)s, "{}", 2, NULL), SIFT_E_HANDLE);
  EQ(sift_set_count((sift_set *)p, &(size_t){0}), SIFT_E_HANDLE);
  EQ(sift_error_code((sift_error *)p), SIFT_E_HANDLE);
  CHECK(sift_error_kind((sift_error *)p) == NULL);
  CHECK(sift_error_message(NULL, NULL) == NULL);
  CHECK(sift_error_rendered((sift_error *)0x99, NULL) == NULL);
  EQ(sift_error_offset(NULL), -2);
  EQ(sift_predicate_free(p), SIFT_OK);
  EQ(sift_predicate_free(p), SIFT_E_HANDLE);
  EQ(sift_predicate_evaluate(p, "{}", 2, NULL), SIFT_E_HANDLE);
  EQ(sift_predicate_evaluate_string(p, "a", 1, NULL), SIFT_E_HANDLE);
  EQ(sift_predicate_equal(p, p), SIFT_E_HANDLE);
  EQ(sift_predicate_format(p, NULL, 0, &(size_t){0}), SIFT_E_HANDLE);
  EQ(sift_predicate_keys(p, NULL, 0, &(size_t){0}), SIFT_E_HANDLE);
  /* A new predicate may reuse the slot: the old handle still does not reach it. */
  sift_predicate *q = compile("a == 2", NULL, 0);
  CHECK(q != p);
  EQ(sift_predicate_evaluate(p, "{\"a\": 2}", 8, NULL), SIFT_E_HANDLE);
  EQ(sift_predicate_evaluate(q, "{\"a\": 2}", 8, NULL), 1);
  sift_predicate_free(q);
  EQ(sift_set_free(s), SIFT_OK);
  EQ(sift_set_free(s), SIFT_E_HANDLE);
  EQ(sift_lines_free(NULL), SIFT_E_HANDLE);
  EQ(sift_matches_free((sift_matches *)0x77), SIFT_E_HANDLE);
}

static void test_lines(void) {
  sift_predicate *p = compile("priority >= 3", NULL, 0);
  const char buf[] = "{\"priority\": 4}\n"
                     "{\"priority\": 1}\r\n"
                     "\n"
                     "{\"priority\": \n"
                     "{\"priority\": \"x\"}\n"
                     "{\"priority\": 5}";
  sift_lines *lines = NULL;
  sift_error *e = NULL;
  EQ(sift_predicate_evaluate_lines(p, buf, strlen(buf), SIFT_LINES_SPANS | SIFT_LINES_MATCHED, &lines, &e), SIFT_OK);
  CHECK(e == NULL);
  const uint8_t *results = NULL;
  size_t count = 0, matched = 0, errors = 0;
  EQ(sift_lines_results(lines, &results, &count), SIFT_OK);
  EQ(count, 6);
  const uint8_t expected[] = {SIFT_LINE_MATCH, SIFT_LINE_NO_MATCH, SIFT_LINE_ERROR,
                              SIFT_LINE_ERROR, SIFT_LINE_ERROR, SIFT_LINE_MATCH};
  CHECK(count == 6 && memcmp(results, expected, 6) == 0);
  EQ(sift_lines_counts(lines, &count, &matched, &errors), SIFT_OK);
  EQ(matched, 2);
  EQ(errors, 3);
  const uint64_t *starts = NULL, *lengths = NULL;
  EQ(sift_lines_spans(lines, &starts, &lengths, &count), SIFT_OK);
  EQ(starts[1], 16);
  EQ(lengths[1], 15); /* without its \r\n */
  EQ(lengths[2], 0);
  const char *bytes = NULL;
  size_t n = 0;
  EQ(sift_lines_matched(lines, &bytes, &n), SIFT_OK);
  CHECK(n == 32 && memcmp(bytes, "{\"priority\": 4}\n{\"priority\": 5}\n", 32) == 0);
  size_t line = 0;
  int code = 0;
  const char *kind = NULL, *message = NULL;
  size_t message_length = 0;
  int64_t offset = 0;
  EQ(sift_lines_error(lines, 0, &line, &code, &kind, &message, &message_length, &offset), SIFT_OK);
  EQ(line, 2);
  EQ(code, SIFT_E_JSON);
  CHECK(strstr(message, "empty") != NULL);
  EQ(sift_lines_error(lines, 1, &line, &code, &kind, &message, &message_length, &offset), SIFT_OK);
  EQ(line, 3);
  EQ(code, SIFT_E_JSON);
  CHECK(offset >= 0);
  EQ(sift_lines_error(lines, 2, &line, &code, &kind, &message, &message_length, &offset), SIFT_OK);
  EQ(line, 4);
  EQ(code, SIFT_E_EVALUATION);
  CHECK(strcmp(kind, "typeMismatch") == 0);
  EQ(sift_lines_error(lines, 3, NULL, NULL, NULL, NULL, NULL, NULL), SIFT_E_ARGUMENT);
  EQ(sift_lines_free(lines), SIFT_OK);
  EQ(sift_lines_results(lines, &results, &count), SIFT_E_HANDLE);

  /* Without the flags, spans and matched lines are not there; an empty buffer has no lines. */
  EQ(sift_predicate_evaluate_lines(p, "", 0, 0, &lines, NULL), SIFT_OK);
  EQ(sift_lines_results(lines, &results, &count), SIFT_OK);
  EQ(count, 0);
  CHECK(results == NULL);
  EQ(sift_lines_spans(lines, &starts, &lengths, &count), SIFT_E_ARGUMENT);
  EQ(sift_lines_matched(lines, &bytes, &n), SIFT_E_ARGUMENT);
  sift_lines_free(lines);
  EQ(sift_predicate_evaluate_lines(p, "{}", 2, 0x100, &lines, NULL), SIFT_E_ARGUMENT);
  sift_predicate_free(p);
}

static void test_sets(void) {
  sift_set *s = NULL;
  EQ(sift_set_create(7, &s), SIFT_E_ARGUMENT);
  EQ(sift_set_create(SIFT_ID_NUMBER, NULL), SIFT_E_NULL);
  EQ(sift_set_create(SIFT_ID_NUMBER, &s), SIFT_OK);
  sift_predicate *a = compile("filterCriteria IN %@ AND priority >= 3", "[[\"acct-1\", \"acct-2\"]]", 0);
  sift_predicate *b = compile("sender BEGINSWITH[c] 'billing@'", NULL, 0);
  sift_predicate *apns = compile("SELF == 'x'", NULL, SIFT_COMPILE_APNS);
  EQ(sift_set_insert(s, 10, a), SIFT_OK);
  EQ(sift_set_insert(s, 20, b), SIFT_OK);
  EQ(sift_set_insert(s, 30, apns), SIFT_E_ARGUMENT);
  EQ(sift_set_insert_bytes(s, "x", 1, a), SIFT_E_ARGUMENT);
  size_t count = 0;
  EQ(sift_set_count(s, &count), SIFT_OK);
  EQ(count, 2);
  const char *doc = "{\"filterCriteria\": \"acct-2\", \"priority\": 5, \"sender\": \"Billing@x\"}";
  uint64_t ids[4];
  EQ(sift_set_match_ids(s, doc, strlen(doc), ids, 4, &count, NULL), SIFT_OK);
  EQ(count, 2);
  EQ(ids[0], 10);
  EQ(ids[1], 20);
  EQ(sift_set_match_ids(s, doc, strlen(doc), ids, 1, &count, NULL), SIFT_E_BUFFER);
  EQ(count, 2);
  EQ(ids[0], 10);
  sift_error *e = NULL;
  EQ(sift_set_match_ids(s, "{", 1, ids, 4, &count, &e), SIFT_E_JSON);
  CHECK(e != NULL);
  sift_error_free(e);
  /* A document that is not JSON: the error names the byte where reading stopped. */
  {
    static const struct { const char *doc; int64_t offset; } bad[] = {
        {"{", 1}, {"{\"a\": 1,}", 8}, {"[1, 2", 5}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      e = NULL;
      EQ(sift_set_match_ids(s, bad[i].doc, strlen(bad[i].doc), ids, 4, &count, &e), SIFT_E_JSON);
      CHECK(e != NULL && sift_error_offset(e) == bad[i].offset);
      sift_error_free(e);
    }
  }
  sift_matches *m = NULL;
  EQ(sift_set_match(s, doc, strlen(doc), &m, NULL), SIFT_OK);
  EQ(sift_matches_count(m, &count), SIFT_OK);
  EQ(count, 2);
  uint64_t number = 0;
  EQ(sift_matches_get(m, 1, &number, NULL, NULL), SIFT_ID_NUMBER);
  EQ(number, 20);
  EQ(sift_matches_get(m, 2, &number, NULL, NULL), SIFT_E_ARGUMENT);
  EQ(sift_matches_free(m), SIFT_OK);
  EQ(sift_set_remove(s, 10), 1);
  EQ(sift_set_remove(s, 10), 0);
  EQ(sift_set_remove_bytes(s, "x", 1), SIFT_E_ARGUMENT);
  EQ(sift_set_match_ids(s, doc, strlen(doc), ids, 4, &count, NULL), SIFT_OK);
  EQ(count, 1);
  EQ(ids[0], 20);
  /* Many at once; nothing is added when one of them cannot go in. */
  sift_predicate *many[2] = {a, apns};
  uint64_t many_ids[2] = {40, 41};
  EQ(sift_set_insert_many(s, many_ids, many, 2), SIFT_E_ARGUMENT);
  EQ(sift_set_insert_many(s, many_ids, many, 1), SIFT_OK);
  EQ(sift_set_insert_many(s, NULL, NULL, 0), SIFT_OK);
  EQ(sift_set_insert_many(s, NULL, many, 1), SIFT_E_NULL);
  EQ(sift_set_count(s, &count), SIFT_OK);
  EQ(count, 2);
  EQ(sift_set_remove(s, 40), 1);
  /* The set keeps its predicates when their handles are freed. */
  sift_predicate_free(b);
  EQ(sift_set_match_ids(s, doc, strlen(doc), ids, 4, &count, NULL), SIFT_OK);
  EQ(count, 1);
  /* From text, with no handle: the same answers, the errors of compile, the set unchanged
   * by a failure. */
  const char *shape = "filterCriteria IN %@ AND priority >= %d";
  const char *shape_args = "[[\"acct-2\"], 5]";
  EQ(sift_set_insert_format(s, 50, shape, strlen(shape), shape_args, strlen(shape_args), 0, NULL), SIFT_OK);
  const char *other_args = "[[\"acct-9\"], 1]";
  EQ(sift_set_insert_format(s, 51, shape, strlen(shape), other_args, strlen(other_args), 0, NULL), SIFT_OK);
  EQ(sift_set_match_ids(s, doc, strlen(doc), ids, 4, &count, NULL), SIFT_OK);
  EQ(count, 2);
  EQ(ids[0], 20);
  EQ(ids[1], 50);
  EQ(sift_set_insert_format(s, 52, "a ==", 4, NULL, 0, 0, &e), SIFT_E_SYNTAX);
  EQ(sift_error_offset(e), 4);
  sift_error_free(e);
  EQ(sift_set_insert_format(s, 52, shape, strlen(shape), "[1", 2, 0, &e), SIFT_E_JSON);
  sift_error_free(e);
  EQ(sift_set_insert_format(s, 52, "\xff", 1, NULL, 0, 0, NULL), SIFT_E_UTF8);
  EQ(sift_set_insert_format(s, 52, "a == 1", 6, NULL, 0, SIFT_COMPILE_APNS, NULL), SIFT_E_ARGUMENT);
  EQ(sift_set_insert_format(s, 52, "a == 1", 6, NULL, 0, 0x100, NULL), SIFT_E_ARGUMENT);
  EQ(sift_set_insert_format(s, 52, NULL, 6, NULL, 0, 0, NULL), SIFT_E_NULL);
  EQ(sift_set_insert_format((sift_set *)a, 52, "a == 1", 6, NULL, 0, 0, NULL), SIFT_E_HANDLE);
  EQ(sift_set_insert_format_bytes(s, "x", 1, "a == 1", 6, NULL, 0, 0, NULL), SIFT_E_ARGUMENT);
  EQ(sift_set_count(s, &count), SIFT_OK);
  EQ(count, 3);
  sift_set_free(s);

  sift_set *named = NULL;
  EQ(sift_set_create(SIFT_ID_BYTES, &named), SIFT_OK);
  EQ(sift_set_insert_bytes(named, "alice\0x", 7, a), SIFT_OK);
  EQ(sift_set_insert(named, 1, a), SIFT_E_ARGUMENT);
  EQ(sift_set_match_ids(named, doc, strlen(doc), ids, 4, &count, NULL), SIFT_E_ARGUMENT);
  EQ(sift_set_match(named, doc, strlen(doc), &m, NULL), SIFT_OK);
  const void *id = NULL;
  size_t id_length = 0;
  EQ(sift_matches_get(m, 0, NULL, &id, &id_length), SIFT_ID_BYTES);
  CHECK(id_length == 7 && memcmp(id, "alice\0x", 7) == 0);
  sift_matches_free(m);
  EQ(sift_set_insert_format_bytes(named, "bob", 3, "sender BEGINSWITH[c] %@", 23, "[\"billing@\"]", 12, 0, NULL),
     SIFT_OK);
  EQ(sift_set_insert_format(named, 1, "a == 1", 6, NULL, 0, 0, NULL), SIFT_E_ARGUMENT);
  EQ(sift_set_match(named, doc, strlen(doc), &m, NULL), SIFT_OK);
  EQ(sift_matches_count(m, &count), SIFT_OK);
  EQ(count, 2);
  EQ(sift_matches_get(m, 1, NULL, &id, &id_length), SIFT_ID_BYTES);
  CHECK(id_length == 3 && memcmp(id, "bob", 3) == 0);
  sift_matches_free(m);
  EQ(sift_set_remove_bytes(named, "alice\0x", 7), 1);
  sift_set_free(named);
  sift_predicate_free(a);
  sift_predicate_free(apns);
}

/* Threads: evaluations and matches on shared handles while another thread inserts into the
 * set, then a free while threads are still calling. Every answer is right or SIFT_E_HANDLE. */
enum { THREADS = 4, ROUNDS = 2000 };
static sift_predicate *shared_predicate;
static sift_set *shared_set;
static int thread_failures[THREADS];

static void *worker(void *arg) {
  int k = (int)(intptr_t)arg;
  const char *yes = "{\"priority\": 5, \"filterCriteria\": \"acct-1\"}";
  const char *no = "{\"priority\": 1, \"filterCriteria\": \"acct-1\"}";
  for (int i = 0; i < ROUNDS; i++) {
    int r1 = sift_predicate_evaluate(shared_predicate, yes, strlen(yes), NULL);
    int r0 = sift_predicate_evaluate(shared_predicate, no, strlen(no), NULL);
    if (!((r1 == 1 && r0 == 0) || r1 == SIFT_E_HANDLE || r0 == SIFT_E_HANDLE)) thread_failures[k]++;
    uint64_t ids[8];
    size_t count = 0;
    int rc = sift_set_match_ids(shared_set, yes, strlen(yes), ids, 8, &count, NULL);
    if (!(rc == SIFT_OK || rc == SIFT_E_HANDLE || rc == SIFT_E_BUFFER)) thread_failures[k]++;
    if (rc == SIFT_OK && count > 0 && ids[0] != 1) thread_failures[k]++;
  }
  return NULL;
}

static void test_threads(void) {
  shared_predicate = compile("priority >= 3", NULL, 0);
  sift_set_create(SIFT_ID_NUMBER, &shared_set);
  sift_predicate *q = compile("filterCriteria == 'acct-1'", NULL, 0);
  sift_set_insert(shared_set, 1, q);
  pthread_t threads[THREADS];
  for (int k = 0; k < THREADS; k++) pthread_create(&threads[k], NULL, worker, (void *)(intptr_t)k);
  for (uint64_t id = 2; id < 200; id++) sift_set_insert(shared_set, id, q);
  for (uint64_t id = 2; id < 200; id += 2) sift_set_remove(shared_set, id);
  sift_predicate_free(shared_predicate); /* while the workers may still be evaluating it */
  sift_set_free(shared_set);
  for (int k = 0; k < THREADS; k++) pthread_join(threads[k], NULL);
  for (int k = 0; k < THREADS; k++) EQ(thread_failures[k], 0);
  sift_predicate_free(q);
}

int main(void) {
  test_version();
  test_compile_and_evaluate();
  test_syntax_errors();
  test_misuse();
  test_lines();
  test_sets();
  test_threads();
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
