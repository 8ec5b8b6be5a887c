"""Every conformance case (Tests/SiftTests/Conformance/Cases/*.jsonl) through the Python API,
with the expectations the Swift suites check (EngineConformanceTests): the same result, the
same error kind, or a parse error."""
import json

import orjson
import pytest

import sift
from conftest import ROOT

CASES_DIR = ROOT / "Tests" / "SiftTests" / "Conformance" / "Cases"


def load():
    cases = []
    for path in sorted(CASES_DIR.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                cases.append(pytest.param(json.loads(line), id=f"{path.name}:{number}"))
    return cases


CASES = load()


def expectation(case):
    expect = case["expect"]
    if isinstance(expect, bool):
        return expect
    if expect.get("parse_error") is True:
        return "parse_error"
    return ("error", expect["error"])


def compile_case(case):
    """The predicate, or the expectation a compile error stands for: an invalid constant
    MATCHES pattern is the `regex` error Semantics.md says it is (as the Swift runner counts
    it), any other a parse error."""
    try:
        return sift.Predicate(case["format"], *case.get("args", []), variables=case.get("variables") or None)
    except sift.SyntaxError as error:
        return ("error", "regex") if "MATCHES" in error.message else "parse_error"


def outcome(call):
    try:
        return call()
    except sift.EvaluationError as error:
        return ("error", error.kind)


def test_there_are_cases():
    assert len(CASES) > 1000


@pytest.mark.parametrize("case", CASES)
def test_case(case):
    expected = expectation(case)
    predicate = compile_case(case)
    if not isinstance(predicate, sift.Predicate):
        assert predicate == expected, case["format"]
        return
    obj = case.get("object")
    document = orjson.dumps(obj) if not isinstance(obj, int) or abs(obj) < 2**63 else json.dumps(obj).encode()
    # JSON text: the simdjson path of sift filter.
    assert outcome(lambda: predicate.evaluate(document)) == expected, case["format"]
    # The Python value itself (a dict through the keys the predicate reads), unless it is a
    # str, which evaluate reads as JSON text.
    if not isinstance(obj, str):
        assert outcome(lambda: predicate.evaluate(obj)) == expected, case["format"]
    # The same document as a one-line JSON Lines buffer.
    decisions = predicate.decide_lines(document + b"\n")
    (decided,) = list(decisions)
    if isinstance(decided, sift.EvaluationError):
        assert ("error", decided.kind) == expected, case["format"]
    else:
        assert decided == expected, case["format"]
    # matches is evaluate with False for an error.
    assert predicate.matches(document) is (expected is True)
