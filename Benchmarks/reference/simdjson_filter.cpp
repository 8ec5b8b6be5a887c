// The C++ reference for `sift filter`: what a competent C++ engineer writes with simdjson
// for the three queries of Benchmarks/compare-filter.sh, with the same guarantees as
// `sift filter` (README, "Use from other services"), so that the ratio between the two is
// the price of Sift's generality and nothing else.
//
//   Q1  filterCriteria IN {IDS}                     (IDS from --ids, comma-separated)
//   Q2  priority >= 3 AND NOT sender ENDSWITH[c] '@spam.example' AND ANY tags == 'urgent'
//   Q3  subject MATCHES '.*Invoice [0-9]+.*'
//
// Build (compare-filter.sh does this):
//   g++ -O3 -march=native -std=c++17 simdjson_filter.cpp -o simdjson_filter
//       $(pkg-config --cflags --libs simdjson libpcre2-8)
// Use:
//   simdjson_filter [--parse-many] [--ids ID,ID,...] q1|q2|q3 [FILE]     (no FILE or "-": stdin)
//
// The per-line mode (the default) keeps `sift filter`'s contract:
// - input is read in 1 MiB blocks into one buffer with SIMDJSON_PADDING spare bytes after
//   it, split at "\n" (a "\r" before it is not part of the line); lines of any length work
//   (the buffer grows); a last line without "\n" is still a line;
// - each line is parsed on its own by one reused simdjson::dom::parser (DOM: the whole line
//   is validated, UTF-8 included), in place, without a copy (the padding is in the buffer);
// - a matching line is written unchanged (its "\r\n" or "\n" included; a last line without
//   one gets "\n"), in order, through a 64 KiB output buffer;
// - an empty line, a line that is not valid JSON, and a line whose evaluation fails (a key
//   on a number, ordering a string, ...) are reported on stderr as "FILE:N: message" (or
//   "line N: message" for stdin) and the stream goes on; exit status 1 when there were
//   any, 0 otherwise; a reader that closes the pipe early ends the run quietly with 0;
// - the predicate's semantics are Sift's (Documentation/Semantics.md): the last of
//   duplicate keys wins; strings compare byte for byte after unescaping (literal, no
//   normalisation); a missing key or JSON null is nil (IN, ordering, ANY and MATCHES are
//   false on nil; ENDSWITH is false, so NOT ENDSWITH is true); a value of the wrong kind
//   is an error (a string priority, a numeric sender, tags that are not an array); a line
//   that is not an object is what Sift's key paths make of it (null: no match; a scalar:
//   an error; an array: the key applied to each element, which never matches Q1's strings
//   and is an error for Q2 and Q3); AND stops at the first false clause.
//
// Known differences from `sift filter`, none of which the generated data contains:
// - a line that simdjson rejects but Sift's own JSON reader accepts (an integer beyond 64
//   bits, which Sift reads as a double) is reported as invalid here;
// - Q2's ENDSWITH[c] folds ASCII only. Sift applies full Unicode case folding, width
//   folding and canonical equivalence, so "x@\u017Fpam.example" (long s) ends with
//   '@spam.example' for Sift and not here. The result is exact whenever the sender's last
//   13 bytes are ASCII; other senders are counted and named in a note on stderr at the end.
//
// --parse-many uses parser.parse_many over 1 MiB chunks (each cut after its last "\n"),
// the fastest way simdjson offers to read JSON Lines. It cannot keep the per-line contract,
// and the comments in parse_many_mode() say where.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

constexpr size_t kBlock = 1 << 20;      // input read size, and the parse_many chunk
constexpr size_t kOutBlock = 1 << 16;   // output buffer
constexpr size_t kMaxDepth = 512;       // as deep as `sift filter` goes

// ---------------------------------------------------------------------------------------
// Output: a 64 KiB buffer written with write(2). EPIPE ends the run quietly (status 0).

struct Output {
  std::vector<char> buf = std::vector<char>(kOutBlock);
  size_t used = 0;

  static void write_all(const char *p, size_t n) {
    while (n > 0) {
      ssize_t w = ::write(1, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        if (errno == EPIPE) std::_Exit(0);
        std::fprintf(stderr, "simdjson_filter: error writing standard output: %s\n", std::strerror(errno));
        std::_Exit(1);
      }
      p += w;
      n -= static_cast<size_t>(w);
    }
  }

  void flush() {
    write_all(buf.data(), used);
    used = 0;
  }

