"""Differential fuzzing of jsondrip's Python API on both backends (atheris).

Each input is a document and a way to cut it: the native and the python backend, fed the same
chunks (bytes or str, mode stable or jiter), must show the same value and be in the same
state (the whole `debug_state()`: the state, number sub-state and progress, open
containers, key, token start, literal and escape progress, line, offset) after every feed and
end with the same
value or the same error; `jsondrip.loads` must give what `json.loads` gives
(the value, type for type, or the same exception type and message and position); and a
complete document the parser accepts must be the value `json.loads` gives.

Run it for a while with `python fuzz/atheris_parser.py [corpus dirs] -max_total_time=N`
(fuzz/run.sh does); the test suite runs it for a few seconds. Known, documented differences
(docs/hostile.md) are left out: json.loads reads UTF-16/32 bytes, the parser reads UTF-8 only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import atheris

with atheris.instrument_imports():
    import jsondrip
    import jsondrip.twin  # loaded on first use otherwise: imported here to be instrumented
    from jsondrip._engine import EngineOptions, make_engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from _support import same  # the tests' exact comparison, imported after instrumenting

BACKENDS = ("native", "python")


def snapshot(value: Any) -> Any:
    """A deep copy of a live value, without recursion (values may be nested 1024 deep)."""
    if not isinstance(value, (list, dict)):
        return value
    root: Any = [] if isinstance(value, list) else {}
    stack = [(value, root)]
    while stack:
        source, target = stack.pop()
        items = enumerate(source) if isinstance(source, list) else source.items()
        for key, item in items:
            if isinstance(item, (list, dict)):
                copied: Any = [] if isinstance(item, list) else {}
                stack.append((item, copied))
            else:
                copied = item
            if isinstance(target, list):
                target.append(copied)
            else:
                target[key] = copied
    return root


def outcome(error: BaseException) -> tuple[Any, ...]:
    """What an error says: its type and message, and where for a decode error."""
    if isinstance(error, json.JSONDecodeError):
        return ("JSONDecodeError", error.msg, error.pos, error.lineno, error.colno)
    if isinstance(error, RecursionError):
        return ("RecursionError",)
    return (type(error).__name__, str(error))


def stream_outcome(error: BaseException) -> tuple[Any, ...]:
    """All a streaming parser's error says, which both backends must say alike: its type
    (IncompleteJSONError or not), json's parts, str(e), the window `doc` and `expected`."""
    if isinstance(error, json.JSONDecodeError):
        extra = (getattr(error, "doc_start", None), getattr(error, "expected", None))
        return (type(error).__name__, *outcome(error)[1:], str(error), error.doc, *extra)
    return outcome(error)


def stream(backend: str, mode: str, chunks: list[Any]) -> tuple[list[Any], Any, Any]:
    """The values and machine states after each feed, then the final value or the error's
    outcome."""
    parser = make_engine(backend, EngineOptions(mode=mode))  # the contract both implement
    state = parser.debug_state
    shown: list[Any] = []
    try:
        for chunk in chunks:
            shown.append((snapshot(parser.feed(chunk)), state()))
        return shown, parser.close(), None
    except (ValueError, RecursionError) as e:
        # A failed parser stays failed with the same error.
        try:
            parser.feed("1")
        except (ValueError, RecursionError) as again:
            assert stream_outcome(again) == stream_outcome(e), (again, e)
        else:
            raise AssertionError("a failed parser accepted another feed") from e
        # The native engine keeps the error it raised, and the error's traceback keeps this
        # frame, which keeps the parser: a cycle through a class the garbage collector cannot
        # see (tests/hostile/test_memory.py). Cut it, or the fuzzer runs out of memory.
        e.__traceback__ = None
        return shown, None, stream_outcome(e)


def cut(data: Any, fdp: atheris.FuzzedDataProvider) -> list[Any]:
    """`data` in chunks whose sizes the fuzzer picks (1 to 16, the rest in one piece)."""
    chunks = []
    i = 0
    for _ in range(fdp.ConsumeIntInRange(0, 12)):
        size = fdp.ConsumeIntInRange(1, 16)
        chunks.append(data[i : i + size])
        i += size
    chunks.append(data[i:])
    return chunks


