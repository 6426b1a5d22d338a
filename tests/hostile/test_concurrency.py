"""Hostile use: one parser fed from two threads (or re-entered), parsers in many threads.

A `Parser` is not meant to be shared, but sharing it must give a clear error or serialized
feeds, never a corrupted value. The native engine is a pyo3 class: the GIL serializes its
calls, and a call made while another is running on the same engine (re-entry from Python code
it calls back) raises RuntimeError("Already borrowed"). The Python twin takes a token for each
call: a second thread, or a re-entry, gets RuntimeError(IN_USE). Free-threaded Python: see
the last test and docs/hostile.md.
"""

from __future__ import annotations

import contextlib
import gc
import json
import subprocess
import sys
import sysconfig
import threading
from collections import Counter
from typing import Any

import pytest
from _support import same
from conftest import skip_unless_native

import jsondrip
from jsondrip import Parser
from jsondrip.twin.engine import IN_USE

ROUNDS = 5_000


def _feed_from_two_threads(parser: Parser) -> tuple[list[Any], Counter[str]]:
    """Two threads feed whole tokens ('"aaaaaaaa", ' and '"bbbbbbbb", ') into one parser;
    returns the final value and the feeds refused, by letter and message."""
    parser.feed("[")
    errors: Counter[str] = Counter()
    barrier = threading.Barrier(2)

    def work(letter: str) -> None:
        chunk = f'"{letter * 8}", '
        barrier.wait()
        for _ in range(ROUNDS):
            try:
                parser.feed(chunk)
            except RuntimeError as e:
                errors[f"{letter}: {e}"] += 1

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        threads = [threading.Thread(target=work, args=(c,)) for c in "ab"]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(old)
    parser.feed("0]")
    return parser.close(), errors


def test_parser_fed_from_two_threads_is_serialized_or_refuses(backend: str) -> None:
    """Every feed is whole or refused with the backend's clear RuntimeError: the final value
    holds exactly the accepted feeds' strings, intact (a corrupted state would mix them)."""
    refusal = "Already borrowed" if backend == "native" else IN_USE
    value, errors = _feed_from_two_threads(Parser(backend=backend))
    assert set(errors) <= {f"a: {refusal}", f"b: {refusal}"}
    accepted = {
        "aaaaaaaa": ROUNDS - errors[f"a: {refusal}"],
        "bbbbbbbb": ROUNDS - errors[f"b: {refusal}"],
    }
    # One thread may be refused every time (the other held the parser at each switch).
    assert Counter(value[:-1]) == {token: n for token, n in accepted.items() if n}
    assert value[-1] == 0


def test_native_reentrant_feed_is_refused_clearly() -> None:
    """A feed made while a feed is running (here from the `__del__` of an object the caller
    put in the live value, let go of when the feed writes that slot anew) raises
    RuntimeError; nothing is corrupted."""
    skip_unless_native()
    parser = Parser(backend="native")
    inner: list[BaseException] = []

    class Sneaky:
        def __del__(self) -> None:
            try:
                parser.feed('"x", ')
            except RuntimeError as e:
                inner.append(e)

    value = parser.feed('{"a": "\ud800')
    value["a"] = Sneaky()
    assert parser.feed("y") == {"a": "\ud800y"}
    assert [str(e) for e in inner] == ["Already borrowed"]
    parser.feed('", "b": 1}')
    assert parser.close() == {"a": "\ud800y", "b": 1}


def test_twin_reentrant_feed_is_refused_clearly() -> None:
    """The twin reads a str subclass's characters through its __getitem__: a feed made from
    there, while a feed is running, is refused with RuntimeError(IN_USE), never interleaved."""
    parser = Parser(backend="python")
    inner: list[BaseException] = []
    armed = [True]

    class Sneaky(str):
        def __getitem__(self, index: Any) -> Any:
            if armed[0]:
                armed[0] = False
                try:
                    parser.feed('"x", ')
                except RuntimeError as e:
                    inner.append(e)
            return str.__getitem__(self, index)

    parser.feed("[")
    parser.feed(Sneaky('[1, "a\\n"], '))
    parser.feed("2]")
    assert parser.close() == [[1, "a\n"], 2]
    assert [str(e) for e in inner] == [IN_USE]