  void write(const char *p, size_t n) {
    if (n > buf.size() - used) {
      flush();
      if (n >= buf.size()) {  // a line longer than the buffer goes out directly
        write_all(p, n);
        return;
      }
    }
    std::memcpy(buf.data() + used, p, n);
    used += n;
  }
};

// ---------------------------------------------------------------------------------------
// Input: the same line reader as `sift filter`'s (Sources/SiftCommandLine/IO/LineReader).

struct Line {
  const char *bytes;  // without its ending
  size_t len;
  size_t ending;      // 1 for "\n", 2 for "\r\n", 0 or 1 (a lone "\r") for a last line
  bool ends_with_newline;
};

class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd), buf_(kBlock + simdjson::SIMDJSON_PADDING), capacity_(kBlock) {}

  // The next line, false at the end. Sets failed() when read(2) failed.
  bool next(Line &line) {
    while (true) {
      size_t from = std::max(start_, search_from_);
      if (from < end_) {
        const void *hit = std::memchr(buf_.data() + from, '\n', end_ - from);
        if (hit) {
          size_t nl = static_cast<size_t>(static_cast<const char *>(hit) - buf_.data());
          bool cr = nl > start_ && buf_[nl - 1] == '\r';
          line = Line{buf_.data() + start_, nl - start_ - (cr ? 1 : 0), cr ? 2u : 1u, true};
          start_ = nl + 1;
          search_from_ = start_;
          return true;
        }
        search_from_ = end_;
      }
      if (eof_) {
        if (start_ < end_) {
          bool cr = buf_[end_ - 1] == '\r';
          line = Line{buf_.data() + start_, end_ - start_ - (cr ? 1 : 0), cr ? 1u : 0u, false};
          start_ = end_;
          return true;
        }
        return false;
      }
      if (!fill()) return false;
    }
  }

  bool failed() const { return failed_; }

  // parse_many: the next chunk of whole lines (up to and including the last "\n" read so
  // far; at the end, whatever is left), with SIMDJSON_PADDING readable bytes after it.
  bool next_chunk(const char *&p, size_t &len) {
    while (true) {
      if (start_ < end_) {
        const char *base = buf_.data() + start_;
        const void *last = memrchr(base, '\n', end_ - start_);
        if (last || eof_) {
          size_t cut = last ? static_cast<size_t>(static_cast<const char *>(last) - base) + 1 : end_ - start_;
          p = base;
          len = cut;
          start_ += cut;
          search_from_ = start_;
          return true;
        }
      } else if (eof_) {
        return false;
      }
      if (!fill()) return false;
    }
  }

 private:
  // Moves the unread tail to the front (growing the buffer for a long line) and reads more.
  bool fill() {
    if (start_ > 0) {
      size_t tail = end_ - start_;
      std::memmove(buf_.data(), buf_.data() + start_, tail);
      search_from_ -= start_;
      start_ = 0;
      end_ = tail;
    }
    if (end_ == capacity_) {
      capacity_ *= 2;
      buf_.resize(capacity_ + simdjson::SIMDJSON_PADDING);
    }
    while (true) {
      ssize_t n = ::read(fd_, buf_.data() + end_, std::min(capacity_ - end_, kBlock));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        failed_ = true;
        return false;
      }
      if (n == 0) eof_ = true;
      end_ += static_cast<size_t>(n);
      return true;
    }
  }

  int fd_;
  std::vector<char> buf_;
  size_t capacity_;
  size_t start_ = 0, end_ = 0, search_from_ = 0;
  bool eof_ = false, failed_ = false;
};

// ---------------------------------------------------------------------------------------
// The queries.

enum class Outcome { match, no_match, error };

struct Decision {
  Outcome outcome;
  const char *message;  // for an error
};

constexpr Decision kMatch{Outcome::match, nullptr};
constexpr Decision kNoMatch{Outcome::no_match, nullptr};
Decision error(const char *message) { return Decision{Outcome::error, message}; }

// The last value of each of N keys, in one pass over the object's fields (Sift keeps the
// last of duplicate keys; simdjson's at_key would return the first).
template <size_t N>
void fields(simdjson::dom::object object, const std::string_view (&keys)[N], element (&out)[N], bool (&found)[N]) {
  for (size_t i = 0; i < N; i++) found[i] = false;
  for (simdjson::dom::key_value_pair field : object) {
    for (size_t i = 0; i < N; i++) {
      if (field.key == keys[i]) {
        out[i] = field.value;
        found[i] = true;
      }
    }
  }
}

