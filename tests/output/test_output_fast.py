"""The fast path of `OutputParser` (issue 26, speed): while a proven document is all there is
to read, each delta goes straight to its engine, whose `feed` (with `stop_at_end`) returns
`NotImplemented` only when the document ended in that delta. Its end detection must be exact
at every split: the end in the middle of a fragment, at its last character, in the next one."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

import jsondrip
from jsondrip import JSONDecodeError, OutputParser
from jsondrip._dialect import PYPY_DECODER
from jsondrip._engine import EngineOptions, make_engine

DOCUMENT = '{"a": [1, "xy"], "b": {}}'
AFTER = " \n Done."  # blanks, then the first character not read: "D"


def pieces_at(text: str, cuts: tuple[int, ...]) -> list[str]:
    bounds = (0, *cuts, len(text))
    return [text[i:j] for i, j in zip(bounds, bounds[1:])]


def every_split(text: str, most: int = 2) -> list[tuple[int, ...]]:
    """Every way to cut `text` in at most `most` places (empty pieces too)."""
    ways: list[tuple[int, ...]] = [()]
    for count in range(1, most + 1):
        ways += itertools.combinations_with_replacement(range(len(text) + 1), count)
    return ways


@pytest.mark.parametrize("method", ["feed", "feed_changes"])
@pytest.mark.parametrize("schema", [None, {"type": "object"}], ids=["plain", "schema"])
def test_the_engine_says_in_which_fragment_the_document_ended(
    backend: str, method: str, schema: Any
) -> None:
    from jsondrip.schema import Schema

    text = DOCUMENT + AFTER
    end = len(DOCUMENT) + AFTER.index("D")
    options = EngineOptions(stop_at_end=True, schema=None if schema is None else Schema(schema))
    for cuts in every_split(text):
        engine = make_engine(backend, options)
        feed = getattr(engine, method)
        start = 0
        for piece in pieces_at(text, cuts):
            result = feed(piece)
            ended_here = start <= end < start + len(piece)
            if method == "feed":
                assert (result is NotImplemented) is ended_here, (cuts, piece)
            if ended_here:
                assert engine.end == (end, 2, 2), cuts
                assert engine.end_index == end - start, cuts
            elif start + len(piece) <= end:
                assert engine.end is None and engine.end_index is None, cuts
            start += len(piece)
        assert engine.value == {"a": [1, "xy"], "b": {}}
        assert engine.close() == {"a": [1, "xy"], "b": {}}


def test_without_stop_at_end_feed_returns_the_value(backend: str) -> None:
    engine = make_engine(backend, EngineOptions())
    assert engine.feed("[1, 2]") == [1, 2]
    assert (engine.end, engine.end_index) == (None, None)


def run(pieces: list[str], method: str, **options: Any) -> tuple[Any, ...]:
    """Feed the pieces and close: what came out (values shown, changes, completed)."""
    parser = OutputParser(**options)
    shown: list[Any] = []
    completed: list[Any] = []
    try:
        for piece in pieces:
            if method == "feed":
                shown.append(copy.deepcopy(parser.feed(piece)))
            else:
                shown += parser.feed_changes(piece)
            completed += parser.completed
        if method == "feed":
            result: Any = ("value", parser.close())
        else:
            shown += parser.close_changes()
            result = ("value", parser.value)
        completed += parser.completed
    except JSONDecodeError as error:
        result = (type(error).__name__, str(error), error.pos, error.lineno, error.colno)
    return result, parser.text, completed, shown


CONFIGURATIONS = {
    "plain": {},
    "watch": {"watch": "/a/*"},
    "multiple": {"multiple": True},
    "multiple+watch": {"multiple": True, "watch": "/*/a/*"},
}


@pytest.mark.parametrize("method", ["feed", "feed_changes"])
@pytest.mark.parametrize("configuration", list(CONFIGURATIONS))
def test_the_fast_path_ends_the_document_exactly_at_every_split(
    backend: str, method: str, configuration: str
) -> None:
    options = {"backend": backend, **CONFIGURATIONS[configuration]}
    if options.get("multiple"):
        text = DOCUMENT + "\n" + '{"a": [3]} [4' + "\n"  # the second line cut: its error
    else:
        text = 'Here:\n{"a": [1, "xy"]}' + AFTER
    whole = run([text], method, **options)
    # the same outcome, prose and completed values as fed whole (what each piece showed
    # depends on the cuts)
    for cuts in every_split(text):
        assert run(pieces_at(text, cuts), method, **options)[:3] == whole[:3], cuts


def test_the_fast_path_is_the_engines_own_feed(backend: str) -> None:
    parser = OutputParser(backend=backend)
    parser.feed('{"a": [1')
    engine = parser._documents[0].parser
    # nothing between the delta and the engine (PyPy's json words: the long way, on purpose)
    assert parser._fast == (None if PYPY_DECODER else engine.feed)
    parser.feed(", 2]} and")
    assert parser._fast is None
    whole = OutputParser(backend=backend)
    whole.feed('{"a": [1, 2]} and')
    assert parser.text == whole.text
    assert parser.close() == {"a": [1, 2]}


def test_leaving_the_fast_path_counts_what_the_engine_read(backend: str) -> None:
    """Bytes after str deltas leave the fast path: the error positions stay exact."""
    parser = OutputParser(backend=backend)
    parser.feed('{"a": [1, ')
    parser.feed("2")
    with pytest.raises(JSONDecodeError) as caught:
        parser.feed(b"]]")
    with pytest.raises(JSONDecodeError) as expected:
        jsondrip.loads('{"a": [1, 2]]')
    assert (caught.value.pos, caught.value.colno) == (expected.value.pos, expected.value.colno)


def test_a_str_subclass_reads_as_a_str(backend: str) -> None:
    """A str subclass delta is read as a str (the base hands it to the long way)."""

    class Text(str):
        pass

    text = 'Sure: {"a": [1, "xy"], "b": {}} done'
    whole = OutputParser(backend=backend)
    whole.feed(text)
    whole.close()
    for cut in range(len(text) + 1):
        parser = OutputParser(backend=backend)
        parser.feed(Text(text[:cut]))
        parser.feed(Text(text[cut:]))
        assert parser.close() == {"a": [1, "xy"], "b": {}}, cut
        assert parser.text == whole.text, cut
