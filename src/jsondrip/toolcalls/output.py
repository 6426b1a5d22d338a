"""Structured output in a response's text (`ToolCallAccumulator(output=...)`).

Each choice's text goes to its own `jsondrip.OutputParser`, which finds the document in it
(fences, `<think>` blocks and prose around it). Its prose comes out as `TextDelta`, its
reasoning blocks as `ReasoningDelta`, and every change to the document as an `OutputDelta`.
The rule of tool calls applies: an output is `complete` only when its document is complete
and valid **and** the provider ended the response normally; a response cut by the token
limit, refused, stopped for another reason, or a stream that just ends gives `complete=False`
and an `error` that says which. `OutputDone` is emitted exactly once per choice and response.
"""

from __future__ import annotations

from typing import Any

from .._errors import IncompleteJSONError, JSONDecodeError
from .._missing import MISSING
from ..output import OutputParser
from ..schema.violation import SchemaViolation
from .calls import TRUNCATION_REASONS
from .events import OutputDelta, OutputDone, ReasoningDelta, TextDelta

__all__ = ["NORMAL_ENDS", "OutputTable"]

NORMAL_ENDS = frozenset(
    {
        "stop",  # OpenAI Chat, Ollama
        "end_turn",  # Anthropic, Bedrock
        "stop_sequence",  # Anthropic, Bedrock: a stop sequence the caller set
        "completed",  # OpenAI Responses, Gemini Interactions
        "STOP",  # Gemini
        "COMPLETE",  # Cohere
        "STOP_SEQUENCE",  # Cohere
    }
)
"""The finish reasons that end a response normally: its output may be complete."""
REFUSALS = frozenset({"refusal"})  # Anthropic's stop reason
INCOMPLETE = "incomplete: the stream ended before the response did"
ABORTED = "aborted: the stream was cut before the response was complete"


class _Output:
    """One choice's output while its response runs."""

    __slots__ = ("parser", "reasoning", "refusal", "text")

    def __init__(self, parser: OutputParser) -> None:
        self.parser: OutputParser | None = parser  # None once it failed
        self.text = 0  # characters of its prose handed out as TextDelta
        self.reasoning = 0  # and of its reasoning blocks
        self.refusal: list[str] = []


class OutputTable:
    """The outputs of the running response, by choice, and the events they emit."""

    __slots__ = ("_ended", "_make", "_outputs", "table", "typed")

    def __init__(self, table: Any, output: Any) -> None:
        self.table = table  # the call table: its `events` is the outbox
        if callable(output) and not isinstance(output, type):  # makes each choice's parser
            self._make: Any = output
        else:
            schema = OutputParser(None if output is True else output).schema  # checked once
            self._make = lambda: OutputParser(schema)
        probe = self._make()
        if not isinstance(probe, OutputParser):
            raise TypeError(f"output= made a {type(probe).__name__}, not an OutputParser")
        self.typed = probe.schema is not None and probe.schema.model is not None
        self._outputs: dict[int, _Output] = {}
        self._ended: set[int] = set()  # choices whose output ended in this response

    def _output(self, choice: int) -> _Output:
        found = self._outputs.get(choice)
        if found is None:
            found = self._outputs[choice] = _Output(self._make())
        return found

    # -- text -------------------------------------------------------------------------------

    def text(self, text: str, choice: int) -> None:
        """A piece of the choice's text: its prose, reasoning and document's changes."""
        events = self.table.events
        if choice in self._ended:
            events.append(TextDelta(text, choice))  # after its output ended: only text
            return
        output = self._output(choice)
        parser = output.parser
        if parser is None:
            events.append(TextDelta(text, choice))
            return
        try:
            changes = parser.feed_changes(text)
        except (JSONDecodeError, SchemaViolation) as error:
            self._pass_on(output, parser, choice)
            self._end(choice, parser.value, _why(error))
            return
        self._pass_on(output, parser, choice)
        completed = parser.completed
        if changes or completed:
            partial = parser.partial() if self.typed else None
            events.append(
                OutputDelta(choice, parser.value, partial, tuple(changes), tuple(completed))
            )

    def _pass_on(self, output: _Output, parser: OutputParser, choice: int) -> None:
        """The reasoning and prose the last piece added, as their events."""
        events = self.table.events
        reasoning = parser.reasoning
        if len(reasoning) > output.reasoning:
            events.append(ReasoningDelta(reasoning[output.reasoning :], choice))
            output.reasoning = len(reasoning)
        text = parser.text
        if len(text) > output.text:
            events.append(TextDelta(text[output.text :], choice))
            output.text = len(text)

    def refusal(self, text: str, choice: int) -> None:
        """The model refused (OpenAI `refusal` deltas): the output cannot be complete."""
        if choice not in self._ended:
            self._output(choice).refusal.append(text)

    # -- the end --------------------------------------------------------------------------

    def end(self, choice: int, reason: str | None) -> None:
        """The provider ended the choice with `reason`: its `OutputDone`."""
        if choice in self._ended:
            return
        output = self._output(choice)
        parser = output.parser
        assert parser is not None
        if output.refusal:
            self._end(choice, parser.value, f"refused: {''.join(output.refusal)}")
            return
        if reason in REFUSALS:
            self._end(choice, parser.value, f"refused (the provider's stop reason {reason!r})")
            return
        error: Exception | None = None
        closing: list[Any] = []
        value = MISSING
        try:
            closing = parser.close_changes()
            value = parser.close()
        except (JSONDecodeError, SchemaViolation, ValueError) as failed:
            error, value = failed, parser.value
        self._pass_on(output, parser, choice)
        completed = parser.completed if error is None else ()
        if closing or completed:
            partial = parser.partial() if self.typed else None
            delta = OutputDelta(choice, parser.value, partial, tuple(closing), tuple(completed))
            self.table.events.append(delta)
        if reason in NORMAL_ENDS:
            self._end(choice, value, None if error is None else _why(error))
            return
        if reason in TRUNCATION_REASONS:
            why = f"truncated by the token limit ({reason!r})"
        elif reason is None:
            why = "incomplete: the response ended without a finish reason"
        else:
            why = f"stopped by the provider ({reason!r})"
        self._end(choice, value, why if error is None else f"{why}: {error}")

    def end_response(self, reason: str | None) -> None:
        """The response ended: every choice not ended yet ends with `reason` (choice 0 even
        if it wrote no text), and the next response starts afresh."""
        for choice in sorted(set(self._outputs) | {0}):
            self.end(choice, reason)
        self._outputs.clear()
        self._ended.clear()

    def cut(self, why: str = INCOMPLETE) -> None:
        """The stream ended (or was aborted) before the response did."""
        for choice in sorted(self._outputs):
            if choice not in self._ended:
                output = self._outputs[choice]
                value = MISSING if output.parser is None else output.parser.value
                self._end(choice, value, why)

    def _end(self, choice: int, value: Any, error: str | None) -> None:
        self._ended.add(choice)
        output = self._outputs.get(choice)
        if output is not None:
            output.parser = None
        self.table.events.append(OutputDone(choice, value, error is None, error))


def _why(error: Exception) -> str:
    if isinstance(error, SchemaViolation):
        return f"schema: {error}"
    if isinstance(error, IncompleteJSONError):
        return f"incomplete JSON: the response ended early: {error}"
    if isinstance(error, JSONDecodeError):
        return f"invalid JSON: {error}"
    return f"invalid: {error}"  # the model's own validation (pydantic)