// A key path on an array applies the key to every element (arrays nest); on a scalar other
// than null it is an error. Q1 only needs to know whether that fails: its result is an
// array, which is never equal to one of Q1's strings.
Decision key_on_array(simdjson::dom::array array, const char *on_number, const char *on_string,
                      const char *on_bool) {
  for (element child : array) {
    switch (child.type()) {
    case element_type::OBJECT:
    case element_type::NULL_VALUE: break;
    case element_type::ARRAY: {
      simdjson::dom::array inner = child.get_array().value_unsafe();
      Decision d = key_on_array(inner, on_number, on_string, on_bool);
      if (d.outcome == Outcome::error) return d;
      break;
    }
    case element_type::STRING: return error(on_string);
    case element_type::BOOL: return error(on_bool);
    default: return error(on_number);
    }
  }
  return kNoMatch;
}

struct Q1 {
  std::vector<std::string> ids;

  Decision decide(element root) const {
    static constexpr std::string_view keys[1] = {"filterCriteria"};
    switch (root.type()) {
    case element_type::OBJECT: break;
    case element_type::NULL_VALUE: return kNoMatch;
    case element_type::ARRAY: {
      simdjson::dom::array array = root.get_array().value_unsafe();
      return key_on_array(array, "no key 'filterCriteria' on a number", "no key 'filterCriteria' on a string",
                          "no key 'filterCriteria' on a boolean");
    }
    case element_type::STRING: return error("no key 'filterCriteria' on a string");
    case element_type::BOOL: return error("no key 'filterCriteria' on a boolean");
    default: return error("no key 'filterCriteria' on a number");
    }
    simdjson::dom::object object = root.get_object().value_unsafe();
    element value[1];
    bool found[1];
    fields(object, keys, value, found);
    // Anything but a string is unequal to every id: no match, no error.
    if (!found[0] || value[0].type() != element_type::STRING) return kNoMatch;
    std::string_view criteria = value[0].get_string().value_unsafe();
    // A linear scan: faster than a hash set for a handful of ids.
    for (const std::string &id : ids) {
      if (criteria == id) return kMatch;
    }
    return kNoMatch;
  }
};

// A line that is not an object, for Q2 and Q3: null reads every key as nil (no match);
// anything else is an error (a key on a scalar; on an array the key is applied to each
// element, and the array it makes can be neither ordered (Q2) nor matched (Q3)).
Decision not_an_object(element root, bool q2) {
  switch (root.type()) {
  case element_type::NULL_VALUE: return kNoMatch;
  case element_type::ARRAY: {
    simdjson::dom::array array = root.get_array().value_unsafe();
    Decision d = q2 ? key_on_array(array, "no key 'priority' on a number", "no key 'priority' on a string",
                                   "no key 'priority' on a boolean")
                    : key_on_array(array, "no key 'subject' on a number", "no key 'subject' on a string",
                                   "no key 'subject' on a boolean");
    if (d.outcome == Outcome::error) return d;
    return error(q2 ? "cannot order array and number" : "MATCHES needs strings, not a array");
  }
  case element_type::STRING: return error(q2 ? "no key 'priority' on a string" : "no key 'subject' on a string");
  case element_type::BOOL: return error(q2 ? "no key 'priority' on a boolean" : "no key 'subject' on a boolean");
  default: return error(q2 ? "no key 'priority' on a number" : "no key 'subject' on a number");
  }
}

struct Q2 {
  mutable size_t approximate_folds = 0;

