"""Change events: `Parser.feed_changes` and `apply_changes`, on both backends."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from _support import error_tuple, same
from conftest import ONLY_PYTHON, examples, skip_unless_native
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import cut, documents, mixed

import jsondrip
from jsondrip import MISSING, Change, Parser, apply_changes

SETTINGS = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def replay(chunks: list[Any], backend: str, mode: str) -> list[list[Change]]:
    """Feed with changes; after every feed, replaying all changes so far rebuilds the value."""
    parser = Parser(backend=backend, mode=mode)
    rebuilt: Any = MISSING
    trace = []
    for chunk in chunks:
        try:
            changes = parser.feed_changes(chunk)
        except jsondrip.JSONDecodeError:
            break
        rebuilt = apply_changes(rebuilt, copy.deepcopy(changes))
        assert same(rebuilt, parser.value), (chunk, changes)
        trace.append(changes)
    return trace


@SETTINGS
@given(text=documents(), mode=st.sampled_from(["stable", "jiter"]), data=st.data())
def test_changes_rebuild_every_value_and_both_backends_agree(
    text: str, mode: str, data: st.DataObject
) -> None:
    chunks = data.draw(st.one_of(st.just(cut(data.draw, text)), st.just(mixed(data.draw, text))))
    if not ONLY_PYTHON:
        skip_unless_native()  # asserts that it is there
    backends = ["python"] if ONLY_PYTHON else ["native", "python"]
    traces = [replay(chunks, backend, mode) for backend in backends]
    assert repr(traces[0]) == repr(traces[-1])


@SETTINGS
@given(text=documents())
def test_stable_mode_needs_no_remove(backend: str, text: str) -> None:
    ops = {c.op for changes in replay(list(text), backend, "stable") for c in changes}
    assert ops <= {"add", "append", "replace"}


def test_exact_changes(backend: str) -> None:
    parser = Parser(backend=backend)
    assert parser.feed_changes('{"a": "hel') == [Change("add", "", {}), Change("add", "/a", "hel")]
    assert parser.feed_changes("lo w") == [Change("append", "/a", "lo w")]
    assert parser.feed_changes('orld", "b/~": [1, ') == [
        Change("append", "/a", "orld"),
        Change("add", "/b~1~0", []),
        Change("add", "/b~1~0/0", 1),
    ]
    assert parser.feed_changes('2], "a": tru') == [Change("add", "/b~1~0/1", 2)]
    assert parser.feed_changes("e}") == [Change("replace", "/a", True)]
    assert parser.value == {"a": True, "b/~": [1, 2]}


def test_jiter_mode_removes_numbers_taken_back(backend: str) -> None:
    parser = Parser(backend=backend, mode="jiter")
    assert parser.feed_changes("[1") == [Change("add", "", []), Change("add", "/0", 1)]
    assert parser.feed_changes("2") == [Change("replace", "/0", 12)]
    assert parser.feed_changes(".") == [Change("remove", "/0", None)]
    assert parser.feed_changes("5]") == [Change("add", "/0", 12.5)]
    assert parser.close() == [12.5]


def test_a_stale_string_is_refreshed_when_read(backend: str) -> None:
    parser = Parser(backend=backend)
    parser.feed_changes('{"s": "ab')
    parser.feed_changes("cd")
    assert parser.value == {"s": "abcd"}
    assert parser.feed("ef") == {"s": "abcdef"}  # plain feeds after change feeds
    assert parser.feed_changes('g"}') == [Change("append", "/s", "g")]
    assert parser.close() == {"s": "abcdefg"}


def test_containers_in_changes_are_not_the_live_ones(backend: str) -> None:
    parser = Parser(backend=backend)
    (root,) = parser.feed_changes("[")
    parser.feed_changes("1, 2")
    assert root.value == []  # a snapshot of the empty container, never updated


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ([Change("add", "", "x"), Change("append", "", "y")], "xy"),
        ([Change("add", "", [1]), Change("add", "/-", 2), Change("add", "/0", 0)], [0, 1, 2]),
        ([Change("add", "", {"a~b": 1}), Change("replace", "/a~0b", 2)], {"a~b": 2}),
        ([Change("add", "", 5), Change("remove", "", None)], MISSING),
    ],
)
def test_apply_changes(changes: list[Change], expected: Any) -> None:
    assert apply_changes(MISSING, changes) == expected


def test_deep_nesting_keeps_memory_linear(backend: str) -> None:
    """One path segment per open container: 100000 levels, then a change at the bottom."""
    parser = Parser(backend=backend, max_depth=200_000)
    parser.feed("[" * 100_000)
    (change,) = parser.feed_changes("7,")
    assert change.op == "add" and change.path == "/0" * 99_999 + "/0"


# --- close_changes: what completing the document changes ------------------------------------


def replay_to_the_end(chunks: list[Any], backend: str, mode: str) -> tuple[Any, Any]:
    """Every feed's changes, then close_changes, applied from MISSING; and close()'s value."""
    parser = Parser(backend=backend, mode=mode)
    rebuilt: Any = MISSING
    for chunk in chunks:
        rebuilt = apply_changes(rebuilt, copy.deepcopy(parser.feed_changes(chunk)))
    rebuilt = apply_changes(rebuilt, copy.deepcopy(parser.close_changes()))
    return rebuilt, parser.close()


@SETTINGS
@given(text=documents(), mode=st.sampled_from(["stable", "jiter"]), data=st.data())
def test_all_changes_with_close_changes_give_the_final_value(
    backend: str, text: str, mode: str, data: st.DataObject
) -> None:
    chunks = data.draw(st.one_of(st.just(cut(data.draw, text)), st.just(mixed(data.draw, text))))
    rebuilt, final = replay_to_the_end(chunks, backend, mode)
    assert same(rebuilt, final)


@pytest.mark.parametrize("text", ["123", "-0.5", "1e3", "0", " 7 ", "true", "[1, 2]", '"x"'])
@pytest.mark.parametrize("mode", ["stable", "jiter"])
def test_top_level_scalars_reach_the_changes(backend: str, text: str, mode: str) -> None:
    for chunks in (list(text), [text]):
        rebuilt, final = replay_to_the_end(chunks, backend, mode)
        assert same(rebuilt, final) and same(final, json.loads(text))


def test_exact_close_changes(backend: str) -> None:
    parser = Parser(backend=backend)
    assert parser.feed_changes("12") == []
    assert parser.feed_changes("3") == []
    assert parser.close_changes() == [Change("add", "", 123)]
    assert parser.close_changes() == []  # closed already: nothing more to complete
    assert parser.close() == 123
    jiter = Parser(backend=backend, mode="jiter")
    assert jiter.feed_changes("4") == [Change("add", "", 4)]
    assert jiter.feed_changes("2") == [Change("replace", "", 42)]
    assert jiter.close_changes() == [Change("replace", "", 42)]
    whole = Parser(backend=backend)
    whole.feed_changes("[1]")
    assert whole.close_changes() == []


def test_close_changes_raises_as_close_does(backend: str) -> None:
    parser = Parser(backend=backend)
    parser.feed_changes('{"a": [1, 2')
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.close_changes()
    closing = Parser(backend=backend)
    closing.feed('{"a": [1, 2')
    with pytest.raises(jsondrip.JSONDecodeError) as again:
        closing.close()
    assert error_tuple(info.value) == error_tuple(again.value)
    with pytest.raises(jsondrip.JSONDecodeError):
        parser.close_changes()  # the parser stays failed


# --- apply_changes is strict ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "change", "message"),
    [
        ({}, Change("frob", "/x", 1), "unknown change op 'frob' (at '/x')"),
        ({}, Change("replace", "/x", 1), "cannot replace '/x': no such key"),
        ({}, Change("append", "/x", "a"), "cannot append '/x': no such key"),
        ({}, Change("remove", "/x", None), "cannot remove '/x': no such key"),
        ({}, Change("add", "/a/b", 1), "cannot add '/a/b': '/a' does not exist"),
        ({"a": 1}, Change("add", "/a/b", 1), "cannot add '/a/b': int has no members"),
        ([1], Change("add", "/2", 1), "cannot add '/2': index 2 is past the end (length 1)"),
        ([1], Change("replace", "/1", 1), "cannot replace '/1': index 1 is past the end"),
        ([1], Change("replace", "/-", 1), "cannot replace '/-': '-' is not an array index"),
        ([1], Change("add", "/01", 1), "cannot add '/01': '01' is not an array index"),
        (
            [1],
            Change("append", "/0", "x"),
            "cannot append '/0': append takes a str onto a str, not (int there",
        ),
        ([[]], Change("add", "/x/0", 1), "cannot add '/x/0': 'x' is not an array index"),
        (MISSING, Change("add", "/0", 1), "cannot add '/0': the document has not begun"),
        (MISSING, Change("replace", "", 1), "cannot replace '': the document has not begun"),
        (MISSING, Change("append", "", "x"), "cannot append '': the document has not begun"),
        (MISSING, Change("remove", "", None), "cannot remove '': the document has not begun"),
        ({}, Change("add", "x", 1), "a JSON Pointer starts with '/': 'x'"),
    ],
)
def test_apply_changes_refuses_what_does_not_fit(start: Any, change: Change, message: str) -> None:
    with pytest.raises(ValueError) as info:
        apply_changes(copy.deepcopy(start), [change])
    assert str(info.value).startswith(message)


def test_apply_changes_keeps_what_came_before_an_error() -> None:
    doc: dict[str, Any] = {}
    with pytest.raises(ValueError, match="no such key"):
        apply_changes(doc, [Change("add", "/a", 1), Change("replace", "/b", 2)])
    assert doc == {"a": 1}


def test_apply_changes_add_over_a_key_and_inside_an_array() -> None:
    assert apply_changes({"a": 1}, [Change("add", "/a", 2)]) == {"a": 2}
    assert apply_changes([1, 3], [Change("add", "/1", 2), Change("add", "/3", 4)]) == [1, 2, 3, 4]


# -- the lazy form: `Engine.feed_pending` (the tool-call accumulator's hot path) -----------


def pending_trace(chunks: list[Any], backend: str, mode: str) -> list[Any]:
    """Each feed's `feed_pending` answer, its changes built only after the whole stream was
    fed (what a delta read late sees), or the error that stopped it."""
    parser = Parser(backend=backend, mode=mode)
    pending = []
    for chunk in chunks:
        try:
            pending.append(parser._engine.feed_pending(chunk))
        except jsondrip.JSONDecodeError as e:
            pending.append(error_tuple(e))
            break
    return [p if p is None or type(p) is tuple else p.build() for p in pending]


def eager_trace(chunks: list[Any], backend: str, mode: str) -> list[Any]:
    parser = Parser(backend=backend, mode=mode)
    trace: list[Any] = []
    for chunk in chunks:
        try:
            changes = copy.deepcopy(parser.feed_changes(chunk))
        except jsondrip.JSONDecodeError as e:
            trace.append(error_tuple(e))
            break
        trace.append(tuple(changes) if changes else None)
    return trace


@SETTINGS
@given(
    text=st.one_of(documents(), documents().map(lambda t: t[: len(t) // 2] + "]x")),
    mode=st.sampled_from(["stable", "jiter"]),
    data=st.data(),
)
def test_pending_changes_are_the_changes_on_both_backends(
    text: str, mode: str, data: st.DataObject
) -> None:
    chunks = data.draw(st.one_of(st.just(cut(data.draw, text)), st.just(mixed(data.draw, text))))
    if not ONLY_PYTHON:
        skip_unless_native()
    backends = ["python"] if ONLY_PYTHON else ["native", "python"]
    for backend in backends:
        expected = eager_trace(chunks, backend, mode)
        assert repr(pending_trace(chunks, backend, mode)) == repr(expected), backend
    traces = [pending_trace(chunks, backend, mode) for backend in backends]
    assert repr(traces[0]) == repr(traces[-1])


def test_exact_pending_changes(backend: str) -> None:
    parser = Parser(backend=backend)
    first = parser._engine.feed_pending('{"a/~": "h\\ud83d')
    assert parser._engine.feed_pending("") is None  # no change: nothing to keep
    assert parser._engine.feed_pending("\\ude00i") is not None
    assert parser._engine.feed_pending('", "b": [tr') is not None
    assert parser._engine.feed_pending("u") is None  # a literal is atomic
    last = parser._engine.feed_pending("e")
    assert len(first) == 2 and len(last) == 1
    built = first.build()
    assert type(built) is tuple and all(type(c) is Change for c in built)
    assert built == (Change("add", "", {}), Change("add", "/a~1~0", "h"))
    assert first.build() == built and first.build() is not built  # a new tuple each time
    assert last.build() == (Change("add", "/b/0", True),)
    assert parser.value == {"a/~": "h\U0001f600i", "b": [True]}


def test_pending_changes_raise_as_feed_changes_does(backend: str) -> None:
    parser = Parser(backend=backend)
    parser._engine.feed_pending("[1, ")
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser._engine.feed_pending("}")
    with pytest.raises(jsondrip.JSONDecodeError) as again:
        Parser(backend=backend).feed_changes("[1, }")
    assert error_tuple(info.value) == error_tuple(again.value)


def test_pending_changes_check_the_schema(backend: str) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    parser = Parser(backend=backend, schema=schema)
    assert parser._engine.feed_pending('{"n": ').build() == (Change("add", "", {}),)
    with pytest.raises(jsondrip.SchemaViolation):
        parser._engine.feed_pending('"x"')
