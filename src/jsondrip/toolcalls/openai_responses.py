"""OpenAI Responses API events (also Azure OpenAI).

`response.output_item.added` of a `function_call` item starts a call: its `call_id` is the
call's id (what the API wants back with the result), not the item's `fc_...` id; `mcp_call`
items work the same way (their id is the item id). `response.function_call_arguments.delta`
fragments (found by `item_id`, else `output_index`) are the arguments;
`response.function_call_arguments.done` or `response.output_item.done` closes the call, and
their whole `arguments` text wins if the deltas said otherwise (or sent nothing).

`response.completed` ends the response; `response.incomplete` ends it with
`incomplete_details.reason` (`max_output_tokens` marks open calls as truncated);
`response.failed` and `error` abort open calls. An event whose `sequence_number` is not above
the last one seen in the same response is a replay and is ignored. Text comes from
`response.output_text.delta`, reasoning from `response.reasoning_summary_text.delta` and
`response.reasoning_text.delta`.
"""

from __future__ import annotations

from typing import Any

from .calls import CallState
from .formats import FormatHandler

__all__ = ["OpenAIResponsesHandler"]

CALL_ITEMS = {"function_call": "call_id", "mcp_call": "id"}
ARG_DELTAS = frozenset(
    {"response.function_call_arguments.delta", "response.mcp_call_arguments.delta"}
)
ARG_DONES = frozenset({"response.function_call_arguments.done", "response.mcp_call_arguments.done"})
REASONING = frozenset({"response.reasoning_summary_text.delta", "response.reasoning_text.delta"})


class OpenAIResponsesHandler(FormatHandler):
    """Routes Responses API stream events to the call table."""

    name = "openai-responses"

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self._response_id: str | None = None
        self._sequence = -1
        self._by_item: dict[str, CallState] = {}
        self._by_output: dict[int, CallState] = {}

    def handle(self, event: dict[str, Any]) -> None:
        """Act on one Responses API stream event."""
        kind = event.get("type")
        sequence = event.get("sequence_number")
        if isinstance(sequence, int):
            if sequence <= self._sequence and kind != "response.created":
                return  # replayed
            self._sequence = sequence
        if kind in ARG_DELTAS:
            state = self._find(event)
            if state is not None:
                self.table.append(state, event.get("delta") or "")
        elif kind == "response.output_text.delta":
            self.text(event.get("delta") or "")
        elif kind in REASONING:
            self.reasoning(event.get("delta") or "")
        elif kind == "response.output_item.added":
            self._begin()
            self._add_item(event)
        elif kind in ARG_DONES:
            state = self._find(event)
            if state is not None:
                self._close(state, event.get("arguments"))
        elif kind == "response.output_item.done":
            item = event.get("item") or {}
            state = self._by_item.get(item.get("id") or "")
            if state is not None:
                self._close(state, item.get("arguments"))
        elif kind in ("response.created", "response.in_progress"):
            response = event.get("response") or {}
            response_id = response.get("id")
            if response_id != self._response_id:
                if not self.done_sent:
                    self.end_response(None)
                self._response_id = response_id
                self._sequence = sequence if isinstance(sequence, int) else -1
                self._by_item.clear()
                self._by_output.clear()
            self._begin()
        elif kind == "response.completed":
            self.end_response((event.get("response") or {}).get("status") or "completed")
        elif kind == "response.incomplete":
            details = (event.get("response") or {}).get("incomplete_details") or {}
            self.end_response(details.get("reason") or "incomplete")
        elif kind in ("response.failed", "error"):
            error = (event.get("response") or {}).get("error") or event
            message = error.get("message") or error.get("code") or "unknown error"
            self.abort(f"aborted: the response failed: {message}")
            self.end_response("failed")

    def _begin(self) -> None:
        if self.done_sent:
            self.begin_response()

    def _add_item(self, event: dict[str, Any]) -> None:
        item = event.get("item") or {}
        id_field = CALL_ITEMS.get(item.get("type"))
        item_id = item.get("id") or ""
        if id_field is None or (item_id and item_id in self._by_item):
            return
        state = self.table.start(item.get(id_field), item.get("name") or "")
        self.table.announce(state)
        if item_id:
            self._by_item[item_id] = state
        output_index = event.get("output_index")
        if isinstance(output_index, int):
            self._by_output[output_index] = state
        arguments = item.get("arguments")
        if arguments:
            self.table.append(state, arguments)

    def _find(self, event: dict[str, Any]) -> CallState | None:
        state = self._by_item.get(event.get("item_id") or "")
        if state is None:
            state = self._by_output.get(event.get("output_index", -1))
        return state

    def _close(self, state: CallState, arguments: Any) -> None:
        if state.call.finished:
            return
        if isinstance(arguments, str):
            self.table.replace(state, arguments)
        self.table.close(state, None)
