"""Memory per open stream: nothing preallocated for the worst case, buffers grown with need.

A server holds many streams at once (benches/bench_memory.py measures 10,000 of them); these
tests check the structure that keeps each small, through the engine contract's
`debug_memory()` (sizes by part, the value's own objects excluded), never a timing.
"""

from __future__ import annotations

import copy
import json
import math
import pickle
import sys
import types
import weakref
from typing import Any

import pytest
from conftest import examples, skip_unless_native
from hypothesis import given, settings
from hypothesis import strategies as st

from jsondrip import Parser, Schema
from jsondrip._engine import EngineOptions, make_engine
from jsondrip.toolcalls import ToolCallAccumulator
from jsondrip.toolcalls.accumulator import _AT_REST, HANDLERS
from jsondrip.toolcalls.calls import MAX_SHARED_NAME, shared_name
from jsondrip.toolcalls.events import RAW_TAIL, ToolCall
from jsondrip.toolcalls.openai_chat import OneMap

# The key cache of a native stream: 8 slots of one pointer at first, at most 256.
FIRST_KEYS = 8 * 8
MOST_KEYS = 256 * 8
#: PyPy's objects have no size of their own (`sys.getsizeof` has none there): the twin's
#: `debug_memory()` counts 0, and its sizes are checked on CPython.
NO_SIZES = sys.implementation.name == "pypy"
MID_CALL = '{"location": {"city": "Paris", "country": "FR"}, "days": [1, 2, 3], "note": "bring'


def sized(backend: str) -> None:
    """Skip where the engine cannot count its objects' sizes (the twin on PyPy)."""
    if backend == "python" and NO_SIZES:
        pytest.skip("PyPy has no sys.getsizeof: the twin's debug_memory() counts 0 there")


def test_a_fresh_engine_holds_no_buffers(backend: str) -> None:
    memory = make_engine(backend, EngineOptions()).debug_memory()
    assert set(memory) == {"object", "buffers", "keys", "schema"}
    if backend == "python" and NO_SIZES:
        assert set(memory.values()) == {0}
        return
    assert memory["schema"] == 0
    if backend == "native":
        # Every buffer (stack, string and number text, the last fragment, the key cache)
        # starts empty: Rust's empty Vec allocates nothing.
        assert memory["buffers"] == 0
        assert memory["keys"] == 0
        # The engine's own fixed state; the rarely used parts (an error, the jiter digest,
        # a schema check, the change recorder's lazy changes, the document's end) are boxed,
        # and positions, literals and counters are as narrow as their values. A regression
        # guard on its size (rust/core/tests.rs pins the machine's and the stream's). It
        # holds its own reentrancy flag (engine.rs `busy`), where pyo3's borrow flag was: the
        # object the interpreter allocates is no larger for it.
        assert memory["object"] <= 440
    else:
        # Empty lists and an empty dict, no more.
        assert memory["buffers"] <= 8 * sys.getsizeof([True])
        assert memory["keys"] == sys.getsizeof({})


def test_a_native_engine_is_a_small_object_for_the_interpreter() -> None:
    """The engine object with its Python header is at most 512 bytes: CPython's allocator
    serves it from its pools of small blocks, not one malloc'd block per stream (#28)."""
    skip_unless_native()
    engine = make_engine("native", EngineOptions())
    assert sys.getsizeof(engine) <= 512


def test_a_stream_mid_document_holds_what_it_read_not_more(backend: str) -> None:
    sized(backend)
    engine = make_engine(backend, EngineOptions())
    for start in range(0, len(MID_CALL), 4):
        engine.feed(MID_CALL[start : start + 4])
    memory = engine.debug_memory()
    assert memory["buffers"] <= 1024
    if backend == "native":
        assert memory["keys"] == FIRST_KEYS


def test_the_native_key_cache_grows_with_the_keys_and_stops_at_its_bound() -> None:
    skip_unless_native()
    engine = make_engine("native", EngineOptions())
    # A few keys repeated: the cache stays small.
    records = json.dumps([{"id": i, "name": "n", "tags": []} for i in range(2000)])
    engine.feed(records)
    assert engine.debug_memory()["keys"] <= 4 * FIRST_KEYS
    # Thousands of distinct keys: it doubles up to its bound, never past it.
    engine = make_engine("native", EngineOptions())
    engine.feed(json.dumps({f"key{i}": i for i in range(5000)}))
    assert engine.debug_memory()["keys"] == MOST_KEYS


