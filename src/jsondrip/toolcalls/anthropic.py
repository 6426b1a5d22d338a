"""Anthropic Messages events.

`content_block_start` of a `tool_use`, `server_tool_use` or `mcp_tool_use` block starts a call
(id and name arrive whole; the last two are `kind="server"`: the API ran them);
`input_json_delta.partial_json` fragments are its arguments; `content_block_stop` closes it.
A block whose `input` is already in its `content_block_start`, or a `message_start` whose
`message.content` already holds whole tool blocks (programmatic tool calling), gives its
input as the arguments (`json.dumps(input, ensure_ascii=False)`); blocks of `message_start`
are closed by the message's end. A block whose arguments are not a complete document when it
stops waits for `message_delta.stop_reason`, so that a cut by `max_tokens` is reported as such.
Block indexes are per message: a new `message_start` (several responses in one stream) starts
afresh; a replayed `message_start` or `content_block_start` (same id) is ignored.

`text_delta` is text, `thinking_delta` is reasoning; `signature_delta`, `citations_delta`,
`ping`, and the SDK stream helper's derived events (`text`, `input_json`, `thinking`,
`signature`, `citation`) are ignored.
"""

from __future__ import annotations

from typing import Any

from .calls import CallState, dump_arguments
from .formats import FormatHandler
from .shortcut import FRAGMENT, Envelope

__all__ = ["AnthropicHandler"]

TOOL_BLOCKS = {"tool_use": "function", "server_tool_use": "server", "mcp_tool_use": "server"}


def _fragment_route(event: dict[str, Any]) -> int | None:
    """The block index of an `input_json_delta` event's skeleton, or None if it is not one."""
    delta = event.get("delta")
    index = event.get("index")
    if (
        event.get("type") == "content_block_delta"
        and type(index) is int
        and type(delta) is dict
        and delta.get("type") == "input_json_delta"
        and delta.get("partial_json") == FRAGMENT
    ):
        return index
    return None


ENVELOPE = Envelope("partial_json", _fragment_route)
"""The `input_json_delta` event's envelope, shared by every stream (shortcut.py)."""


class AnthropicHandler(FormatHandler):
    """Routes Anthropic Messages stream events to the call table."""

    __slots__ = ("_blocks", "_inputs", "_message_id", "_stop_reason")

    name = "anthropic"
    ENVELOPE = ENVELOPE

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self._message_id: str | None = None
        self._blocks: dict[Any, CallState] = {}  # by the stream's own index, as sent
        self._inputs: dict[int, Any] = {}  # a tool block's `input` sent whole in its start
        self._stop_reason: str | None = None

    def handle(self, event: dict[str, Any]) -> None:
        """Act on one Messages stream event."""
        kind = event.get("type")
        if kind == "content_block_delta":
            delta = event.get("delta") or {}
            dtype = delta.get("type")
            if dtype == "input_json_delta":
                state = self._blocks.get(event.get("index"))
                if state is not None:
                    self.table.append(state, delta.get("partial_json"))
            elif dtype == "text_delta":
                self._begin()
                self.text(delta.get("text") or "")
            elif dtype == "thinking_delta":
                self._begin()
                self.reasoning(delta.get("thinking") or "")
        elif kind == "content_block_start":
            self._start_block(event)
        elif kind == "content_block_stop":
            self._stop_block(event.get("index", -1))
        elif kind == "message_start":
            message = event.get("message") or {}
            message_id = message.get("id")
            if message_id is not None and message_id == self._message_id:
                return  # replayed
            if not self.done_sent:
                self.end_response(self._stop_reason)
            self._message_id = message_id
            self._blocks.clear()
            self._inputs.clear()
            self._stop_reason = message.get("stop_reason") or None
            self.begin_response()
            self._given_blocks(message.get("content"))
        elif kind == "message_delta":
            reason = (event.get("delta") or {}).get("stop_reason")
            if reason:
                self._stop_reason = reason
                self.end_text(reason)
                for state in self.table.open_states():
                    self.table.close(state, reason)
        elif kind == "message_stop":
            self.end_response(self._stop_reason)
        elif kind == "error":
            error = event.get("error") or {}
            self.abort(
                f"aborted: the API sent an error: {error.get('type', 'error')}: "
                f"{error.get('message', '')}"
            )
            self.end_response("error")

    def take_fragment(self, index: int, text: str) -> None:
        """An `input_json_delta` event, from its skeleton: what `handle` does with it."""
        state = self._blocks.get(index)
        if state is not None:
            self.table.append(state, text)

    def lane_target(self, route: int) -> CallState | None:
        """The call `take_fragment` appends the route's fragments to."""
        return self._blocks.get(route)

    def _given_blocks(self, content: Any) -> None:
        """Tool blocks already whole in `message_start`: calls closed by the message's end."""
        if type(content) is not list:
            return
        for position, block in enumerate(content):
            if type(block) is dict and block.get("type") in TOOL_BLOCKS:
                self._start_block({"index": position, "content_block": block})
                given = self._inputs.pop(position, None)
                state = self._blocks.get(position)
                if state is not None and given is not None:
                    self.table.append(state, dump_arguments(given))

    def _begin(self) -> None:
        if self.done_sent:
            self.begin_response()

    def _start_block(self, event: dict[str, Any]) -> None:
        self._begin()
        index = event.get("index", -1)
        block = event.get("content_block") or {}
        btype = block.get("type")
        kind = TOOL_BLOCKS.get(btype)  # type: ignore[arg-type]
        if kind is not None:
            old = self._blocks.get(index)
            if old is not None and old.id == block.get("id"):
                return  # replayed
            state = self.table.start(block.get("id"), block.get("name") or "", kind=kind)
            self.table.announce(state)
            self._blocks[index] = state
            given = block.get("input")
            if given:
                self._inputs[index] = given
        elif btype == "text":
            self.text(block.get("text") or "")
        elif btype == "thinking":
            self.reasoning(block.get("thinking") or "")

    def _stop_block(self, index: int) -> None:
        state = self._blocks.get(index)
        if state is None or state.finished:
            return
        given = self._inputs.pop(index, None)
        if given and state.size == 0:
            self.table.append(state, dump_arguments(given))
        parser = state.parser
        if parser is None or parser.done or not state.content:
            self.table.close(state, None)
        else:
            state.pending_close = True  # wait for the stop reason: max_tokens or not

    def reason_so_far(self) -> str | None:
        """The stop reason of the running message, if `message_delta` said it."""
        return self._stop_reason
