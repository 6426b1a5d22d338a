"""The lane (`toolcalls/lane.py`) changes nothing but the time: with it and without it,
every `feed_sse` / `feed_lines` / `feed` call returns the same events, previews and changes,
and the calls end the same, whatever comes between the fragments (other calls, text, pings, a
bad fragment, a schema violation, the size limit, the clock)."""

from __future__ import annotations

import contextlib
import copy
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from _toolcall_support import make_acc_fixture  # noqa: F401 - make_acc is a fixture
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jsondrip.toolcalls import ToolCallAccumulator, ToolCallDelta, ToolCallDone, lane
from jsondrip.toolcalls.bedrock import BedrockHandler
from jsondrip.toolcalls.shortcut import EnvelopeShortcut

FORMATS = ("anthropic", "openai-chat", "bedrock-lines", "bedrock")  # bedrock: boto3's dicts


def snapshot(events: list[Any]) -> list[Any]:
    """The events as plain values, previews and changes copied as they were when emitted."""
    out: list[Any] = []
    for e in events:
        if type(e) is ToolCallDelta:
            preview = copy.deepcopy(e.preview)
            out.append(("delta", e.index, e.id, e.name, e.arguments_delta, preview, e.changes))
        elif type(e) is ToolCallDone:
            c = e.tool_call
            out.append(("done", c.index, c.arguments, c.raw, c.error, c.complete, c.finished))
        else:
            out.append(e)
    return out


# -- the formats' events, as whole chunks -----------------------------------------------------


def sse(payload: dict[str, Any], event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(payload)}\n\n".encode()


def anthropic_start(index: int) -> bytes:
    block = {"type": "tool_use", "id": f"toolu_{index}", "name": "f", "input": {}}
    payload = {"type": "content_block_start", "index": index, "content_block": block}
    return sse(payload, "content_block_start")


def anthropic_fragment(index: int, text: str) -> bytes:
    delta = {"type": "input_json_delta", "partial_json": text}
    return sse({"type": "content_block_delta", "index": index, "delta": delta}, "x")


