"""Sift for Python: Apple's NSPredicate format language, compiled once and evaluated fast.

    import sift
    allowed = sift.Predicate("account IN %@ AND priority >= 3", ["acct-1", "acct-7"])
    allowed.evaluate({"account": "acct-7", "priority": 4})   # True

The engine is Sift's C library (libsiftc.so, include/sift.h) through cffi. Every object
is safe to share across threads; the calls into the library release the GIL.
"""
import datetime as _datetime
import json as _json
import threading as _threading

import orjson as _orjson

from ._native import ffi as _ffi
from ._native import lib as _lib

__all__ = [
    "Predicate",
    "PredicateSet",
    "LineDecisions",
    "Error",
    "SyntaxError",
    "EvaluationError",
    "__version__",
]

__version__ = _ffi.string(_lib.sift_version()).decode()

_MATCH = _lib.SIFT_LINE_MATCH
_ERROR = _lib.SIFT_LINE_ERROR
_CHUNK = 8 << 20  # bytes of a file read per call of filter_lines / decide_lines

# Looked up once: on a call of about a microsecond, the attribute lookups on the cffi
# module and an extra method call are a tenth of the time (perf on a loop of evaluate).
_NULL = _ffi.NULL
_evaluate_json = _lib.sift_predicate_evaluate
_match_ids = _lib.sift_set_match_ids


class Error(Exception):
    """Every error Sift raises."""


class SyntaxError(Error, ValueError):  # noqa: A001 - sift.SyntaxError, as the issue names it
    """A predicate that does not parse or compile (or a bad argument value).

    `offset` is the UTF-8 byte offset in the predicate's text (None when there is none),
    `message` the error in one sentence, and `str(error)` the rendered diagnostic with a
    caret under the offending text."""

    def __init__(self, message, offset=None, rendered=None, code=None):
        super().__init__(rendered or message)
        self.message = message
        self.offset = offset
        self.rendered = rendered or message
        self.code = code


class EvaluationError(Error):
    """Evaluating failed, or the input is not valid JSON.

    `kind` is the EvaluationError kind ("typeMismatch", "indexOutOfRange", "unboundVariable",
    "invalidArgument", "divisionByZero", "regex", "unknownFunction", "limitExceeded"), or
    "json" for input that is not JSON. `offset`: for "json" the byte in the JSON, otherwise
    the byte of the failing part in the predicate's text. `line` is the 1-based line for
    errors of filter_lines / decide_lines (None otherwise)."""

    def __init__(self, message, kind, offset=None, rendered=None, line=None):
        super().__init__(message if line is None else f"line {line}: {message}")
        self.message = message
        self.kind = kind
        self.offset = offset
        self.rendered = rendered or message
        self.line = line


def _text(pointer, length):
    return _ffi.unpack(pointer, length).decode("utf-8", "replace")


def _raise_from(code, err):
    """The Python exception for a failed call (`err` is the sift_error*, possibly NULL)."""
    if err == _ffi.NULL:
        raise Error(f"sift: call failed with status {code}")
    try:
        n = _ffi.new("size_t *")
        message = _text(_lib.sift_error_message(err, n), n[0])
        rendered = _text(_lib.sift_error_rendered(err, n), n[0])
        kind = _ffi.string(_lib.sift_error_kind(err)).decode()
        offset = _lib.sift_error_offset(err)
        offset = None if offset < 0 else offset
    finally:
        _lib.sift_error_free(err)
    if code in (_lib.SIFT_E_SYNTAX, _lib.SIFT_E_UTF8):
        return SyntaxError(message, offset, rendered, code)
    if code in (_lib.SIFT_E_EVALUATION, _lib.SIFT_E_JSON):
        return EvaluationError(message, kind, offset, rendered)
    if code == _lib.SIFT_E_ARGUMENT:
        return ValueError(message)
    if code == _lib.SIFT_E_TOO_LARGE:
        return OverflowError(message)
    if code == _lib.SIFT_E_MEMORY:
        return MemoryError(message)
    return Error(message)


