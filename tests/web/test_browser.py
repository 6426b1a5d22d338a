"""The live page in a real browser (headless Chromium): for every recorded stream, the page's
final arguments are the Python accumulator's and `done` fired once per call, also when the
server drops the connection mid-stream and the EventSource resumes with Last-Event-ID."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from _browser import browser_fixture, tab_fixture  # noqa: F401 - fixtures
from _web_support import record, stream_names

import jsondrip
import jsondrip.cli
from jsondrip.cli.replay import paced
from jsondrip.cli.source import from_bytes
from jsondrip.web import SSELog
from jsondrip.web.server import PreviewServer, replay_into

pytestmark = (
    pytest.mark.browser
)  # `pytest -m browser` runs these alone, `-m "not browser"` leaves them

READ_CALLS = """() => [...window.jsondripPage.client.calls.values()].map((c) => ({
  index: c.index, id: c.id, name: c.name, kind: c.kind, status: c.status, error: c.error,
  arguments: c.arguments === undefined ? {missing: true} : {value: c.arguments},
}))"""


def serve_recording(
    path: Path, drop_after: set[int], speed: float = 0.0
) -> tuple[PreviewServer, dict[str, Any]]:
    """A server replaying `path` (at full speed by default); `out["accumulator"]` once the
    replay ends."""
    source = from_bytes(path.name, path.read_bytes())
    out: dict[str, Any] = {}

    def start(log: SSELog) -> None:
        pieces = paced(source.fragments or [], speed)
        out["accumulator"] = replay_into(log, pieces, source.format)

    server = PreviewServer(start, retry=10, drop_after=drop_after)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    return server, out


def page_outcome(tab: Any, server: PreviewServer) -> tuple[list[dict[str, Any]], dict[str, int]]:
    tab.goto(server.url, wait_until="commit")
    tab.wait_for_function(
        "() => window.jsondripPage && window.jsondripPage.ended", timeout=60_000, polling=20
    )
    assert tab.evaluate("() => window.jsondripPage.error") is None
    return tab.evaluate(READ_CALLS), tab.evaluate("() => window.jsondripPage.doneCounts")


def as_in_javascript(value: Any) -> Any:
    """A Python value as it arrives in a page: through JSON."""
    return json.loads(json.dumps(value))


def check_page(tab: Any, path: Path, drops: set[int], speed: float = 0.0) -> None:
    """Serve `path`, open the page, compare its end with the accumulator's."""
    server, replayed = serve_recording(path, drops, speed)
    try:
        calls, done = page_outcome(tab, server)
    finally:
        server.shutdown()
        server.server_close()
    want = replayed["accumulator"].tool_calls
    assert [c["index"] for c in calls] == [c.index for c in want]
    for got, call in zip(calls, want):
        assert (got["id"], got["name"], got["error"]) == (call.id, call.name, call.error)
        assert got["kind"] == getattr(call, "kind", "function")
        assert got["status"] == ("complete" if call.complete else "error")
        if call.arguments is jsondrip.MISSING:
            assert got["arguments"] == {"missing": True}
        else:
            assert got["arguments"] == {"value": as_in_javascript(call.arguments)}
    assert done == {(c.id if c.id is not None else f"#{c.index}"): 1 for c in want}
    # the server resumed exactly after the last frame the page saw: nothing came twice
    assert tab.evaluate("() => window.jsondripPage.client.replays") == 0
    if drops:
        assert not server.drop_after, "the server did not drop the connection where asked"
        assert server.connections == 1 + len(drops)


@pytest.mark.parametrize("drop", [False, True], ids=["whole", "dropped"])
@pytest.mark.parametrize("name", stream_names())
def test_page_ends_with_the_accumulators_calls(
    name: str, drop: bool, backend: str, monkeypatch: pytest.MonkeyPatch, tab: Any
) -> None:
    from conftest import corpus_dir

    monkeypatch.setenv("JSONDRIP_BACKEND", backend)
    path = corpus_dir("streams") / name
    frames = len(record(path).frames)  # skips a format this accumulator cannot read
    drops = {frames // 3, 2 * frames // 3} - {0, frames} if drop else set()
    check_page(tab, path, drops)


def test_the_demo_at_a_models_pace_with_a_drop(
    backend: str, monkeypatch: pytest.MonkeyPatch, tab: Any
) -> None:
    """Paced: frames arrive while the page waits, across reads with no new frame."""
    monkeypatch.setenv("JSONDRIP_BACKEND", backend)
    demo = Path(jsondrip.cli.__file__).parent / "data" / "demo.sse"
    check_page(tab, demo, {40}, speed=20.0)


def test_item16_the_page_shows_a_multi_line_argument_as_text(tab: Any) -> None:
    """#30 item 16: the demo's file content was one escaped JSON line in the page; it is now
    shown as the text it is, between fences, highlighted as Python (its `path` ends in .py),
    as the terminal's live view shows it."""
    demo = Path(jsondrip.cli.__file__).parent / "data" / "demo.sse"
    server, _ = serve_recording(demo, set())
    try:
        page_outcome(tab, server)
        fenced = '(p) => p.textContent.includes(\'"""\')'
        tab.wait_for_function(
            f"() => [...document.querySelectorAll('pre')].some({fenced})", timeout=10_000
        )
        shown = tab.evaluate(
            "() => [...document.querySelectorAll('section pre')].map((p) => p.textContent)"
        )
        keywords = tab.evaluate(
            "() => [...document.querySelectorAll('pre .j-keyword')].map((s) => s.textContent)"
        )
    finally:
        server.shutdown()
        server.server_close()
    (content,) = [text for text in shown if '"content": """' in text]
    assert "\n    ESCAPES = {\n" in content  # a line of the file, as written
    lines = content.split("\n")
    assert len(lines) > 20 and max(map(len, lines)) < 120  # the file's 21 lines, not one
    assert {"def", "return", "while", "elif"} <= set(keywords)