def openai_fragment(index: int, text: str, start: bool = False) -> bytes:
    call: dict[str, Any] = {"index": index, "function": {"arguments": text}}
    if start:
        call.update(id=f"call_{index}", type="function")
        call["function"]["name"] = "f"
    choice = {"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}
    return sse({"id": "chatcmpl-1", "choices": [choice]})


def bedrock_line(payload: dict[str, Any]) -> bytes:
    return (json.dumps(payload) + "\n").encode()


def bedrock_fragment(index: int, text: str) -> bytes:
    body = {"contentBlockIndex": index, "delta": {"toolUse": {"input": text}}}
    return bedrock_line({"contentBlockDelta": body})


def stream(fmt: str, calls: list[list[str]], noise: list[int]) -> list[Any]:
    """What `feed_events` feeds for `fmt`: `bedrock` gets the lines of `bedrock-lines` as
    dicts (blank lines left out)."""
    if fmt == "bedrock":
        lines = lines_stream("bedrock-lines", calls, noise)
        return [json.loads(line) for line in lines if line.strip()]
    return lines_stream(fmt, calls, noise)


def lines_stream(fmt: str, calls: list[list[str]], noise: list[int]) -> list[bytes]:
    """Each call's fragments in turn (the calls one after the other), with an event between
    fragments that is not one of them at the positions `noise` names (a text delta, a ping,
    or a fragment of another call), then the ends."""
    chunks: list[bytes] = []
    if fmt == "anthropic":
        chunks.append(sse({"type": "message_start", "message": {"id": "msg_1"}}, "message_start"))
    elif fmt == "bedrock-lines":
        chunks.append(bedrock_line({"messageStart": {"role": "assistant"}}))
    position = 0
    for index, fragments in enumerate(calls):
        if fmt == "anthropic":
            chunks.append(anthropic_start(index))
        elif fmt == "bedrock-lines":
            tool = {"toolUseId": f"t{index}", "name": "f"}
            start = {"contentBlockIndex": index, "start": {"toolUse": tool}}
            chunks.append(bedrock_line({"contentBlockStart": start}))
        for number, text in enumerate(fragments):
            if fmt == "anthropic":
                chunks.append(anthropic_fragment(index, text))
            elif fmt == "openai-chat":
                chunks.append(openai_fragment(index, text, start=number == 0))
            else:
                chunks.append(bedrock_fragment(index, text))
            position += 1
            if position in noise:
                chunks.append(noise_event(fmt, index, position))
        if fmt == "anthropic":
            chunks.append(sse({"type": "content_block_stop", "index": index}, "x"))
        elif fmt == "bedrock-lines":
            chunks.append(bedrock_line({"contentBlockStop": {"contentBlockIndex": index}}))
    if fmt == "anthropic":
        chunks.append(sse({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}))
        chunks.append(sse({"type": "message_stop"}, "message_stop"))
    elif fmt == "openai-chat":
        chunks.append(sse({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}))
        chunks.append(b"data: [DONE]\n\n")
    else:
        chunks.append(bedrock_line({"messageStop": {"stopReason": "tool_use"}}))
    return chunks


def noise_event(fmt: str, index: int, position: int) -> bytes:
    """An event between two fragments of call `index` that the lane must not take."""
    kind = position % 3
    if fmt == "anthropic":
        if kind == 0:
            return sse({"type": "ping"}, "ping")
        if kind == 1:  # the same call's fragment, spelled with another envelope
            delta = {"partial_json": "", "type": "input_json_delta"}
            return sse({"index": index, "type": "content_block_delta", "delta": delta})
        return b": keep-alive\n\n"
    if fmt == "openai-chat":
        if kind == 0:
            choice = {"index": 0, "delta": {"content": "hm"}, "finish_reason": None}
            return sse({"id": "chatcmpl-1", "choices": [choice]})
        if kind == 1:
            return openai_fragment(index, "")  # an empty fragment: no delta
        return b": keep-alive\n\n"
    if kind == 0:
        return bedrock_line(
            {"contentBlockDelta": {"contentBlockIndex": 99, "delta": {"text": "hm"}}}
        )
    if kind == 1:
        return bedrock_fragment(index, "")
    return b"\n"


def feeder(acc: ToolCallAccumulator, fmt: str) -> Any:
    """The entry point that format's events go through."""
    return {"bedrock-lines": acc.feed_lines, "bedrock": acc.feed}.get(fmt, acc.feed_sse)


@contextlib.contextmanager
def on_backend(backend: str) -> Iterator[None]:
    """Accumulators made inside run their engines on `backend` ($JSONDRIP_BACKEND)."""
    saved = os.environ.get("JSONDRIP_BACKEND")
    os.environ["JSONDRIP_BACKEND"] = backend
    try:
        yield
    finally:
        if saved is None:
            del os.environ["JSONDRIP_BACKEND"]
        else:
            os.environ["JSONDRIP_BACKEND"] = saved


def run(fmt: str, chunks: list[Any], with_lane: bool, **options: Any) -> list[Any]:
    """What each call returns, snapshotted, then `finish()`'s events and the calls."""
    saved = lane.ENABLED
    lane.ENABLED = with_lane
    try:
        acc = ToolCallAccumulator(format=fmt.replace("-lines", ""), **options)
        feed = feeder(acc, fmt)
        out = [snapshot(feed(chunk)) for chunk in chunks]
        out.append(snapshot(acc.finish()))
    finally:
        lane.ENABLED = saved
    out.append([(c.arguments, c.raw, c.error, c.complete) for c in acc.tool_calls])
    return out


# -- the lane is taken ------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_lane_takes_the_common_event(
    make_acc, backend: str, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test below compares the lane with the long way; this one checks it is taken: the
    shortcut's chunk check runs only until the lane is armed (on both backends; boto3's dicts
    have a lane where the native `DictMatcher` is, the native backend)."""
    checks: list[Any] = []
    for name in ("match_chunk", "match_line"):
        method = getattr(EnvelopeShortcut, name)

        def counting(self: Any, chunk: bytes, method: Any = method) -> bool:
            checks.append(chunk)
            return bool(method(self, chunk))

        monkeypatch.setattr(EnvelopeShortcut, name, counting)
    handle = BedrockHandler.handle

    def counting_handle(self: Any, event: Any) -> Any:  # the long way of `feed(dict)`
        if fmt == "bedrock":
            checks.append(event)
        return handle(self, event)

    monkeypatch.setattr(BedrockHandler, "handle", counting_handle)
    argument = json.dumps({"rows": [{"id": i, "name": f"item {i}"} for i in range(20)]})
    fragments = [argument[i : i + 7] for i in range(0, len(argument), 7)]
    acc = make_acc(format=fmt.replace("-lines", ""))
    feed = feeder(acc, fmt)
    chunks = stream(fmt, [fragments], noise=[])
    for chunk in chunks:
        feed(chunk)
    acc.finish()
    assert acc.tool_calls[0].arguments == json.loads(argument)
    fragment_checks = len(checks) - (len(chunks) - len(fragments))  # others are checked too
    if backend == "native" or fmt != "bedrock":
        assert fragment_checks <= 3, fmt  # learning the skeleton, then the lane
    else:  # boto3's dicts on the python backend: no DictMatcher, the long way each time
        assert fragment_checks >= len(fragments) - 3, fmt


# -- the same events, whatever happens --------------------------------------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(codec="utf-8"), max_size=12),
)
arguments = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=5), inner, max_size=4),
    ),
    max_leaves=15,
)


@st.composite
def fragmented(draw: Any) -> list[str]:
    """An argument document (sometimes broken) cut into fragments."""
    text = json.dumps(draw(arguments), ensure_ascii=draw(st.booleans()))
    if draw(st.integers(0, 4)) == 0:  # a character that makes it invalid
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["}", "x", ",", '"', "]]", "\\"])) + text[at:]
    cuts = sorted(draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=12, unique=True)))
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)]) if text[a:b]]


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    fmt=st.sampled_from(FORMATS),
    calls=st.lists(fragmented(), min_size=1, max_size=3),
    noise=st.lists(st.integers(1, 40), max_size=6),
    limit=st.sampled_from([None, None, 30, 80]),
    schema=st.booleans(),
)
def test_with_and_without_the_lane_every_call_returns_the_same(
    backend: str,
    fmt: str,
    calls: list[list[str]],
    noise: list[int],
    limit: int | None,
    schema: bool,
) -> None:
    tools = None
    if schema:  # objects whose properties are numbers: most documents break it somewhere
        params = {"type": "object", "additionalProperties": {"type": "number"}}
        tools = [{"name": "f", "input_schema": params}]
    chunks = stream(fmt, calls, noise)
    options = {"max_arguments_size": limit, "tools": tools}
    with on_backend(backend):
        assert run(fmt, chunks, True, **options) == run(fmt, chunks, False, **options)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_clock_ends_a_call_the_lane_was_feeding(backend: str, fmt: str) -> None:
    """An idle call ended by the clock between two fragments: the lane is dropped, and the
    next fragments go the long way (which ignores them: the call has ended)."""

    def feed_all(with_lane: bool) -> list[Any]:
        now = [0.0]
        saved = lane.ENABLED
        lane.ENABLED = with_lane
        try:
            acc = ToolCallAccumulator(format=fmt.replace("-lines", ""), clock=lambda: now[0])
            feed = feeder(acc, fmt)
            out = []
            for chunk in stream(fmt, [['{"a": "', "x" * 3, "y" * 3, "z" * 3, '"}']], noise=[]):
                now[0] += 100.0 if "zzz" in str(chunk) else 1.0  # a long pause before "zzz"
                out.append(snapshot(feed(chunk)))
            out.append(snapshot(acc.finish()))
        finally:
            lane.ENABLED = saved
        return out

    with on_backend(backend):
        with_lane = feed_all(True)
        assert with_lane == feed_all(False)
    assert "timed out" in str(with_lane)


def test_a_dict_changed_after_it_was_fed_changes_nothing() -> None:
    """boto3 yields new dicts; a caller that reuses one dict and changes it between feeds
    must still be read as the long way reads it: the lane keeps its own copy of the shape."""

    def feed_all(with_lane: bool) -> list[Any]:
        saved = lane.ENABLED
        lane.ENABLED = with_lane
        try:
            acc = ToolCallAccumulator(format="bedrock")
            out = [snapshot(acc.feed(e)) for e in stream("bedrock", [["{", '"a": 1']], [])[:4]]
            event = {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {}}}}
            for index, text in [(0, ', "b": '), (1, "2"), (0, "3"), (0, "}")]:
                event["contentBlockDelta"]["contentBlockIndex"] = index
                event["contentBlockDelta"]["delta"]["toolUse"]["input"] = text
                out.append(snapshot(acc.feed(event)))
            out.append(snapshot(acc.feed({"contentBlockStop": {"contentBlockIndex": 0}})))
            out.append(snapshot(acc.finish()))
            out.append([(c.arguments, c.raw, c.error, c.complete) for c in acc.tool_calls])
        finally:
            lane.ENABLED = saved
        return out

    with_lane = feed_all(True)
    assert with_lane == feed_all(False)
    assert with_lane[-1] == [({"a": 1, "b": 3}, '{"a": 1, "b": 3}', None, True)]
