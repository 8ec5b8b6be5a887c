"""Sharing across threads: one Predicate and one PredicateSet used by many threads at once,
and the GIL released while the library works."""
import sys
import threading

import sift

W2 = "account IN %@ AND priority >= 3 AND NOT (sender ENDSWITH[c] '@spam.example') AND ANY tags == 'urgent'"


def records(n):
    out = []
    for k in range(n):
        out.append(
            {
                "account": "acct-%d" % (k % 8),
                "priority": k % 6,
                "sender": "u%d@%s" % (k, "spam.example" if k % 5 == 0 else "example.com"),
                "tags": ["urgent"] if k % 3 == 0 else ["work"],
            }
        )
    return out


def test_one_predicate_many_threads_same_answers():
    p = sift.Predicate(W2, ["acct-1", "acct-4", "acct-7"])
    data = records(3000)
    expected = [p.evaluate(r) for r in data]
    assert 0 < sum(expected) < len(expected)
    results = {}
    barrier = threading.Barrier(8)

    def work(k):
        barrier.wait()
        results[k] = [p.evaluate(r) for r in data] + [p.matches(r) for r in data]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(8):
        assert results[k] == expected + expected


def test_a_set_matched_while_it_changes():
    s = sift.PredicateSet()
    fixed = sift.Predicate("priority >= 0")
    s.add("always", fixed)
    note = {"priority": 1}
    seen_bad = []
    stop = threading.Event()

    def matcher():
        while not stop.is_set():
            ids = s.match(note)
            # "always" was added first: it is always there and always first.
            if not ids or ids[0] != "always" or len(set(ids)) != len(ids):
                seen_bad.append(ids)

    threads = [threading.Thread(target=matcher) for _ in range(3)]
    for t in threads:
        t.start()
    for k in range(300):
        s.add(k, sift.Predicate("priority >= %d", k % 3))
    for k in range(0, 300, 2):
        s.remove(k)
    stop.set()
    for t in threads:
        t.join()
    assert seen_bad == []
    assert s.match(note) == ["always"] + [k for k in range(1, 300, 2) if k % 3 <= 1]


def test_the_gil_is_released_during_a_bulk_call():
    # With a switch interval of 100 s the interpreter never takes the GIL from a thread: a
    # thread gives it up only by blocking or in a C call that releases it. The worker runs
    # straight into filter_lines after start(); the main thread can run before the worker
    # finishes only if that call released the GIL.
    p = sift.Predicate("priority >= 3")
    data = b'{"priority": 4, "pad": "%s"}\n' % (b"x" * 200) * 200_000
    state = {"done": False, "count": 0}

    def worker():
        state["count"] = len(p.filter_lines(data))
        state["done"] = True

    old = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        t = threading.Thread(target=worker)
        t.start()
        ran_while_busy = not state["done"]
        t.join()
    finally:
        sys.setswitchinterval(old)
    assert state["count"] == 200_000
    assert ran_while_busy
