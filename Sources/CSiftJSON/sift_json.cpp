// simdjson's DOM parser behind the C interface in sift_json.h. The DOM parser validates the
// whole line (On-Demand would accept a line whose untouched fields are malformed), which
// `sift filter` needs to report every bad line.
#include "sift_json.h"

#include <simdjson.h>

#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

static_assert(SIFT_JSON_PADDING == simdjson::SIMDJSON_PADDING, "padding must match simdjson's");
static_assert(sizeof(sift_json_event) == 16, "events are 16 bytes");

struct sift_json_parser {
  simdjson::dom::parser dom;
  simdjson::dom::element root;
  bool parsed = false;
  std::vector<sift_json_event> events;
};

namespace {

int status(simdjson::error_code error) {
  switch (error) {
  case simdjson::SUCCESS: return SIFT_JSON_OK;
  case simdjson::NO_SUCH_FIELD: return SIFT_JSON_MISSING;
  case simdjson::INCORRECT_TYPE: return SIFT_JSON_MISSING;
  case simdjson::DEPTH_ERROR: return SIFT_JSON_TOO_DEEP;
  case simdjson::CAPACITY:
  case simdjson::MEMALLOC: return SIFT_JSON_TOO_BIG;
  default: return SIFT_JSON_INVALID;
  }
}

sift_json_event scalar(uint32_t type) {
  sift_json_event e;
  e.type = type;
  e.len = 0;
  e.v.u = 0;
  return e;
}

void push(std::vector<sift_json_event> &events, uint32_t type) { events.push_back(scalar(type)); }

void push(std::vector<sift_json_event> &events, uint32_t type, std::string_view text) {
  sift_json_event e;
  e.type = type;
  e.len = static_cast<uint32_t>(text.size());
  e.v.ptr = text.data();
  events.push_back(e);
}

// Recursion is bounded by the parser's max_depth, checked when the document was parsed.
void walk(simdjson::dom::element element, std::vector<sift_json_event> &events) {
  using simdjson::dom::element_type;
  switch (element.type()) {
  case element_type::OBJECT: {
    push(events, SIFT_JSON_OBJECT_START);
    // Bound to a local: iterating a temporary's result reads freed stack memory.
    simdjson::dom::object object = element.get_object().value_unsafe();
    for (simdjson::dom::key_value_pair field : object) {
      push(events, SIFT_JSON_KEY, field.key);
      walk(field.value, events);
    }
    push(events, SIFT_JSON_OBJECT_END);
    break;
  }
  case element_type::ARRAY: {
    push(events, SIFT_JSON_ARRAY_START);
    simdjson::dom::array array = element.get_array().value_unsafe();
    for (simdjson::dom::element child : array) walk(child, events);
    push(events, SIFT_JSON_ARRAY_END);
    break;
  }
  case element_type::STRING: push(events, SIFT_JSON_STRING, element.get_string().value_unsafe()); break;
  case element_type::INT64: {
    sift_json_event e = scalar(SIFT_JSON_INT);
    e.v.i = element.get_int64().value_unsafe();
    events.push_back(e);
    break;
  }
  case element_type::UINT64: {
    sift_json_event e = scalar(SIFT_JSON_UINT);
    e.v.u = element.get_uint64().value_unsafe();
    events.push_back(e);
    break;
  }
  case element_type::DOUBLE: {
    sift_json_event e = scalar(SIFT_JSON_DOUBLE);
    e.v.d = element.get_double().value_unsafe();
    events.push_back(e);
    break;
  }
  case element_type::BOOL: push(events, element.get_bool().value_unsafe() ? SIFT_JSON_TRUE : SIFT_JSON_FALSE); break;
  case element_type::NULL_VALUE: push(events, SIFT_JSON_NULL); break;
  }
}

// The last field named `key`: simdjson's at_key returns the first, Sift's reader keeps the last.
simdjson::error_code lastField(simdjson::dom::object object, std::string_view key, simdjson::dom::element &out) {
  bool found = false;
  for (simdjson::dom::key_value_pair field : object) {
    if (field.key == key) {
      out = field.value;
      found = true;
    }
  }
  return found ? simdjson::SUCCESS : simdjson::NO_SUCH_FIELD;
}

}  // namespace

sift_json_parser *sift_json_parser_create(size_t capacity, size_t max_depth) {
  sift_json_parser *parser = new (std::nothrow) sift_json_parser();
  if (!parser) return nullptr;
  if (parser->dom.allocate(capacity < 64 ? 64 : capacity, max_depth) != simdjson::SUCCESS) {
    delete parser;
    return nullptr;
  }
  parser->events.reserve(256);
  return parser;
}

void sift_json_parser_destroy(sift_json_parser *parser) { delete parser; }