def test_the_jiter_digest_is_made_only_for_a_long_float(backend: str) -> None:
    sized(backend)
    engine = make_engine(backend, EngineOptions(mode="jiter"))
    engine.feed("[1, 2.5, ")
    small = engine.debug_memory()["buffers"]
    engine.feed("3.14159265358979323846264338327950288419716939937510")
    assert engine.debug_memory()["buffers"] > small


def test_parser_objects_have_no_instance_dict(backend: str) -> None:
    parser = Parser(backend=backend)
    assert not hasattr(parser, "__dict__")


def slot_names(obj: object) -> list[str]:
    """Every slot of the object's class and its bases."""
    return [name for cls in type(obj).__mro__ for name in getattr(cls, "__slots__", ())]


def raw_strs(call: ToolCall) -> list[str]:
    """The strs a call keeps its raw text in."""
    return [call._raw, *(call._chunks or ()), call._tail]


@pytest.mark.parametrize("fragments", [10, RAW_TAIL // 4, 5 * RAW_TAIL + 3])
def test_a_call_keeps_its_raw_text_in_a_few_strs_and_exact(fragments: int) -> None:
    accumulator = ToolCallAccumulator(format="anthropic")
    text = '{"text": "' + "abcd" * fragments + '"}'
    pieces = [text[i : i + 4] for i in range(0, len(text), 4)]
    accumulator.feed(
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
        }
    )
    received = 0
    for piece in pieces:
        accumulator.feed(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": piece},
            }
        )
        received += len(piece)
        (call,) = accumulator.tool_calls
        # never an object per fragment: a tail shorter than RAW_TAIL, full tails, fewer
        # than the text before them has RAW_TAILs (then joined into it)
        assert len(call._tail) < RAW_TAIL
        assert all(len(chunk) >= RAW_TAIL for chunk in call._chunks or ())
        assert len(call._chunks or ()) * RAW_TAIL < max(len(call._raw), 1)
        assert "".join(raw_strs(call)) == text[:received]
    assert call.raw == text
    assert call._tail == "" and call._chunks is None  # joined once, then cached
    assert call.raw is call.raw
    accumulator.feed({"type": "content_block_stop", "index": 0})
    assert call.complete and call.arguments == {"text": "abcd" * fragments}


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(
        st.text(st.characters(exclude_categories=()), max_size=3 * RAW_TAIL // 2),
        max_size=60,
    ),
    st.data(),
)
def test_the_raw_text_is_every_fragment_appended_exactly(fragments: list[str], data: Any) -> None:
    """Any text (non-ASCII, lone surrogates, empty and long fragments), read at any point."""
    call = ToolCall(0, "id", "f")
    received = ""
    for fragment in fragments:
        call._append_raw(fragment)
        received += fragment
        assert len(call._tail) < RAW_TAIL
        assert len(call._chunks or ()) * RAW_TAIL < max(len(call._raw), 1)
        if data.draw(st.booleans()):
            assert call.raw == received
    assert call.raw == received
    call._clear_raw()
    assert call.raw == ""


@pytest.mark.parametrize("format", sorted(HANDLERS))
def test_an_open_accumulator_holds_no_instance_dicts(format: str) -> None:
    """Each open accumulator's parts are slotted (an instance dict costs more than the state
    it holds: #28); the SSE decoder and the line splitter are made by the first chunk that
    needs one, and their UTF-8 decoders only for a chunk cut inside a character."""
    accumulator = ToolCallAccumulator(format=format)
    handler = accumulator._handler
    assert accumulator._sse is None and accumulator._lines is None
    accumulator.feed_sse(b"dat")  # ASCII only: decoded in one go
    accumulator.feed_lines("")
    parts = [accumulator, accumulator._table, accumulator._sse, accumulator._lines, handler]
    for part in parts:
        assert not hasattr(part, "__dict__"), type(part).__name__
    assert accumulator._sse._utf8 is None and accumulator._lines._utf8 is None  # type: ignore[union-attr]
    accumulator.feed_sse("é".encode()[:1])  # a character cut: now the decoder holds it
    assert accumulator._sse._utf8 is not None  # type: ignore[union-attr]


def test_an_accumulator_can_be_weakly_referenced() -> None:
    accumulator = ToolCallAccumulator(format="openai-chat")
    assert weakref.ref(accumulator)() is accumulator


def test_a_checked_stream_counts_its_check(backend: str) -> None:
    """With a schema, `debug_memory()["schema"]` is the check's own objects, on both engines."""
    sized(backend)
    parser = Parser(schema=Schema({"type": "object"}), backend=backend)
    parser.feed('{"a": 1')
    memory = parser._engine.debug_memory()
    assert set(memory) == {"object", "buffers", "keys", "schema"}
    assert memory["schema"] > 0


