"""The cffi definition of the `sift._native` extension: include/sift.h, declared for cffi.

Out-of-line API mode: cffi writes a small C module that includes sift.h and calls the
functions directly (so the C compiler checks these declarations against the header), and
releases the GIL around every call. setup.py builds it against libsiftc.so.
"""
from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent.parent

CDEF = """
typedef enum sift_status {
  SIFT_OK = 0, SIFT_E_NULL = -1, SIFT_E_HANDLE = -2, SIFT_E_UTF8 = -3, SIFT_E_TOO_LARGE = -4,
  SIFT_E_JSON = -5, SIFT_E_SYNTAX = -6, SIFT_E_EVALUATION = -7, SIFT_E_ARGUMENT = -8,
  SIFT_E_BUFFER = -9, SIFT_E_MEMORY = -10
} sift_status;

#define SIFT_ABI_VERSION ...
#define SIFT_COMPILE_APNS ...
#define SIFT_COMPILE_TAGGED_VALUES ...
#define SIFT_COMPILE_AND_BINDS_TIGHTER ...
#define SIFT_LINE_NO_MATCH ...
#define SIFT_LINE_MATCH ...
#define SIFT_LINE_ERROR ...
#define SIFT_LINES_SPANS ...
#define SIFT_LINES_MATCHED ...
#define SIFT_ID_NUMBER ...
#define SIFT_ID_BYTES ...

typedef struct sift_predicate sift_predicate;
typedef struct sift_set sift_set;
typedef struct sift_lines sift_lines;
typedef struct sift_matches sift_matches;
typedef struct sift_error sift_error;

const char *sift_version(void);
int sift_abi_version(void);

int sift_error_code(const sift_error *error);
const char *sift_error_kind(const sift_error *error);
const char *sift_error_message(const sift_error *error, size_t *length);
int64_t sift_error_offset(const sift_error *error);
const char *sift_error_rendered(const sift_error *error, size_t *length);
int sift_error_free(sift_error *error);

int sift_predicate_compile(const char *format, size_t format_len, const char *args_json, size_t args_len,
                           const char *vars_json, size_t vars_len, uint32_t flags, sift_predicate **out,
                           sift_error **error);
int sift_predicate_free(sift_predicate *predicate);
int sift_predicate_evaluate(const sift_predicate *predicate, const char *json, size_t length, sift_error **error);
int sift_predicate_evaluate_string(const sift_predicate *predicate, const char *utf8, size_t length,
                                   sift_error **error);
int sift_predicate_evaluate_lines(const sift_predicate *predicate, const char *buf, size_t length, uint32_t flags,
                                  sift_lines **out, sift_error **error);
int sift_predicate_format(const sift_predicate *predicate, char *buf, size_t capacity, size_t *length);
int sift_predicate_keys(const sift_predicate *predicate, char *buf, size_t capacity, size_t *length);
int sift_predicate_equal(const sift_predicate *a, const sift_predicate *b);
int sift_predicate_hash(const sift_predicate *predicate, uint64_t *hash);

int sift_lines_results(const sift_lines *lines, const uint8_t **results, size_t *count);
int sift_lines_counts(const sift_lines *lines, size_t *count, size_t *matched, size_t *errors);
int sift_lines_spans(const sift_lines *lines, const uint64_t **starts, const uint64_t **lengths, size_t *count);
int sift_lines_matched(const sift_lines *lines, const char **bytes, size_t *length);
int sift_lines_error(const sift_lines *lines, size_t index, size_t *line, int *code, const char **kind,
                     const char **message, size_t *message_length, int64_t *offset);
int sift_lines_free(sift_lines *lines);

int sift_set_create(int id_type, sift_set **out);
int sift_set_free(sift_set *set);
int sift_set_insert(sift_set *set, uint64_t id, const sift_predicate *predicate);
int sift_set_insert_format(sift_set *set, uint64_t id, const char *format, size_t format_len, const char *args_json,
                           size_t args_len, uint32_t flags, sift_error **error);
int sift_set_insert_format_bytes(sift_set *set, const void *id, size_t id_length, const char *format,
                                 size_t format_len, const char *args_json, size_t args_len, uint32_t flags,
                                 sift_error **error);
int sift_set_insert_many(sift_set *set, const uint64_t *ids, sift_predicate *const *predicates, size_t count);
int sift_set_insert_bytes(sift_set *set, const void *id, size_t id_length, const sift_predicate *predicate);
int sift_set_remove(sift_set *set, uint64_t id);
int sift_set_remove_bytes(sift_set *set, const void *id, size_t id_length);
int sift_set_count(const sift_set *set, size_t *count);
int sift_set_match_ids(const sift_set *set, const char *json, size_t length, uint64_t *ids, size_t capacity,
                       size_t *count, sift_error **error);
int sift_set_match(const sift_set *set, const char *json, size_t length, sift_matches **out, sift_error **error);
int sift_matches_count(const sift_matches *matches, size_t *count);
int sift_matches_get(const sift_matches *matches, size_t index, uint64_t *number, const void **bytes, size_t *length);
int sift_matches_free(sift_matches *matches);
"""


def make_ffi(library_dir=None):
    """The FFI builder; `library_dir` holds libsiftc.so (found at run time next to the module)."""
    ffibuilder = FFI()
    ffibuilder.cdef(CDEF)
    ffibuilder.set_source(
        "sift._native",
        '#include "sift.h"',
        include_dirs=[str(ROOT / "include")],
        libraries=["siftc"],
        library_dirs=[str(library_dir)] if library_dir else [],
        extra_link_args=["-Wl,-rpath,$ORIGIN"],
    )
    return ffibuilder
