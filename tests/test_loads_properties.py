"""Hypothesis: `jsondrip.loads` against `json.loads` on random documents, on every engine.

- valid documents (random escapes, number spellings, whitespace, lone surrogates) through a
  random combination of hooks: the same value and the same hook calls, in the same order;
- documents perhaps broken (a character deleted, inserted or replaced; cut; garbage): the same
  value or the same error (msg, pos, lineno, colno, doc; other errors by type and text);
- near misses of valid documents (one edit away), as str and as UTF-8 bytes: the same error.

The document strategies are tests/test_properties.py's; the engines, outcomes and recording
hooks are tests/test_loads.py's.
"""

from __future__ import annotations

import itertools
from typing import Any

from _support import same
from conftest import ONLY_PYTHON, examples, skip_unless_native
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_loads import (
    ENGINES,
    HOOK_NAMES,
    json_loads,
    loads,
    outcome,
    recording,
    same_outcome,
    show,
)
from test_properties import NASTY, documents, maybe_broken

import jsondrip

SETTINGS = settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
HOOK_SETS = st.sets(st.sampled_from(HOOK_NAMES)).map(lambda names: tuple(sorted(names)))
EDIT = st.one_of(st.sampled_from(list(' ,:[]{}"\\0-1.eEtfnuNI\x01\n') + NASTY), st.characters())


def usable_engines() -> list[str]:
    """The engines to compare: all of them (each document is drawn once, then run on every
    engine); "native" must be built unless JSONDRIP_BACKEND=python; "jiter" if installed."""
    names = list(ENGINES)
    if ONLY_PYTHON:
        names.remove("native")
    else:
        skip_unless_native()
    if "jiter" not in jsondrip.available_backends():
        names.remove("jiter")
    return names


def encodings(text: str) -> list[Any]:
    """The text as str, UTF-8 bytes (lone surrogates as json decodes them) and bytearray."""
    data = text.encode("utf-8", "surrogatepass")
    return [text, data, bytearray(data)]


def compare(engine: str, doc: Any, names: tuple[str, ...], calls_too: bool) -> tuple[Any, ...]:
    """Asserts the same outcome as json.loads with these hooks (and the same hook calls)."""
    hooks, want_calls = recording(names)
    want = outcome(json_loads, doc, **hooks)
    hooks, got_calls = recording(names)
    got = outcome(loads(engine), doc, **hooks)
    assert same_outcome(got, want), (show(doc), show(got), show(want))
    if calls_too:
        assert same(got_calls, want_calls), (show(got_calls), show(want_calls))
    return got


@SETTINGS
@given(text=documents(), names=HOOK_SETS)
def test_valid_documents_with_hooks(text: str, names: tuple[str, ...]) -> None:
    """json's value and json's hook calls, for str, bytes and bytearray input."""
    for engine, doc in itertools.product(usable_engines(), encodings(text)):
        compare(engine, doc, names, calls_too=True)


@SETTINGS
@given(text=maybe_broken(), names=HOOK_SETS)
def test_maybe_broken_documents(text: str, names: tuple[str, ...]) -> None:
    """Valid or not: json's value or its exact error; the hook calls too where the text is
    valid (on an invalid one the native path calls hooks twice: see test_loads.py's
    test_hooks_run_once_on_invalid_documents)."""
    for engine, doc in itertools.product(usable_engines(), encodings(text)):
        valid = outcome(json_loads, doc)[0] == "ok"
        compare(engine, doc, names, calls_too=valid or engine in ("jiter", "python"))


@st.composite
def near_miss(draw: Any) -> str:
    """A valid document with one character deleted, inserted or replaced."""
    text = draw(documents())
    i = draw(st.integers(0, len(text)))
    kind = draw(st.sampled_from(["delete", "insert", "replace"]))
    if kind == "insert":
        return text[:i] + draw(EDIT) + text[i:]
    if kind == "replace":
        return text[:i] + draw(EDIT) + text[i + 1 :]
    return text[:i] + text[i + 1 :]


@SETTINGS
@given(text=near_miss())
def test_near_misses(text: str) -> None:
    """One edit from a valid document: json's value, or its msg/pos/lineno/colno exactly."""
    for engine, doc in itertools.product(usable_engines(), encodings(text)):
        compare(engine, doc, (), calls_too=False)
