"""AG-UI events (the Agent-User Interaction protocol) from a `ToolCallAccumulator`'s events.

Tool calls go as `TOOL_CALL_START`, `TOOL_CALL_ARGS` and `TOOL_CALL_END`. `TOOL_CALL_ARGS`
carries raw argument text only (`delta`), which the client concatenates and parses: that text
is carried character for character. jsondrip's change events for the same arguments go, with
`changes="custom"` (the default), in `CUSTOM` events named `jsondrip.changes`
(`{"toolCallId", "changes"}`, `append` included); with `changes="state"`, in `STATE_DELTA`
events (RFC 6902 JSON Patch) on the state `{"toolCalls": {id: arguments}}` that the run's
first `STATE_SNAPSHOT` sets up. JSON Patch has no operation for "this string grew", so there
every `append` becomes a `replace` of the whole string so far: a long string argument then
costs its length at every fragment, which the `CUSTOM` events do not.

Text goes as `TEXT_MESSAGE_START`/`_CONTENT`/`_END`, reasoning as `REASONING_START`,
`REASONING_MESSAGE_START`/`_CONTENT`/`_END`, `REASONING_END`; the run as `RUN_STARTED` and
`RUN_FINISHED`, or `RUN_ERROR`. Keys are camelCase, as on the wire.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .._changes import escape_token, unescape_token
from ..toolcalls import (
    ReasoningDelta,
    StreamDone,
    TextDelta,
    ToolCallDelta,
    ToolCallDone,
    ToolCallStarted,
)
from ._parts import call_id, changes_list, data_frame, plain

__all__ = ["AGUIStream", "agui_sse"]

_MODES = (None, "custom", "state")


def _pointer_get(doc: Any, path: str) -> Any:
    """The value at a JSON Pointer that exists (the preview a change was just made to)."""
    for token in path.split("/")[1:] if path else []:
        token = unescape_token(token)
        doc = doc[int(token)] if isinstance(doc, list) else doc[token]
    return doc


class AGUIStream:
    """Turns accumulator events into AG-UI events (dicts) for one run.

    `encode(events)` returns the events of some accumulator events; `close(error=None)` the
    run's end (`RUN_FINISHED`, or `RUN_ERROR` with the message). `changes`: `"custom"`,
    `"state"` or None (see the module's docstring).
    """

    def __init__(self, *, thread_id: str, run_id: str, changes: str | None = "custom") -> None:
        if changes not in _MODES:
            raise ValueError(f"changes must be 'custom', 'state' or None, not {changes!r}")
        self.thread_id = thread_id
        self.run_id = run_id
        self._mode = changes
        self._started = False
        self._open: dict[str, str] = {}  # "text" / "reasoning" -> the open message's id
        self._messages = 0

    def _begin(self, out: list[dict[str, Any]]) -> None:
        if not self._started:
            self._started = True
            out.append({"type": "RUN_STARTED", "threadId": self.thread_id, "runId": self.run_id})
            if self._mode == "state":
                out.append({"type": "STATE_SNAPSHOT", "snapshot": {"toolCalls": {}}})

    def _end(self, kind: str, out: list[dict[str, Any]]) -> None:
        message = self._open.pop(kind, None)
        if message is None:
            return
        if kind == "text":
            out.append({"type": "TEXT_MESSAGE_END", "messageId": message})
        else:
            out.append({"type": "REASONING_MESSAGE_END", "messageId": message})
            out.append({"type": "REASONING_END", "messageId": message})

    def _text(self, kind: str, text: Any, out: list[dict[str, Any]]) -> None:
        if not isinstance(text, str) or not text:  # AG-UI refuses an empty delta
            return
        self._end("reasoning" if kind == "text" else "text", out)
        message = self._open.get(kind)
        if message is None:
            self._messages += 1
            message = self._open[kind] = f"{self.run_id}-{kind}-{self._messages}"
            if kind == "text":
                out.append(
                    {"type": "TEXT_MESSAGE_START", "messageId": message, "role": "assistant"}
                )
            else:
                out.append({"type": "REASONING_START", "messageId": message})
                out.append(
                    {"type": "REASONING_MESSAGE_START", "messageId": message, "role": "assistant"}
                )
        name = "TEXT_MESSAGE_CONTENT" if kind == "text" else "REASONING_MESSAGE_CONTENT"
        out.append({"type": name, "messageId": message, "delta": text})

    def encode(self, events: Iterable[Any]) -> list[dict[str, Any]]:
        """The AG-UI events of some accumulator events, in order."""
        out: list[dict[str, Any]] = []
        for event in events:
            self._begin(out)
            kind = type(event)
            if kind is TextDelta:
                self._text("text", event.text, out)
            elif kind is ReasoningDelta:
                self._text("reasoning", event.text, out)
            elif kind is ToolCallStarted:
                self._end("text", out)
                self._end("reasoning", out)
                tool_call_id = call_id(event.index, event.id)
                out.append(
                    {
                        "type": "TOOL_CALL_START",
                        "toolCallId": tool_call_id,
                        "toolCallName": event.name,
                    }
                )
                if self._mode == "state":
                    path = f"/toolCalls/{escape_token(tool_call_id)}"
                    out.append(
                        {
                            "type": "STATE_DELTA",
                            "delta": [{"op": "add", "path": path, "value": None}],
                        }
                    )
            elif kind is ToolCallDelta:
                self._args(event, out)
            elif kind is ToolCallDone:
                call = event.tool_call
                tool_call_id = call_id(call.index, call.id)
                if self._mode == "state":
                    path = f"/toolCalls/{escape_token(tool_call_id)}"
                    op = {"op": "replace", "path": path, "value": plain(call.arguments)}
                    out.append({"type": "STATE_DELTA", "delta": [op]})
                out.append({"type": "TOOL_CALL_END", "toolCallId": tool_call_id})
            elif kind is StreamDone:
                self._end("text", out)
                self._end("reasoning", out)
        return out

    def _args(self, event: Any, out: list[dict[str, Any]]) -> None:
        tool_call_id = call_id(event.index, event.id)
        if event.arguments_delta:  # AG-UI refuses an empty delta
            out.append(
                {
                    "type": "TOOL_CALL_ARGS",
                    "toolCallId": tool_call_id,
                    "delta": event.arguments_delta,
                }
            )
        if not event.changes or self._mode is None:
            return
        if self._mode == "custom":
            value = {"toolCallId": tool_call_id, "changes": changes_list(event.changes)}
            out.append({"type": "CUSTOM", "name": "jsondrip.changes", "value": value})
            return
        base = f"/toolCalls/{escape_token(tool_call_id)}"
        patch = []
        for op, path, value in event.changes:
            if op == "append":  # no such op in RFC 6902: the whole string so far
                op, value = "replace", _pointer_get(event.preview, path)
            patch.append(
                {"op": "replace" if path == "" else op, "path": base + path, "value": value}
            )
        out.append({"type": "STATE_DELTA", "delta": patch})

    def close(self, error: str | None = None) -> list[dict[str, Any]]:
        """The run's end: open messages closed, then `RUN_FINISHED` (or `RUN_ERROR`)."""
        out: list[dict[str, Any]] = []
        self._begin(out)
        self._end("text", out)
        self._end("reasoning", out)
        if error is not None:
            out.append({"type": "RUN_ERROR", "message": error})
        else:
            out.append({"type": "RUN_FINISHED", "threadId": self.thread_id, "runId": self.run_id})
        return out


def agui_sse(batches: Iterable[Iterable[Any]], **options: Any) -> Iterator[str]:
    """SSE frames (`data: {json}`) of a run for batches of accumulator events."""
    stream = AGUIStream(**options)
    for events in batches:
        for event in stream.encode(events):
            yield data_frame(event)
    for event in stream.close():
        yield data_frame(event)
