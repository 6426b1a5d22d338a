"""`ToolCallAccumulator`: a sans-IO state machine from LLM stream events to tool calls.

Bytes or events in, events out; no network, no threads, no sleeping. The rules:

- The format is named, or detected from the first event that tells (`format="auto"`);
  `feed_text` reads the model's own text (format `"text"`). With `text_tools=`, the text
  (given to `feed_text`, or a provider's text content) is read for tool calls written in it
  (`toolcalls/text`); without it, it is only split into text and `<think>` reasoning.
- Every `feed_sse`, `feed`, `feed_text` and `finish` first asks the injected `clock` for the
  time and ends the calls that are still waiting for arguments and got none for
  `idle_timeout` seconds (a call whose arguments are already a complete document is not
  waiting; it waits only for the stream to close it). An empty `feed_sse(b"")` is a way to
  check the clock.
- `finish()` ends the stream normally: open calls are closed as the stream's finish reason
  says. `abort()` ends it as cut: open calls end with an `aborted` error and are never parsed
  as if complete. After either, feeding raises `RuntimeError`; calling either again returns
  `[]`.
- Each call emits `ToolCallStarted` once, `ToolCallDelta` per non-empty fragment, and
  `ToolCallDone` exactly once, however often the stream repeats itself.
- A call ends as soon as its text is proven invalid (or breaks its tool's schema): the
  fragment that proved it gets its delta, then `ToolCallDone` with `complete=False`. Later
  fragments of an ended call are dropped and counted in `ignored_fragments`, never raised.
"""

from __future__ import annotations

import functools
import json
import math
import time
from typing import Any, Callable

from .._errors import JSONDecodeError
from .._loads import loads
from ..schema.tools import provider_tool_names
from ..schema.violation import SchemaViolation
from .anthropic import AnthropicHandler
from .bedrock import BedrockHandler
from .calls import CallSettings, CallTable, settings_for
from .cohere import CohereHandler
from .events import Event, ToolCall
from .formats import DONE, FORMATS, FormatHandler, as_event, canonical_format, detect_format
from .gemini import GeminiHandler
from .google_interactions import InteractionsHandler
from .lane import arm, dict_matcher
from .lines import LineSplitter
from .ollama import OllamaHandler
from .openai_chat import OpenAIChatHandler
from .openai_responses import OpenAIResponsesHandler
from .output import ABORTED as OUTPUT_ABORTED
from .output import OutputTable
from .sse import SSEDecoder
from .text import canonical_family
from .text.handler import TextHandler

__all__ = ["ToolCallAccumulator"]

HANDLERS: dict[str, type[FormatHandler]] = {
    "openai-chat": OpenAIChatHandler,
    "openai-responses": OpenAIResponsesHandler,
    "anthropic": AnthropicHandler,
    "gemini": GeminiHandler,
    "gemini-interactions": InteractionsHandler,
    "bedrock": BedrockHandler,
    "cohere": CohereHandler,
    "ollama": OllamaHandler,
}
ABORTED = "aborted: the stream was cut before the call was complete"
_AT_REST = object()  # `_sse`: the SSE decoder was let go at rest (`SSEDecoder.at_rest`)
# The call table's outbox between the accumulator's calls: none (each call that may emit makes
# one, `_tick`, and hands it out), so a waiting stream holds no empty list (#28); an event
# appended outside a call would fail loudly here (a tuple has no `append`)
_NO_OUTBOX: Any = ()
# The call table's `now` between the accumulator's calls: no reading (NaN, one shared float),
# so a waiting stream keeps no clock reading of its own but its calls' and `oldest` (#28)
_NO_TIME = math.nan