# ---- values to JSON ----------------------------------------------------------------------

_UTC = _datetime.timezone.utc


def _default(value):
    """orjson's fallback for documents: sets become arrays; nothing else is guessed."""
    if isinstance(value, (set, frozenset)):
        return list(value)
    if isinstance(value, (_datetime.datetime, _datetime.date, _datetime.time)):
        raise TypeError(_DATES)
    raise TypeError(f"sift: a {type(value).__name__} is not a JSON value")


_OPTIONS = _orjson.OPT_PASSTHROUGH_DATETIME | _orjson.OPT_PASSTHROUGH_DATACLASS | _orjson.OPT_PASSTHROUGH_SUBCLASS


_DATES = "sift: JSON has no dates: pass a datetime in a document as a number (timestamp()) or a string"


def _dumps(value):
    try:
        return _orjson.dumps(value, default=_default, option=_OPTIONS)
    except _orjson.JSONEncodeError as error:
        message = str(error)
        if "64-bit" not in message:
            if message.endswith(("datetime.datetime", "datetime.date", "datetime.time")):
                raise TypeError(_DATES) from None
            raise TypeError(f"sift: cannot write {type(value).__name__} as JSON: {message}") from None
        # Integers beyond 64 bits: the standard library writes them (Sift reads them as doubles).
        try:
            return _json.dumps(value, default=_default, separators=(",", ":"), ensure_ascii=False).encode()
        except (TypeError, ValueError) as again:
            raise TypeError(f"sift: cannot write {type(value).__name__} as JSON: {again}") from None


