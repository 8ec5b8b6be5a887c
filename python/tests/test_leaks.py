"""Reference counts and memory: loops of a million calls keep the resident set flat."""
import gc
import sys

import sift
from conftest import resident_bytes

FLAT = 5 << 20  # the bound on growth


def grows(body, warm, n):
    """The resident growth over n calls of body after `warm` calls to settle caches."""
    for k in range(warm):
        body(k)
    gc.collect()
    before = resident_bytes()
    for k in range(n):
        body(k)
    gc.collect()
    return resident_bytes() - before


def test_a_million_evaluations_stay_flat():
    p = sift.Predicate("account IN %@ AND priority >= 3", ["acct-1"])
    doc = b'{"account": "acct-1", "priority": 4, "sender": "a@b"}'
    record = {"account": "acct-2", "priority": 4}
    refs = sys.getrefcount(doc)

    def body(k):
        p.evaluate(doc)
        p.matches(record)

    assert grows(body, 100_000, 1_000_000) < FLAT
    assert sys.getrefcount(doc) == refs


def test_errors_compiles_and_results_stay_flat():
    p = sift.Predicate("priority >= 3")

    def errors(k):
        try:
            p.evaluate(b'{"priority": "x"}')
        except sift.EvaluationError:
            pass
        try:
            sift.Predicate("a ==")
        except sift.SyntaxError:
            pass

    assert grows(errors, 10_000, 100_000) < FLAT

    def compiles(k):
        sift.Predicate("a == %@ AND b IN %@", k, ["x", "y"]).evaluate({"a": k, "b": "x"})

    assert grows(compiles, 5_000, 50_000) < FLAT

    lines = b'{"priority": 4}\n{"priority": 1}\n\n'

    def bulk(k):
        p.filter_lines(lines, errors="skip")
        p.decide_lines(lines)

    assert grows(bulk, 10_000, 100_000) < FLAT


def test_set_matches_stay_flat():
    s = sift.PredicateSet()
    for n in range(1000):
        s.add(n, sift.Predicate("filterCriteria IN %@ AND priority >= 1", ["a-%d" % n]))

    def body(k):
        s.match({"filterCriteria": "a-%d" % (k % 1000), "priority": 2})

    assert grows(body, 50_000, 500_000) < FLAT
