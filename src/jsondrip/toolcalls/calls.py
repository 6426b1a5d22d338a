"""The life of each tool call: arguments in, preview and final value out, ended exactly once.

The format modules decide *which* call a fragment belongs to and *when* a call ends; this
module does the rest, the same for every provider:

- `start` makes a `ToolCall`; `announce` emits `ToolCallStarted` once.
- `append` records the raw text (bounded by `max_arguments_size`), strips a markdown fence,
  feeds the call's stable-mode engine (`jsondrip._engine.Engine`, the contract `Parser` is the
  public face of) and emits `ToolCallDelta` with the live preview.
  A fragment that proves the text can never be valid JSON (or, with a schema, can never be
  accepted) gets its delta, whose changes still rebuild the preview (refused.py), and ends
  the call at once (`ToolCallDone`, `complete=False`, the positioned error): waiting for the
  provider to close it would only spend tokens. A fragment for a call already ended is
  dropped unread and counted (`ignored_fragments`), never raised.
- `close(call, reason)` ends a call the provider closed (its own close event, or the end of
  its response): complete if the document is; else the error says why (`truncated by the
  token limit` when `reason` is one, else `incomplete JSON`). `""` (or only blanks) as the
  whole arguments gives `{}`: a tool without parameters. Only `close` ever sets `complete`.
- `cut(call)` ends a call the provider never closed (the stream just stopped): never complete,
  even when its text happens to be a complete document (a cut can fall right after a `}`).
- `fail(call, error)` ends a call with an error (aborted, too large, timed out) and releases
  its parser and text.
- With `schemas` (tool name -> `Schema`), a call's first fragment (or its end, if it has none)
  checks its name, and its parser checks the arguments: a violation ends the call at once,
  with `error="schema: <message>"` (the message starts with the JSON Pointer path). A name in
  `unchecked` (a provider-defined tool: Anthropic's `bash`, `str_replace_based_edit_tool`...)
  is known but has no schema: its arguments are only parsed.

Every ending goes through `_end`, which emits `ToolCallDone` at most once per call.
"""

from __future__ import annotations

import functools
import json
import math
import sys
from typing import TYPE_CHECKING, Any, Callable

from .. import _engine
from .._changes import Change
from .._engine import Engine
from .._errors import JSONDecodeError
from .._missing import MISSING
from ..markup.fences import FenceStripper
from ..schema.violation import SchemaViolation
from .events import (
    LAZY_CHANGES,
    RAW_TAIL,
    ToolCall,
    ToolCallDone,
    ToolCallStarted,
    plain_tool_call,
    tool_call_delta,
)
from .refused import refused_changes

if TYPE_CHECKING:
    from ..schema.schema import Schema

__all__ = ["INCOMPLETE", "TRUNCATION_REASONS", "CallState", "CallTable", "dump_arguments"]

# finish/stop reasons that mean "the model ran out of tokens" in the supported APIs
TRUNCATION_REASONS = frozenset(
    {
        "length",
        "max_tokens",
        "max_output_tokens",
        "model_context_window_exceeded",
        "MAX_TOKENS",  # Gemini, Cohere
    }
)
INCOMPLETE = "incomplete: the stream ended before the provider closed the call"


def dump_arguments(value: Any) -> str:
    """The JSON text of arguments a provider sends as an object (Gemini, Ollama, Anthropic
    input given whole): `json.dumps(value, ensure_ascii=False)`, so `raw` is that text."""
    return json.dumps(value, ensure_ascii=False)


NO_NAMES: frozenset[str] = frozenset()
"""No tool names (an empty frozenset is an object of 200 bytes: one, shared)."""


