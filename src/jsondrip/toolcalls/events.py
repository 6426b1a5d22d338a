"""What the accumulator hands out: `ToolCall` and the events, frozen and slotted.

Events are values: frozen dataclasses, safe to compare, hash and dispatch on with
`type(event) is ToolCallDelta`. `ToolCall` is the one live object: the accumulator updates it
while the call streams and never again once `ToolCallDone` has been emitted for it.
"""

from __future__ import annotations

from types import MemberDescriptorType
from typing import Any, Union

from .._changes import Change
from .._engine import PENDING_TYPES
from .._frozen import frozen_event
from .._missing import MISSING
from .._snapshot import frozen_copy

RAW_TAIL = 128
"""`ToolCall` appends each raw fragment to a short str, its tail; a tail of RAW_TAIL characters
or more is pushed after the text before it (`ToolCall._push`)."""

__all__ = [
    "Event",
    "OutputDelta",
    "OutputDone",
    "ReasoningDelta",
    "StreamDone",
    "TextDelta",
    "ToolCall",
    "ToolCallDelta",
    "ToolCallDone",
    "ToolCallStarted",
]


class ToolCall:
    """One tool call: what it is, what has arrived, and whether it can be acted on.

    - `index`: the call's position in `ToolCallAccumulator.tool_calls` (0, 1, 2... in the
      order the calls start), unique over the accumulator's life, also when one stream holds
      several responses. The provider's own index only routes fragments.
    - `id`: the id the API wants back with the tool's result (`call_id` in the Responses API,
      `toolu_...` in Anthropic Messages), or None if the stream never sent one.
    - `name`: the tool's name, assembled once even if a provider repeats or splits it.
    - `arguments`: the parsed value; while streaming, the live preview (updated in place by
      later fragments); `MISSING` before any value began.
    - `raw`: the exact argument text received, every character, fences included.
    - `error`: None, or why the call is unusable; the text starts with one of `invalid JSON`,
      `incomplete JSON`, `incomplete: the stream ended before the provider closed the call`,
      `truncated by the token limit`, `aborted`, `too large`, `timed out`, and for calls
      written as text (`text_tools=`) `incomplete: the text ended before ...` and
      `invalid tool call`.
    - `complete`: True only when the arguments are a complete valid document AND the provider
      closed the call (its own close event, or the response's end). Act on a call only when
      this is True, and only on `kind == "function"` calls.
    - `kind`: `"function"` for a call of the client's own tools (the client runs it),
      `"server"` for a call the provider ran itself (Anthropic `server_tool_use` and
      `mcp_tool_use`, Responses `mcp_call` / `web_search_call` / `code_interpreter_call`,
      Gemini `executableCode`, Bedrock `server_tool_use`): shown, never to be run again.
    - `choice`: the choice (`n` > 1 in Chat Completions) the call belongs to; 0 elsewhere.
    - `finished`: True once `ToolCallDone` was emitted for it.
    """

    __slots__ = (
        "_chunks",
        "_raw",
        "_tail",
        "arguments",
        "choice",
        "complete",
        "error",
        "finished",
        "id",
        "index",
        "kind",
        "name",
    )

    def __init__(
        self, index: int, id: str | None, name: str, choice: int = 0, kind: str = "function"
    ) -> None:
        self.index: int = index
        self.id: str | None = id
        self.name: str = name
        self.choice: int = choice
        self.kind: str = kind
        self.arguments: Any = MISSING
        self.error: str | None = None
        self.complete: bool = False
        self.finished: bool = False
        # The raw text: `_raw`, then `_chunks` (None, or full tails), then `_tail`: a few
        # strs, never an object per fragment (a fragment of 4 characters is an object of 56
        # bytes and a list slot: #28, memory per open stream). A fragment is appended to the
        # tail (a copy of fewer than RAW_TAIL characters); a full tail is pushed (`_push`).
        self._raw: str = ""
        self._chunks: list[str] | None = None
        self._tail: str = ""

    @property
    def raw(self) -> str:
        """The exact argument text received so far (joined once, then cached)."""
        if self._tail or self._chunks:
            self._raw = "".join([self._raw, *(self._chunks or ()), self._tail])
            self._tail = ""
            self._chunks = None
        return self._raw

    def _append_raw(self, fragment: str) -> None:
        """Appends a fragment to the raw text (the accumulator's hot paths inline this)."""
        tail = self._tail + fragment
        if len(tail) < RAW_TAIL:
            self._tail = tail
        else:
            self._tail = ""
            self._push(tail)

    def _push(self, chunk: str) -> None:
        """Adds a full tail after the text before it: kept in `_chunks` until they hold about
        as much as `_raw`, then joined into it. `_raw` at least doubles at each join, so each
        character is copied a few times in all, and the chunks are fewer than
        `len(_raw) / RAW_TAIL`."""
        chunks = self._chunks
        if chunks is None:
            if not self._raw:
                self._raw = chunk  # the first: no copy
                return
            chunks = self._chunks = [chunk]
        else:
            chunks.append(chunk)
        if len(chunks) * RAW_TAIL >= len(self._raw):
            self._raw = "".join([self._raw, *chunks])
            self._chunks = None

    def _clear_raw(self) -> None:
        """Forgets the raw text received."""
        self._raw = ""
        self._tail = ""
        self._chunks = None

    def __repr__(self) -> str:
        state = "complete" if self.complete else (self.error or "streaming")
        kind = "" if self.kind == "function" else f", kind={self.kind!r}"
        return (
            f"ToolCall(index={self.index}, id={self.id!r}, name={self.name!r}, "
            f"arguments={self.arguments!r}{kind}, {state})"
        )


