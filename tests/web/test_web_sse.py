"""SSEEncoder and SSELog: frames, numbering, resuming after any id, the end of a call, and
serving them from Starlette (the docs' example app) and from `jsondrip preview --web`."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from _web_support import parse_frame
from conftest import need_module

import jsondrip
from jsondrip.toolcalls import ToolCallAccumulator
from jsondrip.web import SSEEncoder, SSELog, module_path, module_text, parse_last_event_id

ANTHROPIC_CALL = [
    {"type": "message_start", "message": {"id": "m", "role": "assistant", "content": []}},
    {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
    },
    *(
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": p},
        }
        for p in ['{"city": "Pa', 'ris", "n": [1', ", 22]}"]
    ),
    {"type": "content_block_stop", "index": 0},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
    {"type": "message_stop"},
]


def frames_of(events: list[dict[str, Any]], backend: str, **options: Any) -> list[dict[str, Any]]:
    acc = ToolCallAccumulator(format="anthropic")
    encoder = SSEEncoder(**options)
    frames: list[str] = []
    for event in events:
        frames += encoder.encode(acc.feed(event))
    frames += encoder.encode(acc.finish())
    return [parse_frame(f) for f in frames]


@pytest.fixture(autouse=True)
def _backend(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JSONDRIP_BACKEND", backend)


def test_one_call_frame_by_frame(backend: str) -> None:
    frames = frames_of(ANTHROPIC_CALL, backend)
    assert [f["id"] for f in frames] == [str(n) for n in range(1, len(frames) + 1)]
    assert [(f["event"], f["data"]) for f in frames] == [
        ("tool-call-start", {"index": 0, "id": "toolu_1", "name": "f", "kind": "function"}),
        ("tool-call-delta", {"index": 0, "changes": [["add", "", {}], ["add", "/city", "Pa"]]}),
        (
            "tool-call-delta",
            {"index": 0, "changes": [["append", "/city", "ris"], ["add", "/n", []]]},
        ),
        ("tool-call-delta", {"index": 0, "changes": [["add", "/n/0", 1], ["add", "/n/1", 22]]}),
        (
            "tool-call-done",
            {
                "index": 0,
                "id": "toolu_1",
                "name": "f",
                "kind": "function",
                "complete": True,
                "error": None,
                "changes": [],
            },
        ),
        ("stream-done", {"finish_reason": "tool_use"}),
    ]


def test_frames_are_sse_with_one_data_line_and_retry_only_first() -> None:
    encoder = SSEEncoder(retry=250)
    first = encoder.frame("text", {"text": "a\nb\r\u2028c"})
    second = encoder.frame("end", {})
    assert first == 'retry: 250\nid: 1\nevent: text\ndata: {"text":"a\\nb\\r\u2028c"}\n\n'
    assert second == "id: 2\nevent: end\ndata: {}\n\n"


def test_a_call_without_arguments_ends_with_its_empty_object(backend: str) -> None:
    events = [e for e in ANTHROPIC_CALL if e["type"] != "content_block_delta"]
    frames = frames_of(events, backend)
    done = next(f["data"] for f in frames if f["event"] == "tool-call-done")
    assert done["changes"] == [["add", "", {}]] and done["complete"]


def test_a_truncated_call_ends_with_its_error_and_no_change(backend: str) -> None:
    events = [
        *ANTHROPIC_CALL[:3],
        {"type": "message_delta", "delta": {"stop_reason": "max_tokens"}},
    ]
    done = next(f["data"] for f in frames_of(events, backend) if f["event"] == "tool-call-done")
    assert done["complete"] is False and done["changes"] == []
    assert done["error"].startswith("truncated by the token limit ('max_tokens')")


def test_an_invalid_fragment_sends_the_preview_as_the_accumulator_has_it(backend: str) -> None:
    events = [
        *ANTHROPIC_CALL[:3],
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": 'ris"]'},
        },
        *ANTHROPIC_CALL[-3:],
    ]
    acc = ToolCallAccumulator(format="anthropic")
    encoder = SSEEncoder()
    frames = [parse_frame(f) for e in events for f in encoder.encode(acc.feed(e))]
    done = next(f["data"] for f in frames if f["event"] == "tool-call-done")
    assert done["error"].startswith("invalid JSON")
    assert done["changes"] == [["add", "", acc.tool_calls[0].arguments]]


def test_a_call_too_large_loses_its_preview_on_the_page_too() -> None:
    acc = ToolCallAccumulator(format="anthropic", max_arguments_size=12)
    encoder = SSEEncoder()
    frames = [parse_frame(f) for e in ANTHROPIC_CALL for f in encoder.encode(acc.feed(e))]
    done = next(f["data"] for f in frames if f["event"] == "tool-call-done")
    assert acc.tool_calls[0].arguments is jsondrip.MISSING
    assert done["changes"] == [["remove", "", None]] and done["error"].startswith("too large")


def test_an_aborted_call_keeps_its_preview_and_says_why() -> None:
    acc = ToolCallAccumulator(format="anthropic")
    encoder = SSEEncoder()
    frames = [parse_frame(f) for e in ANTHROPIC_CALL[:3] for f in encoder.encode(acc.feed(e))]
    frames += [parse_frame(f) for f in encoder.encode(acc.abort())]
    done = next(f["data"] for f in frames if f["event"] == "tool-call-done")
    assert done["changes"] == [] and done["error"].startswith("aborted")


@pytest.mark.parametrize(
    ("header", "expected"), [(None, 0), ("", 0), (" 7 ", 7), ("0", 0), ("12", 12)]
)
def test_last_event_id(header: str | None, expected: int) -> None:
    assert parse_last_event_id(header) == expected


@pytest.mark.parametrize("header", ["x", "-1", "1.5", "١٢"])
def test_a_bad_last_event_id_is_refused(header: str) -> None:
    with pytest.raises(
        ValueError, match=re.escape(f"Last-Event-ID must be a frame number, not {header!r}")
    ):
        parse_last_event_id(header)


def test_the_log_resumes_after_any_id_and_refuses_an_unknown_one() -> None:
    log = SSELog()
    acc = ToolCallAccumulator(format="anthropic")
    for event in ANTHROPIC_CALL:
        log.add(acc.feed(event))
    log.close()
    everything = log.frames_after(None)
    for last in range(len(everything) + 1):
        assert log.frames_after(str(last)) == everything[last:]
        assert list(log.follow(last)) == everything[last:]
    assert parse_frame(everything[-1])["event"] == "end"
    with pytest.raises(
        ValueError, match=r"Last-Event-ID 99 is not a frame of this stream \(it has 7 so far\)"
    ):
        log.frames_after("99")
    with pytest.raises(ValueError, match="the stream was closed"):
        log.add([])


def test_followers_wait_through_empty_adds_until_frames_arrive() -> None:
    log = SSELog()
    acc = ToolCallAccumulator(format="anthropic")
    got: list[str] = []
    follower = threading.Thread(target=lambda: got.extend(log.follow(None, timeout=10)))
    follower.start()
    for event in ANTHROPIC_CALL:  # message_start gives no events: an add of nothing
        log.add(acc.feed(event))
        time.sleep(0.01)
    log.close()
    follower.join(10)
    assert got == log.frames_after(None)


def test_a_follower_that_waits_too_long_stops_and_can_resume() -> None:
    log = SSELog()
    assert list(log.follow(0, timeout=0.01)) == []


def test_afollow_gives_the_same_frames() -> None:
    log = SSELog()
    acc = ToolCallAccumulator(format="anthropic")

    async def run() -> list[str]:
        async def produce() -> None:
            for event in ANTHROPIC_CALL:
                log.add(acc.feed(event))
                await asyncio.sleep(0.005)
            log.close()

        producer = asyncio.ensure_future(produce())
        frames = [frame async for frame in log.afollow(None, poll=0.001)]
        await producer
        return frames

    # in a thread of its own: the browser tests' Playwright keeps an event loop in this one
    got: list[list[str]] = []
    thread = threading.Thread(target=lambda: got.append(asyncio.run(run())))
    thread.start()
    thread.join(30)
    assert got == [log.frames_after(0)]


def test_the_module_ships_inside_the_package() -> None:
    assert module_path().name == "jsondrip.js" and module_path().is_file()
    assert "export function applyChanges" in module_text()
    assert "export class ToolCallClient" in module_text()


# The example app of docs/web.md, tested as written there.
def docs_example_app() -> str:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text("utf-8")
    return re.search(r"```python\n(# app\.py.*?)```", text, re.S).group(1)


def test_the_docs_starlette_app_streams_resumable_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    need_module("starlette")
    from starlette.testclient import TestClient

    namespace: dict[str, Any] = {}
    exec(compile(docs_example_app(), "docs/web.md", "exec"), namespace)
    recorded = "".join(
        f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in ANTHROPIC_CALL
    ).encode()

    def provider_stream():  # stands in for the model's SSE bytes
        yield from (recorded[i : i + 50] for i in range(0, len(recorded), 50))

    monkeypatch.setitem(namespace, "provider_stream", provider_stream)
    with TestClient(namespace["app"]) as client:
        whole = client.get("/events").text
        assert client.get("/jsondrip.js").text == module_text()
        resumed = client.get("/events", headers={"Last-Event-ID": "3"}).text
        refused = client.get("/events", headers={"Last-Event-ID": "x"})
    frames = [parse_frame(f + "\n\n") for f in whole.strip("\n").split("\n\n")]
    assert frames[-1]["event"] == "end"
    assert [f["event"] for f in frames].count("tool-call-done") == 1
    assert whole.endswith(resumed) and resumed.startswith("id: 4\n")
    assert refused.status_code == 400


def test_preview_web_serves_the_page_the_module_and_the_stream(tmp_path: Any) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "jsondrip", "preview", "--web", "--speed", "0", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in ANTHROPIC_CALL)
        process.stdin.write(body)
        process.stdin.close()
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        assert line == f"jsondrip: the live view of <stdin> is at {url} (Ctrl-C to stop)\n"
        page = urllib.request.urlopen(url).read().decode()
        assert 'import { ToolCallClient } from "./jsondrip.js"' in page
        assert urllib.request.urlopen(url + "jsondrip.js").read().decode() == module_text()
        assert 'import { renderArguments } from "./readable.js"' in page  # #30 item 16
        drawing = urllib.request.urlopen(url + "readable.js").read().decode()
        assert "export function renderArguments(" in drawing
        events = urllib.request.urlopen(url + "events").read().decode()
        assert [parse_frame(f + "\n\n")["event"] for f in events.strip("\n").split("\n\n")][
            -1
        ] == "end"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(
                urllib.request.Request(url + "events", headers={"Last-Event-ID": "999"})
            )
        assert refused.value.code == 400
    finally:
        process.terminate()
        process.wait(10)
