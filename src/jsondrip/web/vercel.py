"""The Vercel AI SDK's UI message stream (`useChat`, `readUIMessageStream`), from a
`ToolCallAccumulator`'s events.

The protocol carries tool-call arguments only as raw text (`tool-input-delta` with
`inputTextDelta`), which the SDK re-parses whole at every delta: that text is carried here
character for character. The parsed value arrives once, in `tool-input-available` (or
`tool-input-error` when the call is unusable). jsondrip's change events, which a page can apply
instead of re-parsing, ride in transient data parts (`data-jsondrip-changes`, delivered to
`useChat`'s `onData` and not stored in the message) when `changes=True`.

Chunks follow the v1 stream (`x-vercel-ai-ui-message-stream: v1`): `start`, `start-step`,
`text-start`/`-delta`/`-end`, `reasoning-start`/`-delta`/`-end`, `tool-input-start`,
`tool-input-delta`, `tool-input-available`, `tool-input-error`, `finish-step`, `finish`,
then `data: [DONE]`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..toolcalls import (
    ReasoningDelta,
    StreamDone,
    TextDelta,
    ToolCallDelta,
    ToolCallDone,
    ToolCallStarted,
)
from ._parts import call_id, changes_list, data_frame, plain

__all__ = ["DONE", "HEADERS", "UIMessageStream", "finish_reason", "ui_message_sse"]

HEADERS = {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "x-vercel-ai-ui-message-stream": "v1",
}
"""The response headers the SDK's client expects."""

DONE = "data: [DONE]\n\n"
"""The stream's last frame."""

_REASONS = {
    "stop": "stop",
    "end_turn": "stop",
    "completed": "stop",
    "stop_sequence": "stop",
    "tool_calls": "tool-calls",
    "tool_use": "tool-calls",
    "function_call": "tool-calls",
    "length": "length",
    "max_tokens": "length",
    "max_output_tokens": "length",
    "content_filter": "content-filter",
    "refusal": "content-filter",
}


def finish_reason(provider_reason: str | None) -> str | None:
    """A provider's finish reason in the SDK's words (`stop`, `tool-calls`, `length`,
    `content-filter`, `other`); None stays None."""
    if provider_reason is None:
        return None
    return _REASONS.get(provider_reason, "other")


class UIMessageStream:
    """Turns accumulator events into UI message chunks (dicts); one per response message.

    `encode(events)` returns the chunks of some events, `close()` the closing ones. Text and
    reasoning parts are opened and closed around the tool calls; each provider response in the
    stream is a step.
    """

    def __init__(self, *, message_id: str | None = None, changes: bool = False) -> None:
        self._message_id = message_id
        self._changes = changes
        self._started = False
        self._in_step = False
        self._open: dict[str, str] = {}  # "text" / "reasoning" -> the id of the open part
        self._parts = 0
        self._reason: str | None = None

    def _begin(self, out: list[dict[str, Any]]) -> None:
        if not self._started:
            self._started = True
            start: dict[str, Any] = {"type": "start"}
            if self._message_id is not None:
                start["messageId"] = self._message_id
            out.append(start)
        if not self._in_step:
            self._in_step = True
            out.append({"type": "start-step"})

    def _end_part(self, kind: str, out: list[dict[str, Any]]) -> None:
        part = self._open.pop(kind, None)
        if part is not None:
            out.append({"type": f"{kind}-end", "id": part})

    def _stream_text(self, kind: str, text: str, out: list[dict[str, Any]]) -> None:
        if not isinstance(text, str) or not text:
            return
        self._end_part("reasoning" if kind == "text" else "text", out)
        part = self._open.get(kind)
        if part is None:
            self._parts += 1
            part = self._open[kind] = f"{kind}-{self._parts}"
            out.append({"type": f"{kind}-start", "id": part})
        out.append({"type": f"{kind}-delta", "id": part, "delta": text})

    def encode(self, events: Iterable[Any]) -> list[dict[str, Any]]:
        """The chunks of some accumulator events, in order."""
        out: list[dict[str, Any]] = []
        for event in events:
            kind = type(event)
            if kind is StreamDone:
                if self._in_step:
                    self._end_part("text", out)
                    self._end_part("reasoning", out)
                    out.append({"type": "finish-step"})
                    self._in_step = False
                self._reason = finish_reason(event.finish_reason)
                continue
            self._begin(out)
            if kind is TextDelta:
                self._stream_text("text", event.text, out)
            elif kind is ReasoningDelta:
                self._stream_text("reasoning", event.text, out)
            elif kind is ToolCallStarted:
                self._end_part("text", out)
                self._end_part("reasoning", out)
                start: dict[str, Any] = {
                    "type": "tool-input-start",
                    "toolCallId": call_id(event.index, event.id),
                }
                start["toolName"] = event.name
                if getattr(event, "kind", None) == "server":
                    start["providerExecuted"] = True
                out.append(start)
            elif kind is ToolCallDelta:
                tool_call_id = call_id(event.index, event.id)
                delta = {"type": "tool-input-delta", "toolCallId": tool_call_id}
                delta["inputTextDelta"] = event.arguments_delta
                out.append(delta)
                if self._changes and event.changes:
                    data = {"toolCallId": tool_call_id, "changes": changes_list(event.changes)}
                    out.append({"type": "data-jsondrip-changes", "data": data, "transient": True})
            elif kind is ToolCallDone:
                out.append(self._done(event.tool_call))
        return out

    def _done(self, call: Any) -> dict[str, Any]:
        chunk: dict[str, Any] = {
            "type": "tool-input-available" if call.complete else "tool-input-error",
            "toolCallId": call_id(call.index, call.id),
            "toolName": call.name,
            "input": plain(call.arguments),
        }
        if getattr(call, "kind", None) == "server":
            chunk["providerExecuted"] = True
        if not call.complete:
            chunk["errorText"] = call.error or "the call did not complete"
        return chunk

    def close(self) -> list[dict[str, Any]]:
        """The closing chunks: open parts ended, the step finished, `finish`."""
        out: list[dict[str, Any]] = []
        if not self._started:
            self._begin(out)
        self._end_part("text", out)
        self._end_part("reasoning", out)
        if self._in_step:
            out.append({"type": "finish-step"})
            self._in_step = False
        finish: dict[str, Any] = {"type": "finish"}
        if self._reason is not None:
            finish["finishReason"] = self._reason
        out.append(finish)
        return out


def ui_message_sse(batches: Iterable[Iterable[Any]], **options: Any) -> Iterator[str]:
    """SSE frames of the UI message stream for batches of accumulator events (e.g. the lists
    `feed_sse` returns, and `finish()`'s), ending with `data: [DONE]`."""
    stream = UIMessageStream(**options)
    for events in batches:
        for chunk in stream.encode(events):
            yield data_frame(chunk)
    for chunk in stream.close():
        yield data_frame(chunk)
    yield DONE
