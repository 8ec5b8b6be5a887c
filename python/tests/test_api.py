"""The Python API: evaluate on every input form, filter, canonical text, equality, sets."""
import io

import sift


W2 = "account IN %@ AND priority >= 3 AND NOT (sender ENDSWITH[c] '@spam.example') AND ANY tags == 'urgent'"
RECORD = {"account": "acct-1", "priority": 4, "sender": "a@b.c", "tags": ["urgent"], "subject": "x" * 40}


def test_every_input_form_gives_the_same_answer():
    p = sift.Predicate(W2, ["acct-1", "acct-7"])
    import orjson

    text = orjson.dumps(RECORD)
    for form in (RECORD, text, text.decode(), bytearray(text), memoryview(text)):
        assert p.evaluate(form) is True
        assert p.matches(form) is True
    other = dict(RECORD, sender="X@SPAM.example")
    assert p.evaluate(other) is False
    assert p.keys == ("account", "priority", "sender", "tags")


def test_lists_and_scalars():
    assert sift.Predicate("ANY SELF > 2").evaluate([1, 2, 3])
    assert sift.Predicate("SELF == 5").evaluate(5)
    assert sift.Predicate("SELF == nil").evaluate(None)
    assert sift.Predicate("SELF.@count == 2").evaluate((1, 2))
    assert sift.Predicate("SELF == 'work'").evaluate('"work"')  # a str is JSON text
    assert sift.Predicate("SELF IN %@", ["work"]).evaluate_string("work")
    assert not sift.Predicate("SELF IN %@", ["work"]).matches_string("play")


def test_filter_keeps_order_and_drops_errors():
    p = sift.Predicate("priority >= 3")
    items = [{"priority": 5}, {"priority": 1}, {"priority": "x"}, b'{"priority": 3}', {"priority": 4}]
    assert p.filter(items) == [items[0], items[3], items[4]]
    assert p.filter(iter([])) == []


def test_filter_lines_from_bytes_str_and_files(monkeypatch):
    p = sift.Predicate("modulus:by:(n, 3) == 0")
    lines = [b'{"n": %d}' % n for n in range(1000)]
    data = b"\n".join(lines) + b"\n"
    expected = [line for n, line in enumerate(lines) if n % 3 == 0]
    assert p.filter_lines(data) == expected
    assert p.filter_lines(data.decode()) == expected
    # Files are read in chunks; a small chunk cuts the input many times.
    monkeypatch.setattr(sift, "_CHUNK", 37)
    assert p.filter_lines(io.BytesIO(data)) == expected
    assert p.filter_lines(io.BytesIO(data.rstrip(b"\n"))) == expected
    decisions = p.decide_lines(io.BytesIO(data))
    assert decisions.matched == [n + 1 for n in range(1000) if n % 3 == 0]
    # A line longer than the file buffer (37 bytes here) grows it.
    long = [b'{"n": 3, "pad": "%s"}' % (b"x" * 200), b'{"n": 4}', b'{"n": 9, "pad": "%s"}' % (b"y" * 90)]
    assert p.filter_lines(io.BytesIO(b"\n".join(long))) == [long[0], long[2]]
    assert p.filter_lines(io.StringIO(b"\n".join(long).decode())) == [long[0], long[2]]
    crlf = b'{"n": 3}\r\n{"n": 4}\r\n{"n": 6}'
    assert p.filter_lines(crlf) == [b'{"n": 3}', b'{"n": 6}']


def test_canonical_text_equality_and_hash():
    a = sift.Predicate("a = 1 AND b <> 'x'")
    b = sift.Predicate("a == 1 && b != \"x\"")
    assert a.predicate_format == 'a == 1 AND b != "x"'
    assert a == b and hash(a) == hash(b)
    assert a != sift.Predicate("a == 2")
    assert len({a, b, sift.Predicate("a == 2")}) == 2
    assert repr(a) == "sift.Predicate('a == 1 AND b != \"x\"')"
    assert sift.Predicate("SELF == 1", apns=True) != sift.Predicate("SELF == 1")
    assert sift.Predicate("a == $x", variables={"x": 1}) != sift.Predicate("a == $x", variables={"x": 2})
    long = sift.Predicate("a IN %@", ["v%d" % k for k in range(500)])
    assert long.predicate_format.startswith('a IN {"v0", "v1"') and len(long.predicate_format) > 256


