/* A C interface to simdjson for the `sift filter` hot path: one parser per stream, reused for
 * every line (no allocation per line once it has grown), a fully validating parse, and the
 * value at a key path handed back as a flat list of events that Swift turns into its own
 * values. Plain C, so Swift imports it without C++ interoperability. */
#ifndef SIFT_JSON_H
#define SIFT_JSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every buffer handed to sift_json_parse needs this many readable bytes after the document
 * (their contents do not matter): simdjson reads ahead in 64-byte blocks. */
#define SIFT_JSON_PADDING 64

typedef enum {
  SIFT_JSON_OK = 0,
  SIFT_JSON_MISSING = 1,   /* a key of the path is absent, or a step is not an object */
  SIFT_JSON_INVALID = 2,   /* not one well-formed JSON value (invalid UTF-8 included) */
  SIFT_JSON_TOO_DEEP = 3,  /* nesting deeper than the parser's limit */
  SIFT_JSON_TOO_BIG = 4,   /* larger than simdjson can take (4 GiB) or out of memory */
  SIFT_JSON_NO_PARSE = 5,  /* sift_json_value_at before a successful sift_json_parse */
} sift_json_status;

typedef enum {
  SIFT_JSON_OBJECT_START = 1,
  SIFT_JSON_OBJECT_END = 2,
  SIFT_JSON_ARRAY_START = 3,
  SIFT_JSON_ARRAY_END = 4,
  SIFT_JSON_KEY = 5,     /* v.ptr, len: the unescaped key */
  SIFT_JSON_STRING = 6,  /* v.ptr, len: the unescaped string */
  SIFT_JSON_INT = 7,     /* v.i */
  SIFT_JSON_UINT = 8,    /* v.u, above INT64_MAX */
  SIFT_JSON_DOUBLE = 9,  /* v.d */
  SIFT_JSON_TRUE = 10,
  SIFT_JSON_FALSE = 11,
  SIFT_JSON_NULL = 12,
} sift_json_event_type;

/* 16 bytes. Strings point into the parser and stay valid until its next parse. */
typedef struct {
  uint32_t type;
  uint32_t len;
  union {
    const char *ptr;
    int64_t i;
    uint64_t u;
    double d;
  } v;
} sift_json_event;

typedef struct {
  const char *ptr;
  size_t len;
} sift_json_key;

typedef struct sift_json_parser sift_json_parser;

/* A parser ready for documents up to `capacity` bytes (it grows for larger ones) and
 * nested at most `max_depth` levels. NULL when out of memory. */
sift_json_parser *sift_json_parser_create(size_t capacity, size_t max_depth);
void sift_json_parser_destroy(sift_json_parser *parser);

/* Parses and fully validates one document. `capacity` is the number of readable bytes at
 * `buf` (at least len + SIFT_JSON_PADDING). */
int sift_json_parse(sift_json_parser *parser, const char *buf, size_t len, size_t capacity);

/* The value at `path` (object keys from the root; depth 0 is the whole document) of the
 * last parsed document, as events: one for a scalar, a bracketed pre-order sequence for
 * an object or an array. The events stay valid until the next call on the parser. When a
 * key occurs twice in an object, the last occurrence wins, as in Sift's own JSON reader. */
int sift_json_value_at(sift_json_parser *parser, const sift_json_key *path, size_t depth,
                       const sift_json_event **events, size_t *count);

typedef struct sift_json_record_plan sift_json_record_plan;

/* A plan that reads the top-level `keys` (copied; a key may hold NUL bytes) of a document
 * in one pass over its fields. It keeps per-document scratch, so one plan serves one
 * thread. NULL when out of memory. */
sift_json_record_plan *sift_json_record_plan_create(const sift_json_key *keys, size_t count);
void sift_json_record_plan_destroy(sift_json_record_plan *plan);

/* One key's value in the last parsed document, for sift_json_record_fields, laid out as an
 * event: a string's unescaped bytes (v.ptr, len), a number, a boolean or null, in place;
 * an array or object by its type only, ARRAY_START or OBJECT_START (read it with
 * sift_json_field_array_* or sift_json_field_events); type 0 when the key is absent. */
typedef sift_json_event sift_json_field;

/* The values of the plan's keys in the last parsed document, which must be an object
 * (SIFT_JSON_MISSING otherwise), one field per key in the plan's order, read in one pass
 * over the document's fields (the last occurrence of a key wins) with nothing copied or
 * converted. Valid until the next call on the parser or the plan. */
int sift_json_record_fields(sift_json_parser *parser, sift_json_record_plan *plan, const sift_json_field **fields);

/* Where an iteration over an array field stands (opaque). */
typedef struct {
  uint64_t opaque[4];
} sift_json_cursor;

/* Starts iterating the array in the plan's field `slot` (SIFT_JSON_MISSING when it is not
 * an array), after sift_json_record_fields; `count` gets its number of elements. */
int sift_json_field_array_begin(const sift_json_record_plan *plan, size_t slot, sift_json_cursor *cursor,
                                size_t *count);

/* The next element of the array as a field (an array or object element has only its type):
 * 1, or 0 at the end. */
int sift_json_field_array_next(sift_json_cursor *cursor, sift_json_field *element);

/* The plan's field `slot` as events (as sift_json_value_at gives them): for values that must
 * be converted whole. Valid until the next call on the parser. */
int sift_json_field_events(sift_json_parser *parser, const sift_json_record_plan *plan, size_t slot,
                           const sift_json_event **events, size_t *count);

/* 1 when the last parsed document is an object, 0 otherwise (or before a parse). */
int sift_json_root_is_object(const sift_json_parser *parser);

/* A short English description of a status. */
const char *sift_json_status_message(int status);

#ifdef __cplusplus
}
#endif

#endif