int sift_json_parse(sift_json_parser *parser, const char *buf, size_t len, size_t capacity) {
  parser->parsed = false;
  if (capacity < len + simdjson::SIMDJSON_PADDING) return SIFT_JSON_INVALID;
  if (len > parser->dom.capacity()) {
    // A longer line than any before: grow once, keeping the depth limit.
    if (parser->dom.allocate(len, parser->dom.max_depth()) != simdjson::SUCCESS) return SIFT_JSON_TOO_BIG;
  }
  simdjson::error_code error =
    parser->dom.parse(reinterpret_cast<const uint8_t *>(buf), len, false).get(parser->root);
  if (error) return status(error);
  parser->parsed = true;
  return SIFT_JSON_OK;
}

int sift_json_value_at(sift_json_parser *parser, const sift_json_key *path, size_t depth,
                       const sift_json_event **events, size_t *count) {
  if (!parser->parsed) return SIFT_JSON_NO_PARSE;
  simdjson::dom::element element = parser->root;
  for (size_t i = 0; i < depth; i++) {
    simdjson::dom::object object;
    if (element.get_object().get(object)) return SIFT_JSON_MISSING;
    if (lastField(object, std::string_view(path[i].ptr, path[i].len), element)) return SIFT_JSON_MISSING;
  }
  parser->events.clear();
  walk(element, parser->events);
  *events = parser->events.data();
  *count = parser->events.size();
  return SIFT_JSON_OK;
}

struct sift_json_record_plan {
  std::vector<std::string> keys;
  // Each key's length and first bytes (zero-padded), so most fields are told apart
  // without calling memcmp.
  std::vector<size_t> lengths;
  std::vector<uint64_t> heads;
  // One bit per key, picked by its length and head (filterBit): a field whose bit is clear
  // is no key of the plan, told with one load and a multiply. A record has more fields
  // than a predicate reads keys, and comparing each field with every key was most of
  // sift_json_record_fields.
  uint64_t filter = 0;
  std::vector<sift_json_field> fields;
  // Above a few keys, a hash lookup per field beats comparing each field with every key.
  std::unordered_map<std::string_view, size_t> index;
  bool hashed = false;
  // Per document: the last field found for each key.
  std::vector<simdjson::dom::element> found;

};

namespace {
constexpr size_t linearKeys = 8;

// A key's first 8 bytes, zero-padded: most fields are told apart by their length and
// this word, without calling memcmp. A plan's own keys are copied byte by byte.
inline uint64_t head(std::string_view key) {
  uint64_t h = 0;
  std::memcpy(&h, key.data(), key.size() < 8 ? key.size() : 8);
  return h;
}

// The same for a key in simdjson's string buffer, read as one 8-byte load: the buffer is
// padded (SIMDJSON_PADDING) past its last string, so the load stays inside it; the bytes
// past the key are masked off.
inline uint64_t parsedHead(std::string_view key) {
  uint64_t h;
  std::memcpy(&h, key.data(), 8);
  const size_t n = key.size();
  return n >= 8 ? h : h & ((uint64_t(1) << (8 * n)) - 1);
}

inline uint64_t filterBit(size_t length, uint64_t head) {
  return uint64_t(1) << (((head ^ (uint64_t(length) * 0xFF51AFD7ED558CCDull)) * 0x9E3779B97F4A7C15ull) >> 58);
}

inline size_t slotOf(const sift_json_record_plan &plan, std::string_view key) {
  const uint64_t h = parsedHead(key);
  if ((plan.filter & filterBit(key.size(), h)) == 0) return SIZE_MAX;
  if (plan.hashed) {
    auto it = plan.index.find(key);
    return it == plan.index.end() ? SIZE_MAX : it->second;
  }
  const size_t n = key.size();
  const size_t count = plan.lengths.size();
  const size_t *lengths = plan.lengths.data();
  size_t i = 0;
  while (i < count && lengths[i] != n) i++;
  if (i == count) return SIZE_MAX;
  const uint64_t *heads = plan.heads.data();
  for (; i < count; i++) {
    if (lengths[i] != n || heads[i] != h) continue;
    if (n <= 8 || std::memcmp(plan.keys[i].data() + 8, key.data() + 8, n - 8) == 0) return i;
  }
  return SIZE_MAX;
}

// A DOM element as a field: scalars in place, arrays and objects by type.
sift_json_field field(simdjson::dom::element element) {
  using simdjson::dom::element_type;
  sift_json_field f;
  f.len = 0;
  f.v.u = 0;
  switch (element.type()) {
  case element_type::OBJECT: f.type = SIFT_JSON_OBJECT_START; break;
  case element_type::ARRAY: f.type = SIFT_JSON_ARRAY_START; break;
  case element_type::STRING: {
    std::string_view text = element.get_string().value_unsafe();
    f.type = SIFT_JSON_STRING;
    f.len = static_cast<uint32_t>(text.size());
    f.v.ptr = text.data();
    break;
  }
  case element_type::INT64:
    f.type = SIFT_JSON_INT;
    f.v.i = element.get_int64().value_unsafe();
    break;
  case element_type::UINT64:
    f.type = SIFT_JSON_UINT;
    f.v.u = element.get_uint64().value_unsafe();
    break;
  case element_type::DOUBLE:
    f.type = SIFT_JSON_DOUBLE;
    f.v.d = element.get_double().value_unsafe();
    break;
  case element_type::BOOL: f.type = element.get_bool().value_unsafe() ? SIFT_JSON_TRUE : SIFT_JSON_FALSE; break;
  case element_type::NULL_VALUE: f.type = SIFT_JSON_NULL; break;
  }
  return f;
}

struct cursor_state {
  simdjson::dom::array::iterator at;
  simdjson::dom::array::iterator end;
};
static_assert(sizeof(cursor_state) <= sizeof(sift_json_cursor), "a cursor holds two array iterators");
}  // namespace