def _tag(value):
    """An argument or variable in the tagged form of SIFT_COMPILE_TAGGED_VALUES."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, _datetime.datetime):
        moment = value if value.tzinfo is not None else value.replace(tzinfo=_UTC)
        return {"$date": moment.timestamp()}
    if isinstance(value, dict):
        out = {}
        for key, element in value.items():
            if not isinstance(key, str):
                raise TypeError(f"sift: dictionary keys are strings, not {type(key).__name__}")
            out[key] = _tag(element)
        return {"$dict": out}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_tag(element) for element in value]
    raise TypeError(f"sift: a {type(value).__name__} cannot be a predicate argument")


def _bytes_of(data):
    """A buffer cffi can pass as `const char *`, and its length in bytes."""
    if isinstance(data, bytes):
        return data, len(data)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
        return data, len(data)
    view = memoryview(data)
    return _ffi.from_buffer(view), view.nbytes


# ---- predicates --------------------------------------------------------------------------


class Predicate:
    """A compiled predicate: `Predicate(format, *args, variables=None)`.

    `args` are the values of `%@`, `%K` and the numeric specifiers: str, int, float, bool,
    None, list, tuple, set, dict (string keys) and datetime (a naive one is UTC).
    `variables` are the values of `$variables`. `apns=True`: SELF is a document's
    `aps.filter-criteria`; `and_binds_tighter=True` reads `a OR b AND c` as
    `a OR (b AND c)`. Raises SyntaxError (with `.offset` and the caret rendering).
    Immutable and safe to share across threads."""

    __slots__ = ("_handle", "_keys", "format", "_flags", "__weakref__")

    def __init__(self, format, *args, variables=None, apns=False, and_binds_tighter=False):
        if not isinstance(format, str):
            raise TypeError("sift: the format is a str")
        text = format.encode("utf-8", "surrogatepass")
        flags = _lib.SIFT_COMPILE_TAGGED_VALUES
        if apns:
            flags |= _lib.SIFT_COMPILE_APNS
        if and_binds_tighter:
            flags |= _lib.SIFT_COMPILE_AND_BINDS_TIGHTER
        arguments = _dumps(_tag(list(args))) if args else _ffi.NULL
        if variables:
            if not isinstance(variables, dict):
                raise TypeError("sift: variables is a dict")
            values = {}
            for name, value in variables.items():
                if not isinstance(name, str):
                    raise TypeError("sift: variable names are strings")
                values[name] = _tag(value)
            names = _dumps(values)
        else:
            names = _ffi.NULL
        out = _ffi.new("sift_predicate **")
        err = _ffi.new("sift_error **")
        code = _lib.sift_predicate_compile(
            text,
            len(text),
            arguments,
            0 if arguments == _ffi.NULL else len(arguments),
            names,
            0 if names == _ffi.NULL else len(names),
            flags,
            out,
            err,
        )
        if code != 0:
            raise _raise_from(code, err[0])
        self._handle = _ffi.gc(out[0], _lib.sift_predicate_free)
        self.format = format
        self._flags = flags
        keys = _orjson.loads(self._text(_lib.sift_predicate_keys))
        self._keys = None if keys is None else tuple(keys)

    def _text(self, function):
        length = _ffi.new("size_t *")
        buffer = _ffi.new("char[]", 256)
        code = function(self._handle, buffer, 256, length)
        if code == _lib.SIFT_E_BUFFER:
            buffer = _ffi.new("char[]", length[0] + 1)
            code = function(self._handle, buffer, length[0] + 1, length)
        if code != 0:
            raise Error(f"sift: status {code}")
        return _ffi.unpack(buffer, length[0])

    @property
    def predicate_format(self):
        """The canonical text (Apple's predicateFormat)."""
        return self._text(_lib.sift_predicate_format).decode()

    @property
    def keys(self):
        """The top-level keys the predicate reads, or None when it reads SELF as a whole."""
        return self._keys

    def _document(self, obj):
        """`obj` as JSON bytes (or a buffer) and its length."""
        kind = type(obj)
        if kind is bytes:
            return obj, len(obj)
        if kind is str or kind is bytearray or kind is memoryview:
            return _bytes_of(obj)
        data = _dumps(obj)
        return data, len(data)

    def evaluate(self, obj):
        """True when `obj` matches: a dict, list or scalar (written as JSON), or JSON text as
        bytes, bytearray, memoryview or str. Raises EvaluationError (kind "json" for text
        that is not JSON) and TypeError for values JSON cannot hold."""
        if type(obj) is bytes:
            data, length = obj, len(obj)
        else:
            data, length = self._document(obj)
        result = _evaluate_json(self._handle, data, length, _NULL)
        if result >= 0:
            return result == 1
        # The rare path: evaluate again for the error object (the same input, the same error).
        err = _ffi.new("sift_error **")
        code = _lib.sift_predicate_evaluate(self._handle, data, length, err)
        raise _raise_from(code, err[0])

    def matches(self, obj):
        """`evaluate`, but False when evaluation fails (or the text is not JSON)."""
        if type(obj) is bytes:
            return _evaluate_json(self._handle, obj, len(obj), _NULL) == 1
        data, length = self._document(obj)
        return _evaluate_json(self._handle, data, length, _NULL) == 1

    def evaluate_string(self, text):
        """True when the str `text` itself, as SELF, matches (`SELF IN %@` against a
        notification's filter criteria); no JSON is involved."""
        data = text.encode("utf-8", "surrogatepass")
        result = _lib.sift_predicate_evaluate_string(self._handle, data, len(data), _ffi.NULL)
        if result >= 0:
            return result == 1
        err = _ffi.new("sift_error **")
        code = _lib.sift_predicate_evaluate_string(self._handle, data, len(data), err)
        raise _raise_from(code, err[0])

    def matches_string(self, text):
        """`evaluate_string`, but False when evaluation fails."""
        data = text.encode("utf-8", "surrogatepass")
        return _lib.sift_predicate_evaluate_string(self._handle, data, len(data), _ffi.NULL) == 1

    def filter(self, iterable):
        """The items of `iterable` that match, in order (an item whose evaluation fails is
        left out, as with `matches`)."""
        matches = self.matches
        return [item for item in iterable if matches(item)]

    def _lines(self, data, flags):
        buffer, length = _bytes_of(data)
        out = _ffi.new("sift_lines **")
        err = _ffi.new("sift_error **")
        code = _lib.sift_predicate_evaluate_lines(self._handle, buffer, length, flags, out, err)
        if code != 0:
            raise _raise_from(code, err[0])
        return _ffi.gc(out[0], _lib.sift_lines_free)

    @staticmethod
    def _line_errors(lines, first_line):
        count = _ffi.new("size_t *")
        errors = _ffi.new("size_t *")
        _lib.sift_lines_counts(lines, count, _ffi.NULL, errors)
        found = []
        line = _ffi.new("size_t *")
        code = _ffi.new("int *")
        kind = _ffi.new("char **")
        message = _ffi.new("char **")
        length = _ffi.new("size_t *")
        offset = _ffi.new("int64_t *")
        for index in range(errors[0]):
            _lib.sift_lines_error(lines, index, line, code, kind, message, length, offset)
            found.append(
                EvaluationError(
                    _text(message[0], length[0]),
                    _ffi.string(kind[0]).decode(),
                    None if offset[0] < 0 else offset[0],
                    line=first_line + line[0],
                )
            )
        return found

    @staticmethod
    def _chunks(source):
        """The buffers of a buffer or a binary file, each cut after a newline so that no
        line is split. A file is read into one reused buffer (no new object and no
        concatenation per chunk), so each chunk must be used before the next is asked for."""
        if isinstance(source, (bytes, bytearray, memoryview, str)):
            yield source
            return
        read = getattr(source, "read", None)
        if read is None:
            raise TypeError("sift: filter_lines takes bytes, str or a binary file")
        readinto = getattr(source, "readinto", None)
        if readinto is None:  # an object with read() alone (a text file, say)
            rest = b""
            while True:
                block = read(_CHUNK)
                if isinstance(block, str):
                    block = block.encode("utf-8", "surrogatepass")
                if not block:
                    if rest:
                        yield rest
                    return
                block = rest + block if rest else block
                cut = block.rfind(b"\n")
                if cut < 0:
                    rest = block
                    continue
                yield block[: cut + 1]
                rest = block[cut + 1 :]
        buffer = bytearray(_CHUNK)
        kept = 0  # bytes of an unfinished line at the start of the buffer
        while True:
            if kept == len(buffer):  # a line longer than the buffer: a larger one (the old
                # one may still be exported by the last chunk, so it is not resized)
                larger = bytearray(2 * len(buffer))
                larger[:kept] = buffer
                buffer = larger
            with memoryview(buffer) as view:
                got = readinto(view[kept:])
                if not got:
                    if kept:
                        yield view[:kept]
                    return
                end = kept + got
                cut = buffer.rfind(b"\n", kept, end)
                if cut >= 0:
                    yield view[: cut + 1]
            if cut < 0:
                kept = end
                continue
            kept = end - cut - 1
            buffer[:kept] = buffer[cut + 1 : end]

    def filter_lines(self, source, errors="raise"):
        """The lines of JSON Lines `source` (bytes, str or a binary file) that match, each as
        bytes without its line ending, in order; decided in bulk by the library, as
        `sift filter` decides them. errors="raise" raises the first bad line's
        EvaluationError (with `.line`) after reading it; errors="skip" leaves bad lines out."""
        if errors not in ("raise", "skip"):
            raise ValueError('sift: errors is "raise" or "skip"')
        out = []
        first = 1
        count = _ffi.new("size_t *")
        errors_found = _ffi.new("size_t *")
        for chunk in self._chunks(source):
            lines = self._lines(chunk, _lib.SIFT_LINES_MATCHED)
            _lib.sift_lines_counts(lines, count, _ffi.NULL, errors_found)
            if errors == "raise" and errors_found[0]:
                raise self._line_errors(lines, first)[0]
            first += count[0]
            pointer = _ffi.new("char **")
            length = _ffi.new("size_t *")
            _lib.sift_lines_matched(lines, pointer, length)
            if length[0]:
                matched = _ffi.unpack(pointer[0], length[0])
                out.extend(matched.split(b"\n")[:-1])
        return out

    def decide_lines(self, source):
        """Every line of JSON Lines `source` decided: a LineDecisions with one result per
        line and the errors of the bad ones."""
        results = []
        errors = []
        first = 1
        pointer = _ffi.new("uint8_t **")
        count = _ffi.new("size_t *")
        for chunk in self._chunks(source):
            lines = self._lines(chunk, 0)
            _lib.sift_lines_results(lines, pointer, count)
            if count[0]:
                results.append(_ffi.unpack(_ffi.cast("char *", pointer[0]), count[0]))
            errors.extend(self._line_errors(lines, first))
            first += count[0]
        return LineDecisions(b"".join(results), errors)

    def __eq__(self, other):
        if not isinstance(other, Predicate):
            return NotImplemented
        return _lib.sift_predicate_equal(self._handle, other._handle) == 1

    def __hash__(self):
        out = _ffi.new("uint64_t *")
        _lib.sift_predicate_hash(self._handle, out)
        return out[0] & 0x7FFF_FFFF_FFFF_FFFF

    def __repr__(self):
        return f"sift.Predicate({self.predicate_format!r})"

    def __str__(self):
        return self.predicate_format


class LineDecisions:
    """What decide_lines found: `results` holds one byte per line (0 no match, 1 match,
    2 error), `errors` the EvaluationError of each bad line (with `.line`)."""

    __slots__ = ("results", "errors")

    def __init__(self, results, errors):
        self.results = results
        self.errors = errors

    def __len__(self):
        return len(self.results)

    @property
    def matched(self):
        """The 1-based numbers of the matching lines."""
        out = []
        position = self.results.find(b"\x01")
        while position >= 0:
            out.append(position + 1)
            position = self.results.find(b"\x01", position + 1)
        return out

    def __iter__(self):
        """True, False or the EvaluationError of each line, in order."""
        errors = iter(self.errors)
        for value in self.results:
            yield next(errors) if value == _ERROR else value == _MATCH


class PredicateSet:
    """Many predicates under ids, matched against one document at a time through an index:
    `match(obj)` returns the ids of exactly the predicates that match, in the order the ids
    were first added. Ids are any hashable values. Safe to share across threads; a match
    sees the set as it was between two updates."""

    __slots__ = ("_handle", "_numbers", "_ids", "_next", "_lock", "_local")

    def __init__(self):
        out = _ffi.new("sift_set **")
        code = _lib.sift_set_create(_lib.SIFT_ID_NUMBER, out)
        if code != 0:
            raise MemoryError("sift: cannot create a set")
        self._handle = _ffi.gc(out[0], _lib.sift_set_free)
        self._numbers = {}  # id -> the number the library holds it under
        self._ids = {}  # number -> id
        self._next = 0
        self._lock = _threading.Lock()
        self._local = _threading.local()

    def add(self, id, predicate, *args):
        """Adds `predicate` under `id`, replacing the one already under it (the id keeps its
        place in the order of results). `predicate` is a sift.Predicate, or a format string
        with its arguments in `args`: a format is parsed and kept as its constants when the
        set already holds its shape, never compiled alone (the fast way to load many
        rules). sift.SyntaxError for a format that does not parse; ValueError for a
        predicate compiled with variables or apns=True (a set evaluates documents without
        either)."""
        if isinstance(predicate, str):
            text = predicate.encode("utf-8", "surrogatepass")
            arguments = _dumps(_tag(list(args))) if args else _ffi.NULL
        elif not isinstance(predicate, Predicate):
            raise TypeError("sift: add takes a sift.Predicate or a format string")
        elif args:
            raise TypeError("sift: arguments go with a format string, not a sift.Predicate")
        with self._lock:
            number = self._numbers.get(id)
            new = number is None
            if new:
                number = self._next
            if isinstance(predicate, str):
                err = _ffi.new("sift_error **")
                code = _lib.sift_set_insert_format(
                    self._handle,
                    number,
                    text,
                    len(text),
                    arguments,
                    0 if arguments == _ffi.NULL else len(arguments),
                    _lib.SIFT_COMPILE_TAGGED_VALUES,
                    err,
                )
                if code != 0:
                    raise _raise_from(code, err[0])
            else:
                code = _lib.sift_set_insert(self._handle, number, predicate._handle)
            if code == _lib.SIFT_E_ARGUMENT:
                raise ValueError("sift: a set cannot hold a predicate compiled with variables or apns=True")
            if code != 0:
                raise Error(f"sift: status {code}")
            if new:
                self._next += 1
                self._ids[number] = id
                self._numbers[id] = number

    def update(self, pairs):
        """Adds every `(id, predicate)` pair as one update: a concurrent match sees all of
        them or none, and the index is reorganised once (much faster than `add` one by one
        for many predicates). A repeated id keeps its last predicate. ValueError, and
        nothing added, when a predicate cannot go into a set."""
        pairs = list(pairs.items() if isinstance(pairs, dict) else pairs)
        for _, predicate in pairs:
            if not isinstance(predicate, Predicate):
                raise TypeError("sift: update takes (id, sift.Predicate) pairs")
        with self._lock:
            fresh = {}
            numbers = []
            for id, _ in pairs:
                number = self._numbers.get(id)
                if number is None:
                    number = fresh.get(id)
                    if number is None:
                        number = fresh[id] = self._next + len(fresh)
                numbers.append(number)
            ids = _ffi.new("uint64_t[]", numbers)
            handles = _ffi.new("sift_predicate *[]", [predicate._handle for _, predicate in pairs])
            code = _lib.sift_set_insert_many(self._handle, ids, handles, len(pairs))
            if code == _lib.SIFT_E_ARGUMENT:
                raise ValueError("sift: a set cannot hold a predicate compiled with variables or apns=True")
            if code != 0:
                raise Error(f"sift: status {code}")
            self._next += len(fresh)
            for id, number in fresh.items():
                self._ids[number] = id
                self._numbers[id] = number

    def remove(self, id):
        """Removes the predicate under `id`; returns whether there was one."""
        with self._lock:
            number = self._numbers.pop(id, None)
            if number is None:
                return False
            _lib.sift_set_remove(self._handle, number)
            del self._ids[number]
            return True

    def match(self, obj):
        """The ids whose predicates match `obj` (a dict, list, scalar, or JSON text)."""
        if type(obj) is bytes:
            data = obj
            length = len(obj)
        elif isinstance(obj, (str, bytearray, memoryview)):
            data, length = _bytes_of(obj)
        else:
            data = _dumps(obj)
            length = len(data)
        # This thread's id buffer, its capacity and the count cell, read as one attribute.
        local = self._local
        state = getattr(local, "state", None)
        if state is None:
            state = local.state = (_ffi.new("uint64_t[]", 64), 64, _ffi.new("size_t *"))
        buffer, capacity, count = state
        while True:
            code = _match_ids(self._handle, data, length, buffer, capacity, count, _NULL)
            if code == 0:
                break
            if code == _lib.SIFT_E_BUFFER:
                capacity = count[0] * 2
                buffer = _ffi.new("uint64_t[]", capacity)
                local.state = (buffer, capacity, count)
                continue
            err = _ffi.new("sift_error **")
            code = _lib.sift_set_match_ids(self._handle, data, length, buffer, capacity, count, err)
            raise _raise_from(code, err[0])
        n = count[0]
        if n == 0:
            return []
        ids = self._ids
        # A number removed since the match has no id any more: it is left out.
        return [ids[k] for k in buffer[0:n] if k in ids]

    def __len__(self):
        return len(self._numbers)

    def len(self):
        """The number of predicates held (also `len(set)`)."""
        return len(self._numbers)

    def __contains__(self, id):
        return id in self._numbers
