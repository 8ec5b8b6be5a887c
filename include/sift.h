/* sift.h: the C interface of Sift, Apple's NSPredicate format language on Linux.
 *
 * One header, one library (libsiftc.so, the `siftc` dynamic-library product of the Swift
 * package: `swift build -c release --product siftc`; `sift` is the command line's product). Plain C99: opaque handles, integers,
 * byte buffers with lengths. Compile a predicate once, evaluate it many times on JSON:
 *
 *   sift_predicate *p = NULL;
 *   sift_error *e = NULL;
 *   const char *f = "account IN %@ AND priority >= 3";
 *   const char *args = "[[\"acct-1\", \"acct-7\"]]";
 *   if (sift_predicate_compile(f, strlen(f), args, strlen(args), NULL, 0, 0, &p, &e) != SIFT_OK) {
 *     fprintf(stderr, "%s\n", sift_error_rendered(e, NULL));
 *     sift_error_free(e);
 *   }
 *   const char *doc = "{\"account\": \"acct-7\", \"priority\": 4}";
 *   int r = sift_predicate_evaluate(p, doc, strlen(doc), &e);   // 1 match, 0 no match, < 0 error
 *   sift_predicate_free(p);
 *
 * Build against it:
 *   cc -std=c99 -Iinclude app.c -L.build/release -lsiftc -Wl,-rpath,$PWD/.build/release
 *
 * ------------------------------------------------------------------------------------------
 * CONVENTIONS (every function)
 *
 * Return values. Functions return `int`: SIFT_OK (0) or a negative sift_status on failure.
 * The evaluation functions return 1 (match), 0 (no match) or a negative sift_status.
 * Functions that return a pointer (the sift_error accessors, sift_version) return NULL for a
 * bad handle.
 *
 * Nothing aborts. A NULL where a pointer is required is SIFT_E_NULL; a handle that is not a
 * live handle of the right type (freed, forged, another type's, NULL) is SIFT_E_HANDLE; a
 * length above SIFT_MAX_LENGTH, or one that would run past the end of the address space, is
 * SIFT_E_TOO_LARGE; text that must be UTF-8 and is not is SIFT_E_UTF8 (or, inside JSON,
 * SIFT_E_JSON). Handles are not pointers to memory: the library looks each one up in a
 * table, so a freed or made-up handle is an error return, never a read of freed memory.
 * What the library cannot check is the caller's memory: a buffer shorter than the length
 * given, or an output pointer to memory that cannot be written, is undefined behaviour.
 *
 * Error objects. Every function that can fail in more than one way takes a last
 * `sift_error **error` (may be NULL: then no error object is made). It is set to NULL on
 * entry and, on failure, to a new error object that the caller frees with sift_error_free.
 * An error object has a status (sift_error_code), a kind, a message, a UTF-8 byte offset
 * (or -1) and a rendered diagnostic; its strings are NUL-terminated, may hold other NUL
 * bytes (a quoted key), and stay valid until the error object is freed.
 *
 * Ownership. The library owns what it allocates and frees it in the matching _free
 * function: sift_predicate_free, sift_set_free, sift_lines_free, sift_matches_free,
 * sift_error_free. Pointers the accessors hand out point into the object and stay valid
 * until it is freed. The library never keeps a pointer to caller memory after a call
 * returns: buffers passed in may be reused at once. Freeing twice is SIFT_E_HANDLE.
 *
 * Threads. Every handle may be used from any thread, and every call may run concurrently
 * with any other call, on the same handle too: a predicate is immutable (concurrent
 * evaluations each get their own JSON parser); a set takes a read lock to match and a write
 * lock to insert or remove, so a match sees the set between two updates; result and error
 * objects are immutable. Freeing a handle while another thread is inside a call on it is
 * safe: that call finishes normally, and every call that starts after the free returns
 * SIFT_E_HANDLE. No call blocks on anything but those short locks.
 *
 * JSON. Documents, arguments and variables are UTF-8 JSON (RFC 8259), nested at most 512
 * levels. Integers that fit in 64 bits are integers, other numbers doubles; when a key
 * repeats in an object, the last occurrence wins. Documents are read with simdjson, as
 * `sift filter` reads them: only the values of the keys the predicate reads are turned into
 * values.
 *
 * Memory. A predicate's first JSON evaluation gives it a simdjson parser and a copy compiled
 * for the keys it reads (about 20 KiB resident; one more for each thread that evaluated it
 * at the same time as another), kept until the predicate is freed. Predicates used only in
 * sets or with sift_predicate_evaluate_string never make one.
 *
 * Limits. Evaluation runs under Sift's default budget (1,000,000 steps; README "Limits"):
 * a predicate that runs out of it is an evaluation error of kind "limitExceeded". A
 * predicate's text is at most 1 MiB (a longer one is a syntax error).
 * ------------------------------------------------------------------------------------------
 */