def json_reads_like_parser(data: bytes) -> bool:
    """False where json.loads reads bytes differently on purpose (see the module docstring)."""
    if len(data) >= 2 and (data[0] == 0 or data[1] == 0):
        return False  # json detects UTF-16/32 by NUL bytes
    return data[:2] not in (b"\xff\xfe", b"\xfe\xff")


def nesting(data: bytes | str) -> int:
    """An upper bound of the document's nesting depth (brackets in strings count too)."""
    text = data.decode("latin-1") if isinstance(data, bytes) else data
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def check_loads(data: bytes | str) -> None:
    """jsondrip.loads gives exactly what json.loads gives.

    Near the recursion limit the two may part by a few levels (their Python frames differ: see
    docs/hostile.md), and json names the container the limit was hit in, so a RecursionError is
    compared by type, and a document nested within 10 levels of the limit may get a value (or
    a JSONDecodeError) from one and a RecursionError from the other. The limit counts the
    frames already on the stack, so "the limit" here is what is left of it below this call.
    """
    try:
        expected: Any = ("value", json.loads(data))
    except (ValueError, RecursionError) as e:
        expected = outcome(e)
    try:
        got: Any = ("value", jsondrip.loads(data))
    except (ValueError, RecursionError) as e:
        got = outcome(e)
    if expected[0] == "RecursionError" or got[0] == "RecursionError":
        if expected[0] != got[0]:
            room = sys.getrecursionlimit() - stack_depth()
            assert nesting(data) >= room - 10, (show(data), expected, got)
    elif expected[0] == "value" and got[0] == "value":
        assert same(expected[1], got[1]), (show(data), expected, got)
    else:
        assert expected == got, (show(data), expected, got)


def stack_depth() -> int:
    """Python frames on the stack below (and including) the caller."""
    frame, depth = sys._getframe(1), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def show(data: Any) -> str:
    """A document short enough for a failure message."""
    text = repr(data)
    return text if len(text) < 300 else f"{text[:300]}... ({len(data)} long)"


def test_one_input(raw: bytes) -> None:
    """One fuzz input: a flags byte, the chunk sizes, then the document."""
    fdp = atheris.FuzzedDataProvider(raw)
    mode = "jiter" if fdp.ConsumeBool() else "stable"
    as_text = fdp.ConsumeBool()
    sizes = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 25))
    data = fdp.ConsumeBytes(sys.maxsize)
    doc: bytes | str = data
    if as_text:
        doc = data.decode("utf-8", "surrogatepass") if _decodes(data) else data
    chunks = cut(doc, atheris.FuzzedDataProvider(sizes))
    answers = [stream(backend, mode, chunks) for backend in BACKENDS]
    (shown_n, final_n, err_n), (shown_p, final_p, err_p) = answers
    assert len(shown_n) == len(shown_p), (show(doc), chunks, shown_n, shown_p)
    for (value_n, state_n), (value_p, state_p) in zip(shown_n, shown_p):
        assert same(value_n, value_p), (show(doc), chunks, shown_n, shown_p)
        assert state_n == state_p, (show(doc), chunks, state_n, state_p)
    assert err_n == err_p, (show(doc), chunks, err_n, err_p)
    assert same(final_n, final_p), (show(doc), chunks, final_n, final_p)

    check_loads(doc)
    if isinstance(doc, bytes) and not json_reads_like_parser(doc):
        return
    try:
        expected: Any = ("value", json.loads(doc))
    except (json.JSONDecodeError, UnicodeDecodeError):
        return  # json's errors are checked against the parser's by the test suite
    except (ValueError, RecursionError) as e:
        expected = outcome(e)
    if err_n is None:
        assert expected[0] == "value" and same(expected[1], final_n), (show(doc), expected, final_n)
    elif expected[0] == "value":
        # The parser may refuse what json reads only past its own limit (depth 1024).
        assert "Maximum nesting depth" in err_n[1], (show(doc), expected, err_n)


def _decodes(data: bytes) -> bool:
    try:
        data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return False
    return True


def main() -> None:
    """Runs the fuzzer with libFuzzer's command line (corpus dirs, -max_total_time=N...)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
