"""Large inputs: long values, many lines, big argument lists, deep nesting."""
import orjson

import sift


def test_a_megabyte_value():
    p = sift.Predicate("body ENDSWITH 'end' AND priority >= 3")
    doc = {"body": "x" * (1 << 20) + "end", "priority": 3}
    assert p.evaluate(doc)
    assert p.evaluate(orjson.dumps(doc))
    assert p.filter_lines(orjson.dumps(doc) + b"\n" + orjson.dumps(dict(doc, priority=1))) == [orjson.dumps(doc)]


def test_half_a_million_lines_against_python():
    p = sift.Predicate("account IN %@ AND priority >= 3", ["acct-1", "acct-4"])
    rows = [{"account": "acct-%d" % (k % 7), "priority": k % 6, "k": k} for k in range(500_000)]
    data = b"\n".join(orjson.dumps(r) for r in rows) + b"\n"
    expected = [orjson.dumps(r) for r in rows if r["account"] in ("acct-1", "acct-4") and r["priority"] >= 3]
    assert p.filter_lines(data) == expected
    decisions = p.decide_lines(data)
    assert len(decisions) == len(rows) and len(decisions.matched) == len(expected)


def test_an_argument_list_of_a_hundred_thousand_ids():
    ids = ["id-%d" % k for k in range(100_000)]
    p = sift.Predicate("SELF IN %@", ids)
    assert p.evaluate_string("id-99999") and not p.evaluate_string("id-100000")


def test_nesting_beyond_the_reader_limit_is_a_json_error():
    p = sift.Predicate("a == 1")
    deep = b"[" * 600 + b"]" * 600
    try:
        p.evaluate(deep)
        raise AssertionError("no error")
    except sift.EvaluationError as error:
        assert error.kind == "json"
    ok = b"[" * 500 + b"]" * 500
    assert p.evaluate(ok) is False


def test_a_long_predicate_and_many_sets_entries():
    clauses = " OR ".join("k == %d" % n for n in range(2000))
    assert sift.Predicate(clauses).evaluate({"k": 1999})
    s = sift.PredicateSet()
    for n in range(20_000):
        s.add(n, sift.Predicate("filterCriteria IN %@", ["a-%d" % n, "b-%d" % n]))
    assert s.match({"filterCriteria": "b-12345"}) == [12345]
    assert len(s) == 20_000