def plain_tool_call(fields: dict[str, Any]) -> ToolCall:
    """A `ToolCall` holding `fields` (its slots by name): what a call the accumulator works
    on (`calls.CallState`) copies and pickles as."""
    call = ToolCall.__new__(ToolCall)
    for name, value in fields.items():
        setattr(call, name, value)
    return call


@frozen_event
class ToolCallStarted:
    """A tool call began; `name` is whole (Anthropic, Responses) or as far as it arrived;
    `kind` is `"function"` (the client runs it) or `"server"` (the provider ran it)."""

    index: int
    id: str | None
    name: str
    kind: str = "function"


@frozen_event
class ToolCallDelta:
    """A fragment of a call's arguments arrived.

    `preview` is the live best-effort value of a stable-mode `jsondrip.Parser`: it never
    retracts what it showed, and it is the same object from one delta to the next, updated in
    place: `snapshot()` gives a delta with a frozen copy of it, to queue or hand over. So the
    deltas of one call returned together (one `feed_sse` of several events) all show the
    state after the last of them. `MISSING` until a value has begun. `changes` are what this
    fragment changed in it (`jsondrip.Change`s; `jsondrip.apply_changes` replays them), for a
    UI that applies changes instead of re-rendering the whole preview; they are never live (no
    later fragment changes them), so they can be queued as they are.
    """

    index: int
    id: str | None
    name: str
    arguments_delta: str
    preview: Any
    changes: tuple[Change, ...] = ()

    def snapshot(self) -> ToolCallDelta:
        """This delta with a frozen copy of `preview`: what to queue or hand to another task,
        since the live preview will already show later fragments when it is read there.

        It copies the preview as it is when called: right after the delta when taken before
        the next fragment is fed, but for a delta in a batch (several from one `feed_sse`),
        the state after the batch. The state right after each delta of a batch is what
        applying the deltas' `changes` in order to a copy of your own gives.

        Costs a copy of the whole preview (time and memory in proportion to its size), so a
        snapshot of every delta of a long call is quadratic in its length; `changes` are
        frozen already and cost only their fragment: hand those over where that matters.
        """
        return tool_call_delta(  # the constructor this Python supports (no slots before 3.10)
            self.index,
            self.id,
            self.name,
            self.arguments_delta,
            frozen_copy(self.preview),
            self.changes,
        )


class _Unfrozen:
    """`ToolCallDelta`'s slots without its frozen `__setattr__`: a delta under construction."""

    __slots__ = getattr(ToolCallDelta, "__slots__", ())  # none before Python 3.10
    # The same fields, for type checkers (annotations only: the slots above hold them).
    index: int
    id: str | None
    name: str
    arguments_delta: str
    preview: Any
    changes: tuple[Change, ...]


def _fast_delta(
    index: int,
    id: str | None,
    name: str,
    arguments_delta: str,
    preview: Any,
    changes: tuple[Change, ...],
) -> ToolCallDelta:
    delta = _Unfrozen()
    delta.index = index
    delta.id = id
    delta.name = name
    delta.arguments_delta = arguments_delta
    delta.preview = preview
    delta.changes = changes
    # The same slots: Python allows it, and it is now frozen.
    delta.__class__ = ToolCallDelta  # type: ignore[assignment]
    return delta  # type: ignore[return-value]


