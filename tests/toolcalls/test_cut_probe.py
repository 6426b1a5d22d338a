"""The cut probe: every recorded tool stream cut at every event boundary and at random bytes.

After `finish()`, a call may be complete only if the provider closed it before the cut (its own
close event or its response's end, as `_corpus_reader.close_points` reads the file), and then
it is exactly the call of the whole stream. `finish()` and `abort()` themselves never complete
a call: every `ToolCallDone` they emit is incomplete, with the error that says why.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from _corpus_reader import close_points, decoded_events
from _toolcall_support import make_acc_fixture, stream_files, stream_path  # noqa: F401

from jsondrip.toolcalls import ToolCallDone
from jsondrip.toolcalls.calls import INCOMPLETE

TOOL_STREAMS = [n for n in stream_files() if not n.startswith("<")]
MAX_BOUNDARIES = 120  # event boundaries cut in a long stream (all of them in a short one)
RANDOM_CUTS = 40


def framed(name: str) -> tuple[bytes, list[int]]:
    """The file's events as SSE bytes, and the byte offset where each event ends."""
    out = bytearray()
    ends = []
    for event in decoded_events(stream_path(name)):
        out += f"data: {json.dumps(event, ensure_ascii=False)}\n\n".encode()
        ends.append(len(out))
    return bytes(out), ends


def whole_calls(make_acc: Any, data: bytes) -> list[tuple[Any, ...]]:
    acc = make_acc()
    acc.feed_sse(data)
    acc.finish()
    return [_summary(c) for c in acc.tool_calls]


def _summary(call: Any) -> tuple[Any, ...]:
    return (call.index, call.id, call.name, call.kind, call.arguments, call.raw, call.complete)


def check_cut(
    make_acc: Any,
    data: bytes,
    cut: int,
    ends: list[int],
    closes: list[Any],
    whole: list[tuple[Any, ...]],
) -> tuple[int, int]:
    """Feed `data[:cut]`, then finish() on one accumulator and abort() on another."""
    events_in = sum(end <= cut for end in ends)
    complete = 0
    for ending in ("finish", "abort"):
        acc = make_acc()
        acc.feed_sse(data[:cut])
        last = getattr(acc, ending)()
        for event in last:
            if type(event) is ToolCallDone:
                call = event.tool_call
                assert not call.complete, (ending, cut, call)
                assert call.error, (ending, cut, call)
                if ending == "abort":
                    assert call.error.startswith("aborted"), call.error
        for call in acc.tool_calls:
            if not call.complete:
                continue
            closed_at = closes[call.index]
            assert closed_at is not None and closed_at < events_in, (ending, cut, call)
            assert _summary(call) == whole[call.index], (ending, cut)
            complete += ending == "finish"
    return events_in, complete


@pytest.mark.parametrize("name", TOOL_STREAMS)
def test_no_call_is_complete_unless_the_provider_closed_it(make_acc, name: str) -> None:
    closes = close_points(stream_path(name))
    if not closes:
        pytest.skip("no tool call in this stream")
    data, ends = framed(name)
    whole = whole_calls(make_acc, data)
    assert all(row[-1] for row in whole) or "truncated" in name
    rng = random.Random(name)
    boundaries = ends
    if len(ends) > MAX_BOUNDARIES:  # the long streams: around every close, and a sample
        near = {ends[i] for c in closes if c is not None for i in (c - 1, c, c + 1)}
        boundaries = sorted(near.union(rng.sample(ends, MAX_BOUNDARIES)))
    cuts = [0, *boundaries, *(rng.randrange(len(data)) for _ in range(RANDOM_CUTS))]
    cuts += [end - 1 for end in boundaries]  # inside the blank line that ends each event
    seen_incomplete = seen_complete = 0
    for cut in sorted(set(cuts)):
        events_in, complete = check_cut(make_acc, data, cut, ends, closes, whole)
        seen_complete += complete
        seen_incomplete += events_in > 0 and complete < len(whole)
    # the probe saw both sides: calls not yet closed, and calls closed before the cut
    assert seen_incomplete > 0
    assert seen_complete > 0 or "truncated" in name


def test_the_issue_example_a_started_call_cut_is_not_complete(make_acc) -> None:
    acc = make_acc()
    acc.feed_sse(
        b'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1",'
        b'"function":{"name":"get_weather","arguments":""}}]}}]}\n\n'
    )
    (done,) = [e for e in acc.finish() if type(e) is ToolCallDone]
    assert (done.tool_call.complete, done.tool_call.error) == (False, INCOMPLETE)
    assert INCOMPLETE == "incomplete: the stream ended before the provider closed the call"


@pytest.mark.parametrize(
    "events",
    [
        [  # Anthropic: content_block_start and nothing more; then a whole document, unclosed
            {"type": "message_start", "message": {"id": "m"}},
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "tool_use", "id": "t", "name": "f", "input": {}},
            },
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": '{"a": 1}'},
            },
        ],
        [  # Responses: output_item.added, arguments complete, never done
            {"type": "response.created", "response": {"id": "r"}},
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": {"type": "function_call", "id": "fc", "call_id": "c", "name": "f"},
            },
            {"type": "response.function_call_arguments.delta", "item_id": "fc", "delta": "{}"},
        ],
        [  # Gemini: a whole call without its finishReason
            {"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {}}}]}}]}
        ],
        [  # Vertex: willContinue never ended
            {
                "candidates": [
                    {"content": {"parts": [{"functionCall": {"name": "f", "willContinue": True}}]}}
                ]
            },
            {
                "candidates": [
                    {
                        "content": {
                            "parts": [
                                {
                                    "functionCall": {
                                        "partialArgs": [{"jsonPath": "$.a", "numberValue": 1}],
                                        "willContinue": True,
                                    }
                                }
                            ]
                        }
                    }
                ]
            },
        ],
        [  # Bedrock: the block never stopped
            {"messageStart": {"role": "assistant"}},
            {
                "contentBlockStart": {
                    "contentBlockIndex": 0,
                    "start": {"toolUse": {"toolUseId": "t", "name": "f"}},
                }
            },
            {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{}"}}}},
        ],
        [  # Cohere: no tool-call-end
            {"type": "message-start", "id": "m", "delta": {}},
            {
                "type": "tool-call-start",
                "index": 0,
                "delta": {
                    "message": {
                        "tool_calls": {"id": "t", "function": {"name": "f", "arguments": "{}"}}
                    }
                },
            },
        ],
        [  # Ollama: the call, but no `done` line
            {
                "model": "m",
                "created_at": "t",
                "done": False,
                "message": {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}],
                },
            },
        ],
    ],
    ids=["anthropic", "responses", "gemini", "vertex", "bedrock", "cohere", "ollama"],
)
def test_a_complete_document_the_provider_did_not_close_is_incomplete(make_acc, events) -> None:
    acc = make_acc()
    for event in events:
        acc.feed(event)
    done = [e.tool_call for e in acc.finish() if type(e) is ToolCallDone]
    assert [(c.name, c.complete, c.error) for c in done] == [("f", False, INCOMPLETE)]
