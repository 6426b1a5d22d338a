"""Google's Interactions API stream events (`event_type`).

`step.start` of a `function_call` step starts a call (`step.id`, `step.name`; a non-empty
`step.arguments` object is its arguments); `step.delta` with `delta.type == "arguments_delta"`
adds `delta.arguments` text; `step.stop` closes it. Text deltas (`delta.text`) are text,
`thought` steps' text is reasoning. `interaction.completed` (or a status update to
`completed`, `requires_action`, `failed`, `incomplete`) ends the response.
"""

from __future__ import annotations

from typing import Any

from .calls import CallState, dump_arguments
from .formats import FormatHandler

__all__ = ["InteractionsHandler"]

ENDING = frozenset({"completed", "requires_action", "failed", "incomplete", "cancelled"})


class InteractionsHandler(FormatHandler):
    """Routes Interactions API events to the call table."""

    __slots__ = ("_kinds", "_status", "_steps")

    name = "gemini-interactions"

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self._steps: dict[Any, CallState] = {}
        self._kinds: dict[Any, str] = {}
        self._status: str | None = None

    def handle(self, event: dict[str, Any]) -> None:
        """Act on one Interactions API event."""
        kind = event.get("event_type")
        index = event.get("index")
        if kind == "step.delta":
            delta = event.get("delta")
            if type(delta) is not dict:
                return
            self._begin()
            state = self._steps.get(index)
            if state is not None and isinstance(delta.get("arguments"), str):
                self.table.append(state, delta["arguments"])
            elif isinstance(delta.get("text"), str):
                if self._kinds.get(index) == "thought":
                    self.reasoning(delta["text"])
                else:
                    self.text(delta["text"])
        elif kind == "step.start":
            self._begin()
            step = event.get("step")
            if type(step) is not dict:
                return
            self._kinds[index] = str(step.get("type"))
            if step.get("type") == "function_call":
                state = self.table.start(step.get("id") or None, step.get("name") or "")
                self.table.announce(state)
                self._steps[index] = state
                arguments = step.get("arguments")
                if isinstance(arguments, str):
                    self.table.append(state, arguments)
                elif isinstance(arguments, dict) and arguments:
                    self.table.append(state, dump_arguments(arguments))
        elif kind == "step.stop":
            state = self._steps.pop(index, None)
            if state is not None:
                self.table.close(state, None)
        elif kind in ("interaction.created", "interaction.start"):
            if not self.done_sent:
                self.end_response(self._status)
            self._steps.clear()
            self._kinds.clear()
            self._status = None
            self.begin_response()
        elif kind in ("interaction.completed", "interaction.complete", "interaction.status_update"):
            interaction = event.get("interaction")
            status = event.get("status")
            if type(interaction) is dict:
                status = interaction.get("status", status)
            if kind == "interaction.status_update" and status not in ENDING:
                return
            self._status = str(status) if status else "completed"
            self._begin()
            self.end_response(self._status)
        elif kind == "error":
            self.abort(f"aborted: the API sent an error: {event.get('error')}")
            self.end_response("error")

    def _begin(self) -> None:
        if self.done_sent:
            self.begin_response()

    def reason_so_far(self) -> str | None:
        """The status seen, if any."""
        return self._status