#ifndef SIFT_H
#define SIFT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library this header describes. sift_version() and sift_abi_version()
 * tell what the loaded library is. The ABI version changes only when a function changes
 * incompatibly (functions may be added without a change). */
#define SIFT_VERSION "0.1.0"
#define SIFT_ABI_VERSION 1

/* The most bytes any one buffer argument may have (1 TiB); more is SIFT_E_TOO_LARGE. */
#define SIFT_MAX_LENGTH ((size_t)1 << 40)

typedef enum sift_status {
  SIFT_OK = 0,
  SIFT_E_NULL = -1,        /* a required pointer argument is NULL */
  SIFT_E_HANDLE = -2,      /* not a live handle of the right type (freed, forged, NULL) */
  SIFT_E_UTF8 = -3,        /* a text argument is not valid UTF-8 (the offset says where) */
  SIFT_E_TOO_LARGE = -4,   /* a length above SIFT_MAX_LENGTH, or one document above 4 GiB */
  SIFT_E_JSON = -5,        /* a document, the arguments or the variables are not valid JSON
                              of the right shape (the offset is the byte in that JSON) */
  SIFT_E_SYNTAX = -6,      /* the predicate does not parse or compile (offset in its text) */
  SIFT_E_EVALUATION = -7,  /* evaluating failed; sift_error_kind names the EvaluationError
                              kind: typeMismatch, indexOutOfRange, unboundVariable,
                              invalidArgument, divisionByZero, regex, unknownFunction,
                              limitExceeded */
  SIFT_E_ARGUMENT = -8,    /* an argument is out of range: unknown flags, an index past the
                              end, an id of the wrong type for the set, a predicate a set
                              cannot hold */
  SIFT_E_BUFFER = -9,      /* a caller buffer is too small; the length needed is reported */
  SIFT_E_MEMORY = -10,     /* out of memory, or out of handles */
} sift_status;

/* Opaque handles. */
typedef struct sift_predicate sift_predicate;
typedef struct sift_set sift_set;
typedef struct sift_lines sift_lines;
typedef struct sift_matches sift_matches;
typedef struct sift_error sift_error;

/* ---- version ---------------------------------------------------------------------------- */

/* The library's version, e.g. "0.1.0" (a static string; never NULL). */
const char *sift_version(void);
/* The library's ABI version (SIFT_ABI_VERSION of the header it was built with). */
int sift_abi_version(void);

/* ---- errors ----------------------------------------------------------------------------- */

/* The sift_status of the failure (SIFT_E_HANDLE for a bad handle). */
int sift_error_code(const sift_error *error);
/* A word for the failure: for SIFT_E_EVALUATION the EvaluationError kind ("typeMismatch", ...);
 * otherwise "null", "handle", "utf8", "tooLarge", "json", "syntax", "argument", "buffer",
 * "memory". A static string. */