sift_json_record_plan *sift_json_record_plan_create(const sift_json_key *keys, size_t count) {
  try {
    auto *plan = new sift_json_record_plan();
    plan->keys.reserve(count);
    for (size_t i = 0; i < count; i++) plan->keys.emplace_back(keys[i].ptr, keys[i].len);
    plan->hashed = count > linearKeys;
    for (const std::string &key : plan->keys) {
      plan->lengths.push_back(key.size());
      plan->heads.push_back(head(key));
      plan->filter |= filterBit(key.size(), head(key));
    }
    plan->fields.resize(count);
    if (plan->hashed) {
      plan->index.reserve(count);
      // The map's views point into `keys`, which is never resized again.
      for (size_t i = 0; i < count; i++) plan->index.emplace(std::string_view(plan->keys[i]), i);
    }
    plan->found.resize(count);

    return plan;
  } catch (...) {
    return nullptr;
  }
}

void sift_json_record_plan_destroy(sift_json_record_plan *plan) { delete plan; }

int sift_json_record_fields(sift_json_parser *parser, sift_json_record_plan *plan, const sift_json_field **fields) {
  if (!parser->parsed) return SIFT_JSON_NO_PARSE;
  simdjson::dom::object object;
  if (parser->root.get_object().get(object)) return SIFT_JSON_MISSING;
  // Absent until found (type 0); a later occurrence of a key overwrites an earlier one.
  sift_json_field *out = plan->fields.data();
  std::memset(out, 0, sizeof(sift_json_field) * plan->fields.size());
  for (simdjson::dom::key_value_pair f : object) {
    size_t slot = slotOf(*plan, f.key);
    if (slot == SIZE_MAX) continue;
    plan->found[slot] = f.value;
    out[slot] = field(f.value);
  }
  *fields = out;
  return SIFT_JSON_OK;
}

int sift_json_field_array_begin(const sift_json_record_plan *plan, size_t slot, sift_json_cursor *cursor,
                                size_t *count) {
  if (slot >= plan->keys.size() || plan->fields[slot].type != SIFT_JSON_ARRAY_START) return SIFT_JSON_MISSING;
  simdjson::dom::array array;
  if (plan->found[slot].get_array().get(array)) return SIFT_JSON_MISSING;
  cursor_state state{array.begin(), array.end()};
  std::memcpy(cursor->opaque, &state, sizeof(state));
  *count = array.size();
  return SIFT_JSON_OK;
}

int sift_json_field_array_next(sift_json_cursor *cursor, sift_json_field *element) {
  cursor_state state;
  std::memcpy(&state, cursor->opaque, sizeof(state));
  if (!(state.at != state.end)) return 0;
  *element = field(*state.at);
  ++state.at;
  std::memcpy(cursor->opaque, &state, sizeof(state));
  return 1;
}

int sift_json_field_events(sift_json_parser *parser, const sift_json_record_plan *plan, size_t slot,
                           const sift_json_event **events, size_t *count) {
  if (slot >= plan->keys.size() || plan->fields[slot].type == 0) return SIFT_JSON_MISSING;
  parser->events.clear();
  walk(plan->found[slot], parser->events);
  *events = parser->events.data();
  *count = parser->events.size();
  return SIFT_JSON_OK;
}

int sift_json_root_is_object(const sift_json_parser *parser) {
  return parser->parsed && parser->root.type() == simdjson::dom::element_type::OBJECT ? 1 : 0;
}

const char *sift_json_status_message(int status) {
  switch (status) {
  case SIFT_JSON_OK: return "ok";
  case SIFT_JSON_MISSING: return "no value at that key path";
  case SIFT_JSON_INVALID: return "not valid JSON";
  case SIFT_JSON_TOO_DEEP: return "JSON nested too deeply";
  case SIFT_JSON_TOO_BIG: return "JSON document too large";
  case SIFT_JSON_NO_PARSE: return "no document parsed";
  default: return "unknown status";
  }
}
