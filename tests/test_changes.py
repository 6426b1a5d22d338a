"""Change events: `Parser.feed_changes` and `apply_changes`, on both backends."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from _support import same
from conftest import ONLY_PYTHON, skip_unless_native
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import cut, documents, mixed

import jsondrip
from jsondrip import MISSING, Change, Parser, apply_changes

SETTINGS = settings(
    max_examples=150,
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
