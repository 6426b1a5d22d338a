"""Every recorded Gemini / Vertex stream gives the same events, chunk for chunk, on both
backends, however it is cut: one SSE event a chunk (the chunk check's way: on the native
backend a Vertex chunk goes from bytes to argument text in Rust), whole, a byte at a time, at
random cuts, and one JSON line a chunk through `feed_lines`. The reference is each chunk's
events decoded in full and fed as dicts to the python backend's accumulator."""

from __future__ import annotations

from typing import Any

import pytest
from _toolcall_support import (  # noqa: F401 - make_acc and unlearned are fixtures
    as_sse,
    make_acc_fixture,
    random_cuts,
    snapshot_events,
    stream_files,
    stream_path,
    unlearned_fixture,
)

import jsondrip
from jsondrip.toolcalls import ToolCallAccumulator
from jsondrip.toolcalls.sse import SSEDecoder

NAMES = [n for n in stream_files() if n.startswith(("gemini_", "vertex-"))] or stream_files()


def sse_events(data: bytes) -> list[bytes]:
    """The SSE body cut after each event's blank line (CRLF or LF)."""
    out, start = [], 0
    for end in range(len(data)):
        if data[end : end + 2] == b"\n\n" or data[end : end + 4] == b"\r\n\r\n":
            stop = end + (2 if data[end] == 10 else 4)
            if stop > start:
                out.append(data[start:stop])
                start = stop
    return [*out, data[start:]] if data[start:] else out


def reference(chunks: list[bytes], lines: bool) -> list[Any]:
    """Each chunk's events decoded in full, fed as dicts (python backend), per chunk."""
    acc = ToolCallAccumulator()
    decoder = SSEDecoder()
    out = []
    for chunk in chunks:
        events: list[Any] = []
        texts = [chunk.decode()] if lines else [e.data for e in decoder.feed(chunk)]
        for text in texts:
            try:
                event = jsondrip.loads(text)
            except ValueError:
                continue  # as feed_sse skips it
            if type(event) is dict:
                events += acc.feed(event)
        out.append(snapshot_events(events))
    return [*out, snapshot_events(acc.finish())]


def fed(acc: ToolCallAccumulator, chunks: list[bytes], lines: bool) -> list[Any]:
    feed = acc.feed_lines if lines else acc.feed_sse
    return [snapshot_events(feed(chunk)) for chunk in chunks] + [snapshot_events(acc.finish())]


@pytest.mark.parametrize("name", NAMES)
def test_recorded_gemini_streams_give_the_same_events_chunk_for_chunk(
    make_acc, monkeypatch: pytest.MonkeyPatch, backend: str, name: str
) -> None:
    path = stream_path(name)
    data = as_sse(path)
    ways: dict[str, tuple[bool, list[bytes]]] = {
        "events": (False, sse_events(data)),
        "whole": (False, [data]),
        "bytes": (False, [data[i : i + 1] for i in range(len(data))]),
        **{f"cut{seed}": (False, list(random_cuts(data, seed))) for seed in range(3)},
    }
    if path.suffix == ".jsonl":
        raw = path.read_bytes()
        ways["lines"] = (True, [line + b"\n" for line in raw.splitlines() if line.strip()])
    for way, (lines, chunks) in ways.items():
        monkeypatch.setenv("JSONDRIP_BACKEND", "python")
        want = reference(chunks, lines)
        monkeypatch.setenv("JSONDRIP_BACKEND", backend)
        assert fed(make_acc(), chunks, lines) == want, way


def test_the_recorded_vertex_stream_takes_the_chunk_check(
    make_acc, unlearned: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One chunk an event: after the skeleton is learned (its first two sights), no Vertex
    chunk is split into lines or decoded (the chunk check takes it), though `willContinue`
    chunks without pieces come between."""
    name = "vertex-gemini_partial-args_nested-json-paths_gemini-3.1-pro.chunks.jsonl"
    chunks = sse_events(as_sse(stream_path(name)))
    decoded: list[bytes] = []
    real = SSEDecoder.feed_data

    def counting(self: SSEDecoder, chunk: Any) -> list[str]:
        decoded.append(chunk)
        return real(self, chunk)

    monkeypatch.setattr(SSEDecoder, "feed_data", counting)
    acc = make_acc()
    for chunk in chunks:
        acc.feed_sse(chunk)
    acc.finish()
    assert acc.tool_calls[0].complete
    pieces = [c for c in chunks if b'"partialArgs"' in c]
    assert len(pieces) == 64 and sum(b'"partialArgs"' in c for c in decoded) == 2, decoded


def test_sse_events_cuts_after_each_blank_line() -> None:
    assert sse_events(b"data: 1\n\ndata: 2\r\n\r\nx") == [b"data: 1\n\n", b"data: 2\r\n\r\n", b"x"]
