"""Which API a stream comes from, and turning any event into a plain dict.

`detect_format` names the format from one event; `as_event` turns JSON text, bytes, a mapping
or an SDK object (`openai` / `anthropic` through `to_dict()`; google-genai, cohere and ollama
pydantic models through `model_dump()`; duck-typed, never imported) into a dict. boto3's
ConverseStream events are dicts already. `FormatHandler` is the base of the per-format
modules: it owns the text and reasoning routing and the `StreamDone` bookkeeping.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._loads import loads
from ..markup.think import ThinkSplitter
from .calls import CallState, CallTable
from .events import ReasoningDelta, StreamDone, TextDelta
from .shortcut import EnvelopeShortcut
from .text import reader_factory

__all__ = ["DONE", "FORMATS", "FormatHandler", "as_event", "detect_format"]

FORMATS = (
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "gemini-interactions",
    "bedrock",
    "cohere",
    "ollama",
)
ALIASES = {
    "openai": "openai-chat",
    "chat": "openai-chat",
    "openai-compatible": "openai-chat",
    "deepseek": "openai-chat",
    "mistral": "openai-chat",
    "groq": "openai-chat",
    "xai": "openai-chat",
    "vllm": "openai-chat",
    "openrouter": "openai-chat",
    "together": "openai-chat",
    "llama.cpp": "openai-chat",
    "cerebras": "openai-chat",
    "responses": "openai-responses",
    "vertex": "gemini",
    "google": "gemini",
    "interactions": "gemini-interactions",
    "bedrock-converse": "bedrock",
}
# the `type` of each event of a format, or its one key (Bedrock), as detection reads them
ANTHROPIC_TYPES = frozenset(
    {
        "message_start",
        "message_delta",
        "message_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "ping",
    }
)
COHERE_TYPES = frozenset(
    {
        "message-start",
        "content-start",
        "content-delta",
        "content-end",
        "tool-plan-delta",
        "tool-call-start",
        "tool-call-delta",
        "tool-call-end",
        "citation-start",
        "citation-end",
        "message-end",
        "debug",
    }
)
BEDROCK_EXCEPTIONS = frozenset(
    {
        "internalServerException",
        "modelStreamErrorException",
        "throttlingException",
        "validationException",
        "serviceUnavailableException",
    }
)
BEDROCK_EVENTS = BEDROCK_EXCEPTIONS | {
    "messageStart",
    "contentBlockStart",
    "contentBlockDelta",
    "contentBlockStop",
    "messageStop",
    "metadata",
}
SSE_PREFIXES = ("data:", "event:", "id:", "retry:", ":")

DONE: dict[str, Any] = {"type": "[DONE]"}  # what `data: [DONE]` becomes


def canonical_format(name: str) -> str:
    """The canonical name of a format (`auto` stays `auto`); ValueError if unknown."""
    name = ALIASES.get(name, name)
    if name != "auto" and name not in FORMATS:
        known = ", ".join(("auto", *FORMATS, *ALIASES))
        raise ValueError(f"unknown format {name!r}; use one of {known}")
    return name


def detect_format(event: Mapping[str, Any]) -> str | None:
    """The format one decoded event belongs to, or None if it does not tell."""
    kind = event.get("type")
    if isinstance(kind, str):
        if kind in ANTHROPIC_TYPES:
            return "anthropic"
        if kind.startswith("response."):
            return "openai-responses"
        if kind in COHERE_TYPES:
            return "cohere"
        if kind == "chunk" and "chunk" in event:  # openai's ChatCompletionStream ChunkEvent
            return "openai-chat"
    if event.get("object") == "chat.completion.chunk" or "choices" in event:
        return "openai-chat"
    if "candidates" in event or "promptFeedback" in event or "prompt_feedback" in event:
        return "gemini"
    if isinstance(event.get("event_type"), str):
        return "gemini-interactions"
    if len(event) == 1 and next(iter(event)) in BEDROCK_EVENTS:
        return "bedrock"
    if "done" in event and ("message" in event or "created_at" in event):
        return "ollama"
    return None


def as_event(event: Any) -> dict[str, Any]:
    """A decoded event as a dict: JSON text or bytes, a mapping, or an SDK model object."""
    if isinstance(event, dict):
        return event
    if isinstance(event, (str, bytes, bytearray)):
        text = event.strip() if isinstance(event, str) else bytes(event).strip()
        if text in ("[DONE]", b"[DONE]"):
            return DONE
        head = text[:6] if isinstance(text, str) else text[:6].decode("utf-8", "replace")
        if head.startswith(SSE_PREFIXES):
            raise ValueError(
                f"this looks like a raw server-sent-event body ({head!r}...): pass it to "
                "feed_sse(), which takes text/event-stream bytes cut anywhere; feed() takes "
                "one decoded event (a dict, its JSON text, or an SDK object)"
            )
        try:
            value = loads(text)  # jsondrip's own: the native fast path when built
        except ValueError as error:
            if getattr(error, "msg", "") == "Extra data" and (
                "\n" in text if isinstance(text, str) else b"\n" in text
            ):
                raise ValueError(
                    f"{error}: this looks like several JSON lines: pass them to feed_lines(), "
                    "which takes newline-delimited JSON cut anywhere"
                ) from None
            raise
        if not isinstance(value, dict):
            raise TypeError(f"an event must be a JSON object, not {type(value).__name__}")
        return value
    if isinstance(event, Mapping):
        return dict(event)
    to_dict = getattr(event, "to_dict", None)
    if callable(to_dict):
        try:
            value = to_dict(warnings=False)  # the SDKs' pydantic models warn on unknown blocks
        except TypeError:
            value = to_dict()
    else:
        dump = getattr(event, "model_dump", None)
        if not callable(dump):
            raise TypeError(
                f"cannot read an event of type {type(event).__name__}: pass a dict, JSON "
                "text, or an SDK object (openai, anthropic, google-genai, cohere, ollama)"
            )
        # pydantic models (google-genai, cohere, ollama): camelCase aliases where they have
        # them, as the REST APIs spell them, and only the fields the server sent
        value = dump(by_alias=True, exclude_none=True)
    if not isinstance(value, dict):
        raise TypeError(f"{type(event).__name__}.to_dict() did not return a dict")
    return value


class FormatHandler(EnvelopeShortcut):
    """The part every format shares: text, reasoning and the end of a response; and the
    shortcut past decoding its common fragment event (`EnvelopeShortcut`: the handler is
    its own, one object per open stream instead of two, #28), if its class names an
    `ENVELOPE`."""

    __slots__ = (
        "_texts",
        "done_sent",
        "table",
    )

    name = ""
    # `feed(dict)`: where a plain fragment event holds its fragment, and keys never read
    # (the lane's DictMatcher, lane.py); `handle` returns the route of a plain fragment
    # event it appended
    FRAGMENT_PATH: tuple[str, ...] = ()
    IGNORED_KEYS: tuple[str, ...] = ()

    LANES = False
    """Whether the format names the calls its fragments go to (`lane_target`), so that lanes
    may be armed (lane.py): set for each class by whether it defines `lane_target`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.LANES = cls.lane_target is not FormatHandler.lane_target

    def __init__(self, table: CallTable) -> None:
        super().__init__()
        self.table = table
        # choice -> the reader of its text: with `text_tools`, of the tool calls written in
        # it (toolcalls/text), else (without `output=`) its `<think>` splitter; made with the
        # first text (a stream of tool calls may have none)
        self._texts: dict[Any, Any] | None = None
        self.done_sent = True  # no response is running yet

    @property
    def text_tools(self) -> str | None:
        """The family of tool calls written in the text (`text_tools=`, toolcalls/text), read
        from the table's settings (no field of the handler's own, #28); None: text is only
        split into text and `<think>` reasoning."""
        return self.table.settings.text_tools

    @property
    def events(self) -> list[Any]:
        """The outbox (the table's: the accumulator replaces it as it hands events out)."""
        return self.table.events

    def handle(self, event: dict[str, Any]) -> Any:
        """Act on one decoded event of this format. A format with a `FRAGMENT_PATH` returns
        the route of a plain fragment event it appended (`feed(dict)` may then arm a lane,
        lane.py); any other event returns None."""
        raise NotImplementedError

    def lane_target(self, route: Any) -> CallState | None:
        """The call whose fragments the shortcut's `route` feeds, if this handler's `take`
        would now only append them to it (`CallTable.append`), and go on doing only that
        while nothing else happens; else None. The native lane (lane.py) then takes them."""
        return None

    def begin_response(self) -> None:
        """A response began (or its first event arrived)."""
        self.done_sent = False

    def text(self, text: str, choice: int = 0) -> None:
        """Assistant text: `<think>` blocks in it become reasoning; with `text_tools`, tool
        calls written in it become calls; with `output=`, the structured output's reader sorts
        it (the text outside calls): prose, reasoning, the document."""
        if not text:
            return
        family = self.text_tools
        if family is not None:
            readers = self._texts
            if readers is None:
                readers = self._texts = {}
            reader = readers.get(choice)
            if reader is None:
                reader = readers[choice] = reader_factory(family)(self.table, choice)
            reader.feed(text)
            return
        outputs = self.table.outputs
        if outputs is not None:
            outputs.text(text, choice)
            return
        splitters = self._texts
        if splitters is None:
            splitters = self._texts = {}
        splitter = splitters.get(choice)
        if splitter is None:
            splitter = splitters[choice] = ThinkSplitter()
        for is_reasoning, piece in splitter.feed(text):
            self.events.append(
                ReasoningDelta(piece, choice) if is_reasoning else TextDelta(piece, choice)
            )

    def refusal(self, text: str, choice: int = 0) -> None:
        """The model's refusal (OpenAI `refusal` deltas): no output of that choice can be
        complete (with `output=`); not text."""
        outputs = self.table.outputs
        if text and outputs is not None:
            outputs.refusal(text, choice)

    def end_choice(self, choice: int, reason: str | None) -> None:
        """One choice ended with `reason` (OpenAI's `finish_reason`, Gemini's candidate's
        `finishReason`): its text ends (the text-tools reader passes on what it held, an
        open call written in the text ends incomplete), then its structured output by it."""
        readers = self._readers()
        reader = None if readers is None else readers.pop(choice, None)
        if reader is not None:
            reader.end(reason)
        outputs = self.table.outputs
        if outputs is not None and not self.done_sent:
            outputs.end(choice, reason)

    def _readers(self) -> dict[Any, Any] | None:
        """The text-tools readers by choice (`_texts` with `text_tools`), if any."""
        return None if self.text_tools is None else self._texts

    def reasoning(self, text: str, choice: int = 0) -> None:
        """Reasoning text from a dedicated field."""
        if text:
            self.events.append(ReasoningDelta(text, choice))

    def flush_text(self) -> None:
        """Pass on text held back as a possible `<think>` tag."""
        splitters = None if self.text_tools is not None else self._texts
        for choice, splitter in (splitters or {}).items():
            for is_reasoning, piece in splitter.flush():
                self.events.append(
                    ReasoningDelta(piece, choice) if is_reasoning else TextDelta(piece, choice)
                )

    def end_text(self, reason: str | None) -> None:
        """The response's text ended: the text-tools readers pass on what they held, and a
        call written in the text that never got its closing marker ends incomplete (before
        the response's end could close it as if it were complete)."""
        readers = self._readers()
        if readers is not None:
            self._texts = None
        for reader in (readers or {}).values():
            reader.end(reason)

    def end_response(self, reason: str | None) -> None:
        """The response ended: close its open calls, flush text, emit `StreamDone` once."""
        self.end_text(reason)
        for state in self.table.open_states():
            self.table.close(state, reason)
        self.flush_text()
        if not self.done_sent:
            self.done_sent = True
            outputs = self.table.outputs
            if outputs is not None:
                outputs.end_response(reason)
            self.events.append(StreamDone(reason))

    def reason_so_far(self) -> str | None:
        """The running response's finish reason, if the stream already said it."""
        return None

    def finish(self) -> None:
        """The stream ended (`finish()`): calls the provider did not close are cut (never
        complete); the running response ends with the reason seen, if any."""
        self.end_text(self.reason_so_far())
        for state in self.table.open_states():
            self.table.cut(state)
        self.flush_text()
        if not self.done_sent:
            self.done_sent = True
            outputs = self.table.outputs
            if outputs is not None:
                outputs.cut()
            self.events.append(StreamDone(self.reason_so_far()))

    def abort(self, why: str) -> None:
        """The stream was cut: every open call ends with `why`, keeping its text and preview."""
        readers = self._readers()
        if readers is not None:
            self._texts = None
        for reader in (readers or {}).values():
            reader.abort(why)
        for state in self.table.open_states():
            self.table.fail(state, why, release=False)
        self.flush_text()
        outputs = self.table.outputs
        if outputs is not None and not self.done_sent:
            outputs.cut(why if why.startswith("aborted") else f"aborted: {why}")
