"""The lane: the common argument-fragment event in one Python frame.

Most events of a tool-call stream are the same envelope around the next fragment of the call
that had the last one. The long way takes such an event through `EnvelopeShortcut.match_chunk`,
the format's `take` and `CallTable.append`: a few Python frames around the native calls. A
`Lane` does what they do for that event in one frame: its matcher reads the fragment out of the
event (a `ChunkMatcher` for SSE chunks and JSON lines, native or twin; a native `DictMatcher`
for boto3's dicts), then exactly what `CallTable.append` does on its hot path: the call's
clock, size and raw text, the engine's `feed_pending` (the contract's lazy change events), the
preview, and the `ToolCallDelta`.

A lane is *armed* by the accumulator after an event went the long way and left the call on the
hot path: `arm` makes one only when the long way would do for the next such event exactly what
the lane does, that is when

- the format's `lane_target(route)` names the call that the shortcut's route feeds, and says
  that its `take` would only append the fragment (no response to begin, no other work);
- the call is announced, not finished, its content has begun, no fence is open;
- the shortcut knows the event's frame (a `ChunkMatcher`, or for dicts a `DictMatcher`).

It stays right while only lane events happen: those change nothing the conditions read but
the call's own text, size and clock, which the lane keeps as the long way does. So the
accumulator *disarms* it before anything else can happen: any event that goes the long way,
the clock ending calls (`expire`), `finish()` and `abort()`. An event the matcher does not
know, an empty fragment or one that would pass `max_arguments_size` returns None before
anything changed, and takes the long way. A fragment the engine refuses raises after the call
took it, as on the long way (`failed` keeps it), and `CallTable.feed_failed` finishes what
`append` would have done.

`tests/toolcalls/test_lane.py` checks, on both backends, that every call returns the same
events with lanes and without (`ENABLED = False`).
"""

from __future__ import annotations

from typing import Any

from .. import _engine
from .._errors import JSONDecodeError
from ..schema.violation import SchemaViolation
from .calls import CallState, CallTable
from .events import LAZY_CHANGES, RAW_TAIL, tool_call_delta

__all__ = ["ENABLED", "Lane", "arm", "dict_matcher"]

ENABLED = True
"""False: no lane is ever armed (every event goes the long way), for the tests' comparison."""


class Lane:
    """One call's fast way for events its `matcher` knows (see the module)."""

    __slots__ = ("call", "engine", "failed", "limit", "matcher", "size", "state")

    def __init__(self, table: CallTable, state: CallState, matcher: Any) -> None:
        # (no bound methods kept: each is an object of 72 bytes per open stream, and a
        # method call on the matcher or engine costs no more than calling one)
        self.matcher = matcher
        self.state = state
        self.call = state.call
        self.engine: Any = state.parser  # (set: `arm` checked it)
        self.size = state.size
        self.limit = table.limit
        self.failed: str | None = None  # the fragment the engine refused

    def take(self, event: Any, now: float) -> Any:
        """The event's `ToolCallDelta`, or None (nothing changed) when the long way must read
        it. `now` is the accumulator's clock reading. A fragment the engine refuses raises its
        error after the call took it, as the long way's do; `failed` then holds it."""
        fragment = self.matcher.fragment(event)
        if not fragment:
            return None
        size = self.size + len(fragment)
        if size > self.limit:
            return None
        state = self.state
        state.last_active = now
        state.size = self.size = size
        call = self.call
        tail = call._tail + fragment  # `ToolCall._append_raw`, inline
        if len(tail) < RAW_TAIL:
            call._tail = tail
        else:
            call._tail = ""
            call._push(tail)
        try:
            pending = self.engine.feed_pending(fragment)
        except (JSONDecodeError, SchemaViolation):
            self.failed = fragment
            raise
        preview = call.arguments = self.engine.value
        if pending is None:
            pending = ()
        elif not LAZY_CHANGES:
            pending = pending.build()
        return tool_call_delta(call.index, call.id, call.name, fragment, preview, pending)


def arm(table: CallTable, state: CallState | None, matcher: Any) -> Lane | None:
    """A lane for the call `state` through events framed as `matcher`'s, or None when the
    long way must go on reading them (see the module)."""
    if (
        not ENABLED
        or state is None
        or matcher is None
        or state.parser is None
        or state.call.finished
        or not state.content
        or state.fence is not None
        or not state.announced
    ):
        return None
    return Lane(table, state, matcher)


def dict_matcher(event: dict[str, Any], path: tuple[str, ...], ignored: tuple[str, ...]) -> Any:
    """The check of events (dicts) shaped as `event`, whose fragment is the str at `path`;
    None where no lane can be armed (no native helpers). TypeError if `event` holds more than
    dicts and scalars."""
    native = _engine.envelope()
    if native is None or not path:
        return None
    return native.DictMatcher(event, list(path), list(ignored))