class ToolCallAccumulator:
    """Live tool-call argument previews from an LLM provider's stream.

    `format`: `"auto"` (told by the first event that says), `"openai-chat"` (also Mistral,
    DeepSeek, Groq, xAI and other OpenAI-compatible servers), `"openai-responses"`,
    `"anthropic"`, `"gemini"` (Gemini API and Vertex AI), `"gemini-interactions"`,
    `"bedrock"` (ConverseStream), `"cohere"` (v2 chat) or `"ollama"`. `max_arguments_size`: the most
    characters of arguments one call may have (None: no limit); past it the call ends with a
    `too large` error and its text is dropped. `idle_timeout`: seconds a call may wait for its
    next fragment (None: forever). `clock`: the time source, in seconds.

    Each call's arguments are parsed as by `jsondrip.Parser()`: in stable mode, on the
    default backend (the `JSONDRIP_BACKEND` environment variable picks another, as for every
    `Parser`).

    `tools`: the tool definitions given to the API (any SDK's shape, see `Schema.from_tools`).
    Each call is then checked against its tool's schema as it streams; a name not among them,
    or arguments that break the schema, end the call at once with `complete=False` and
    `error="schema: <message>"` (docs/schema.md). A provider-defined tool in the list
    (Anthropic's `bash_20250124`, `text_editor_...`, `web_search_20250305`...) has no schema
    there: its calls are parsed but not checked.

    `text_tools`: the markup of tool calls that a model writes into its text (an open-weight
    model served without a tool parser): `"hermes"`, `"qwen3-coder"`, `"mistral"`,
    `"llama3-json"`, `"pythonic"`, `"deepseek"`, `"kimi-k2"`, `"glm-4.5"`, `"harmony"`, or
    `"auto"` (the family told by its first marker). The text given to `feed_text`, or the text
    content of a provider's stream, then yields calls like any provider's (docs/toolcalls.md).

    `output`: read each choice's text as structured output (`True`, or its schema: a
    `Schema`, a JSON Schema dict or a pydantic model; or a function that makes the
    `OutputParser`, for its other options: `lambda: OutputParser(Model, multiple=True)`):
    an `OutputParser` per choice finds the document in the text; its changes come as
    `OutputDelta`, its end as one `OutputDone` per choice and response, complete only if the
    document is complete and valid and the provider ended the response normally
    (docs/output.md). The text around the document is `TextDelta`, its reasoning blocks
    `ReasoningDelta`. With `text_tools` too, the text outside the calls is what it reads.
    """

    __slots__ = (
        "__weakref__",
        "_clock",
        "_dict_lane",
        "_ended",
        "_handler",
        "_lane",
        "_line_lane",
        "_lines",
        "_sse",
        "_table",
    )

    def __init__(
        self,
        format: str = "auto",
        max_arguments_size: int | None = 1_048_576,
        idle_timeout: float | None = 30.0,
        clock: Callable[[], float] = time.monotonic,
        tools: Any = None,
        text_tools: str | None = None,
        output: Any = None,
    ) -> None:
        if max_arguments_size is not None and max_arguments_size < 0:
            raise ValueError("max_arguments_size must be None or at least 0")
        if idle_timeout is not None and idle_timeout < 0:
            raise ValueError("idle_timeout must be None or at least 0")
        format = canonical_format(format)
        family = None if text_tools is None else canonical_family(text_tools)
        if tools is None:  # shared by the accumulators made alike (#28)
            settings = settings_for(max_arguments_size, family, idle_timeout)
        else:
            settings = CallSettings(
                max_arguments_size,
                family,
                _schemas(tools),
                provider_tool_names(tools),
                idle_timeout=idle_timeout,
            )
        self._clock = clock
        self._table = CallTable(_NO_OUTBOX, settings=settings, clock=clock)
        if output is not None and output is not False:
            self._table.outputs = OutputTable(self._table, output)
        self._handler: FormatHandler | None = None
        if format != "auto":
            self._set_handler(HANDLERS[format](self._table))
        # made by the first `feed_sse` or `feed_lines` (a stream takes one of them, or neither);
        # the SSE decoder is let go while a lane is armed and it is at rest (`_AT_REST`)
        self._sse: Any = None
        self._lines: LineSplitter | None = None
        self._ended: str | None = None  # None, "finish()" or "abort()"
        # the native lane of the SSE chunks or JSON lines, while one is armed (lane.py)
        self._lane: Any = None
        self._line_lane: Any = None
        self._dict_lane: Any = None

    @property
    def _shortcut(self) -> FormatHandler | None:
        """The handler, if its format has a shortcut (`EnvelopeShortcut`); else None (set
        with the handler; auto: after the first event)."""
        handler = self._handler
        return None if handler is None or handler.ENVELOPE is None else handler

    @property
    def max_arguments_size(self) -> int | None:
        """The most characters of arguments one call may have (None: no limit)."""
        return self._table.settings.max_arguments_size

    @max_arguments_size.setter
    def max_arguments_size(self, value: int | None) -> None:
        self._table.settings = self._table.settings.replaced(max_arguments_size=value)

    @property
    def idle_timeout(self) -> float | None:
        """Seconds a call may wait for its next fragment (None: forever)."""
        return self._table.settings.idle_timeout

    @idle_timeout.setter
    def idle_timeout(self, value: float | None) -> None:
        self._table.settings = self._table.settings.replaced(idle_timeout=value)

    @property
    def text_tools(self) -> str | None:
        """The markup family of tool calls written in the text (canonical), or None. The
        handler reads it from the settings when a choice's text begins: set it before."""
        return self._table.settings.text_tools

    @text_tools.setter
    def text_tools(self, value: str | None) -> None:
        self._table.settings = self._table.settings.replaced(text_tools=value)

    @property
    def format(self) -> str:
        """The stream's format: as given (canonical), or as told by its first event with
        `format="auto"` (`"auto"` until then), or `"text"` once `feed_text` read it."""
        handler = self._handler
        return "auto" if handler is None else handler.name

    @property
    def tool_calls(self) -> list[ToolCall]:
        """Every call seen so far, in the order they started (`index` is the position)."""
        return list(self._table.calls)

    @property
    def ignored_fragments(self) -> int:
        """How many argument fragments arrived for calls that had already ended (invalid
        JSON, a schema violation, too large, timed out, closed) and were dropped unread: the
        tokens a model spent after its call could no longer be used."""
        return self._table.ignored_fragments

    def feed_sse(self, data: bytes | bytearray | memoryview | str) -> list[Event]:
        """Read raw `text/event-stream` bytes or str, cut anywhere; return the new events.

        `data: [DONE]` ends an OpenAI response; comments and keep-alives are skipped, and so
        is data that is not a JSON object.

        Several events may come from one call, several deltas of one tool call among them:
        their `preview` is the call's one live value, so each shows the state at the end of
        the batch (and `snapshot()`, taken afterwards, copies that state). Each delta's own
        `changes` are exact: applied in order to a copy of your own, they give the preview as
        it was right after that delta (docs/toolcalls.md).
        """
        # The armed lane first, inline (`feed_lines` and `feed` repeat these lines on purpose:
        # a shared method would cost a frame, a tenth of the event's time).
        lane = self._lane  # armed: the stream runs and the SSE decoder holds nothing
        if lane is not None and type(data) is bytes:
            now = self._clock()
            table = self._table
            since = now - table.oldest  # (`_tick` reads it so: the same answer)
            settings = table.settings
            timeout = settings.idle_timeout
            if since >= 0.0 and (timeout is None or since <= timeout):  # the clock ends no call
                try:
                    # the common event in one frame (lane.py)
                    delta = lane.take(data, now, self._handler.head, settings.limit)  # type: ignore[union-attr]
                except (JSONDecodeError, SchemaViolation) as error:
                    return self._lane_failed(lane, error, data, self._handler.head)  # type: ignore[union-attr]
                if delta is not None:
                    if table._later is None:  # the lane's call is the only one (`_arm`)
                        table.oldest = now
                    return [delta]
        else:
            if self._ended is not None:
                self._check()
            now = self._clock()
        table = self._tick(now)
        sse = self._sse
        if sse is None or sse is _AT_REST:
            limit = self._buffer_limit()
            sse = self._sse = SSEDecoder(limit) if sse is None else SSEDecoder.resumed(limit)
        shortcut = self._shortcut  # set with the handler (auto: after the first event)
        if shortcut is not None and sse.idle and type(data) is bytes and shortcut.match_chunk(data):
            if shortcut.LANES:
                self._lane = self._arm_sse(sse)
        else:
            routed = False  # the last event was routed by the shortcut, and framed
            for text in sse.feed_data(data):
                if shortcut is not None and shortcut.match(text):
                    # routed by its envelope's skeleton, without decoding
                    head = sse.head
                    routed = head is not None
                    if head is not None:
                        shortcut.frame(head)
                    continue
                routed = False
                self._read(text)
                shortcut = self._shortcut
            if routed and sse.idle and shortcut.LANES:  # type: ignore[union-attr]
                self._lane = self._arm_sse(sse)
        events = table.events
        table.events = _NO_OUTBOX  # the outbox changes hands: cheaper than copying it
        table.now = _NO_TIME
        return events

    def feed_text(self, delta: str) -> list[Event]:
        """Read the next piece of the model's own text (a raw completion, a local model's
        output), cut anywhere; return the new events: `TextDelta` and `ReasoningDelta`, and,
        with `text_tools`, the tool calls written in it. `finish()` ends the text."""
        if type(delta) is not str:
            raise TypeError(f"feed_text takes str, not {type(delta).__name__}")
        if self._ended is not None:
            self._check()
        self._tick(self._clock())
        handler = self._handler
        if handler is None:
            handler = self._set_handler(TextHandler(self._table))
        if handler.done_sent:
            handler.begin_response()
        handler.text(delta)
        return self._drain()

    def _read(self, text: str) -> None:
        """One event's data the long way: `[DONE]`, or JSON decoded in full."""
        if text[:1] != "{":
            text = text.strip()
            if text == "[DONE]":
                self._dispatch(DONE)
                return
            if text[:1] != "{":
                return
        try:
            event = loads(text)  # the native fast path when built
        except ValueError:
            return
        if type(event) is dict:
            self._dispatch(event)

    def feed_lines(self, data: bytes | bytearray | memoryview | str) -> list[Event]:
        """Read newline-delimited JSON (Ollama's `/api/chat`, JSON-lines recordings of any
        format), bytes or str cut anywhere; return the new events. Blank lines are skipped,
        `[DONE]` ends an OpenAI response; a line that is not a JSON object is a ValueError
        naming its line number."""
        lane = self._line_lane  # armed: the stream runs and the splitter holds nothing
        if lane is not None and type(data) is bytes:
            now = self._clock()
            table = self._table
            since = now - table.oldest  # (`_tick` reads it so: the same answer)
            settings = table.settings
            timeout = settings.idle_timeout
            if since >= 0.0 and (timeout is None or since <= timeout):  # the clock ends no call
                try:
                    # one whole line, in one frame (lane.py)
                    delta = lane.take(data, now, self._handler.head, settings.limit)  # type: ignore[union-attr]
                except (JSONDecodeError, SchemaViolation) as error:
                    self._lines.number += 1  # type: ignore[union-attr]  # read (`count_one`)
                    return self._lane_failed(lane, error, data, self._handler.head)  # type: ignore[union-attr]
                if delta is not None:
                    self._lines.number += 1  # type: ignore[union-attr]  # (armed: made)
                    if table._later is None:  # the lane's call is the only one (`_arm`)
                        table.oldest = now
                    return [delta]
        else:
            if self._ended is not None:
                self._check()
            now = self._clock()
        self._tick(now)
        lines = self._lines
        if lines is None:
            lines = self._lines = LineSplitter(max_line_size=self._buffer_limit())
        if lines.idle and type(data) is bytes and data.find(b"\n") == len(data) - 1:
            # the common chunk: one whole line; decoded at once (it ends in ASCII)
            lines.count_one()
            shortcut = self._shortcut
            if shortcut is not None and shortcut.match_line(data):
                if shortcut.LANES:
                    self._line_lane = self._arm(shortcut.line_matcher)
                return self._drain()  # the last routed line's envelope again (shortcut.py)
            text = data.decode("utf-8", "replace").rstrip("\r\n")
            found = [(lines.number, text)] if text.strip() else []
        else:
            found = lines.feed(data)
        routed = False  # the last line was routed by the shortcut
        for number, line in found:
            shortcut = self._shortcut
            routed = shortcut is not None and shortcut.match(line)
            if routed:  # routed by its envelope's skeleton (shortcut.py)
                shortcut.frame_line()  # type: ignore[union-attr]
            else:
                self._line(number, line)
        if routed and lines.idle and self._shortcut.LANES:  # type: ignore[union-attr]
            self._line_lane = self._arm(self._shortcut.line_matcher)  # type: ignore[union-attr]
        return self._drain()

    def _line(self, number: int, line: str) -> None:
        try:
            event = as_event(line)
        except (ValueError, TypeError) as error:
            raise ValueError(f"line {number}: {error}") from None
        self._dispatch(event)

    def feed(self, event: Any) -> list[Event]:
        """Read one decoded event: a dict (boto3's ConverseStream events are dicts), JSON
        text (or `[DONE]`), or an SDK object (`openai`, `anthropic`, `google-genai`, `cohere`,
        `ollama`; duck-typed, never imported); return the new events. A raw SSE body is a
        ValueError that names `feed_sse`."""
        lane = self._dict_lane  # armed: the last event was a plain fragment (lane.py)
        if lane is not None and type(event) is dict:
            now = self._clock()
            table = self._table
            since = now - table.oldest  # (`_tick` reads it so: the same answer)
            settings = table.settings
            timeout = settings.idle_timeout
            if since >= 0.0 and (timeout is None or since <= timeout):  # the clock ends no call
                try:
                    # the common event in one frame (lane.py)
                    delta = lane.take(event, now, None, settings.limit)
                except (JSONDecodeError, SchemaViolation) as error:
                    return self._lane_failed(lane, error, event, None)
                if delta is not None:
                    if table._later is None:  # the lane's call is the only one (`_arm`)
                        table.oldest = now
                    return [delta]
        else:
            if self._ended is not None:
                self._check()
            now = self._clock()
        table = self._tick(now)
        found = self._dispatch(event if type(event) is dict else as_event(event))
        handler = self._handler
        if found is not None and type(event) is dict and handler.LANES:  # type: ignore[union-attr]
            # a plain fragment of a call: the next ones may take a lane
            self._dict_lane = self._arm_dict(event, found)
        events = table.events
        table.events = _NO_OUTBOX  # the outbox changes hands: cheaper than copying it
        table.now = _NO_TIME
        return events

    def finish(self) -> list[Event]:
        """The stream ended: close the open calls (by the finish reason seen); last events."""
        if self._ended is not None:
            return []
        self._expire()
        self._ended = "finish()"
        self._lane = self._line_lane = self._dict_lane = None
        if self._sse is not None and self._sse is not _AT_REST:
            self._sse.close()
        if self._lines is not None:
            for number, line in self._lines.close():  # a last line without its newline
                self._line(number, line)
        if self._handler is not None:
            self._handler.finish()
        return self._drain()

    def abort(self) -> list[Event]:
        """The stream was cut: open calls end with an `aborted` error; last events."""
        if self._ended is not None:
            return []
        self._ended = "abort()"
        self._lane = self._line_lane = self._dict_lane = None
        self._table.events = []
        if self._sse is not None and self._sse is not _AT_REST:
            self._sse.close()
        outputs = self._table.outputs
        if outputs is not None:
            outputs.cut(OUTPUT_ABORTED)
        if self._handler is not None:
            self._handler.abort(ABORTED)
        return self._drain()

    def _buffer_limit(self) -> int | None:
        """The most characters the SSE decoder or line splitter may hold: one event or line
        with the largest arguments allowed, escaped, and a megabyte of envelope."""
        return _buffer_limit(self.max_arguments_size)

    def _check(self) -> None:
        if self._ended is not None:
            raise RuntimeError(
                f"the stream has ended ({self._ended} was called): "
                "use a new ToolCallAccumulator for the next stream"
            )
        self._expire()

    def _expire(self) -> None:
        """Read the clock; end the calls idle for longer than `idle_timeout`."""
        self._tick(self._clock())

    def _tick(self, now: float) -> CallTable:
        """The long way's start, at the clock reading `now`: the lanes are dropped (anything
        may change now), and the calls idle for longer than `idle_timeout` end."""
        self._lane = self._line_lane = self._dict_lane = None
        table = self._table
        table.events = []  # the outbox of this call (none is held between calls)
        table.now = now
        if now < table.oldest:
            table.oldest = now
        timeout = table.settings.idle_timeout
        if timeout is not None and now - table.oldest > timeout:
            table.expire(now, timeout)
        return table

    def _lane_failed(
        self, lane: Any, error: JSONDecodeError | SchemaViolation, event: Any, head: Any
    ) -> list[Event]:
        """The parser refused the fragment the lane took from `event` (its matcher gives it
        again): what `CallTable.append` does then."""
        fragment = lane.matcher.fragment(event, head)
        self._lane = self._line_lane = self._dict_lane = None
        self._table.events = []
        self._table.feed_failed(lane, fragment, error)
        return self._drain()

    def _dispatch(self, event: dict[str, Any]) -> Any:
        """Hand the event to the format's handler (told by it, for `format="auto"`); the
        route of a plain fragment event it appended (`FormatHandler.handle`), or None."""
        handler = self._handler
        if handler is None:
            if event is DONE:
                return None
            name = detect_format(event)
            if name is None:
                if event.get("type") == "ping":
                    return None
                raise ValueError(
                    f"cannot tell the stream format from this event: {_short(event)}; "
                    f"pass format= one of {', '.join(map(repr, FORMATS))}"
                )
            handler = self._set_handler(HANDLERS[name](self._table))
        try:
            return handler.handle(event)
        except (AttributeError, TypeError, KeyError, IndexError) as error:
            # a field of an unexpected type (a list where an object belongs...): say so
            raise ValueError(
                f"malformed {self.format} event ({type(error).__name__}: {error}): {_short(event)}"
            ) from None

    def _arm_sse(self, sse: SSEDecoder) -> Any:
        """A lane for the SSE chunks the shortcut's last frame knows, or None; while it is
        armed, the SSE decoder is let go if it is at rest (the long way makes another,
        `SSEDecoder.resumed`)."""
        lane = self._arm(self._shortcut.chunk_matcher)  # type: ignore[union-attr]
        if lane is not None and sse.at_rest:
            self._sse = _AT_REST
        return lane

    def _arm(self, matcher: Any, route: Any = None) -> Any:
        """A lane for the call that `route` (by default the shortcut's) feeds, through the
        events `matcher` knows, or None (lane.py says when)."""
        if route is None:
            route = self._shortcut.route  # type: ignore[union-attr]
        state = self._handler.lane_target(route)  # type: ignore[union-attr]
        # While the clock reads no earlier than the table's oldest activity and no more than
        # `idle_timeout` after it, the long way's clock check would do nothing (no new oldest
        # activity, no call idle too long): the lane checks that and skips it. `oldest` is a
        # lower bound of the open calls' last activity (a lower one only sends the clock
        # check the long way sooner); where the lane's call is the table's only one, each
        # lane event makes it exact, the same clock reading as the call's `last_active`: an
        # open stream holds one reading, not two (#28).
        return arm(state, matcher)

    def _arm_dict(self, event: dict[str, Any], route: Any) -> Any:
        """A lane for the call `route` feeds, through dicts shaped as `event` (None where
        the event holds more than dicts and scalars)."""
        handler = self._handler
        try:
            matcher = dict_matcher(event, handler.FRAGMENT_PATH, handler.IGNORED_KEYS)  # type: ignore[union-attr]
        except TypeError:
            return None
        return None if matcher is None else self._arm(matcher, route)

    def _set_handler(self, handler: FormatHandler) -> FormatHandler:
        self._handler = handler
        return handler

    def _drain(self) -> list[Event]:
        table = self._table
        events = table.events
        table.events = _NO_OUTBOX
        table.now = _NO_TIME
        return events

    def __repr__(self) -> str:
        return (
            f"<ToolCallAccumulator format={self.format!r} calls={len(self._table.calls)}"
            f"{' ended by ' + self._ended if self._ended else ''}>"
        )


@functools.lru_cache(maxsize=8)
def _buffer_limit(max_arguments_size: int | None) -> int | None:
    """`ToolCallAccumulator._buffer_limit`, one int object per size (one per server, not one
    per stream: an int past 256 is an object of 28 bytes)."""
    if max_arguments_size is None:
        return None
    return 2 * max_arguments_size + (1 << 20)


def _schemas(tools: Any) -> dict[str, Any]:
    """Each tool's name and compiled `Schema`."""
    from ..schema.schema import Schema

    return Schema.from_tools(tools)


def _short(event: dict[str, Any]) -> str:
    text = json.dumps(event, default=str)
    return text if len(text) <= 120 else text[:117] + "..."