  // sender ENDSWITH[c] '@spam.example', folding ASCII (see the header for what that leaves).
  bool ends_with_spam(std::string_view s) const {
    static constexpr char suffix[] = "@spam.example";
    constexpr size_t n = sizeof suffix - 1;
    bool ascii_tail = true;
    for (size_t i = s.size() >= n ? s.size() - n : 0; i < s.size(); i++) {
      if (static_cast<unsigned char>(s[i]) >= 0x80) ascii_tail = false;
    }
    if (!ascii_tail) approximate_folds++;
    if (s.size() < n) return false;
    const char *tail = s.data() + s.size() - n;
    for (size_t i = 0; i < n; i++) {
      char c = tail[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
      if (c != suffix[i]) return false;
    }
    return true;
  }

  Decision decide(element root) const {
    static constexpr std::string_view keys[3] = {"priority", "sender", "tags"};
    if (root.type() != element_type::OBJECT) return not_an_object(root, true);
    simdjson::dom::object object = root.get_object().value_unsafe();
    element value[3];
    bool found[3];
    fields(object, keys, value, found);

    // priority >= 3: numbers (booleans are 0 and 1) by value; nil is false; else an error.
    if (!found[0]) return kNoMatch;
    switch (value[0].type()) {
    case element_type::INT64:
      if (value[0].get_int64().value_unsafe() < 3) return kNoMatch;
      break;
    case element_type::UINT64: break;  // at least 2^63
    case element_type::DOUBLE:
      if (!(value[0].get_double().value_unsafe() >= 3.0)) return kNoMatch;
      break;
    case element_type::BOOL:
    case element_type::NULL_VALUE: return kNoMatch;
    case element_type::STRING: return error("cannot order string and number");
    case element_type::ARRAY: return error("cannot order array and number");
    case element_type::OBJECT: return error("cannot order dictionary and number");
    }

    // NOT sender ENDSWITH[c] '@spam.example': a nil sender does not end with it.
    if (found[1]) {
      switch (value[1].type()) {
      case element_type::STRING:
        if (ends_with_spam(value[1].get_string().value_unsafe())) return kNoMatch;
        break;
      case element_type::NULL_VALUE: break;
      case element_type::ARRAY: return error("ENDSWITH needs strings, not a array");
      case element_type::OBJECT: return error("ENDSWITH needs strings, not a dictionary");
      case element_type::BOOL: return error("ENDSWITH needs strings, not a boolean");
      default: return error("ENDSWITH needs strings, not a number");
      }
    }

    // ANY tags == 'urgent': nil is false; tags must be an array.
    if (!found[2]) return kNoMatch;
    switch (value[2].type()) {
    case element_type::ARRAY: {
      simdjson::dom::array tags = value[2].get_array().value_unsafe();
      for (element tag : tags) {
        if (tag.type() == element_type::STRING && tag.get_string().value_unsafe() == "urgent") return kMatch;
      }
      return kNoMatch;
    }
    case element_type::NULL_VALUE: return kNoMatch;
    case element_type::STRING: return error("ANY needs a collection on the left, not a string");
    case element_type::OBJECT: return error("ANY needs a collection on the left, not a dictionary");
    case element_type::BOOL: return error("ANY needs a collection on the left, not a boolean");
    default: return error("ANY needs a collection on the left, not a number");
    }
  }
};

struct Q3 {
  pcre2_code *code = nullptr;
  pcre2_match_data *match_data = nullptr;
  bool jit = false;

  Q3() {
    // As Sift compiles MATCHES: a whole-string match, UTF with Unicode properties, and
    // newline convention ANY, so "." stops at every line terminator ICU stops at.
    static const char pattern[] = ".*Invoice [0-9]+.*";
    pcre2_compile_context *context = pcre2_compile_context_create(nullptr);
    pcre2_set_newline(context, PCRE2_NEWLINE_ANY);
    int code_error;
    PCRE2_SIZE offset;
    code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern), sizeof pattern - 1,
                         PCRE2_UTF | PCRE2_UCP | PCRE2_NEVER_BACKSLASH_C | PCRE2_ANCHORED | PCRE2_ENDANCHORED,
                         &code_error, &offset, context);
    pcre2_compile_context_free(context);
    if (!code) {
      std::fprintf(stderr, "simdjson_filter: cannot compile the Q3 pattern\n");
      std::exit(2);
    }
    jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
    match_data = pcre2_match_data_create_from_pattern(code, nullptr);
  }

  Q3(const Q3 &) = delete;
  Q3 &operator=(const Q3 &) = delete;

  ~Q3() {
    pcre2_match_data_free(match_data);
    pcre2_code_free(code);
  }

  Decision decide(element root) const {
    static constexpr std::string_view keys[1] = {"subject"};
    if (root.type() != element_type::OBJECT) return not_an_object(root, false);
    simdjson::dom::object object = root.get_object().value_unsafe();
    element value[1];
    bool found[1];
    fields(object, keys, value, found);
    if (!found[0]) return kNoMatch;
    switch (value[0].type()) {
    case element_type::STRING: break;
    case element_type::NULL_VALUE: return kNoMatch;
    case element_type::ARRAY: return error("MATCHES needs strings, not a array");
    case element_type::OBJECT: return error("MATCHES needs strings, not a dictionary");
    case element_type::BOOL: return error("MATCHES needs strings, not a boolean");
    default: return error("MATCHES needs strings, not a number");
    }
    std::string_view s = value[0].get_string().value_unsafe();
    // simdjson validated the UTF-8: no second check (pcre2_jit_match does none).
    int rc = jit ? pcre2_jit_match(code, reinterpret_cast<PCRE2_SPTR>(s.data()), s.size(), 0, 0, match_data, nullptr)
                 : pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(s.data()), s.size(), 0, PCRE2_NO_UTF_CHECK,
                               match_data, nullptr);
    if (rc >= 0) return kMatch;
    if (rc == PCRE2_ERROR_NOMATCH) return kNoMatch;
    return error("regular expression match failed (a PCRE2 limit)");
  }
};

