"""Helpers of the browser-side tests: recorded streams through the accumulator into SSE frames,
and running Node's test runner on the JavaScript tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import missing

import jsondrip
from jsondrip.cli.source import from_bytes
from jsondrip.toolcalls import ToolCallAccumulator
from jsondrip.web import SSEEncoder

JS_TESTS = Path(__file__).resolve().parent / "js"
NODE_HINT = (
    "node (20 or later) not found: install Node.js (e.g. apt-get install nodejs) to run the "
    "JavaScript tests of jsondrip.js"
)


def wrap(value: Any) -> dict[str, Any]:
    """A value for JSON fixtures: MISSING (JavaScript's undefined) cannot be written as JSON."""
    return {"missing": True} if value is jsondrip.MISSING else {"value": value}


@dataclass
class Recorded:
    """A recorded stream fed to a fresh accumulator the way `jsondrip preview` feeds it."""

    name: str
    frames: list[str] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    text: str = ""
    reasoning: str = ""
    finish_reasons: list[str | None] = field(default_factory=list)


def stream_names() -> list[str]:
    """The recorded streams of the corpus (a placeholder that skips, without the corpus)."""
    from conftest import CORPUS

    folder = CORPUS / "streams"
    if not folder.is_dir():
        return ["<corpus missing>"]
    return sorted(p.name for p in folder.iterdir() if p.suffix in (".sse", ".jsonl"))


def feed_recording(path: Path) -> tuple[list[list[Any]], ToolCallAccumulator]:
    """The accumulator's events for a recording fed event by event (one list per feed, then
    `finish()`'s); skips when this accumulator cannot read its format."""
    source = from_bytes(path.name, path.read_bytes())
    accumulator = ToolCallAccumulator()
    feed = accumulator.feed_sse if source.format == "sse" else accumulator.feed
    batches = []
    try:
        for piece, _delay in source.fragments or []:
            batches.append(feed(piece))
    except ValueError as error:
        if "cannot tell the stream format" in str(error):
            pytest.skip(f"{path.name}: the accumulator does not read this format: {error}")
        raise
    batches.append(accumulator.finish())
    return batches, accumulator


def record(path: Path) -> Recorded:
    """A recording through the accumulator and `SSEEncoder`, with what the page must end with."""
    batches, accumulator = feed_recording(path)
    encoder = SSEEncoder()
    out = Recorded(path.name)
    for batch in batches:
        out.frames += encoder.encode(batch)
    out.frames.append(encoder.frame("end", {}))
    events = [event for batch in batches for event in batch]
    for event in events:
        kind = type(event).__name__
        # a text that is not a str (this accumulator's Mistral content arrays) is passed on
        # as it is, and the page's joined text skips it
        if kind == "TextDelta" and isinstance(event.text, str):
            out.text += event.text
        elif kind == "ReasoningDelta" and isinstance(event.text, str):
            out.reasoning += event.text
        elif kind == "StreamDone":
            out.finish_reasons.append(event.finish_reason)
    out.calls = [
        {
            "index": call.index,
            "id": call.id,
            "name": call.name,
            "kind": getattr(call, "kind", "function"),
            "arguments": wrap(call.arguments),
            "complete": call.complete,
            "error": call.error,
        }
        for call in accumulator.tool_calls
    ]
    return out


def parse_frame(frame: str) -> dict[str, Any]:
    """`{"id", "event", "data"}` of one SSE frame as SSEEncoder writes it."""
    fields: dict[str, Any] = {}
    for line in frame.rstrip("\n").split("\n"):
        name, _, value = line.partition(": ")
        fields[name] = value
    return {"id": fields["id"], "event": fields["event"], "data": json.loads(fields["data"])}


def run_node(test_file: str, fixtures: Any, tmp_path: Path) -> None:
    """Run `node --test` on one file of tests/web/js with the fixtures in its environment."""
    node = shutil.which("node")
    if node is None:
        missing(NODE_HINT)
    path = tmp_path / f"{test_file}.json"
    path.write_text(json.dumps(fixtures, ensure_ascii=False), "utf-8")
    env = {**os.environ, "JSONDRIP_JS_FIXTURES": str(path)}
    result = subprocess.run(
        [node, "--test", "--test-reporter=tap", str(JS_TESTS / test_file)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    failures = [line for line in result.stdout.splitlines() if "not ok" in line]
    assert result.returncode == 0, (
        f"node --test {test_file} failed: {failures}\n{result.stdout[-6000:]}{result.stderr}"
    )