def test_predicate_set():
    s = sift.PredicateSet()
    s.add("alice", sift.Predicate("filterCriteria IN %@ AND priority >= 3", ["acct-1"]))
    s.add(("bob", 2), sift.Predicate("sender BEGINSWITH[c] 'billing@'"))
    s.add(7, sift.Predicate("priority >= 5"))
    assert len(s) == 3 and s.len() == 3 and "alice" in s
    note = {"filterCriteria": "acct-1", "priority": 5, "sender": "Billing@x"}
    assert s.match(note) == ["alice", ("bob", 2), 7]
    s.add("alice", sift.Predicate("priority >= 9"))  # replaced, keeps its place
    assert s.match(note) == [("bob", 2), 7]
    assert s.remove(7) and not s.remove(7)
    assert s.match(note) == [("bob", 2)]
    s.add(7, sift.Predicate("priority >= 5"))
    assert s.match(note) == [("bob", 2), 7]
    assert s.match(b'{"priority": 1}') == []
    # More matches than the first buffer holds.
    many = sift.PredicateSet()
    for k in range(300):
        many.add(k, sift.Predicate("priority >= %d", k % 3))
    assert many.match({"priority": 2}) == list(range(300))


def test_update_adds_many_as_one():
    s = sift.PredicateSet()
    s.add("first", sift.Predicate("priority >= 0"))
    s.update([(k, sift.Predicate("filterCriteria == %@", "a-%d" % k)) for k in range(1000)] + [("first", sift.Predicate("priority >= 9"))])
    assert len(s) == 1001
    assert s.match({"filterCriteria": "a-7", "priority": 1}) == [7]
    assert s.match({"filterCriteria": "a-7", "priority": 9}) == ["first", 7]
    s.update({"x": sift.Predicate("priority == 2")})
    assert s.match({"priority": 2}) == ["x"]
    import pytest

    with pytest.raises(ValueError):
        s.update([("y", sift.Predicate("priority == 2")), ("z", sift.Predicate("a == $v", variables={"v": 1}))])
    assert "y" not in s and len(s) == 1002


def test_predicate_set_from_format_strings():
    # Rules as text go in without a Predicate each; they answer as compiled ones do.
    s = sift.PredicateSet()
    compiled = sift.PredicateSet()
    for k in range(200):
        args = (["acct-%d" % (k % 7), "acct-%d" % (k % 5)], k % 6)
        s.add(k, "filterCriteria IN %@ AND priority >= %d", *args)
        compiled.add(k, sift.Predicate("filterCriteria IN %@ AND priority >= %d", *args))
    s.add("billing", "sender BEGINSWITH[c] 'billing@'")
    compiled.add("billing", sift.Predicate("sender BEGINSWITH[c] 'billing@'"))
    assert len(s) == 201
    for note in [
        {"filterCriteria": "acct-3", "priority": 4, "sender": "Billing@x"},
        {"filterCriteria": "acct-0", "priority": 0},
        {"filterCriteria": "acct-9", "priority": 5},
        b'{"filterCriteria": "acct-4", "priority": 2}',
    ]:
        assert s.match(note) == compiled.match(note)
    assert s.match({"filterCriteria": "acct-3", "priority": 4, "sender": "Billing@x"})
    s.add(3, "priority >= %d", 100)  # replaced, keeps its place
    assert 3 not in s.match({"filterCriteria": "acct-3", "priority": 5})


def test_version():
    assert sift.__version__ == "0.1.0"
