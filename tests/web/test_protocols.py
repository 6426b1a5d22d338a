"""The Vercel AI SDK UI message stream and AG-UI adapters, on every recorded stream: the raw
argument text arrives unchanged, the parsed arguments are the accumulator's, jsondrip's changes
rebuild them, and AG-UI's STATE_DELTA patches apply with python-json-patch (RFC 6902)."""

from __future__ import annotations

import json
from typing import Any

import jsonpatch
import pytest
from _web_support import feed_recording, stream_names

import jsondrip
from jsondrip.toolcalls import ToolCallAccumulator
from jsondrip.web._parts import call_id
from jsondrip.web.agui import AGUIStream, agui_sse
from jsondrip.web.vercel import UIMessageStream, finish_reason, ui_message_sse

# The keys each chunk type may have (the SDK validates chunks with strict objects).
VERCEL_KEYS = {
    "start": {"type", "messageId", "messageMetadata"},
    "start-step": {"type"},
    "finish-step": {"type"},
    "finish": {"type", "finishReason", "messageMetadata"},
    "text-start": {"type", "id", "providerMetadata"},
    "text-delta": {"type", "id", "delta", "providerMetadata"},
    "text-end": {"type", "id", "providerMetadata"},
    "reasoning-start": {"type", "id", "providerMetadata"},
    "reasoning-delta": {"type", "id", "delta", "providerMetadata"},
    "reasoning-end": {"type", "id", "providerMetadata"},
    "tool-input-start": {"type", "toolCallId", "toolName", "providerExecuted", "dynamic", "title"},
    "tool-input-delta": {"type", "toolCallId", "inputTextDelta"},
    "tool-input-available": {"type", "toolCallId", "toolName", "input", "providerExecuted"},
    "tool-input-error": {
        "type",
        "toolCallId",
        "toolName",
        "input",
        "providerExecuted",
        "errorText",
    },
    "data-jsondrip-changes": {"type", "id", "data", "transient"},
}


def frames_to_payloads(frames: list[str]) -> list[Any]:
    assert all(f.startswith("data: ") and f.endswith("\n\n") and "\n" not in f[:-2] for f in frames)
    return [f[6:-2] if f[6:-2] == "[DONE]" else json.loads(f[6:-2]) for f in frames]


@pytest.fixture(params=stream_names())
def recorded(request: pytest.FixtureRequest, backend: str, monkeypatch: pytest.MonkeyPatch):
    from conftest import corpus_dir

    monkeypatch.setenv("JSONDRIP_BACKEND", backend)
    return feed_recording(corpus_dir("streams") / request.param)


def test_vercel_ui_message_stream(recorded: tuple[list[list[Any]], ToolCallAccumulator]) -> None:
    events, accumulator = recorded
    chunks = frames_to_payloads(list(ui_message_sse(events, changes=True)))
    assert chunks[-1] == "[DONE]"
    chunks = chunks[:-1]
    for chunk in chunks:
        assert set(chunk) <= VERCEL_KEYS[chunk["type"]], chunk
    assert chunks[0]["type"] == "start" and chunks[-1]["type"] == "finish"
    raw: dict[str, str] = {}
    rebuilt: dict[str, Any] = {}
    final: dict[str, dict[str, Any]] = {}
    open_parts: set[str] = set()
    for chunk in chunks:
        kind = chunk["type"]
        if kind.endswith("-start") and kind in ("text-start", "reasoning-start"):
            open_parts.add(chunk["id"])
        elif kind.endswith("-delta") and kind != "tool-input-delta":
            assert chunk["id"] in open_parts
        elif kind in ("text-end", "reasoning-end"):
            open_parts.remove(chunk["id"])
        elif kind == "tool-input-start":
            raw[chunk["toolCallId"]] = ""
            rebuilt[chunk["toolCallId"]] = jsondrip.MISSING
        elif kind == "tool-input-delta":
            raw[chunk["toolCallId"]] += chunk["inputTextDelta"]
        elif kind == "data-jsondrip-changes":
            key = chunk["data"]["toolCallId"]
            changes = [jsondrip.Change(*c) for c in chunk["data"]["changes"]]
            rebuilt[key] = jsondrip.apply_changes(rebuilt[key], changes)
        elif kind in ("tool-input-available", "tool-input-error"):
            assert chunk["toolCallId"] not in final
            final[chunk["toolCallId"]] = chunk
    assert not open_parts
    for call in accumulator.tool_calls:
        key = call_id(call.index, call.id)
        assert raw[key] == call.raw
        chunk = final[key]
        assert chunk["type"] == ("tool-input-available" if call.complete else "tool-input-error")
        assert chunk["toolName"] == call.name
        if call.complete:
            assert chunk["input"] == call.arguments
            if call.raw.strip():  # a call without arguments gets {} only at its end
                assert rebuilt[key] == call.arguments
        else:
            assert chunk["errorText"] == call.error
    text = "".join(c["delta"] for c in chunks if c["type"] == "text-delta")
    events_text = "".join(
        e.text
        for b in events
        for e in b
        if type(e).__name__ == "TextDelta" and isinstance(e.text, str)
    )
    assert text == events_text