// ---------------------------------------------------------------------------------------
// The two modes.

struct Run {
  explicit Run(const char *file) : name(file) {}

  const char *name;  // for messages: the file name, or nullptr for stdin
  Output out;
  size_t errors = 0;

  void report(size_t number, const char *message) {
    errors++;
    if (name) {
      std::fprintf(stderr, "simdjson_filter: %s:%zu: %s\n", name, number, message);
    } else {
      std::fprintf(stderr, "simdjson_filter: line %zu: %s\n", number, message);
    }
  }

  // One line through one reused DOM parser, in place (the padding is in the reader's buffer).
  template <class Query>
  void decide_line(simdjson::dom::parser &parser, const Query &query, const Line &line, size_t number) {
    element root;
    simdjson::error_code e = parser.parse(line.bytes, line.len, false).get(root);
    if (e) {
      bool blank = std::all_of(line.bytes, line.bytes + line.len, [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
      if (blank) {
        report(number, "line is empty (not a JSON value)");
      } else {
        std::string message = std::string("line is not valid JSON: ") + simdjson::error_message(e);
        report(number, message.c_str());
      }
      return;
    }
    Decision d = query.decide(root);
    if (d.outcome == Outcome::match) {
      out.write(line.bytes, line.len + line.ending);
      if (!line.ends_with_newline) out.write("\n", 1);
    } else if (d.outcome == Outcome::error) {
      report(number, d.message);
    }
  }

  template <class Query>
  bool per_line_mode(int fd, const Query &query) {
    simdjson::dom::parser parser;
    if (parser.allocate(1 << 16, kMaxDepth)) return false;
    LineReader reader(fd);
    Line line;
    size_t number = 0;
    while (reader.next(line)) decide_line(parser, query, line, ++number);
    return !reader.failed();
  }

  // parse_many over 1 MiB chunks of whole lines. Where it cannot keep the per-line contract:
  // - documents are found by JSON structure, not by lines: an empty or blank line is
  //   skipped silently instead of being reported; a line holding two documents ("{} {}")
  //   is two decisions (and a line whose two documents both match is written twice, the
  //   second time from the second document on); a document spread over several lines is
  //   one decision;
  // - the matching line is written from its document's first byte to the next "\n", so
  //   leading whitespace on a line is dropped;
  // - iteration stops at the first error, and no document of the batch is yielded when
  //   stage 1 fails (an unclosed string or invalid UTF-8 anywhere in the chunk), so
  //   nothing tells which line was bad. Here, on an error, the rest of the chunk (from the
  //   line after the last good document) is decided line by line with parse(), which
  //   reports each bad line with its number; that needs the chunk's lines counted (one
  //   std::count per chunk, paid on every chunk);
  // - an incomplete document at the end of a chunk is dropped silently by parse_many
  //   (truncated_bytes()); it is handed to the same line-by-line fallback here;
  // - `sift filter` decides a line as soon as it is read; parse_many needs a chunk (or
  //   the end of the input) first, so it does not suit a pipe that trickles.
  template <class Query>
  bool parse_many_mode(int fd, const Query &query) {
    simdjson::dom::parser parser;
    if (parser.allocate(kBlock, kMaxDepth)) return false;
    LineReader reader(fd);
    const char *chunk;
    size_t len;
    size_t lines_before = 0;  // lines in the chunks before this one
    while (reader.next_chunk(chunk, len)) {
      size_t resume = len;  // where the line-by-line fallback starts (len: none needed)
      {
        simdjson::dom::document_stream stream;
        // The batch must hold the largest document: a chunk is one batch (no lookahead thread).
        simdjson::error_code e = parser.parse_many(chunk, len, std::max(len, kBlock)).get(stream);
        if (e) {
          resume = 0;
        } else {
          size_t last_good = SIZE_MAX;
          bool failed = false;
          for (auto it = stream.begin(); it != stream.end(); ++it) {
            element root;
            if ((*it).get(root)) {
              failed = true;
              break;
            }
            size_t start = it.current_index();
            last_good = start;
            Decision d = query.decide(root);
            if (d.outcome == Outcome::error) {
              // No line number without counting up to here: counted only on this rare path.
              size_t number = lines_before + 1 + static_cast<size_t>(std::count(chunk, chunk + start, '\n'));
              report(number, d.message);
            } else if (d.outcome == Outcome::match) {
              const void *nl = std::memchr(chunk + start, '\n', len - start);
              size_t end = nl ? static_cast<size_t>(static_cast<const char *>(nl) - chunk) + 1 : len;
              out.write(chunk + start, end - start);
              if (!nl) out.write("\n", 1);
            }
          }
          if (failed || stream.truncated_bytes() > 0) {
            if (last_good == SIZE_MAX) {
              resume = 0;
            } else {
              const void *nl = std::memchr(chunk + last_good, '\n', len - last_good);
              resume = nl ? static_cast<size_t>(static_cast<const char *>(nl) - chunk) + 1 : len;
            }
          }
        }
      }  // the stream is gone: the parser is free for parse()
      if (resume < len) {
        size_t number = lines_before + static_cast<size_t>(std::count(chunk, chunk + resume, '\n'));
        const char *p = chunk + resume, *end = chunk + len;
        while (p < end) {
          const char *nl = static_cast<const char *>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
          const char *stop = nl ? nl : end;
          bool cr = stop > p && stop[-1] == '\r';
          size_t body = static_cast<size_t>(stop - p) - (cr ? 1 : 0);
          // Readable bytes after the line: the rest of the chunk and the reader's padding.
          Line line{p, body, nl ? (cr ? 2u : 1u) : (cr ? 1u : 0u), nl != nullptr};
          decide_line(parser, query, line, ++number);
          p = nl ? nl + 1 : end;
        }
      }
      lines_before += static_cast<size_t>(std::count(chunk, chunk + len, '\n'));
    }
    return !reader.failed();
  }
};

[[noreturn]] void usage() {
  std::fprintf(stderr, "usage: simdjson_filter [--parse-many] [--ids ID,ID,...] q1|q2|q3 [FILE]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char **argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is EPIPE on write, which ends quietly
  bool many = false;
  std::string ids = "acct-101,acct-104,acct-107";
  const char *query = nullptr, *file = nullptr;
  for (int i = 1; i < argc; i++) {
    std::string_view a = argv[i];
    if (a == "--parse-many") {
      many = true;
    } else if (a == "--ids" && i + 1 < argc) {
      ids = argv[++i];
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      usage();
    } else if (!query) {
      query = argv[i];
    } else if (!file) {
      file = argv[i];
    } else {
      usage();
    }
  }
  if (!query) usage();

  int fd = 0;
  if (file && std::strcmp(file, "-") != 0) {
    fd = ::open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      std::fprintf(stderr, "simdjson_filter: cannot read %s: %s\n", file, std::strerror(errno));
      return 1;
    }
  } else {
    file = nullptr;
  }

  Run run(file);
  bool ok;
  std::string_view q = query;
  if (q == "q1") {
    Q1 q1;
    size_t from = 0;
    while (from <= ids.size()) {
      size_t comma = ids.find(',', from);
      if (comma == std::string::npos) comma = ids.size();
      q1.ids.push_back(ids.substr(from, comma - from));
      from = comma + 1;
    }
    ok = many ? run.parse_many_mode(fd, q1) : run.per_line_mode(fd, q1);
  } else if (q == "q2") {
    Q2 q2;
    ok = many ? run.parse_many_mode(fd, q2) : run.per_line_mode(fd, q2);
    if (q2.approximate_folds > 0) {
      std::fprintf(stderr,
                   "simdjson_filter: note: %zu sender(s) with non-ASCII bytes in their last 13 were folded as ASCII "
                   "only (Sift folds all of Unicode)\n",
                   q2.approximate_folds);
    }
  } else if (q == "q3") {
    Q3 q3;
    ok = many ? run.parse_many_mode(fd, q3) : run.per_line_mode(fd, q3);
  } else {
    usage();
  }
  run.out.flush();
  if (!ok) {
    std::fprintf(stderr, "simdjson_filter: error reading %s\n", file ? file : "standard input");
    return 1;
  }
  return run.errors > 0 ? 1 : 0;
}