const char *sift_error_kind(const sift_error *error);
/* What went wrong, in one sentence (length in *length when length is not NULL). */
const char *sift_error_message(const sift_error *error, size_t *length);
/* The UTF-8 byte offset the error is about (in the predicate's text for syntax errors, in the
 * JSON for JSON errors), or -1 when it has none. -2 for a bad handle. */
int64_t sift_error_offset(const sift_error *error);
/* The rendered diagnostic: for a syntax error the message, `line:column`, the source line and
 * a caret under the offending text, then a hint when there is one; otherwise the message. */
const char *sift_error_rendered(const sift_error *error, size_t *length);
/* Frees an error object. SIFT_E_HANDLE when it is not a live one. */
int sift_error_free(sift_error *error);

/* ---- predicates ------------------------------------------------------------------------- */

/* Compile flags. */
#define SIFT_COMPILE_APNS 0x1u             /* SELF is the document's aps.filter-criteria (null
                                              when absent), as `sift filter --apns` */
#define SIFT_COMPILE_TAGGED_VALUES 0x2u    /* arguments and variables carry tagged objects:
                                              {"$date": seconds since 1970-01-01 UTC} is a
                                              date, {"$dict": {...}} a dictionary, and any
                                              other object is SIFT_E_JSON */
#define SIFT_COMPILE_AND_BINDS_TIGHTER 0x4u /* `a OR b AND c` is `a OR (b AND c)` (default:
                                              `(a OR b) AND c`, Apple's grammar) */

/* Compiles `format` (UTF-8, format_len bytes) with `args_json`, a JSON array of the values of
 * its %@, %K and numeric specifiers (NULL or length 0: none), and `vars_json`, a JSON object
 * of the values of its $variables (NULL or length 0: none). On success *out is a new
 * predicate. Errors: SIFT_E_SYNTAX (message, offset, rendered diagnostic), SIFT_E_UTF8,
 * SIFT_E_JSON, SIFT_E_ARGUMENT (unknown flags), SIFT_E_NULL, SIFT_E_TOO_LARGE. */
int sift_predicate_compile(const char *format, size_t format_len, const char *args_json, size_t args_len,
                           const char *vars_json, size_t vars_len, uint32_t flags, sift_predicate **out,
                           sift_error **error);

/* Frees a predicate (sets holding it keep their own copy). */
int sift_predicate_free(sift_predicate *predicate);

/* Evaluates the predicate with the JSON document json[0..length) as SELF: 1 match, 0 no
 * match, SIFT_E_JSON (not one valid JSON value; offset is the byte), SIFT_E_EVALUATION (with
 * the kind), or another negative status. The buffer needs no padding or terminator. */
int sift_predicate_evaluate(const sift_predicate *predicate, const char *json, size_t length, sift_error **error);

/* Evaluates with the UTF-8 string utf8[0..length) itself as SELF (the Focus case:
 * `SELF IN %@` against a notification's filter criteria); no JSON is read. */
int sift_predicate_evaluate_string(const sift_predicate *predicate, const char *utf8, size_t length,
                                   sift_error **error);

/* What each line of a JSON Lines buffer became (sift_lines_results). */
#define SIFT_LINE_NO_MATCH 0
#define SIFT_LINE_MATCH 1
#define SIFT_LINE_ERROR 2

/* Flags of sift_predicate_evaluate_lines. */
#define SIFT_LINES_SPANS 0x1u    /* also record where each line is (sift_lines_spans) */
#define SIFT_LINES_MATCHED 0x2u  /* also copy the matching lines out (sift_lines_matched) */

/* Evaluates every line of the JSON Lines buffer buf[0..length) in one call and returns one
 * result per line in *out. Lines are split as `sift filter` splits them: at "\n", a "\r"
 * before it is not part of the line, a last line without "\n" is a line, and an empty line
 * is an error. A line that is not valid JSON or whose evaluation fails is SIFT_LINE_ERROR,
 * with its error recorded (sift_lines_error); the other lines are still decided. The call
 * fails only for bad arguments (SIFT_E_HANDLE, SIFT_E_NULL, SIFT_E_TOO_LARGE,
 * SIFT_E_ARGUMENT for unknown flags, SIFT_E_MEMORY). */