def openai_chunk(delta: dict[str, object], chunk_id: str = "chatcmpl-1", created: int = 1) -> bytes:
    choice = {"index": 0, "delta": {"tool_calls": [delta]}, "finish_reason": None}
    chunk = {"id": chunk_id, "created": created, "choices": [choice], "obfuscation": chunk_id}
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


def mid_call(
    backend: str,
    monkeypatch: pytest.MonkeyPatch,
    chunk_id: str = "chatcmpl-1",
    created: int = 1,
    name: str = "f",
) -> ToolCallAccumulator:
    """An accumulator mid-call, as benches/bench_memory.py holds 10,000 of them."""
    monkeypatch.setenv("JSONDRIP_BACKEND", backend)
    accumulator = ToolCallAccumulator(format="openai-chat")
    first = {"index": 0, "id": "call_1", "type": "function"}
    whole = {**first, "function": {"name": name, "arguments": ""}}
    accumulator.feed_sse(openai_chunk(whole, chunk_id, created))
    for start in range(0, len(MID_CALL), 4):
        fragment = {"index": 0, "function": {"arguments": MID_CALL[start : start + 4]}}
        accumulator.feed_sse(openai_chunk(fragment, chunk_id, created))
    return accumulator


def test_an_accumulator_mid_call_makes_only_what_its_stream_used(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SSE chunks of tool-call arguments only: no line splitter, no text splitters or
    readers, no change list kept between deltas, no SSE decoder while the lane runs and the
    decoder would hold nothing, the lane the call's own state (no object of its own) without
    bound methods; every part slotted."""
    accumulator = mid_call(backend, monkeypatch)
    handler = accumulator._handler
    assert handler is not None
    state = accumulator._table._first
    assert state is not None and accumulator._table._later is None  # one call: no list
    assert accumulator._lines is None
    assert handler._texts is None  # no think splitter or text-tools reader
    assert state.changes is None and state.fence is None
    assert accumulator._sse is _AT_REST  # let go at rest: the long way makes another
    lane = accumulator._lane
    assert lane is state  # the stream runs on its lane, which is the call's state
    parts = [accumulator, accumulator._table, handler, state]
    for part in parts:
        assert not hasattr(part, "__dict__"), type(part).__name__
    assert all(not callable(getattr(lane, name)) for name in type(lane).__slots__)
    # the handler is its own envelope shortcut: no object of its own, no bound method kept
    assert accumulator._shortcut is handler
    for name in slot_names(handler):
        assert not isinstance(getattr(handler, name, None), types.MethodType), name
    # one choice, one call: the call alone, found by its index and id without a map
    assert handler._choices is None and handler._only is state and handler._only_at == 0
    assert handler._at(0, 0) is state and handler._by_id(0, "call_1") is state
    assert handler._last(0) is state and handler._at(1, 0) is None
    # the raw text in a few strs, not a str per fragment
    call = state  # the call is its own working state: one object per call
    assert isinstance(call, ToolCall)
    assert len(raw_strs(call)) <= 3 and len(call._tail) < RAW_TAIL
    assert call.raw == MID_CALL
    assert accumulator.tool_calls[0].arguments["note"] == "bring"


def test_open_accumulators_share_their_envelope_text(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two streams whose events have one envelope hold one frame of it (the text around the
    fragment, its route and chunk check), and no hash once an event was routed."""
    first, second = mid_call(backend, monkeypatch), mid_call(backend, monkeypatch)
    one, two = first._shortcut, second._shortcut
    assert one is not None and two is not None and one is not two
    assert one._frame is two._frame and one.chunk_matcher is two.chunk_matcher
    assert one._last_miss is None and two._last_miss is None  # routed since their last miss


def test_streams_with_response_ids_of_their_own_share_their_envelope_text(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenAI gives each response its own chunk `id` and `created` time (and new
    `obfuscation` padding each chunk): the shortcut cuts them out of the skeleton, so the
    streams share one frame and one chunk check; each holds only its id, which it holds
    anyway (the handler compares each chunk's with it), and its lane the same."""
    streams = [mid_call(backend, monkeypatch, f"chatcmpl-{n:029d}", 1760000000 + n) for n in (1, 2)]
    one, two = (stream._shortcut for stream in streams)
    assert one is not None and two is not None
    assert one._frame is two._frame and one.chunk_matcher is two.chunk_matcher
    assert one._frame.holes == "hnfs"  # id, created, the fragment, obfuscation
    for stream, shortcut in zip(streams, (one, two)):
        assert shortcut is stream._handler
        assert stream._lane is not None and stream._lane.matcher is shortcut.chunk_matcher
        assert not hasattr(stream._lane, "head")  # the lane takes the handler's: no copy


def test_a_twin_stream_without_bounds_holds_none() -> None:
    """The twin's rarely used stream state (`max_size`, `stop_at_end`'s end) is one object,
    made only for a stream that has one of them; `end` and `end_index` read None without."""
    plain = make_engine("python", EngineOptions())
    plain.feed("[1, ")
    assert plain.bounds is None and plain.end is None and plain.end_index is None
    stopping = make_engine("python", EngineOptions(stop_at_end=True))
    assert stopping.feed("[1] tail") is NotImplemented
    # the end is the first character after the document that is not a blank (the `t`)
    assert stopping.bounds is not None and stopping.end == (4, 1, 5)
    assert stopping.end_index == 4
    bounded = make_engine("python", EngineOptions(max_size=10))
    assert bounded.bounds is not None and bounded.bounds.max_size == 10
    assert len(type(plain).__slots__) + len(type(plain).__mro__[1].__slots__) == 10


KEYS = st.one_of(
    st.integers(-2, 3),
    st.booleans(),
    st.sampled_from([0.0, 1.0, -0.0, math.nan, "", "0", "a", "call_1"]),
    st.lists(st.integers(), max_size=1),  # unhashable: a malformed event's index
)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["get", "set", "values", "clear"]), KEYS), max_size=20))
def test_a_one_map_is_a_dict(operations: list[tuple[str, Any]]) -> None:
    """`OneMap` (a choice's calls by index and by id, a stream's choices) answers as a dict
    does: equal keys (0, False, 0.0) are one, an unhashable key raises TypeError, the first key
    object is kept, values come in insertion order."""
    nan = math.nan  # one NaN object: equal to itself by identity, in a dict as here
    mine, theirs = OneMap(), {}
    for count, (operation, key) in enumerate(operations):
        key = nan if isinstance(key, float) and math.isnan(key) else key
        if operation == "get":
            try:
                want: Any = theirs.get(key)
            except TypeError:
                with pytest.raises(TypeError):
                    mine.get(key)
                continue
            assert mine.get(key) is want
        elif operation == "set":
            value = object()
            try:
                theirs[key] = value
            except TypeError:
                with pytest.raises(TypeError):
                    mine.set(key, value)
                continue
            mine.set(key, value)
        elif operation == "values":
            assert mine.values() == list(theirs.values())
        else:
            mine.clear()
            theirs.clear()
        assert mine.values() == list(theirs.values()), count
    kept = list(theirs)
    if mine.more is not None:
        assert [type(k) for k in mine.more] == [type(k) for k in kept]
    elif kept:
        assert type(mine.key) is type(kept[0])


