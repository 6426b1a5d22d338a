"""A call whose arguments are proven invalid ends at once (#30 item 3), and the changes of
every delta, the refused fragment's included, rebuild its preview (#30 item 4).

Every format that streams argument text, through `feed_sse` (the shortcut, and on the
native backend the lane) and through `feed` (dicts: the dict lane for Bedrock), with and
without a schema; Vertex's pieces out of order; fences; and random broken documents cut
anywhere on both backends.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from _toolcall_support import make_acc_fixture  # noqa: F401 - make_acc is a fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jsondrip
from jsondrip.toolcalls import (
    StreamDone,
    ToolCallAccumulator,
    ToolCallDelta,
    ToolCallDone,
    ToolCallStarted,
)

GOOD = ['{"a": "', "xxxxx", "xxxxx", "xxxxx", "xxxxx"]
BAD = '" 5'  # the fragment that proves the text can never be JSON
LATER = [', "b": 6}', "}"]  # what the model goes on writing: tokens spent for nothing
RAW = "".join(GOOD) + BAD


def _invalid(text: str) -> str:
    """The call's error for `text`: json.loads's own message on this interpreter (PyPy's json
    words it differently, and the twin speaks the running interpreter's dialect)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return f"invalid JSON: {error}"
    raise AssertionError(f"{text!r} is JSON")


ERROR = _invalid(RAW)  # CPython: Expecting ',' delimiter: line 1 column 30 (char 29)
PREVIEW = {"a": "x" * 20}


def _openai_chat(fragments: list[str]) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [choice]}

    events = []
    for number, text in enumerate(fragments):
        call: dict[str, Any] = {"index": 0, "function": {"arguments": text}}
        if number == 0:
            call.update(id="call_1", type="function")
            call["function"]["name"] = "f"
        events.append(chunk({"tool_calls": [call]}))
    return [*events, chunk({}, "tool_calls")]


def _openai_responses(fragments: list[str]) -> list[dict[str, Any]]:
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f"}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "resp_1"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**item, "arguments": ""},
        },
    ]
    for text in fragments:
        events.append(
            {
                "type": "response.function_call_arguments.delta",
                "item_id": "fc_1",
                "output_index": 0,
                "delta": text,
            }
        )
    whole = "".join(fragments)
    return [
        *events,
        {"type": "response.function_call_arguments.done", "item_id": "fc_1", "arguments": whole},
        {"type": "response.output_item.done", "item": {**item, "arguments": whole}},
        {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}},
    ]


def _anthropic(fragments: list[str]) -> list[dict[str, Any]]:
    block = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": {"id": "msg_1", "type": "message"}},
        {"type": "content_block_start", "index": 0, "content_block": block},
    ]
    for text in fragments:
        delta = {"type": "input_json_delta", "partial_json": text}
        events.append({"type": "content_block_delta", "index": 0, "delta": delta})
    return [
        *events,
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
        {"type": "message_stop"},
    ]


def _interactions(fragments: list[str]) -> list[dict[str, Any]]:
    step = {"type": "function_call", "id": "fc_1", "name": "f", "arguments": ""}
    events: list[dict[str, Any]] = [
        {"event_type": "interaction.start", "interaction": {"id": "i1"}},
        {"event_type": "step.start", "index": 0, "step": step},
    ]
    for text in fragments:
        events.append({"event_type": "step.delta", "index": 0, "delta": {"arguments": text}})
    return [
        *events,
        {"event_type": "step.stop", "index": 0},
        {"event_type": "interaction.complete", "interaction": {"status": "completed"}},
    ]


def _bedrock(fragments: list[str]) -> list[dict[str, Any]]:
    tool = {"toolUseId": "t1", "name": "f"}
    events: list[dict[str, Any]] = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse": tool}}},
    ]
    for text in fragments:
        body = {"contentBlockIndex": 0, "delta": {"toolUse": {"input": text}}}
        events.append({"contentBlockDelta": body})
    return [
        *events,
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"messageStop": {"stopReason": "tool_use"}},
    ]


def _cohere(fragments: list[str]) -> list[dict[str, Any]]:
    def message(**fields: Any) -> dict[str, Any]:
        return {"message": fields}

    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": ""}}
    events: list[dict[str, Any]] = [
        {"type": "message-start", "id": "m1", "delta": message(role="assistant")},
        {"type": "tool-call-start", "index": 0, "delta": message(tool_calls=call)},
    ]
    for text in fragments:
        delta = message(tool_calls={"function": {"arguments": text}})
        events.append({"type": "tool-call-delta", "index": 0, "delta": delta})
    return [
        *events,
        {"type": "tool-call-end", "index": 0},
        {"type": "message-end", "delta": {"finish_reason": "TOOL_CALL"}},
    ]


STREAMS = {
    "openai-chat": _openai_chat,
    "openai-responses": _openai_responses,
    "anthropic": _anthropic,
    "gemini-interactions": _interactions,
    "bedrock": _bedrock,
    "cohere": _cohere,
}
SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "number"}}}


