"""Ollama `/api/chat` streaming: NDJSON lines (or the `ollama` client's `ChatResponse`s).

Each line is `{"model", "created_at", "message": {"role", "content", "thinking"?,
"tool_calls"?}, "done": false}`; the last has `"done": true` and `done_reason` (`stop`,
`length`...). Tool calls arrive whole, and their `function.arguments` is an object, not a
string: each becomes a call whose `raw` is `json.dumps(arguments, ensure_ascii=False)`, closed
by the `done` line (the response's end). `message.content` is text, `message.thinking`
reasoning.
"""

from __future__ import annotations

from typing import Any

from .calls import dump_arguments
from .formats import FormatHandler

__all__ = ["OllamaHandler"]


class OllamaHandler(FormatHandler):
    """Routes Ollama chat stream lines to the call table."""

    __slots__ = ()

    name = "ollama"

    def handle(self, event: dict[str, Any]) -> None:
        """Act on one line of an `/api/chat` stream."""
        if "error" in event and "message" not in event:
            self.abort(f"aborted: the API sent an error: {event['error']}")
            self.end_response("error")
            return
        if self.done_sent:
            self.begin_response()
        message = event.get("message")
        if type(message) is dict:
            if isinstance(message.get("thinking"), str):
                self.reasoning(message["thinking"])
            if isinstance(message.get("content"), str):
                self.text(message["content"])
            calls = message.get("tool_calls")
            if isinstance(calls, list):
                for call in calls:
                    if type(call) is dict:
                        self._call(call)
        if event.get("done") is True:
            reason = event.get("done_reason")
            self.end_response(str(reason) if reason else "stop")

    def _call(self, call: dict[str, Any]) -> None:
        function = call.get("function")
        if type(function) is not dict:
            return
        state = self.table.start(call.get("id") or None, str(function.get("name") or ""))
        self.table.announce(state)
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            self.table.append(state, arguments)  # an OpenAI-style string, as some proxies send
        elif arguments is not None:
            self.table.append(state, dump_arguments(arguments))
