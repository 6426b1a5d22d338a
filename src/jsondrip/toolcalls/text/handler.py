"""The format of an accumulator fed with `feed_text` alone: the model's text, no provider."""

from __future__ import annotations

from typing import Any

from ..formats import FormatHandler

__all__ = ["TextHandler"]


class TextHandler(FormatHandler):
    """Model text given with `feed_text`: one response, one choice, ended by `finish()`."""

    name = "text"

    def handle(self, event: dict[str, Any]) -> None:
        """Provider events do not belong to a text stream."""
        raise ValueError(
            "this accumulator reads model text (feed_text): a provider event cannot follow; "
            "use a new ToolCallAccumulator, with format= and text_tools=, for a provider "
            "stream whose text holds tool calls"
        )

    def finish(self) -> None:
        """The text ended: with `output=`, that is the response's normal end (a model's own
        text has no finish reason), so a whole, valid document is complete."""
        outputs = self.table.outputs
        if outputs is not None and not self.done_sent:
            self.end_text(None)
            outputs.end_response("stop")
        super().finish()
