"""OpenAI Responses API events (also Azure OpenAI).

`response.output_item.added` of a `function_call` item starts a call: its `call_id` is the
call's id (what the API wants back with the result), not the item's `fc_...` id.
`response.function_call_arguments.delta` fragments (found by `item_id`, else `output_index`)
are the arguments; `response.function_call_arguments.done` or `response.output_item.done`
closes the call, and their whole `arguments` text wins if the deltas said otherwise (or sent
nothing; xAI sends the whole call in `output_item.added`).

Items the API runs itself are calls of `kind="server"` (shown, never to be run by the client):
`mcp_call` (its `arguments` stream like a function's; id: the item id), `web_search_call`
(arguments: its `action`), `file_search_call` (`{"queries": [...]}`),
`code_interpreter_call` (`{"code": ..., "container_id": ...}`), given whole by
`output_item.done`; and xAI's server-side tools, sent as `custom_tool_call` items whose JSON
`input` streams in `custom_tool_call_input.delta` (`XAI_SERVER_TOOLS`), or as its own
`x_search_call`, `code_execution_call`, `view_image_call`, `view_x_video_call` items with a
`name` and JSON `arguments` (and `code_interpreter_call` with `arguments`). Other
`custom_tool_call`s (OpenAI custom tools, whose input is free text, not JSON) are not calls
here.

`response.completed` ends the response; `response.incomplete` ends it with
`incomplete_details.reason` (`max_output_tokens` marks open calls as truncated);
`response.failed` and `error` abort open calls. An event whose `sequence_number` is not above
the last one seen in the same response is a replay and is ignored. Text comes from
`response.output_text.delta`, reasoning from `response.reasoning_summary_text.delta` and
`response.reasoning_text.delta`.
"""

from __future__ import annotations

from typing import Any

from .calls import CallState, dump_arguments
from .formats import FormatHandler

__all__ = ["XAI_SERVER_TOOLS", "OpenAIResponsesHandler"]

# item type -> (the field holding the call's id, kind, name when the item has none)
CALL_ITEMS: dict[str, tuple[str, str, str]] = {
    "function_call": ("call_id", "function", ""),
    "mcp_call": ("id", "server", ""),
    "web_search_call": ("id", "server", "web_search"),
    "file_search_call": ("id", "server", "file_search"),
    "code_interpreter_call": ("id", "server", "code_interpreter"),
    "custom_tool_call": ("call_id", "server", ""),
    # xAI's own server-side tool items (`name` and a JSON `arguments` text, as function calls)
    "x_search_call": ("id", "server", "x_search"),
    "code_execution_call": ("id", "server", "code_execution"),
    "view_image_call": ("id", "server", "view_image"),
    "view_x_video_call": ("id", "server", "view_x_video"),
}
# xAI's server-side tools, which its Responses API reports as `custom_tool_call` items (JSON
# `input`): the sub-tools of its `web_search`, `x_search` and `code_execution` tools and its
# `view_image` / `view_x_video` tools, as xAI's tool documentation names them and as the
# Vercel AI SDK's xAI provider maps them (it treats these items as provider-executed). A
# `custom_tool_call` with another name is an OpenAI custom tool (free-text input, client-run)
# and is not a call here; so an xAI server tool added after this list is left out, never
# offered to the client to run.
XAI_SERVER_TOOLS = frozenset(
    {
        "x_keyword_search",
        "x_semantic_search",
        "x_user_search",
        "x_thread_fetch",
        "view_x_video",
        "view_image",
        "web_search",
        "web_search_with_snippets",
        "browse_page",
        "code_execution",
    }
)
ARG_DELTAS = frozenset(
    {
        "response.function_call_arguments.delta",
        "response.mcp_call_arguments.delta",
        "response.custom_tool_call_input.delta",
    }
)
ARG_DONES = {
    "response.function_call_arguments.done": "arguments",
    "response.mcp_call_arguments.done": "arguments",
    "response.custom_tool_call_input.done": "input",
}
REASONING = frozenset({"response.reasoning_summary_text.delta", "response.reasoning_text.delta"})


class OpenAIResponsesHandler(FormatHandler):
    """Routes Responses API stream events to the call table."""

    __slots__ = ("_by_item", "_by_output", "_response_id", "_sequence")

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
        elif kind == "response.refusal.delta":
            self.refusal(event.get("delta") or "")
        elif kind in REASONING:
            self.reasoning(event.get("delta") or "")
        elif kind == "response.output_item.added":
            self._begin()
            self._add_item(event)
        elif kind in ARG_DONES:
            state = self._find(event)
            if state is not None:
                self._close(state, event.get(ARG_DONES[kind]))
        elif kind == "response.output_item.done":
            item = event.get("item") or {}
            state = self._by_item.get(item.get("id") or "")
            if state is not None:
                self._close(state, _item_arguments(item))
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
        item_type = item.get("type")
        found = CALL_ITEMS.get(item_type)  # type: ignore[arg-type]
        item_id = item.get("id") or ""
        if found is None or (item_id and item_id in self._by_item):
            return
        id_field, call_kind, default_name = found
        name = item.get("name") or default_name
        if item_type == "custom_tool_call" and name not in XAI_SERVER_TOOLS:
            return
        state = self.table.start(item.get(id_field), name, kind=call_kind)
        self.table.announce(state)
        if item_id:
            self._by_item[item_id] = state
        output_index = event.get("output_index")
        if isinstance(output_index, int):
            self._by_output[output_index] = state
        arguments = item.get("arguments") or item.get("input")
        if arguments and isinstance(arguments, str):
            self.table.append(state, arguments)

    def _find(self, event: dict[str, Any]) -> CallState | None:
        state = self._by_item.get(event.get("item_id") or "")
        if state is None:
            state = self._by_output.get(event.get("output_index", -1))
        return state

    def _close(self, state: CallState, arguments: Any) -> None:
        if state.finished:
            return
        if isinstance(arguments, str):
            self.table.replace(state, arguments)
        self.table.close(state, None)


def _item_arguments(item: dict[str, Any]) -> Any:
    """The whole arguments text an `output_item.done` item gives, or None."""
    item_type = item.get("type")
    if item_type == "web_search_call":
        action = item.get("action")
        return None if action is None else dump_arguments(action)
    if item_type == "file_search_call":
        return dump_arguments({"queries": item.get("queries") or []})
    if item_type == "code_interpreter_call":
        if "code" not in item and isinstance(item.get("arguments"), str):
            return item["arguments"]  # xAI's shape: `arguments`, as its other tool items
        code = {"code": item.get("code") or "", "container_id": item.get("container_id")}
        return dump_arguments(code)
    if item_type == "custom_tool_call":
        return item.get("input")
    return item.get("arguments")