def _sse(event: dict[str, Any]) -> bytes:
    kind = event.get("type")
    head = f"event: {kind}\n" if isinstance(kind, str) else ""
    return f"{head}data: {json.dumps(event)}\n\n".encode()


def _check(acc: ToolCallAccumulator, batches: list[list[Any]]) -> None:
    """The call ended in the batch of the refused fragment, and nothing came after it."""
    bad = next(n for n, batch in enumerate(batches) if any(type(e) is ToolCallDone for e in batch))
    batch = batches[bad]
    deltas = [e for e in batch if type(e) is ToolCallDelta]
    assert [e.arguments_delta for e in deltas][-1:] == [BAD]
    done = [e for e in batch if type(e) is ToolCallDone]
    assert batch.index(done[0]) == batch.index(deltas[-1]) + 1  # at once, after its delta
    call = done[0].tool_call
    assert (call.complete, call.error, call.raw, call.arguments) == (False, ERROR, RAW, PREVIEW)
    later = [e for batch in batches[bad + 1 :] for e in batch]
    assert not [e for e in later if type(e) in (ToolCallStarted, ToolCallDelta, ToolCallDone)]
    assert [type(e) for e in later] == [StreamDone]
    assert acc.ignored_fragments == len(LATER)
    assert acc.tool_calls == [call]


@pytest.mark.parametrize("tools", [None, [{"name": "f", "input_schema": SCHEMA}]])
@pytest.mark.parametrize("entry", ["feed_sse", "feed"])
@pytest.mark.parametrize("fmt", sorted(STREAMS))
def test_item3_invalid_arguments_end_the_call_at_once(
    make_acc, backend: str, fmt: str, entry: str, tools: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#30 item 3: `{"a": "xx..." 5` can never be JSON: `ToolCallDone` (complete=False, the
    positioned error) comes with the fragment that proved it, not when the provider closes
    the call; the later fragments are dropped and counted, never raised. With a schema too."""
    lane_failures: list[Any] = []
    failed = ToolCallAccumulator._lane_failed

    def spy(self: Any, *args: Any) -> Any:
        lane_failures.append(args)
        return failed(self, *args)

    monkeypatch.setattr(ToolCallAccumulator, "_lane_failed", spy)
    acc = make_acc(format=fmt, tools=tools)
    events = STREAMS[fmt]([*GOOD, BAD, *LATER])
    feed = acc.feed_sse if entry == "feed_sse" else acc.feed
    batches = [feed(_sse(event) if entry == "feed_sse" else event) for event in events]
    batches.append(acc.finish())
    _check(acc, batches)
    lanes = {("feed_sse", "anthropic"), ("feed_sse", "openai-chat"), ("feed", "bedrock")}
    # lanes run on both backends; boto3's dicts have one where the native DictMatcher is
    if (entry, fmt) in lanes and (backend == "native" or entry == "feed_sse"):
        assert lane_failures, "the refused fragment came through the lane"


def test_item3_bedrock_lines_and_the_line_lane(make_acc) -> None:
    """#30 item 3 through `feed_lines` (Bedrock's JSON lines: the line lane)."""
    acc = make_acc(format="bedrock")
    lines = [(json.dumps(e) + "\n").encode() for e in _bedrock([*GOOD, BAD, *LATER])]
    batches = [acc.feed_lines(line) for line in lines]
    batches.append(acc.finish())
    _check(acc, batches)


def test_item3_a_second_call_at_the_same_index_is_a_new_call(make_acc) -> None:
    """#30 item 3: after a call at index 0 ended invalid, a fragment naming a tool with a new
    id at index 0 (servers that put every call there) starts a new call."""
    acc = make_acc(format="openai-chat")
    events = _openai_chat([*GOOD, BAD])[:-1]
    second = copy.deepcopy(events[0])
    second["choices"][0]["delta"]["tool_calls"][0].update(id="call_2")
    second["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"] = "{}"
    for event in [*events, second, _openai_chat(["x"])[-1]]:
        acc.feed(event)
    acc.finish()
    first, then = acc.tool_calls
    assert (first.error, then.id, then.arguments, then.complete) == (ERROR, "call_2", {}, True)
    assert acc.ignored_fragments == 0


def test_item3_ollama_arguments_as_an_invalid_string(make_acc) -> None:
    """#30 item 3: Ollama's arguments come whole; as a string that is not JSON (some proxies)
    the call ends at once, before the response's `done`."""
    acc = make_acc(format="ollama")
    call = {"function": {"name": "f", "arguments": '{"a": 1 2}'}}
    line = {"model": "m", "message": {"role": "assistant", "tool_calls": [call]}, "done": False}
    events = acc.feed(line)
    done = [e for e in events if type(e) is ToolCallDone]
    assert len(done) == 1
    assert done[0].tool_call.error == _invalid('{"a": 1 2}')  # column 9 (char 8)
    assert not done[0].tool_call.complete