@pytest.mark.parametrize("mode", ["custom", "state"])
def test_agui_events(recorded: tuple[list[list[Any]], ToolCallAccumulator], mode: str) -> None:
    events, accumulator = recorded
    out = frames_to_payloads(list(agui_sse(events, thread_id="t", run_id="r", changes=mode)))
    assert out[0] == {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}
    assert out[-1] == {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}
    raw: dict[str, str] = {}
    rebuilt: dict[str, Any] = {}
    ended: list[str] = []
    state: Any = None
    for event in out:
        kind = event["type"]
        if kind == "TOOL_CALL_START":
            assert event["toolCallId"] not in raw
            raw[event["toolCallId"]] = ""
            rebuilt[event["toolCallId"]] = jsondrip.MISSING
        elif kind == "TOOL_CALL_ARGS":
            assert event["toolCallId"] not in ended and event["delta"]
            raw[event["toolCallId"]] += event["delta"]
        elif kind == "TOOL_CALL_END":
            ended.append(event["toolCallId"])
        elif kind == "CUSTOM":
            assert event["name"] == "jsondrip.changes"
            key = event["value"]["toolCallId"]
            changes = [jsondrip.Change(*c) for c in event["value"]["changes"]]
            rebuilt[key] = jsondrip.apply_changes(rebuilt[key], changes)
        elif kind == "STATE_SNAPSHOT":
            state = event["snapshot"]
        elif kind == "STATE_DELTA":
            state = jsonpatch.apply_patch(state, event["delta"])  # RFC 6902, another project's
        elif kind.endswith("_CONTENT"):
            assert event["delta"]
    keys = [call_id(c.index, c.id) for c in accumulator.tool_calls]
    # every call ends once, not always in the order they started (parallel calls)
    assert sorted(ended) == sorted(keys) and len(set(ended)) == len(ended)
    assert list(raw) == keys
    for call, key in zip(accumulator.tool_calls, keys):
        assert raw[key] == call.raw
        arguments = None if call.arguments is jsondrip.MISSING else call.arguments
        if mode == "state":
            assert state["toolCalls"][key] == arguments
        elif call.complete and call.raw.strip():
            assert rebuilt[key] == call.arguments
    if mode == "state":
        assert list(state["toolCalls"]) == keys


def test_state_mode_carries_a_growing_string_whole_each_time() -> None:
    """JSON Patch has no append: the cost the CUSTOM events avoid."""
    acc = ToolCallAccumulator(format="anthropic")
    stream = AGUIStream(thread_id="t", run_id="r", changes="state")
    start = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "tool_use", "id": "x", "name": "f", "input": {}},
    }
    out = stream.encode(acc.feed(start))
    for part in ['{"code": "ab', "cd", 'ef"}']:
        delta = {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": part},
        }
        out += stream.encode(acc.feed(delta))
    patches = [e["delta"] for e in out if e["type"] == "STATE_DELTA"]
    assert patches == [
        [{"op": "add", "path": "/toolCalls/x", "value": None}],
        [
            {"op": "replace", "path": "/toolCalls/x", "value": {}},
            {"op": "add", "path": "/toolCalls/x/code", "value": "ab"},
        ],
        [{"op": "replace", "path": "/toolCalls/x/code", "value": "abcd"}],
        [{"op": "replace", "path": "/toolCalls/x/code", "value": "abcdef"}],
    ]


def test_bad_changes_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="changes must be 'custom', 'state' or None, not 'patch'"):
        AGUIStream(thread_id="t", run_id="r", changes="patch")


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        ("tool_calls", "tool-calls"),
        ("end_turn", "stop"),
        ("max_tokens", "length"),
        ("pause_turn", "other"),
        (None, None),
    ],
)
def test_finish_reasons(reason: str | None, expected: str | None) -> None:
    assert finish_reason(reason) == expected


def test_empty_stream_is_a_whole_message() -> None:
    stream = UIMessageStream(message_id="m")
    assert stream.encode([]) == []
    assert stream.close() == [
        {"type": "start", "messageId": "m"},
        {"type": "start-step"},
        {"type": "finish-step"},
        {"type": "finish"},
    ]
