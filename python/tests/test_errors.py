"""Bad predicates, bad values and bad input: a clear exception, never a crash."""
import datetime

import pytest

import sift


def test_syntax_error_has_offset_and_caret():
    with pytest.raises(sift.SyntaxError) as caught:
        sift.Predicate("name == AND x")
    error = caught.value
    assert error.offset == 8
    assert error.message.startswith("expected an expression after '=='")
    assert str(error) == error.rendered
    assert str(error).splitlines() == [
        "1:9: error: expected an expression after '==', found keyword AND",
        "name == AND x",
        "        ^~~",
    ]
    assert isinstance(error, ValueError) and isinstance(error, sift.Error)


def test_offsets_are_utf8_bytes():
    with pytest.raises(sift.SyntaxError) as caught:
        sift.Predicate("title == 'résumé' AND")
    # The end of the input, in bytes (21 characters).
    assert caught.value.offset == len("title == 'résumé' AND".encode()) == 23


def test_lone_surrogate_is_invalid_utf8():
    with pytest.raises(sift.SyntaxError) as caught:
        sift.Predicate("a == '\ud800'")
    assert caught.value.offset == 6
    assert "UTF-8" in caught.value.message


@pytest.mark.parametrize(
    "format, args",
    [("a == %@", ()), ("subject MATCHES '('", ()), ("a ==", ()), ("%K == 1", (5,)), ("", ())],
)
def test_predicates_that_do_not_compile(format, args):
    with pytest.raises(sift.SyntaxError):
        sift.Predicate(format, *args)


@pytest.mark.parametrize(
    "format, obj, kind",
    [
        ("priority >= 3", {"priority": "high"}, "typeMismatch"),
        ("tags[5] == 'x'", {"tags": ["a"]}, "indexOutOfRange"),
        ("a == $missing", {"a": 1}, "unboundVariable"),
        ("a / 0 == 1", {"a": 1}, "divisionByZero"),
        ("FUNCTION(a, 'nope') == 1", {"a": 1}, "unknownFunction"),
    ],
)
def test_evaluation_errors_have_their_kind(format, obj, kind):
    predicate = sift.Predicate(format)
    with pytest.raises(sift.EvaluationError) as caught:
        predicate.evaluate(obj)
    assert caught.value.kind == kind
    assert caught.value.offset is not None
    assert predicate.matches(obj) is False


@pytest.mark.parametrize("text", [b"", b"   ", b"{", b'{"a": 1', b"\xff", b'{"a": "\xff"}', b"[1,]", b"nul"])
def test_invalid_json_is_an_evaluation_error_of_kind_json(text):
    predicate = sift.Predicate("a == 1")
    with pytest.raises(sift.EvaluationError) as caught:
        predicate.evaluate(text)
    assert caught.value.kind == "json"
    assert predicate.matches(text) is False


def test_values_json_cannot_hold_are_type_errors():
    predicate = sift.Predicate("SELF == 1")
    with pytest.raises(TypeError, match="JSON has no dates"):
        predicate.evaluate({"when": datetime.datetime.now()})
    with pytest.raises(TypeError):
        predicate.evaluate({"x": object()})
    with pytest.raises(TypeError):
        predicate.evaluate({1: 2})
    with pytest.raises(TypeError):
        sift.Predicate("a == %@", object())
    with pytest.raises(TypeError):
        sift.Predicate(b"a == 1")


def test_python_values_as_arguments():
    when = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    p = sift.Predicate("%@ == %@", when, datetime.datetime(2024, 1, 1))  # naive is UTC
    assert p.evaluate(None)
    seconds = when.timestamp() - 978307200
    assert f'CAST({seconds:.0f}' in p.predicate_format
    assert sift.Predicate("%@ < %@", when, when + datetime.timedelta(seconds=1)).evaluate(None)
    members = sift.Predicate("SELF IN %@", {"a", "b"})
    assert members.evaluate('"a"') and not members.evaluate('"c"')
    assert sift.Predicate("SELF IN %@", ("a", "b")).evaluate(b'"b"')
    assert sift.Predicate("%@.k == 1", {"k": 1}).evaluate(None)
    assert sift.Predicate("%K == %@", "a", None).evaluate({"a": None})
    assert sift.Predicate("a == %@ AND b == %@", True, 2.5).evaluate({"a": True, "b": 2.5})
    assert sift.Predicate("a == %@", 2**70).evaluate({"a": 2**70})
    with pytest.raises(TypeError):
        sift.Predicate("a == %@", {1: 2})


def test_variables():
    p = sift.Predicate("priority >= $min AND sender ENDSWITH $domain", variables={"min": 3, "domain": "@x"})
    assert p.evaluate({"priority": 3, "sender": "a@x"})
    assert not p.evaluate({"priority": 2, "sender": "a@x"})
    with pytest.raises(TypeError):
        sift.Predicate("a == $x", variables=[1])


def test_apns_and_precedence():
    p = sift.Predicate("SELF IN %@", ["work"], apns=True)
    assert p.evaluate({"aps": {"filter-criteria": "work"}})
    assert not p.evaluate({"aps": {}})
    assert p.keys is None
    assert sift.Predicate("a == 1 OR b == 1 AND c == 1", and_binds_tighter=True).evaluate({"a": 1})
    assert not sift.Predicate("a == 1 OR b == 1 AND c == 1").evaluate({"a": 1})


def test_filter_lines_errors():
    p = sift.Predicate("priority >= 3")
    data = b'{"priority": 4}\n\n{"priority": "x"}\n{"priority": 5}\n'
    with pytest.raises(sift.EvaluationError) as caught:
        p.filter_lines(data)
    assert caught.value.line == 2 and caught.value.kind == "json"
    assert p.filter_lines(data, errors="skip") == [b'{"priority": 4}', b'{"priority": 5}']
    with pytest.raises(ValueError):
        p.filter_lines(data, errors="ignore")
    with pytest.raises(TypeError):
        p.filter_lines(12)
    decisions = p.decide_lines(data)
    assert len(decisions) == 4
    assert decisions.matched == [1, 4]
    assert [e.line for e in decisions.errors] == [2, 3]
    assert [e.kind for e in decisions.errors] == ["json", "typeMismatch"]
    outcomes = list(decisions)
    assert outcomes[0] is True and outcomes[3] is True
    assert isinstance(outcomes[1], sift.EvaluationError)


def test_a_set_refuses_what_it_cannot_hold():
    s = sift.PredicateSet()
    with pytest.raises(ValueError):
        s.add("a", sift.Predicate("SELF == 'x'", apns=True))
    with pytest.raises(ValueError):
        s.add("a", sift.Predicate("a == $x", variables={"x": 1}))
    with pytest.raises(TypeError):
        s.add("a", 5)
    with pytest.raises(TypeError):
        s.add("a", sift.Predicate("a == %d", 1), 1)  # arguments go with a format only
    with pytest.raises(sift.SyntaxError) as syntax:
        s.add("a", "a == AND b")
    assert syntax.value.offset == 5
    assert len(s) == 0
    with pytest.raises(sift.EvaluationError) as caught:
        s.match(b"{")
    assert caught.value.kind == "json"