class CallState(ToolCall):
    """A call as the accumulator works on it: the `ToolCall` users see, and its private
    working state: its parser (an engine), fence stripper, size and clock; and, while the
    accumulator has armed it as a lane (lane.py), the lane's own: the `matcher` of its
    events (its size limit is the settings', handed to `take`). One object per call, not a
    call and its state (#28: memory per open stream); a lane is not an object of its own
    either. It copies and pickles as the plain `ToolCall` it shows (`__reduce_ex__`): its
    working state is the accumulator's."""

    __slots__ = (
        "announced",
        "changes",
        "content",
        "error_at",
        "fence",
        "last_active",
        "matcher",
        "parser",
        "pending_close",
        "size",
    )

    def __init__(
        self,
        index: int,
        id: str | None,
        name: str,
        choice: int,
        kind: str,
        parser: Engine,
        now: float,
    ) -> None:
        super().__init__(index, id, name, choice, kind)
        self.parser: Engine | None = parser
        self.fence: FenceStripper | None = None
        self.size = 0  # characters received
        self.content = False  # a non-blank character reached the parser
        self.announced = False
        self.last_active = now
        self.pending_close = False  # closed by the stream, waiting for the stop reason
        self.error_at: int | None = None  # where in `raw` the JSON became invalid, if it did
        # the preview's changes since the last delta (None: none; a list only while the
        # first fragments or a fence are read, off the hot path)
        self.changes: list[Change] | None = None
        # the lane's (lane.py): set by `arm`
        self.matcher: Any = None

    def __reduce_ex__(self, protocol: Any) -> Any:
        """The call as a plain `ToolCall` (what `copy`, `deepcopy` and `pickle` take)."""
        return plain_tool_call, ({name: getattr(self, name) for name in ToolCall.__slots__},)

    def take(self, event: Any, now: float, head: Any, limit: int) -> Any:
        """The lane (lane.py): the event's `ToolCallDelta`, or None (nothing changed) when
        the long way must read it. `now` is the accumulator's clock reading, `head` the
        stream's head value (`EnvelopeShortcut.head`; None for dicts), `limit` its
        settings' size limit (`CallSettings.limit`). A fragment the engine
        refuses raises its error after the call took it, as the long way's do (the
        matcher gives it again: `ToolCallAccumulator._lane_failed`)."""
        fragment = self.matcher.fragment(event, head)
        if not fragment:
            return None
        size = self.size + len(fragment)
        if size > limit:
            return None
        self.last_active = now
        self.size = size
        tail = self._tail + fragment  # `ToolCall._append_raw`, inline
        if len(tail) < RAW_TAIL:
            self._tail = tail
        else:
            self._tail = ""
            self._push(tail)
        engine: Any = self.parser  # (set: `arm` checked it)
        pending = engine.feed_pending(fragment)  # (refused: raises, the call took it)
        preview = self.arguments = engine.value
        if pending is None:
            pending = ()
        elif not LAZY_CHANGES:
            pending = pending.build()
        return tool_call_delta(self.index, self.id, self.name, fragment, preview, pending)

    def feed(self, text: str) -> None:
        """Feed the parser, keeping the changes the fragment made to the preview."""
        found = self.parser.feed_changes(text)  # type: ignore[union-attr]
        if found:
            if self.changes is None:
                self.changes = list(found)
            else:
                self.changes += found


class CallSettings:
    """How an accumulator reads its calls: `max_arguments_size` (its `limit` as an int: no
    limit is `sys.maxsize`), `idle_timeout` (seconds a call may wait for its next fragment,
    None: forever), the tools' `schemas` (name -> `Schema`, None: unchecked) and the
    `unchecked` provider-defined tool names, and the `text_tools` family. Never changed
    once made, so shared by the accumulators made alike (`settings_for`): one object per
    server, not fields per stream (#28)."""

    __slots__ = (
        "idle_timeout",
        "limit",
        "max_arguments_size",
        "schemas",
        "text_tools",
        "unchecked",
    )

    def __init__(
        self,
        max_arguments_size: int | None,
        text_tools: str | None = None,
        schemas: dict[str, Schema] | None = None,
        unchecked: frozenset[str] = NO_NAMES,
        idle_timeout: float | None = None,
    ) -> None:
        self.max_arguments_size = max_arguments_size
        self.limit = sys.maxsize if max_arguments_size is None else max_arguments_size
        self.idle_timeout = idle_timeout
        self.text_tools = text_tools
        self.schemas = schemas
        self.unchecked = unchecked  # provider-defined tools: known names, no schema to check

    def replaced(self, **changes: Any) -> CallSettings:
        """New settings: these with `changes` (an accumulator's own, shared with none)."""
        fields = {name: getattr(self, name) for name in self.__slots__ if name != "limit"}
        return CallSettings(**{**fields, **changes})


def settings_for(
    max_arguments_size: int | None, text_tools: str | None, idle_timeout: float | None
) -> CallSettings:
    """The shared settings of accumulators without tools: the settings made for equal
    arguments of the same types (a float's sign too: `-0.0` is shown as given in a
    timeout's error), so that each reads back exactly as given."""
    sign = math.copysign(1.0, idle_timeout) if type(idle_timeout) is float else None
    return _shared_settings(max_arguments_size, text_tools, idle_timeout, sign)


