"""Handing tool-call events to another task: snapshots that never change once queued, and
changes that rebuild the final arguments, on both parser backends."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest
from _support import same
from _toolcall_support import anthropic_tool, make_acc_fixture  # noqa: F401 - a fixture

import jsondrip
from jsondrip import MISSING, ToolCallDelta, ToolCallDone

FRAGMENTS = ['{"path": "a.py", "content": "def f():\\n', '    return 1\\n"', ', "n": [1', ", 2]}"]


def test_a_queued_snapshot_never_changes(make_acc) -> None:
    """The live preview of a queued delta shows later fragments; its snapshot does not."""
    acc = make_acc(format="anthropic")

    async def run() -> list[tuple[Any, Any, Any]]:
        queue: asyncio.Queue[tuple[ToolCallDelta, ToolCallDelta, str]] = asyncio.Queue()
        for event in anthropic_tool(*FRAGMENTS):
            for out in acc.feed(event):
                if type(out) is ToolCallDelta:
                    # What the preview was when queued, as a separate check of the snapshot.
                    queue.put_nowait((out, out.snapshot(), json.dumps(out.preview)))
        await asyncio.sleep(0)  # the consumer runs only now, after every fragment
        seen = []
        while not queue.empty():
            live, snapshot, then = queue.get_nowait()
            seen.append((live.preview, snapshot, then))
        return seen

    seen = run_async(run())
    final = acc.tool_calls[0].arguments
    assert len(seen) == len(FRAGMENTS)
    for live, snapshot, then in seen:
        assert live is final  # the live value: already the final arguments
        assert json.dumps(snapshot.preview) == then  # the snapshot: as it was when queued
        assert snapshot.preview is not final
    assert [s.preview for _, s, _ in seen] == [
        {"path": "a.py", "content": "def f():\n"},
        {"path": "a.py", "content": "def f():\n    return 1\n"},
        {"path": "a.py", "content": "def f():\n    return 1\n", "n": []},
        {"path": "a.py", "content": "def f():\n    return 1\n", "n": [1, 2]},
    ]


def test_snapshot_keeps_every_field_and_copies_deep_values(make_acc) -> None:
    acc = make_acc(format="anthropic")
    deltas = [
        e
        for event in anthropic_tool(*FRAGMENTS)
        for e in acc.feed(event)
        if type(e) is ToolCallDelta
    ]
    last = deltas[-1]
    first = last.snapshot()
    final = {"path": "a.py", "content": "def f():\n    return 1\n", "n": [1, 2]}
    assert first == ToolCallDelta(
        last.index, last.id, last.name, last.arguments_delta, final, last.changes
    )
    assert first.preview is not last.preview and first.preview["n"] is not last.preview["n"]
    assert type(first) is ToolCallDelta
    with pytest.raises(AttributeError):
        first.preview = None  # type: ignore[misc]  # still a frozen event
    # Nested containers are copies too, a deep value (past the recursion limit) included.
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    frozen = ToolCallDelta(0, None, "f", "", {"a": deep}, ()).snapshot()
    assert frozen.preview["a"] is not deep and frozen.preview["a"][0] is not deep[0]
    assert ToolCallDelta(0, None, "f", "", MISSING, ()).snapshot().preview is MISSING


def test_changes_of_queued_deltas_are_frozen_and_rebuild_the_arguments(make_acc) -> None:
    """Changes need no snapshot: applied after the stream ended, they give the final value,
    the delta that only the end completes (a top-level number) included."""
    for fragments, want in ((FRAGMENTS, None), (["12", "3"], 123), (["-0.", "5"], -0.5)):
        acc = make_acc(format="anthropic")
        queued = [
            e
            for event in anthropic_tool(*fragments)
            for e in acc.feed(event)
            if type(e) in (ToolCallDelta, ToolCallDone)
        ]
        done = queued[-1]
        assert type(done) is ToolCallDone and done.tool_call.complete
        rebuilt: Any = MISSING
        for delta in queued[:-1]:
            rebuilt = jsondrip.apply_changes(rebuilt, copy.deepcopy(delta.changes))
        assert same(rebuilt, done.tool_call.arguments)
        if want is not None:
            assert same(rebuilt, want)
            assert queued[-2].arguments_delta == "" and queued[-2].preview == want


def run_async(coroutine: Any) -> Any:
    return asyncio.run(coroutine)