def test_item3_vertex_pieces_after_one_out_of_order_are_counted(make_acc) -> None:
    """#30 item 3 for Vertex: a `partialArgs` piece out of document order ends the call at
    once (as before); the call's later pieces are now counted as ignored."""

    def chunk(call: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        candidate: dict[str, Any] = {
            "content": {"role": "model", "parts": [{"functionCall": call}]}
        }
        if finish:
            candidate["finishReason"] = finish
        return {"candidates": [candidate], "responseId": "r1"}

    def pieces(*items: dict[str, Any]) -> dict[str, Any]:
        return chunk({"partialArgs": list(items), "willContinue": True})

    acc = make_acc(format="gemini")
    events = [
        chunk({"name": "f", "willContinue": True}),
        pieces({"jsonPath": "$.b", "numberValue": 1}),
        pieces({"jsonPath": "$.a[1]", "numberValue": 2}),  # element 1 before element 0
        pieces({"jsonPath": "$.c", "numberValue": 3}),
        pieces({"jsonPath": "$.d", "numberValue": 4}),
        chunk({}, "STOP"),
    ]
    out = [e for event in events for e in acc.feed(event)] + acc.finish()
    (call,) = acc.tool_calls
    assert call.error is not None and call.error.startswith("invalid JSON: partialArgs")
    assert sum(type(e) is ToolCallDone for e in out) == 1
    assert acc.ignored_fragments == 2


# -- item 4: the changes rebuild every preview, after an error too ----------------------------


def _replayed(acc: ToolCallAccumulator, pieces: list[str]) -> None:
    """Feed `pieces` as one openai-chat call; after each feed, the changes of every delta so
    far, applied in order, equal the preview; at the end, the final arguments."""
    doc: Any = jsondrip.MISSING
    for event in _openai_chat(pieces):
        for delta in acc.feed(event):
            if type(delta) is ToolCallDelta:
                doc = jsondrip.apply_changes(doc, delta.changes)
                assert doc == delta.preview, (pieces, delta)
    acc.finish()
    (call,) = acc.tool_calls
    assert doc == call.arguments or (doc is jsondrip.MISSING and call.arguments == {})


@pytest.mark.parametrize(
    "pieces",
    [
        ['{"a": "x', 'yz" 5}'],  # the string grew before the refused character
        ['{"a": [1, {"b": "c', 'd"}, "e"', " x"],  # new members, then refused
        ['{"a": 1', ', "b": {"c": [true, "z"]} }', " more"],  # whole containers, then extra
        ['```json\n{"a": "x', 'y"}\n```', " trailing"],  # a fence, then text after it
        ['```json\n{"a": "x', 'y" 1'],  # refused inside a fence
        ['{"a": "x\\', 'q"}'],  # a bad escape split across fragments
        ["[1, 2, 3", "]]"],
    ],
)
def test_item4_changes_rebuild_the_preview_after_an_error(make_acc, pieces: list[str]) -> None:
    """#30 item 4: the refused fragment's delta carries what it changed before the parser
    stopped (`"yz"` grew the string), so applying every delta's changes gives its preview."""
    _replayed(make_acc(format="openai-chat"), pieces)


def test_item4_a_schema_violation_keeps_the_changes_too(make_acc) -> None:
    """#30 item 4 with a schema: the violating fragment's delta rebuilds its preview."""
    tools = [{"name": "f", "parameters": {"type": "object", "additionalProperties": False}}]
    acc = make_acc(format="openai-chat", tools=tools)
    _replayed(acc, ['{"', 'a": "x', '", "b": 1}'])
    assert acc.tool_calls[0].error.startswith("schema: ")


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(codec="utf-8"), max_size=8),
)
_documents = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def _broken(draw: Any) -> list[str]:
    """A document (a fence around it, sometimes), a character that breaks it, cut anywhere."""
    text = json.dumps(draw(_documents), ensure_ascii=draw(st.booleans()))
    at = draw(st.integers(0, len(text)))
    text = text[:at] + draw(st.sampled_from(["}", "x", ",", '"', "]]", "\\", " 1"])) + text[at:]
    if draw(st.booleans()):
        text = "```json\n" + text + "\n```"
    cuts = sorted(draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=10, unique=True)))
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)]) if text[a:b]]


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(pieces=_broken(), schema=st.booleans())
def test_item4_changes_rebuild_every_preview_of_random_broken_calls(
    backend: str, pieces: list[str], schema: bool
) -> None:
    """#30 item 4 over random broken documents, fenced or not, with or without a schema that
    most of them break: every delta's changes rebuild its preview."""
    tools = None
    if schema:
        params = {"type": "object", "additionalProperties": {"type": "number"}}
        tools = [{"name": "f", "parameters": params}]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JSONDRIP_BACKEND", backend)
        _replayed(ToolCallAccumulator(format="openai-chat", tools=tools), pieces)
