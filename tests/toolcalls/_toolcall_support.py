"""Helpers for the tool-call tests: a per-backend accumulator, event builders, the corpus.

Backends: `ToolCallAccumulator` keeps the issue's signature and makes its parsers with
`jsondrip.Parser()`, which honours `JSONDRIP_BACKEND`; the `make_acc` fixture sets that
variable from the shared `backend` fixture (both backends) and checks it took effect.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import pytest
from conftest import corpus_dir

import jsondrip
from jsondrip.toolcalls import (
    ReasoningDelta,
    StreamDone,
    TextDelta,
    ToolCallAccumulator,
    ToolCallDelta,
    ToolCallDone,
    ToolCallStarted,
)

MakeAcc = Callable[..., ToolCallAccumulator]


@pytest.fixture(name="make_acc")
def make_acc_fixture(backend: str, monkeypatch: pytest.MonkeyPatch) -> MakeAcc:
    """A factory of accumulators whose parsers run on `backend`."""
    monkeypatch.setenv("JSONDRIP_BACKEND", backend)
    assert jsondrip.Parser().backend == backend

    def make(**options: Any) -> ToolCallAccumulator:
        return ToolCallAccumulator(**options)

    return make


@pytest.fixture(name="unlearned")
def unlearned_fixture() -> None:
    """No skeleton learned yet: the streams of a format share what they learn
    (`shortcut.Envelope.routes`), so a test that counts what a first stream decodes starts
    with none."""
    from jsondrip.toolcalls import anthropic, bedrock, gemini, openai_chat

    for module in (anthropic, bedrock, gemini, openai_chat):
        module.ENVELOPE.routes.clear()


def snapshot_events(events: list[Any]) -> list[Any]:
    """The events as plain values, previews copied as they were when emitted (a delta's
    preview is live: take this right after the feed that returned it)."""
    out: list[Any] = []
    for e in events:
        if type(e) is ToolCallDelta:
            out.append(
                ("delta", e.index, e.id, e.name, e.arguments_delta, copy.deepcopy(e.preview))
            )
            out.append(("changes", copy.deepcopy(e.changes)))
        elif type(e) is ToolCallDone:
            c = e.tool_call
            out.append(("done", c.index, c.id, c.name, c.arguments, c.raw, c.error, c.complete))
        else:
            out.append(e)
    return out


def outcome(acc: ToolCallAccumulator) -> list[tuple[Any, ...]]:
    """Each call as (index, id, name, arguments, raw, error, complete)."""
    return [
        (c.index, c.id, c.name, c.arguments, c.raw, c.error, c.complete) for c in acc.tool_calls
    ]


def texts(events: list[Any]) -> tuple[dict[int, str], str]:
    """The text per choice, and all reasoning, joined from the events."""
    text: dict[int, str] = {}
    reasoning = ""
    for event in events:
        if type(event) is TextDelta:
            text[event.choice] = text.get(event.choice, "") + event.text
        elif type(event) is ReasoningDelta:
            reasoning += event.text
    return text, reasoning


def check_lifecycle(acc: ToolCallAccumulator, events: list[Any]) -> None:
    """Every call: one Started first, Deltas whose text joins to `raw`, one Done last."""
    for call in acc.tool_calls:
        mine = [
            e
            for e in events
            if (type(e) is ToolCallDone and e.tool_call is call)
            or (type(e) in (ToolCallStarted, ToolCallDelta) and e.index == call.index)
        ]
        assert type(mine[0]) is ToolCallStarted, mine[:1]
        assert type(mine[-1]) is ToolCallDone, mine[-1:]
        assert sum(type(e) is ToolCallDone for e in mine) == 1
        assert sum(type(e) is ToolCallStarted for e in mine) == 1
        deltas = "".join(e.arguments_delta for e in mine if type(e) is ToolCallDelta)
        if not call.error or not call.error.startswith(("too large", "timed out")):
            assert deltas == call.raw


# -- corpus ---------------------------------------------------------------------------------


def stream_files() -> list[str]:
    """The names of the recorded streams (or none, without the corpus)."""
    from conftest import CORPUS

    folder = CORPUS / "streams"
    if not folder.is_dir():
        return ["<corpus missing>"]
    return sorted(p.name for p in folder.iterdir() if p.suffix in (".sse", ".jsonl"))


def stream_path(name: str) -> Path:
    """The path of a recorded stream; skips when the corpus is absent."""
    return corpus_dir("streams") / name


def jsonl_events(path: Path) -> list[dict[str, Any]]:
    """The events of a `.chunks.jsonl` file: one JSON payload per non-blank line."""
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def as_sse(path: Path) -> bytes:
    """The stream as SSE bytes: `.sse` as recorded; `.jsonl` framed as `event:` + `data:`."""
    if path.suffix == ".sse":
        return path.read_bytes()
    out = []
    for event in jsonl_events(path):
        kind = event.get("type")
        head = f"event: {kind}\n" if isinstance(kind, str) else ""
        out.append(f"{head}data: {json.dumps(event)}\n\n")
    if "chat" in path.name:
        out.append("data: [DONE]\n\n")
    return "".join(out).encode("utf-8")


def random_cuts(data: bytes, seed: int, pieces: int = 40) -> Iterator[bytes]:
    """`data` cut at random byte positions (also inside UTF-8 sequences and CRLFs)."""
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(data)), min(pieces, len(data) - 1)))
    start = 0
    for cut in [*cuts, len(data)]:
        yield data[start:cut]
        start = cut


def run_sse(acc: ToolCallAccumulator, chunks: Any) -> list[Any]:
    """Feed SSE chunks then finish; all the events."""
    events: list[Any] = []
    for chunk in chunks:
        events += acc.feed_sse(chunk)
    return events + acc.finish()


def stream_done(events: list[Any]) -> list[str | None]:
    """The finish reasons of the StreamDone events."""
    return [e.finish_reason for e in events if type(e) is StreamDone]


# -- event builders -------------------------------------------------------------------------


def chat(*tool_calls: dict[str, Any], finish: str | None = None, choice: int = 0, **delta: Any):
    """A Chat Completions chunk with the given tool-call fragments and delta fields."""
    if tool_calls:
        delta["tool_calls"] = list(tool_calls)
    body = {"index": choice, "delta": delta, "finish_reason": finish}
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [body]}


def frag(index: int | None = None, id: str | None = None, name: str | None = None, args=None):
    """One `delta.tool_calls` fragment; None fields are left out."""
    out: dict[str, Any] = {}
    if index is not None:
        out["index"] = index
    if id is not None:
        out["id"] = id
        out["type"] = "function"
    function: dict[str, Any] = {}
    if name is not None:
        function["name"] = name
    if args is not None:
        function["arguments"] = args
    if function:
        out["function"] = function
    return out


def anthropic_tool(*parts: str, stop: str = "tool_use", id: str = "toolu_1", name: str = "f"):
    """A whole Anthropic message with one tool_use block streaming `parts`."""
    block = {"type": "tool_use", "id": id, "name": name, "input": {}}
    events = [
        {"type": "message_start", "message": {"id": "msg_1", "type": "message"}},
        {"type": "content_block_start", "index": 0, "content_block": block},
    ]
    for part in parts:
        delta = {"type": "input_json_delta", "partial_json": part}
        events.append({"type": "content_block_delta", "index": 0, "delta": delta})
    events += [
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": stop}},
        {"type": "message_stop"},
    ]
    return events


def feed_all(acc: ToolCallAccumulator, events: list[Any]) -> list[Any]:
    """Feed decoded events then finish; all the events."""
    out: list[Any] = []
    for event in events:
        out += acc.feed(event)
    return out + acc.finish()
