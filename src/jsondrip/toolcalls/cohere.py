"""Cohere v2 chat stream events (`client.v2.chat_stream`, or the raw SSE body).

`tool-call-start` starts a call (`delta.message.tool_calls {id, function {name, arguments}}`,
routed by the event's `index`); `tool-call-delta` adds `function.arguments` pieces;
`tool-call-end` closes it. `message-end` (`delta.finish_reason`: `COMPLETE`, `TOOL_CALL`,
`MAX_TOKENS`, `ERROR`...) ends the response. `content-delta` is text
(`delta.message.content.text`) or reasoning (`...content.thinking`), and `tool-plan-delta`
(the model's plan before its calls) is reasoning too. Citations and `debug` are ignored.
"""

from __future__ import annotations

from typing import Any

from .calls import CallState
from .formats import FormatHandler

__all__ = ["CohereHandler"]


def _message(event: dict[str, Any]) -> dict[str, Any]:
    delta = event.get("delta")
    message = delta.get("message") if type(delta) is dict else None
    return message if type(message) is dict else {}


class CohereHandler(FormatHandler):
    """Routes Cohere v2 stream events to the call table."""

    __slots__ = ("_calls", "_reason")

    name = "cohere"

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self._calls: dict[Any, CallState] = {}
        self._reason: str | None = None

    def handle(self, event: dict[str, Any]) -> None:
        """Act on one Cohere v2 stream event."""
        kind = event.get("type")
        if kind == "tool-call-delta":
            state = self._calls.get(event.get("index"))
            call = _message(event).get("tool_calls")
            function = call.get("function") if type(call) is dict else None
            if state is not None and type(function) is dict:
                arguments = function.get("arguments")
                if isinstance(arguments, str):
                    self.table.append(state, arguments)
        elif kind == "content-delta":
            self._begin()
            content = _message(event).get("content")
            if type(content) is dict:
                if isinstance(content.get("thinking"), str):
                    self.reasoning(content["thinking"])
                elif isinstance(content.get("text"), str):
                    self.text(content["text"])
        elif kind == "tool-plan-delta":
            self._begin()
            plan = _message(event).get("tool_plan")
            if isinstance(plan, str):
                self.reasoning(plan)
        elif kind == "tool-call-start":
            self._begin()
            call = _message(event).get("tool_calls")
            if type(call) is not dict:
                return
            function = call.get("function")
            if type(function) is not dict:
                function = {}
            state = self.table.start(call.get("id"), function.get("name") or "")
            self.table.announce(state)
            self._calls[event.get("index")] = state
            arguments = function.get("arguments")
            if isinstance(arguments, str):
                self.table.append(state, arguments)
        elif kind == "tool-call-end":
            state = self._calls.get(event.get("index"))
            if state is not None:
                self.table.close(state, None)
        elif kind == "message-start":
            if not self.done_sent:
                self.end_response(self._reason)
            self._calls.clear()
            self._reason = None
            self.begin_response()
        elif kind == "message-end":
            self._begin()
            delta = event.get("delta")
            reason = delta.get("finish_reason") if type(delta) is dict else None
            self._reason = str(reason) if reason else None
            self.end_response(self._reason)

    def _begin(self) -> None:
        if self.done_sent:
            self.begin_response()

    def reason_so_far(self) -> str | None:
        """The finish reason seen, if any."""
        return self._reason