int sift_predicate_evaluate_lines(const sift_predicate *predicate, const char *buf, size_t length, uint32_t flags,
                                  sift_lines **out, sift_error **error);

/* The canonical text of the predicate (Apple's predicateFormat), UTF-8 without a terminator
 * unless it fits: writes min(capacity, n) bytes into buf, sets *length to n (the whole
 * text's length, without a terminator), and NUL-terminates when n < capacity. Returns
 * SIFT_E_BUFFER when n > capacity (call again with a larger buffer); buf may be NULL when
 * capacity is 0. */
int sift_predicate_format(const sift_predicate *predicate, char *buf, size_t capacity, size_t *length);

/* The top-level keys the predicate reads, as a JSON array of strings, or `null` when it reads
 * SELF as a whole (or with SIFT_COMPILE_APNS): a caller holding a large record can hand over
 * only these keys. Written as sift_predicate_format writes. */
int sift_predicate_keys(const sift_predicate *predicate, char *buf, size_t capacity, size_t *length);

/* 1 when the two predicates are equal (the same syntax tree with its arguments bound, the
 * same flags and variables: `a = 1` equals `a == 1`), 0 when not, or a negative status. */
int sift_predicate_equal(const sift_predicate *a, const sift_predicate *b);

/* A hash of the predicate consistent with sift_predicate_equal, for this process only. */
int sift_predicate_hash(const sift_predicate *predicate, uint64_t *hash);

/* ---- results of sift_predicate_evaluate_lines -------------------------------------------- */

/* One byte per line (SIFT_LINE_NO_MATCH, SIFT_LINE_MATCH or SIFT_LINE_ERROR), in order;
 * *results is NULL when there are no lines. */
int sift_lines_results(const sift_lines *lines, const uint8_t **results, size_t *count);

/* Counts: lines, matching lines, lines with errors (any pointer may be NULL). */
int sift_lines_counts(const sift_lines *lines, size_t *count, size_t *matched, size_t *errors);

/* With SIFT_LINES_SPANS: where line i is in the buffer, starts[i] and lengths[i] (its bytes
 * without the line ending). SIFT_E_ARGUMENT when the flag was not given. */
int sift_lines_spans(const sift_lines *lines, const uint64_t **starts, const uint64_t **lengths, size_t *count);

/* With SIFT_LINES_MATCHED: the matching lines, in order, each followed by "\n" (without its
 * own ending, so a CRLF line comes out with "\n" alone). SIFT_E_ARGUMENT without the flag. */
int sift_lines_matched(const sift_lines *lines, const char **bytes, size_t *length);

/* The index-th error (0-based, in line order): the line's 0-based index, the status
 * (SIFT_E_JSON or SIFT_E_EVALUATION), the kind (a static string), the message and its length
 * (valid until the result is freed), and the offset: for SIFT_E_JSON the byte in the line,
 * for SIFT_E_EVALUATION the byte of the failing part in the predicate's text (-1 when
 * none). The message is worded as `sift filter --decisions` words it. Output pointers may
 * be NULL. SIFT_E_ARGUMENT for an index past the last error. */
int sift_lines_error(const sift_lines *lines, size_t index, size_t *line, int *code, const char **kind,
                     const char **message, size_t *message_length, int64_t *offset);

/* Frees a result. */
int sift_lines_free(sift_lines *lines);

/* ---- predicate sets --------------------------------------------------------------------- */

/* The type of a set's ids, fixed when it is created. */
#define SIFT_ID_NUMBER 0  /* uint64_t ids: sift_set_insert, sift_set_remove, sift_set_match_ids */
#define SIFT_ID_BYTES 1   /* byte-string ids: sift_set_insert_bytes, sift_set_remove_bytes */