def test_a_call_is_its_own_working_state_and_copies_as_a_plain_tool_call(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One object per call (#28): the `ToolCall` users hold is the accumulator's working
    state of the call; `copy`, `deepcopy` and `pickle` give the plain `ToolCall` it shows,
    mid-call too (its engine stays the accumulator's)."""
    accumulator = mid_call(backend, monkeypatch)
    (call,) = accumulator.tool_calls
    assert call is accumulator._table._first and call.parser is not None  # type: ignore[attr-defined]
    for copied in (copy.copy(call), copy.deepcopy(call), pickle.loads(pickle.dumps(call))):
        assert type(copied) is ToolCall
        assert repr(copied) == repr(call) and copied.raw == call.raw == MID_CALL
        assert (copied.index, copied.id, copied.name, copied.choice, copied.kind) == (
            0,
            "call_1",
            "f",
            0,
            "function",
        )
        assert (copied.error, copied.complete, copied.finished) == (None, False, False)
    assert copy.deepcopy(call).arguments == call.arguments
    assert copy.deepcopy(call).arguments is not call.arguments


def test_accumulators_made_alike_share_their_settings() -> None:
    """What an accumulator reads its calls with (size limit, idle timeout, text-tools family,
    schemas) is one object per distinct setting, shared by the streams of a server (#28);
    setting an accumulator's own makes it settings of its own, the others' unchanged."""
    first, second = ToolCallAccumulator(), ToolCallAccumulator(format="anthropic")
    assert first._table.settings is second._table.settings
    assert ToolCallAccumulator(max_arguments_size=10)._table.settings is not first._table.settings
    assert ToolCallAccumulator(idle_timeout=5.0)._table.settings is not first._table.settings
    with_tools = ToolCallAccumulator(tools=[{"name": "f", "input_schema": {"type": "object"}}])
    assert with_tools._table.settings.schemas is not None
    assert with_tools.idle_timeout == 30.0
    second.max_arguments_size = 3
    assert second.max_arguments_size == 3 and second._table.settings.limit == 3
    assert first.max_arguments_size == 1_048_576 and first._table.settings.limit == 1_048_576
    second.text_tools = "hermes"
    assert second.text_tools == "hermes" and first.text_tools is None
    second.idle_timeout = None
    assert second.idle_timeout is None and first.idle_timeout == 30.0
    assert second.max_arguments_size == 3 and second.text_tools == "hermes"


@pytest.mark.parametrize("timeout", [5, 5.0, -0.0, 0.0, None, True])
def test_a_shared_setting_reads_back_as_given(timeout: Any) -> None:
    """Shared settings are shared only between equal values of one type and sign: each
    accumulator's `idle_timeout` is the value it was given, as its timeout errors print it."""
    for other in (5, 5.0, -0.0, 0.0, None, True, 1):
        ToolCallAccumulator(idle_timeout=other)  # made first, and cached
    given = ToolCallAccumulator(idle_timeout=timeout).idle_timeout
    assert type(given) is type(timeout) and repr(given) == repr(timeout)


def reachable(root: object, skip: set[int]) -> dict[int, object]:
    """Every object reachable from `root` through slots, dicts, lists and tuples, but the
    objects in `skip` (by id) and what only they reach."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or id(obj) in skip or isinstance(obj, (type, types.ModuleType)):
            continue
        if callable(obj) and not hasattr(obj, "__slots__"):
            continue  # functions and methods: the code's, shared
        seen[id(obj)] = obj
        if isinstance(obj, dict):
            todo += [*obj.keys(), *obj.values()]
        elif isinstance(obj, (list, tuple, frozenset, set)):
            todo += list(obj)
        else:
            todo += [getattr(obj, name, None) for name in slot_names(obj)]
    return seen


def test_an_open_openai_stream_is_four_objects_and_an_engine(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a stream mid-call holds of its own (#28), found by walking its objects and
    leaving out what another stream shares and the user's data (the live value, the raw
    text): the accumulator, its call table, its handler (its own envelope shortcut, holding
    its one call with no map), the call (its own working state) and the call's engine, and
    the strs and floats of its stream (the response's id, the call's id, a clock reading;
    the tool's name is the server's, one str for the calls of every stream). No list, dict,
    shortcut, choice, map or lane object of its own."""
    one, two = (
        mid_call(backend, monkeypatch, f"chatcmpl-{n:029d}", name="get_weather") for n in (1, 2)
    )
    (call,) = one.tool_calls
    user_data = reachable(call.arguments, set())
    user_data[id(call._raw)] = call._raw
    user_data[id(call._tail)] = call._tail
    engine = call.parser  # type: ignore[attr-defined]  # (its own parts: the engine's tests)
    shared = reachable(two, set())
    own = [o for key, o in reachable(one, {*user_data, id(engine)}).items() if key not in shared]
    kinds = sorted(type(o).__name__ for o in own if not isinstance(o, (str, float, int)))
    assert kinds == sorted(["ToolCallAccumulator", "CallTable", "OpenAIChatHandler", "CallState"])
    assert engine is not two.tool_calls[0].parser  # type: ignore[attr-defined]
    assert sum(isinstance(o, str) for o in own) <= 2  # the response's id, the call's id
    assert one.tool_calls[0].name is two.tool_calls[0].name == "get_weather"
    # one clock reading: the call's last activity, which the lane makes the table's oldest too
    assert sum(isinstance(o, float) for o in own) <= 1
    assert one._table.oldest is call.last_active  # type: ignore[attr-defined]


def test_calls_share_their_tool_name_up_to_its_bound() -> None:
    """A call's name is the first equal str among the recent tool names (a server's tools are
    few): one str per name, not one per call; a name longer than a tool's may be, and
    anything not a str, is held as it came, so the cache stays small whatever streams send."""
    long = "n" * (MAX_SHARED_NAME + 1)
    names = []
    for name in ("get_weather", "get_weather", long, long):  # each decoded from its own chunk
        accumulator = ToolCallAccumulator(format="openai-chat")
        function = {"name": name, "arguments": "{"}
        accumulator.feed_sse(openai_chunk({"index": 0, "id": "call_1", "function": function}))
        names.append(accumulator.tool_calls[0].name)
    assert names[0] is names[1] == "get_weather"
    assert names[2] == names[3] == long and names[2] is not names[3]
    assert shared_name(7) == 7 and shared_name(None) is None