def test_reentry_from_a_finalizer_never_corrupts(backend: str) -> None:
    """A garbage collection run inside a feed calls a `__del__` that feeds the same parser:
    that feed must be refused or land between whole feeds, never inside the running one
    (before the twin had its guard, it put the "x" inside the outer feed's `[1, 2]`)."""
    if not hasattr(gc, "set_threshold"):
        pytest.skip("this interpreter's gc has no thresholds to force a collection (PyPy)")
    parser = Parser(backend=backend)
    parser.feed("[")

    armed = [True]

    class Bomb:
        def __del__(self) -> None:
            if armed[0]:
                with contextlib.suppress(RuntimeError):
                    parser.feed('"x", ')

    old = gc.get_threshold()
    gc.collect()
    gc.set_threshold(1)
    try:
        for _ in range(20):
            bomb = Bomb()
            bomb.cycle = bomb  # type: ignore[attr-defined]
            del bomb
            parser.feed("[1, 2], ")
    finally:
        gc.set_threshold(*old)
        gc.collect()
        armed[0] = False
    parser.feed("0]")
    value = parser.close()
    assert all(item in ([1, 2], "x") for item in value[:-1]), value


def test_separate_parsers_in_eight_threads() -> None:
    """Eight threads, each with its own parsers of both backends, byte by byte: exact values."""
    docs = [
        json.dumps({"thread": t, "items": list(range(50)), "text": 'é\n"' * 20, "f": t / 7})
        for t in range(8)
    ]
    backends = [b for b in ("native", "python") if b in jsondrip.available_backends()]
    results: dict[int, list[Any]] = {}

    def work(t: int) -> None:
        out = []
        for _ in range(5):
            for backend in backends:
                parser = Parser(backend=backend)
                data = docs[t].encode()
                for i in range(len(data)):
                    parser.feed(data[i : i + 1])
                out.append(parser.close())
        results[t] = out

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == list(range(8))
    for t, values in results.items():
        assert len(values) == 5 * len(backends)
        assert all(same(value, json.loads(docs[t])) for value in values)


def test_loads_in_eight_threads() -> None:
    """loads from eight threads at once (the native key cache is shared): exact values."""
    doc = json.dumps([{f"key{i}": [i, str(i)] for i in range(200)}] * 5)
    expected = json.loads(doc)
    failures: list[str] = []

    def work() -> None:
        for _ in range(50):
            if not same(jsondrip.loads(doc), expected):
                failures.append("differs")

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))


@pytest.mark.skipif(not FREE_THREADED, reason="not a free-threaded (3.13t+) interpreter")
def test_free_threaded_python_gets_the_gil_back() -> None:
    """The extension asks for the GIL (`gil_used = true` in rust/python/mod.rs): on a
    free-threaded interpreter the import turns it back on (with the interpreter's warning),
    so the native backend runs serialized exactly as the tests above check. Running it without
    the GIL is not claimed (docs/hostile.md)."""
    skip_unless_native()
    import jsondrip._native  # noqa: F401

    assert sys._is_gil_enabled()  # type: ignore[attr-defined]


@pytest.mark.skipif(not FREE_THREADED, reason="not a free-threaded (3.13t+) interpreter")
def test_free_threaded_python_keeps_the_gil_off_without_the_extension() -> None:
    """The pure-Python package (the twin, the accumulator, the command) imports without turning
    the GIL back on, so the threaded tests here run on it truly in parallel."""
    code = (
        "import sys; sys.modules['jsondrip._native'] = None\n"
        "import jsondrip, jsondrip.toolcalls, jsondrip.cli\n"
        "jsondrip.Parser(backend='python').feed('[1, 2')\n"
        "print(sys._is_gil_enabled())"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "False\n", "")