/* Many predicates under ids, matched against one document at a time through an index
 * (SiftPredicateSet): the ids of exactly the predicates that match, in the order the ids
 * were first inserted. A predicate whose evaluation fails does not match. Documents are
 * read with simdjson as `sift route` reads them (each thread matching at once gets its own
 * parser, kept until the set is freed). */
int sift_set_create(int id_type, sift_set **out);
int sift_set_free(sift_set *set);

/* Adds the predicate under id, replacing the one already under it (the id keeps its place).
 * SIFT_E_ARGUMENT for a predicate compiled with SIFT_COMPILE_APNS or with variables (a set
 * evaluates documents without either), or an id of the other type. */
int sift_set_insert(sift_set *set, uint64_t id, const sift_predicate *predicate);
int sift_set_insert_bytes(sift_set *set, const void *id, size_t id_length, const sift_predicate *predicate);

/* Parses `format` with `args_json` (as sift_predicate_compile does; flags
 * SIFT_COMPILE_TAGGED_VALUES and SIFT_COMPILE_AND_BINDS_TIGHTER) and adds it under id without
 * compiling it alone and without a predicate handle: a predicate whose shape the set already
 * holds (the same text but for its constants) is kept as its constants, so loading many rules
 * from text costs far less time and memory than compiling each. Errors as
 * sift_predicate_compile's (SIFT_E_SYNTAX with offset and rendered diagnostic, SIFT_E_UTF8,
 * SIFT_E_JSON), and SIFT_E_ARGUMENT for SIFT_COMPILE_APNS, unknown flags or an id of the
 * other type; on failure the set is unchanged. */
int sift_set_insert_format(sift_set *set, uint64_t id, const char *format, size_t format_len, const char *args_json,
                           size_t args_len, uint32_t flags, sift_error **error);
int sift_set_insert_format_bytes(sift_set *set, const void *id, size_t id_length, const char *format,
                                 size_t format_len, const char *args_json, size_t args_len, uint32_t flags,
                                 sift_error **error);

/* Adds count predicates under the number ids ids[0..count) as one update (SIFT_ID_NUMBER
 * sets): a concurrent match sees all of them or none, and the index is reorganised once, so
 * loading many predicates this way is faster than one sift_set_insert each. Nothing is added
 * when any predicate is not a live handle or cannot go into a set. A repeated id keeps its
 * last predicate. */
int sift_set_insert_many(sift_set *set, const uint64_t *ids, sift_predicate *const *predicates, size_t count);

/* Removes the predicate under id: 1 when there was one, 0 when not, or a negative status. */
int sift_set_remove(sift_set *set, uint64_t id);
int sift_set_remove_bytes(sift_set *set, const void *id, size_t id_length);

/* The number of predicates held. */
int sift_set_count(const sift_set *set, size_t *count);

/* The ids (SIFT_ID_NUMBER sets) of the predicates that match the JSON document: writes
 * min(capacity, n) ids into ids, sets *count to n, and returns SIFT_E_BUFFER when n >
 * capacity (match again with a larger buffer). SIFT_E_JSON for a document that is not JSON. */
int sift_set_match_ids(const sift_set *set, const char *json, size_t length, uint64_t *ids, size_t capacity,
                       size_t *count, sift_error **error);

/* The same for a set of either type, as a result object. */
int sift_set_match(const sift_set *set, const char *json, size_t length, sift_matches **out, sift_error **error);

/* The number of ids in a match result. */
int sift_matches_count(const sift_matches *matches, size_t *count);
/* The index-th id: *number for SIFT_ID_NUMBER sets, *bytes and *length for SIFT_ID_BYTES
 * ones (outputs may be NULL). Returns the id's type (SIFT_ID_NUMBER or SIFT_ID_BYTES), or
 * SIFT_E_ARGUMENT for an index past the end. */
int sift_matches_get(const sift_matches *matches, size_t index, uint64_t *number, const void **bytes, size_t *length);
int sift_matches_free(sift_matches *matches);

#ifdef __cplusplus
}
#endif

#endif /* SIFT_H */
