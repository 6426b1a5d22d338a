"""Amazon Bedrock ConverseStream events, as boto3 yields them or as JSON lines of the same.

Each event is a dict with one key naming it: `messageStart`, `contentBlockStart`
(`start.toolUse {toolUseId, name, type?}` starts a call; `type: "server_tool_use"` is a call
the service ran, `kind="server"`), `contentBlockDelta` (`delta.toolUse.input` string pieces are
the arguments, `delta.text` is text, `delta.reasoningContent.text` is reasoning; `toolResult`,
`citation`, `signature` and `redactedContent` are ignored), `contentBlockStop` (closes the
block's call), `messageStop` (`stopReason`: `tool_use`, `end_turn`, `max_tokens`...: the
response's end) and `metadata`. The AWS `"p"` padding field is ignored. An exception event
(`internalServerException`, `modelStreamErrorException`, `throttlingException`,
`validationException`, `serviceUnavailableException`) aborts the open calls.

A block that stops with incomplete arguments waits for `messageStop` to learn whether
`max_tokens` cut it, as in Anthropic Messages.
"""

from __future__ import annotations

from typing import Any

from .calls import CallState
from .formats import BEDROCK_EXCEPTIONS as EXCEPTIONS
from .formats import FormatHandler
from .shortcut import FRAGMENT, Envelope

__all__ = ["BedrockHandler"]


def _input_route(event: dict[str, Any]) -> int | None:
    """The block index of a `toolUse.input` delta event's skeleton, or None if it is not
    exactly one (an AWS `p` padding string beside it is allowed: it is part of the skeleton)."""
    body = event.get("contentBlockDelta")
    if len(event) != 1 or type(body) is not dict:
        return None
    index = body.get("contentBlockIndex")
    delta = body.get("delta")
    if type(index) is not int or type(delta) is not dict or len(delta) != 1:
        return None
    if set(body) - {"contentBlockIndex", "delta", "p"}:
        return None
    tool = delta.get("toolUse")
    if type(tool) is not dict or len(tool) != 1 or tool.get("input") != FRAGMENT:
        return None
    return index


ENVELOPE = Envelope("input", _input_route)
"""The `toolUse.input` delta event's envelope, shared by every stream (shortcut.py)."""


class BedrockHandler(FormatHandler):
    """Routes ConverseStream events to the call table."""

    __slots__ = ("_blocks", "_stop_reason")

    name = "bedrock"
    # JSON lines (`feed_lines`, or SSE): the common `toolUse.input` event by its skeleton
    ENVELOPE = ENVELOPE
    FRAGMENT_PATH = ("contentBlockDelta", "delta", "toolUse", "input")
    IGNORED_KEYS = ("p",)  # AWS padding, never read

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self._blocks: dict[Any, CallState] = {}
        self._stop_reason: str | None = None

    def take_fragment(self, index: int, text: str) -> None:
        """A `toolUse.input` delta event, from its skeleton: what `handle` does with it."""
        if self.done_sent:
            self.begin_response()
        state = self._blocks.get(index)
        if state is not None:
            self.table.append(state, text)

    def lane_target(self, route: int) -> CallState | None:
        """The call `take_fragment` appends the route's fragments to, once a response runs."""
        return None if self.done_sent else self._blocks.get(route)

    def handle(self, event: dict[str, Any]) -> Any:
        """Act on one ConverseStream event; the route of a plain fragment event."""
        body = event.get("contentBlockDelta")
        if type(body) is dict:
            delta = body.get("delta")
            if type(delta) is not dict:
                return
            if self.done_sent:
                self.begin_response()
            tool = delta.get("toolUse")
            if type(tool) is dict:
                state = self._blocks.get(body.get("contentBlockIndex"))
                text = tool.get("input")
                if state is not None and isinstance(text, str):
                    self.table.append(state, text)
                    return body.get("contentBlockIndex")  # a plain fragment (FRAGMENT_PATH)
            elif isinstance(delta.get("text"), str):
                self.text(delta["text"])
            elif type(delta.get("reasoningContent")) is dict:
                reasoning = delta["reasoningContent"].get("text")
                if isinstance(reasoning, str):
                    self.reasoning(reasoning)
            return
        body = event.get("contentBlockStart")
        if type(body) is dict:
            self._begin()
            start = body.get("start")
            tool = start.get("toolUse") if type(start) is dict else None
            if type(tool) is dict:
                kind = "server" if tool.get("type") == "server_tool_use" else "function"
                state = self.table.start(tool.get("toolUseId"), tool.get("name") or "", kind=kind)
                self.table.announce(state)
                self._blocks[body.get("contentBlockIndex")] = state
            return
        body = event.get("contentBlockStop")
        if type(body) is dict:
            state = self._blocks.get(body.get("contentBlockIndex"))
            if state is None or state.finished:
                return
            parser = state.parser
            if parser is None or parser.done or not state.content:
                self.table.close(state, None)
            else:
                state.pending_close = True  # wait for the stop reason: max_tokens or not
            return
        if "messageStart" in event:
            if not self.done_sent:
                self.end_response(self._stop_reason)
            self._blocks.clear()
            self._stop_reason = None
            self.begin_response()
            return
        body = event.get("messageStop")
        if type(body) is dict:
            self._begin()
            self._stop_reason = body.get("stopReason") or None
            self.end_response(self._stop_reason)
            return
        for name in EXCEPTIONS.intersection(event):
            body = event[name]
            message = body.get("message") if type(body) is dict else body
            self.abort(f"aborted: the API sent an error: {name}: {message}")
            self.end_response("error")
            return

    def _begin(self) -> None:
        if self.done_sent:
            self.begin_response()

    def reason_so_far(self) -> str | None:
        """The stop reason seen, if any."""
        return self._stop_reason
