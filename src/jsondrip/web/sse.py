"""A `ToolCallAccumulator`'s events as server-sent events that a page applies, resumably.

Each accumulator event becomes one SSE frame: `id:` (1, 2, 3... in order), `event:` (its
name) and one `data:` line of JSON:

- `tool-call-start`: `{"index", "id", "name", "kind"}`
- `tool-call-delta`: `{"index", "changes": [[op, path, value], ...]}`: jsondrip's change
  events for the call's arguments, to apply with `applyChanges` in `jsondrip.js`
- `tool-call-done`: `{"index", "id", "name", "complete", "error", "changes"}`, once per call;
  `changes` are what ending the call did to the arguments (usually none)
- `text`, `reasoning`: `{"text", "choice"}`; `stream-done`: `{"finish_reason"}`
- `end` (from `SSELog.close()`): `{}`, or `{"error"}` if the stream failed: nothing follows,
  the page stops reconnecting.

Numbering makes resuming exact: `EventSource` sends the last id it saw as `Last-Event-ID` when
it reconnects, and `SSELog.follow` starts after it.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

from .._missing import MISSING
from ..toolcalls import (
    ReasoningDelta,
    StreamDone,
    TextDelta,
    ToolCallDelta,
    ToolCallDone,
    ToolCallStarted,
)

__all__ = ["CONTENT_TYPE", "SSEEncoder", "SSELog", "parse_last_event_id"]

CONTENT_TYPE = "text/event-stream; charset=utf-8"
"""The media type of the response; send `Cache-Control: no-cache` with it too."""


def _dumps(data: Any) -> str:
    # compact, and never a raw newline: a newline would end the data line
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _changes(changes: Iterable[Any]) -> list[list[Any]]:
    return [[op, path, value] for op, path, value in changes]


class SSEEncoder:
    """Turns accumulator events into numbered SSE frames (str, each ending in a blank line).

    One encoder per stream: it numbers frames and remembers, per call, the preview it last
    sent, so that `tool-call-done` carries whatever ending the call changed (the `{}` of a
    call without arguments, a preview dropped by an abort, a number completed at the end).
    `retry` (milliseconds), if given, goes in the first frame: how long a browser waits
    before reconnecting.
    """

    def __init__(self, *, retry: int | None = None) -> None:
        self.last_id = 0
        self._retry = retry
        self._shown: dict[int, Any] = {}

    def frame(self, name: str, data: Any) -> str:
        """One frame with the next id."""
        self.last_id += 1
        head = ""
        if self._retry is not None:
            head = f"retry: {int(self._retry)}\n"
            self._retry = None
        return f"{head}id: {self.last_id}\nevent: {name}\ndata: {_dumps(data)}\n\n"

    def encode(self, events: Iterable[Any]) -> list[str]:
        """The frames of some accumulator events, in order (none for an unknown event type)."""
        frames = []
        for event in events:
            kind = type(event)
            if kind is ToolCallDelta:
                self._shown[event.index] = event.preview
                data: Any = {"index": event.index, "changes": _changes(event.changes)}
                frames.append(self.frame("tool-call-delta", data))
            elif kind is ToolCallStarted:
                self._shown[event.index] = MISSING
                kind_name = getattr(event, "kind", None) or "function"
                data = {"index": event.index, "id": event.id, "name": event.name}
                data["kind"] = kind_name
                frames.append(self.frame("tool-call-start", data))
            elif kind is ToolCallDone:
                frames.append(self.frame("tool-call-done", self._done(event.tool_call)))
            elif kind is TextDelta:
                frames.append(self.frame("text", {"text": event.text, "choice": event.choice}))
            elif kind is ReasoningDelta:
                data = {"text": event.text, "choice": event.choice}
                frames.append(self.frame("reasoning", data))
            elif kind is StreamDone:
                frames.append(self.frame("stream-done", {"finish_reason": event.finish_reason}))
        return frames

    def _done(self, call: Any) -> dict[str, Any]:
        shown = self._shown.pop(call.index, MISSING)
        final = call.arguments
        changes: list[list[Any]] = []
        invalid = call.error is not None and call.error.startswith("invalid JSON")
        # An invalid fragment may have grown the preview without reporting its changes.
        if invalid or (final is not shown and not _same_json(final, shown)):
            changes = [["remove", "", None]] if final is MISSING else [["add", "", final]]
            if final is MISSING and shown is MISSING:
                changes = []
        kind_name = getattr(call, "kind", None) or "function"
        return {
            "index": call.index,
            "id": call.id,
            "name": call.name,
            "kind": kind_name,
            "complete": call.complete,
            "error": call.error,
            "changes": changes,
        }


def _same_json(a: Any, b: Any) -> bool:
    if a is MISSING or b is MISSING:
        return a is b
    return _dumps(a) == _dumps(b)


def parse_last_event_id(header: str | None) -> int:
    """The id in a `Last-Event-ID` header (0 when absent or empty); a ValueError otherwise."""
    if header is None or not header.strip():
        return 0
    text = header.strip()
    if not text.isdigit() or not text.isascii():
        raise ValueError(f"Last-Event-ID must be a frame number, not {header!r}")
    return int(text)


class SSELog:
    """Every frame of one stream, kept so that any connection can start after any id.

    A producer calls `add(events)` as the accumulator returns them and `close()` at the end;
    each connection iterates `follow(last_event_id)` (threads, WSGI) or
    `afollow(last_event_id)` (asyncio, ASGI), which yields the frames after that id, waits for
    new ones and stops after the `end` frame. Thread-safe.
    """

    def __init__(self, *, retry: int | None = None) -> None:
        self._encoder = SSEEncoder(retry=retry)
        self._frames: list[str] = []
        self._changed = threading.Condition()
        self.closed = False

    def add(self, events: Iterable[Any]) -> None:
        """Encode and keep the frames of some accumulator events; wake the followers."""
        with self._changed:
            if self.closed:
                raise ValueError("the stream was closed: no events can follow its end")
            self._frames += self._encoder.encode(events)
            self._changed.notify_all()

    def close(self, error: str | None = None) -> None:
        """Add the `end` frame (with `error`, if the stream failed); followers stop after it."""
        with self._changed:
            if not self.closed:
                data = {} if error is None else {"error": error}
                self._frames.append(self._encoder.frame("end", data))
                self.closed = True
                self._changed.notify_all()

    def __len__(self) -> int:
        return len(self._frames)

    def frames_after(self, last_event_id: int | str | None) -> list[str]:
        """The frames after an id (an int, or a `Last-Event-ID` header), as they are now."""
        start = self.position(last_event_id)
        with self._changed:
            return self._frames[start:]

    def position(self, last_event_id: int | str | None) -> int:
        """The number of frames before the next one to send: `last_event_id` checked against
        the log (a ValueError if it is not a frame of this stream, e.g. after a restart)."""
        start = last_event_id if isinstance(last_event_id, int) else None
        if start is None:
            start = parse_last_event_id(last_event_id)  # type: ignore[arg-type]
        with self._changed:
            if start < 0 or start > len(self._frames):
                raise ValueError(
                    f"Last-Event-ID {start} is not a frame of this stream "
                    f"(it has {len(self._frames)} so far)"
                )
        return start

    def follow(
        self, last_event_id: int | str | None = None, *, timeout: float | None = None
    ) -> Iterator[str]:
        """The frames after `last_event_id`, then each new one, until the `end` frame.

        Blocks between frames; `timeout` (seconds) bounds each wait, and a wait that times
        out ends the iteration (the browser reconnects and resumes).
        """
        position = self.position(last_event_id)

        def ready() -> bool:
            return position < len(self._frames) or self.closed

        while True:
            with self._changed:
                # a wake-up without a new frame (an add of no events) does not end the wait
                arrived = self._changed.wait_for(ready, timeout)
                batch = self._frames[position:]
                done = self.closed
            if not arrived:
                return
            position += len(batch)
            yield from batch
            if done and position >= len(self._frames):
                return

    async def afollow(
        self, last_event_id: int | str | None = None, *, poll: float = 0.05
    ) -> AsyncIterator[str]:
        """`follow` for asyncio: the same frames; checks for new ones every `poll` seconds
        without blocking the event loop."""
        position = self.position(last_event_id)
        while True:
            with self._changed:
                batch = self._frames[position:]
                done = self.closed
            position += len(batch)
            for frame in batch:
                yield frame
            if done and position >= len(self._frames):
                return
            if not batch:
                await asyncio.sleep(poll)