def _fast_delta_works() -> bool:
    try:
        made = _fast_delta(0, "id", "name", "{", {}, ())
    except (TypeError, AttributeError):  # pragma: no cover - no slots, or no class change
        return False
    return type(made) is ToolCallDelta and made == ToolCallDelta(0, "id", "name", "{", {}, ())


tool_call_delta = _fast_delta if _fast_delta_works() else ToolCallDelta
"""`ToolCallDelta(...)` at a quarter of the cost, for the accumulator's hot path: a frozen
dataclass's `__init__` sets each field through `object.__setattr__`; this fills the same slots
in an unfrozen twin and then makes it a `ToolCallDelta`, the same frozen instance."""


def _lazy_changes() -> bool:
    """Make `ToolCallDelta.changes` read an engine's pending changes (`Engine.feed_pending`)
    as a tuple of `Change`s when first read, and keep that tuple. The slot holds either; the
    field, its type, `==`, `hash`, `repr` and pickling are as before (they read it through
    this). False where the dataclass has no slots (Python 3.9): deltas get tuples."""
    slot = ToolCallDelta.__dict__.get("changes")
    if type(slot) is not MemberDescriptorType or tool_call_delta is ToolCallDelta:
        return False
    read, write = slot.__get__, slot.__set__
    pending = PENDING_TYPES

    def changes(self: ToolCallDelta) -> tuple[Change, ...]:
        value = read(self)
        if type(value) in pending:
            value = value.build()
            write(self, value)
        return value  # type: ignore[no-any-return]

    changes.__doc__ = "What this fragment changed in the preview (`jsondrip.Change`s)."
    ToolCallDelta.changes = property(changes, write)  # type: ignore[assignment,method-assign]
    return True


LAZY_CHANGES = _lazy_changes()
"""True: `tool_call_delta` may be given an engine's pending changes for `changes`."""


@frozen_event
class ToolCallDone:
    """A call ended, exactly once per call: check `tool_call.complete` before acting on it."""

    tool_call: ToolCall


@frozen_event
class TextDelta:
    """Assistant text, outside any `<think>` block; `choice` keeps `n` > 1 choices apart."""

    text: str
    choice: int = 0


@frozen_event
class ReasoningDelta:
    """Reasoning text: `reasoning_content`, Anthropic thinking, a Responses reasoning summary,
    or text inside `<think>...</think>`."""

    text: str
    choice: int = 0


@frozen_event
class StreamDone:
    """A response ended; `finish_reason` is the provider's own word (`tool_calls`, `stop`,
    `length`, `tool_use`, `end_turn`, `max_tokens`, `completed`, `max_output_tokens`...),
    or None when the stream ended without saying why."""

    finish_reason: str | None


@frozen_event
class OutputDelta:
    """The structured output of a choice changed (`ToolCallAccumulator(output=...)`).

    `preview` is the live value of the document in the choice's text (the same object from
    one delta to the next, updated in place, as `ToolCallDelta.preview`); `partial`, with a
    pydantic model as `output`, the typed value so far (`OutputParser.partial()`), else None;
    `changes` what this text changed in the preview (`jsondrip.Change`s, never live);
    `completed` the watched values this text completed, as `(path, value)` pairs.
    """

    choice: int
    preview: Any
    partial: Any = None
    changes: tuple[Change, ...] = ()
    completed: tuple[tuple[str, Any], ...] = ()


@frozen_event
class OutputDone:
    """A choice's structured output ended, exactly once per choice and response.

    `complete` is True only when the document is complete and valid **and** the provider
    ended the response normally (`stop`, `end_turn`, `completed`, `STOP`, `COMPLETE`...):
    act on `value` only then. Otherwise `error` says why (`truncated by the token limit`,
    `refused`, `invalid JSON`, `schema`, `incomplete`, `stopped by the provider`,
    `aborted`), and `value` is what was shown (`MISSING` if nothing was). With a pydantic
    model as `output`, a complete `value` is the validated model.
    """

    choice: int
    value: Any
    complete: bool
    error: str | None = None


Event = Union[
    ToolCallStarted,
    ToolCallDelta,
    ToolCallDone,
    TextDelta,
    ReasoningDelta,
    StreamDone,
    OutputDelta,
    OutputDone,
]
