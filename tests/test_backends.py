"""Backend discovery and selection: available_backends(), backend=, $JSONDRIP_BACKEND, and
that "native" really is the compiled Rust extension."""

from __future__ import annotations

import copy
import importlib
import importlib.machinery
import importlib.util
import os
import subprocess
import sys

import pytest
from _support import error_tuple, json_error
from conftest import need_module

import jsondrip

ENV = "JSONDRIP_BACKEND"


def native_imports() -> bool:
    try:
        importlib.import_module("jsondrip._native")
    except ImportError:
        return False
    return True


def test_available_backends_order() -> None:
    names = jsondrip.available_backends()
    expected = ["native"] if native_imports() else []
    expected.append("python")
    if importlib.util.find_spec("jiter") is not None:
        expected.append("jiter")
    assert names == expected


def test_available_backends_is_a_fresh_list() -> None:
    names = jsondrip.available_backends()
    names.clear()
    assert "python" in jsondrip.available_backends()


def test_backend_selection(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    parser = jsondrip.Parser(backend=backend)
    assert parser.backend == backend
    assert f"backend={backend!r}" in repr(parser)
    assert parser.feed("[1, ") == [1]


def test_default_is_the_first_available(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert jsondrip.Parser().backend == jsondrip.available_backends()[0]
    assert jsondrip.Parser(mode="jiter").backend == jsondrip.available_backends()[0]


def test_environment_overrides_the_default(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, backend)
    assert jsondrip.Parser().backend == backend
    assert [v[:] for v in jsondrip.iter_values(["[1", ", 2", "]"])] == [[], [1], [1, 2]]
    assert jsondrip.parse_partial('{"a": "b') == {"a": "b"}


def test_explicit_backend_beats_the_environment(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = "python" if backend == "native" else "native"
    monkeypatch.setenv(ENV, other)
    assert jsondrip.Parser(backend=backend).backend == backend


def test_native_is_the_rust_extension(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    module = type(parser._engine).__module__
    if backend == "native":
        native = importlib.import_module("jsondrip._native")
        assert module == "jsondrip._native"
        assert isinstance(parser._engine, native.NativeEngine)
        assert native.__file__ is not None
        assert native.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    else:
        assert module.startswith("jsondrip.twin")


def test_unknown_backend_is_rejected(backend: str) -> None:
    with pytest.raises(ValueError, match="nope"):
        jsondrip.Parser(backend="nope")
    with pytest.raises(ValueError, match="nope"):
        jsondrip.parse_partial("[1", backend="nope")


def test_jiter_backend_cannot_stream(backend: str) -> None:
    need_module("jiter")
    with pytest.raises(ValueError, match="jiter"):
        jsondrip.Parser(backend="jiter")


@pytest.mark.parametrize(
    ("data", "expected"),
    [("[1, 2", [1, 2]), ('{"a": "x', {"a": "x"}), ("tr", jsondrip.MISSING), (b"[1.", [])],
)
def test_parse_partial_with_jiter_backend_is_jiter(
    backend: str, data: str | bytes, expected: object
) -> None:
    """One-shot calls may ask jiter itself; the streaming backends give the same in jiter mode."""
    need_module("jiter")
    assert jsondrip.parse_partial(data, mode="jiter", backend="jiter") == expected
    assert jsondrip.parse_partial(data, mode="jiter", backend=backend) == expected


def test_invalid_mode_is_rejected(backend: str) -> None:
    with pytest.raises(ValueError, match="mode"):
        jsondrip.Parser(mode="fast", backend=backend)


def test_backends_give_identical_errors(backend: str) -> None:
    """A smoke check before the property tests: same error from both for the same input."""
    results = []
    for name in ("native", "python"):
        if name == "native" and backend != "native":
            continue
        parser = jsondrip.Parser(backend=name)
        with pytest.raises(jsondrip.JSONDecodeError) as info:
            parser.feed('{"a": [1, 2}')
        results.append(error_tuple(info.value))
    assert results[-1] == json_error('{"a": [1, 2}')
    assert len(set(results)) == 1


def test_parse_partial_without_native_uses_the_twin_not_jiter() -> None:
    """The pure-Python install's default: parse_partial streams with the twin (mode "stable"),
    where the one-shot default (jiter, if installed) could not give that mode."""
    code = (
        "import sys; sys.modules['jsondrip._native'] = None; import jsondrip; "
        "print(jsondrip.parse_partial('{\"a\": [1, 2'), jsondrip.parse_partial('[1', "
        "mode='jiter'))"
    )
    env = {k: v for k, v in os.environ.items() if k != ENV}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "{'a': [1]} [1]\n", "")


def test_jiter_in_the_environment_never_breaks_streaming_or_loads(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#30 item 2: `JSONDRIP_BACKEND=jiter` chooses jiter only where it can do the job (one-shot
    work); streaming takes the best streaming backend, and `loads` raises json's errors."""
    pytest.importorskip("jiter")
    monkeypatch.setenv(ENV, "jiter")
    streaming = jsondrip.available_backends()[0]
    assert jsondrip.Parser().backend == streaming
    assert [v[:] for v in jsondrip.iter_values(["[1", ", 2", "]"])] == [[], [1], [1, 2]]
    assert jsondrip.parse_partial('{"a": "b') == {"a": "b"}  # mode "stable": not jiter's
    assert jsondrip.parse_partial("[1, 2", final=False, mode="jiter") == [1, 2]
    with pytest.raises(jsondrip.IncompleteJSONError):
        jsondrip.parse_partial("[1, 2", final=True)
    assert jsondrip.loads('{"a": [1, 2.5, null]}') == {"a": [1, 2.5, None]}
    with pytest.raises(jsondrip.IncompleteJSONError) as cut:
        jsondrip.loads('{"a": [1, 2')
    assert error_tuple(cut.value) == json_error('{"a": [1, 2')
    with pytest.raises(jsondrip.JSONDecodeError) as bad:
        jsondrip.loads('{"a": x}')
    assert error_tuple(bad.value) == json_error('{"a": x}')
    from jsondrip import ToolCallAccumulator

    acc = ToolCallAccumulator(format="anthropic")
    start = {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use"}}
    acc.feed({**start, "content_block": {"type": "tool_use", "id": "t", "name": "f", "input": {}}})
    acc.feed(
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"q": 1}'},
        }
    )
    acc.feed({"type": "content_block_stop", "index": 0})
    assert acc.tool_calls[0].arguments == {"q": 1} and acc.tool_calls[0].complete


def test_an_unknown_backend_in_the_environment_is_ignored_saying_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A typo in `JSONDRIP_BACKEND` must not break every call: it is ignored, with a warning."""
    monkeypatch.setenv(ENV, "natve")
    with pytest.warns(RuntimeWarning, match="natve"):
        assert jsondrip.Parser().backend == jsondrip.available_backends()[0]
    assert jsondrip.loads("[1]") == [1]
    assert jsondrip.parse_partial("[1,") == [1]
    with pytest.raises(ValueError, match="natve"):  # asked for in the call: refused
        jsondrip.Parser(backend="natve")


CONTRACT = sorted(n for n in vars(jsondrip._engine.Engine) if not n.startswith("_"))


@pytest.mark.parametrize("schema", [None, {"type": "object"}], ids=["plain", "schema"])
def test_every_engine_has_the_whole_contract(backend: str, schema: object) -> None:
    """`jsondrip._engine.Engine` names what an engine does; each backend's engine class
    (with a schema and without) has each member, and the contract's docstrings say what."""
    from jsondrip._engine import EngineOptions, make_engine
    from jsondrip.schema import Schema

    assert CONTRACT == [
        "close",
        "close_changes",
        "debug_memory",
        "debug_state",
        "done",
        "end",
        "end_index",
        "feed",
        "feed_changes",
        "feed_pending",
        "open_depth",
        "progress",
        "value",
    ]
    options = EngineOptions(schema=None if schema is None else Schema(schema))
    engine = make_engine(backend, options)
    for name in CONTRACT:
        assert hasattr(type(engine), name), (type(engine), name)
        assert getattr(jsondrip._engine.Engine, name).__doc__, name
    assert engine.feed('{"a": [1') == {"a": []}
    assert engine.debug_state()["stack"] == "{["


def test_parser_base_forwards_feed_to_its_engine(backend: str) -> None:
    """`Parser.feed` and `feed_changes` are its base's (`_engine.EngineFront`: native on a
    native build, `PythonFront` on a pure one), forwarded to the engine of either backend,
    errors and all; the same methods of the twin base give the same results."""
    from jsondrip._engine import EngineFront, PythonFront, make_engine

    expected = [{"a": [1]}, [jsondrip.Change("add", "/a/1", 2)], {"a": [1, 2, 3]}]
    for base in {EngineFront, PythonFront}:
        front = type("Front", (base,), {"__slots__": ()})()
        front._engine = make_engine(backend)
        first = copy.deepcopy(front.feed('{"a": [1, '))  # the value is live: keep a copy
        got = [first, front.feed_changes("2, "), front.feed(b"3]}")]
        assert got == expected, base
        assert front._engine.done
        with pytest.raises(jsondrip.JSONDecodeError) as caught:
            front.feed("x")
        assert error_tuple(caught.value) == json_error('{"a": [1, 2, 3]}x')


def test_parser_base_forwards_progress_to_its_engine(backend: str) -> None:
    """`Parser.progress`, read after every fragment by typed readers, is the base's too: the
    root by default, a pointer's typed view, the engine's errors (no schema, a bad path, a
    violation raised again), alike through either base over either backend's engine."""
    from jsondrip._engine import EngineFront, PythonFront

    schema = jsondrip.Schema(
        {"type": "object", "properties": {"a": {"enum": ["xa", "xb", "y"]}, "n": {"maximum": 3}}}
    )
    for base in {EngineFront, PythonFront}:
        front = type("Front", (base,), {"__slots__": ()})()
        front._engine = jsondrip.Parser(schema=schema, backend=backend)._engine
        front.feed('{"a": "x')
        assert front.progress("/a") == jsondrip.Progress("arriving", "x", ["xa", "xb"]), base
        assert (
            front.progress()
            == front.progress("")
            == jsondrip.Progress("arriving", {"a": "x"}, None)
        )
        with pytest.raises(TypeError):
            front.progress(3)
        with pytest.raises(jsondrip.SchemaViolation):
            front.feed('a", "n": 4,')
        with pytest.raises(jsondrip.SchemaViolation):
            front.progress("/a")
        plain = type("Front", (base,), {"__slots__": ()})()
        plain._engine = jsondrip.Parser(backend=backend)._engine
        with pytest.raises(ValueError, match="schema"):
            plain.progress()


def test_parser_base_without_an_engine_says_so() -> None:
    from jsondrip._engine import EngineFront

    with pytest.raises(AttributeError):  # no engine to forward to
        type("Front", (EngineFront,), {"__slots__": ()})().feed("1")


def test_parser_is_the_engine_front_subclass_and_weakly_referenced(backend: str) -> None:
    import gc
    import weakref

    parser = jsondrip.Parser(backend=backend)
    assert isinstance(parser, jsondrip._engine.EngineFront)
    parser.feed('{"self": ')
    parser.feed_changes("1")
    ref = weakref.ref(parser)
    holder = {"parser": parser}
    holder["holder"] = holder  # a cycle that holds the parser
    del parser, holder
    gc.collect()
    assert ref() is None


def test_parser_base_with_hooks_hands_back_where_the_engine_stops(backend: str) -> None:
    """With `_hooks` (OutputParser's way), both bases read str deltas into `_engine` and hand
    back the rest: bytes or no engine to `_feed_slow`, the document's end to `_feed_ended`,
    an error to `_feed_failed`."""
    from jsondrip._engine import EngineFront, EngineOptions, PythonFront, make_engine

    for base in {EngineFront, PythonFront}:

        class Front(base):  # type: ignore[valid-type,misc]
            def __init__(self) -> None:
                super().__init__()
                self._hooks = True
                self.calls: list[tuple[str, object]] = []

            def _feed_slow(self, chunk: object) -> str:
                self.calls.append(("slow", chunk))
                return "slow"

            def _feed_ended(self, chunk: object) -> str:
                self.calls.append(("ended", chunk))
                return "ended"

            def _feed_failed(self, chunk: object, error: BaseException) -> str:
                self.calls.append(("failed", type(error).__name__))
                return "failed"

        front = Front()
        assert front.feed("[1") == "slow"  # no engine yet
        front._engine = make_engine(backend, EngineOptions(stop_at_end=True))
        assert front.feed(b"[1") == "slow"  # bytes: the subclass's
        assert front.feed("[1, ") == [1]
        assert front.feed("2] then") == "ended"
        front._engine = make_engine(backend, EngineOptions(stop_at_end=True))
        assert front.feed("[x") == "failed"
        assert front.calls == [
            ("slow", "[1"),
            ("slow", b"[1"),
            ("ended", "2] then"),
            ("failed", "JSONDecodeError"),
        ], base


def test_a_cycle_through_the_live_value_is_collected(backend: str) -> None:
    """A value made to refer back to its parser is a cycle through the engine: the collector
    sees the engine's containers (native `__traverse__`) and frees the parser."""
    import gc
    import weakref

    parser = jsondrip.Parser(backend=backend)
    value = parser.feed('{"list": [{"deep": ')
    value["list"][0]["parser"] = parser  # an open container refers back to the parser
    value["self"] = value
    ref = weakref.ref(parser)
    del parser, value
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize("base_name", ["EngineFront", "PythonFront"])
def test_parser_base_methods_take_their_arguments_as_python_methods_do(
    backend: str, base_name: str
) -> None:
    """The base's per-fragment methods (native: CPython method descriptors of the extension's
    own, over pyo3's trampoline) are called as the twin base's are: bound or unbound, the
    argument by position or by keyword, `progress`'s left out or None; and refuse what the
    twin refuses (TypeError: no argument, two, an unknown keyword, a receiver of another
    type), with the same signature for `inspect` and a docstring for `help`."""
    import inspect

    from jsondrip._engine import EngineFront, PythonFront

    schema = jsondrip.Schema({"type": "object", "properties": {"a": {"enum": ["xa", "xb"]}}})
    base = getattr(jsondrip._engine, base_name)
    front = type("Front", (base,), {"__slots__": ()})()
    front._engine = jsondrip.Parser(schema=schema, backend=backend)._engine
    assert base.feed(front, '{"a": ') == {}
    assert front.feed(chunk='"x') == {"a": "x"}
    assert front.feed_changes(chunk="a") == [jsondrip.Change("append", "/a", "a")]
    assert base.feed_changes(front, "") == []
    arriving = jsondrip.Progress("arriving", {"a": "xa"}, None)
    assert front.progress() == front.progress(None) == front.progress(path="") == arriving
    assert base.progress(front, "/a") == front.progress(path="/a")
    for call in (
        lambda: front.feed(),
        lambda: front.feed("1", "2"),
        lambda: front.feed("1", chunk="2"),
        lambda: front.feed(text="1"),
        lambda: front.feed_changes(),
        lambda: front.progress("", ""),
        lambda: front.progress(where=""),
        lambda: base.feed(),
    ):
        with pytest.raises(TypeError):
            call()
    # a receiver of another type: the native descriptor refuses it before its code runs
    # (CPython checks a method descriptor's receiver), the twin's method finds no engine
    refused = AttributeError if base is PythonFront else TypeError
    for call in (
        lambda: base.feed("not a front", "1"),
        lambda: base.feed(jsondrip.Parser(backend=backend)._engine, "1"),
        lambda: base.feed.__get__(3)("1"),
        lambda: base.feed_changes(3, "1"),
        lambda: base.progress([], ""),
    ):
        with pytest.raises(refused):
            call()
    assert front.feed('", "b": 1}') == {"a": "xa", "b": 1}
    for name in ("feed", "feed_changes", "progress"):
        method = getattr(base, name)
        parameters = list(inspect.signature(method).parameters.values())
        argument = "path" if name == "progress" else "chunk"
        assert [p.name for p in parameters] == ["self", argument]
        assert parameters[1].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        assert method.__doc__
    assert inspect.signature(base.progress).parameters["path"].default in {None, ""}
    assert jsondrip.Parser.feed is EngineFront.feed


@pytest.mark.parametrize("base_name", ["EngineFront", "PythonFront"])
def test_parser_base_keeps_reference_counts_exact(backend: str, base_name: str) -> None:
    """Every way through the base's methods leaves the counts as it found them: the chunk's,
    the live value's (returned anew at every call), an error's way out, the hooks' way (the
    subclass's methods called with the chunk) and keywords; and a container the engine held
    while it was open is let go when it closes, in the call that closes it, not later (the
    native builder drops its own reference with pyo3's attach count raised: at 0 pyo3 would
    only queue it)."""
    import gc

    from jsondrip._engine import EngineOptions, make_engine

    if not hasattr(sys, "getrefcount"):
        pytest.skip("no sys.getrefcount on this interpreter")
    rc = sys.getrefcount
    base = getattr(jsondrip._engine, base_name)
    front = type("Front", (base,), {"__slots__": ()})()
    front._engine = make_engine(backend)
    value = front.feed('{"a": [1, ')
    listed = value["a"]
    before = rc(value), rc(listed)
    chunks = ["".join(["2", ", "]) for _ in range(50)]  # strs of their own, held once
    held = [rc(chunk) for chunk in chunks]
    for chunk in chunks:
        now = rc(chunk)
        assert front.feed(chunk) is value
        changes = front.feed_changes(chunk=chunk)
        assert len(changes) == 1
        if backend == "native":  # the twin's engine keeps its last fragment
            assert rc(chunk) == now
    assert (rc(value), rc(listed)) == before, base
    front.feed("3]")
    alone = [1]
    expected = rc(alone) + 1  # ours, and the dict's
    assert rc(listed) == expected, base  # the engine let it go with the `]`
    bad = "".join(["x", "y"])
    held_bad = rc(bad)
    for _ in range(3):
        with pytest.raises(jsondrip.JSONDecodeError):
            front.feed(bad)
    assert rc(value) == before[0], base

    class Hooks(base):  # type: ignore[valid-type,misc]
        _feed_slow = _feed_ended = staticmethod(lambda chunk: chunk)

        def _feed_failed(self, chunk: object, error: BaseException) -> object:
            return chunk

    del front, changes, chunk
    gc.collect()
    assert [rc(chunk) for chunk in chunks] == held, base

    hooked = Hooks()
    hooked._hooks = True
    hooked._engine = make_engine(backend, EngineOptions(stop_at_end=True))
    deltas: list[object] = [
        "".join(["[1", ", "]),
        "".join(["2] ", "then"]),
        b"".join([b"by", b"tes"]),
    ]
    held_all = [rc(delta) for delta in deltas]
    results = [hooked.feed(delta) for delta in deltas]
    assert results[1:] == deltas[1:] and results[0] == [1, 2]  # live: the whole list
    del results
    hooked._engine = make_engine(backend, EngineOptions(stop_at_end=True))
    assert hooked.feed(bad) is bad
    del hooked
    gc.collect()  # the twin's errors: tracebacks whose frames hold the chunk, in cycles
    assert [rc(delta) for delta in deltas] == held_all, base
    assert rc(bad) == held_bad, base


@pytest.mark.parametrize("base_name", ["EngineFront", "PythonFront"])
def test_parser_base_feed_from_a_finalizer_inside_its_own_feed(
    backend: str, base_name: str
) -> None:
    """A finalizer run inside a feed through the base (the old value of a slot the feed writes
    anew) that feeds the same front is refused (RuntimeError, inside the finalizer), and one
    that sets the front's engine anew in that window leaves the running feed its own
    reference to the old engine: the feed ends on it, the next one reads the new engine."""
    from jsondrip._engine import make_engine

    if not hasattr(sys, "getrefcount"):
        pytest.skip(
            "no reference counts on this interpreter (PyPy): a finalizer runs at a collection,"
            " not when a feed lets go of the last reference"
        )
    base = getattr(jsondrip._engine, base_name)
    front = type("Front", (base,), {"__slots__": ()})()
    front._engine = make_engine(backend)
    inner: list[type] = []

    class Sneaky:
        def __del__(self) -> None:
            try:
                front.feed('"x", ')
            except RuntimeError as error:
                inner.append(type(error))
            front._engine = make_engine(backend)  # the front's last reference to the old

    value = front.feed('{"a": "\ud800')
    value["a"] = Sneaky()
    assert front.feed("y") == {"a": "\ud800y"}, base
    assert inner == [RuntimeError], base
    assert front.feed("[1]") == [1], base