@functools.lru_cache(maxsize=16, typed=True)
def _shared_settings(
    max_arguments_size: int | None,
    text_tools: str | None,
    idle_timeout: float | None,
    sign: float | None,
) -> CallSettings:
    """`settings_for`'s cache (`sign` tells `-0.0` from `0.0`)."""
    return CallSettings(max_arguments_size, text_tools, idle_timeout=idle_timeout)


@functools.lru_cache(maxsize=256)
def tool_name(name: str) -> str:
    """The first str equal to `name` among the last 256 tool names seen (one str per
    distinct name, not one per call: the tools of a server are few, and a call holds its
    name while it streams, #28). Only for names of at most `MAX_SHARED_NAME` characters
    (`shared_name`)."""
    return name


MAX_SHARED_NAME = 64
"""The longest tool name kept in `tool_name`'s cache (OpenAI allows 64 characters), so the
cache holds at most 256 short strs whatever names a stream sends."""


def shared_name(name: Any) -> Any:
    """`name` as a call holds it: a short str as `tool_name` gives it, anything else as is."""
    if type(name) is str and len(name) <= MAX_SHARED_NAME:
        return tool_name(name)
    return name


class CallTable:
    """All calls of one accumulator, in the order they started, and the events they emit.

    The calls are held as the first one and a list of the later ones, made by the second
    call (a list is an object of 88 bytes, and nearly every stream has one call: #28); the
    open ones are those not finished, in the same order (`open_states`)."""

    __slots__ = (
        "_first",
        "_later",
        "events",
        "ignored_fragments",
        "now",
        "oldest",
        "outputs",
        "settings",
    )

    def __init__(
        self,
        events: list[Any],
        *,
        settings: CallSettings,
        clock: Callable[[], float],
    ) -> None:
        self.events = events  # the outbox: the accumulator takes it and leaves a new list
        self._first: CallState | None = None  # the first call's state
        self._later: list[CallState] | None = None  # the others', in index order
        self.outputs: Any = None  # structured output in the text (output.py), if asked for
        self.settings = settings
        self.ignored_fragments = 0  # fragments that arrived for calls already ended
        self.now = clock()  # the time of the accumulator call being served
        # No open call was active before this: none can be idle for t seconds before
        # `oldest + t`, so the clock check of each accumulator call is one comparison. Every
        # `last_active` is a `now`, and the accumulator lowers this to each `now` it serves.
        self.oldest = math.inf

    @property
    def calls(self) -> list[CallState]:
        """Every call, in the order they started (`index` is the position)."""
        return self._states()

    def _states(self) -> list[CallState]:
        """Every call, in index order."""
        first = self._first
        if first is None:
            return []
        later = self._later
        return [first] if later is None else [first, *later]

    # -- starting -------------------------------------------------------------------------

    def start(
        self, id: str | None, name: str, *, choice: int = 0, kind: str = "function"
    ) -> CallState:
        """A new call, at the next index; not announced yet. `kind`: see `ToolCall.kind`.
        Its `name` is held as `shared_name` gives it (one str per tool, not per call)."""
        first, later = self._first, self._later
        index = 0 if first is None else 1 if later is None else 1 + len(later)
        state = CallState(index, id, shared_name(name), choice, kind, new_engine(), self.now)
        if first is None:
            self._first = state
        elif later is None:
            self._later = [state]
        else:
            later.append(state)
        return state

    def announce(self, state: CallState) -> None:
        """Emit `ToolCallStarted` for the call, once."""
        if not state.announced:
            state.announced = True
            call = state
            self.events.append(ToolCallStarted(call.index, call.id, call.name, call.kind))

    # -- arguments ------------------------------------------------------------------------

    def append(self, state: CallState, text: str | None) -> None:
        """Add a fragment of the call's arguments; emit a `ToolCallDelta` if it is not empty."""
        call = state
        if not text:
            return
        if call.finished:
            self.ignored_fragments += 1  # an ended call takes no more text
            return
        if type(text) is not str:  # arguments sent as an object (some compatible servers)
            if not isinstance(text, (dict, list)):
                return
            text = dump_arguments(text)
        state.last_active = self.now
        if not state.announced:
            self.announce(state)
        start = state.size
        if start == 0 and self.settings.schemas is not None and not self._attach_schema(state):
            return
        size = state.size = start + len(text)
        if size > self.settings.limit:
            self.fail(
                state,
                f"too large: the arguments exceed max_arguments_size ({self.settings.limit} "
                f"characters); {size} received",
            )
            return
        tail = call._tail + text  # `ToolCall._append_raw`, inline: the hot path
        if len(tail) < RAW_TAIL:
            call._tail = tail
        else:
            call._tail = ""
            call._push(tail)
        parser = state.parser
        assert parser is not None  # released only when the call ends
        changes: Any = ()  # a tuple of Change, or the parser's pending changes
        if state.content and state.fence is None:  # the hot path, once content has begun
            try:
                # made into `Change`s only if the delta's `changes` is read (events.py)
                pending = parser.feed_pending(text)
            except (JSONDecodeError, SchemaViolation) as error:
                self.feed_failed(state, text, error)
                return
            call.arguments = parser.value
            if pending is not None:
                changes = pending if LAZY_CHANGES else pending.build()
        else:
            try:
                refusal = self._feed_first(state, parser, text, start)
            except SchemaViolation as violation:
                self._refused(state, text, f"schema: {violation}", violation=True)
                return
            if refusal is not None:
                self._refused(state, text, refusal)
                return
            if state.changes is not None:
                changes = tuple(state.changes)
                state.changes = None
        self.events.append(
            tool_call_delta(call.index, call.id, call.name, text, call.arguments, changes)
        )

    def feed_failed(
        self, state: CallState, text: str, error: JSONDecodeError | SchemaViolation
    ) -> None:
        """The parser refused the fragment `text` on the hot path or a lane (after the call
        took it): its delta, and the end of the call at once."""
        if isinstance(error, SchemaViolation):
            self._refused(state, text, f"schema: {error}", violation=True)
        else:
            self._refused(state, text, self._invalid(state, error.msg, error.pos))

    def _refused(self, state: CallState, text: str, error: str, violation: bool = False) -> None:
        """The fragment `text`, already taken, proved the call wrong: emit its delta, whose
        changes take the last delta's preview to this one, and end the call with `error`
        (`complete=False`, text and preview kept). After a schema `violation` the engine
        shows no value (it broke the schema): the preview is the live value as the last
        fragment left it, which for an object or array is the same container, grown in place
        by this fragment too."""
        call = state
        if not violation:
            call.arguments = state.parser.value  # type: ignore[union-attr]
        state.changes = None
        before = call.raw[: state.size - len(text)]
        changes = refused_changes(new_engine, before, state.fence is not None, call.arguments)
        self.events.append(
            tool_call_delta(call.index, call.id, call.name, text, call.arguments, changes)
        )
        self.fail(state, error, release=False)

    def _attach_schema(self, state: CallState) -> bool:
        """The name is complete (its arguments begin, or it ends): check it, and give the call
        a parser that checks its tool's schema. False if the call ended instead."""
        if state.kind != "function":
            return True  # a call the provider runs (server tools): not the client's schema
        name = state.name
        settings = self.settings
        schema = settings.schemas.get(name)  # type: ignore[union-attr]
        if schema is None and name in settings.unchecked:
            return True  # Anthropic's bash or text editor...: the client runs it, unchecked
        if schema is None:
            names = [*(settings.schemas or ()), *sorted(settings.unchecked)]
            known = ", ".join(map(repr, names)) or "none"
            self.fail(
                state, f"schema: unknown tool {name!r} (the tools are {known})", release=False
            )
            return False
        state.parser = new_engine(schema)
        return True

    def _feed_first(self, state: CallState, parser: Engine, text: str, start: int) -> str | None:
        """Feed a fragment while a fence may open or has opened, or before any content; the
        error if it proves the text invalid (a schema violation is raised)."""
        call = state
        fence = state.fence
        try:
            if fence is None and start == 0 and text.lstrip(" \t\r\n")[:1] in ("`", ""):
                fence = state.fence = FenceStripper(state.feed, lambda: parser.done)
            if fence is None:
                state.feed(text)
                call.arguments = parser.value
                if text.strip(" \t\r\n"):
                    state.content = True
            else:
                fence.feed(text, start)
                call.arguments = parser.value
                state.content = fence.content
                if fence.tail_error is not None:
                    return self._invalid(state, "Extra data", fence.tail_error)
        except JSONDecodeError as e:
            offset = fence.dropped if fence is not None else 0
            return self._invalid(state, e.msg, e.pos + offset)
        return None

    def replace(self, state: CallState, text: str) -> None:
        """The API sent the whole arguments (a `.done` event): take them if they differ."""
        call = state
        if call.finished:
            return
        raw = call.raw
        if text == raw:
            return
        if text.startswith(raw):
            self.append(state, text[len(raw) :])
            return
        # the deltas disagree with the final text: the API's final word wins
        call._clear_raw()
        call.arguments = MISSING
        call.error = None
        state.error_at = None
        state.size = 0
        state.content = False
        state.fence = None
        state.parser = new_engine()
        self.append(state, text)

    @staticmethod
    def _invalid(state: CallState, msg: str, pos: int) -> str:
        """The error of a call whose text the parser refused at raw position `pos` (kept in
        `state.error_at`: a text-markup reader looks for the call's end from there)."""
        state.error_at = pos
        return f"invalid JSON: {_where(msg, state.raw, pos)}"

    # -- ending ---------------------------------------------------------------------------

    def close(self, state: CallState, reason: str | None = None) -> None:
        """End a call normally; `reason` is the stream's finish/stop reason if known."""
        call = state
        if call.finished:
            return
        if state.size == 0 and self.settings.schemas is not None and not self._attach_schema(state):
            return
        parser = state.parser
        assert parser is not None
        fence = state.fence
        if not state.content and reason not in TRUNCATION_REASONS:
            call.arguments = {}
            call.complete = True
            if self.settings.schemas is not None:  # no arguments: the tool must accept {}
                try:
                    parser.feed("{}")
                    parser.close()
                except SchemaViolation as e:
                    call.complete = False
                    call.error = f"schema: {e}"
        elif fence is not None and not fence.closed_cleanly:
            call.error = "invalid JSON: the closing code fence is incomplete"
        else:
            try:
                closing = parser.close_changes()
                call.arguments = parser.value
                call.complete = True
                if closing:  # what only the end completes (a top-level number): a last delta
                    self.events.append(
                        tool_call_delta(
                            call.index, call.id, call.name, "", call.arguments, tuple(closing)
                        )
                    )
            except SchemaViolation as e:  # a keyword settled only at the end (the preview
                call.error = f"schema: {e}"  # stays: the engine shows no value after it)
            except JSONDecodeError as e:
                call.arguments = parser.value  # close() adds nothing to a cut document
                offset = fence.dropped if fence is not None else 0
                where = _where(e.msg, call.raw, e.pos + offset)
                if reason in TRUNCATION_REASONS:
                    call.error = f"truncated by the token limit ({reason!r}): {where}"
                else:
                    call.error = f"incomplete JSON: the call ended early: {where}"
        self._end(state)

    def cut(self, state: CallState) -> None:
        """The stream ended before the provider closed the call: incomplete, text and preview
        kept. A call the provider closed whose document was incomplete (`pending_close`,
        waiting for a stop reason) is closed instead, with the error that says why."""
        if state.pending_close:
            self.close(state, None)
        else:
            self.fail(state, INCOMPLETE, release=False)

    def fail(self, state: CallState, error: str, *, release: bool = True) -> None:
        """End a call with `error`; `release` drops its text and preview too."""
        call = state
        if call.finished:
            return
        call.error = error
        if release:
            call.arguments = MISSING
            call._clear_raw()
        self._end(state)

    def _end(self, state: CallState) -> None:
        call = state
        call.finished = True
        state.parser = None
        state.fence = None
        state.matcher = None  # (a lane's: a DictMatcher is the stream's own)
        if not state.announced:
            self.announce(state)
        self.events.append(ToolCallDone(call))

    # -- all open calls -------------------------------------------------------------------

    def open_states(self) -> list[CallState]:
        """The calls not ended yet, in index order."""
        return [state for state in self._states() if not state.finished]

    def expire(self, now: float, idle_timeout: float | None) -> None:
        """End every call still waiting for arguments that got none for `idle_timeout` s."""
        if idle_timeout is None:
            return
        states = self.open_states()
        late = [s for s in states if now - s.last_active > idle_timeout]
        for state in late:
            if state.pending_close or (state.parser is not None and state.parser.done):
                continue  # not waiting for arguments: only for the stream to close it
            idle = now - state.last_active
            self.fail(
                state,
                f"timed out: no arguments for {idle:.1f} s (idle_timeout {idle_timeout} s)",
            )
        open_states = self.open_states() if late else states
        self.oldest = min((s.last_active for s in open_states), default=math.inf)


def new_engine(schema: Schema | None = None) -> Engine:
    """A call's engine: stable mode, the default backend, checking `schema` if given."""
    if schema is None:
        return _engine.default_engine()  # the shared default options, no object per call
    return _engine.default_engine(_engine.EngineOptions(schema=schema))


def _where(msg: str, raw: str, pos: int) -> str:
    """`msg: line L column C (char P)` for a position in the raw text, as json says it."""
    lineno = raw.count("\n", 0, pos) + 1
    colno = pos - raw.rfind("\n", 0, pos)
    return f"{msg}: line {lineno} column {colno} (char {pos})"
