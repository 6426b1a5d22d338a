"""The native lane: the common argument-fragment event in one native call.

Most events of a tool-call stream are the same envelope around the next fragment of the call
that had the last one. The long way takes such an event through `EnvelopeShortcut.match_chunk`
(the native envelope check), the format's `take` and `CallTable.append`: a few Python frames
around three native calls. A `jsondrip._native.FragmentLane` (rust/python/lane.rs) does the
same in one call, from the SSE chunk (or JSON line) to the `ToolCallDelta`.

A lane is *armed* by the accumulator after an event went the long way and left the call on the
hot path: `arm` makes one only when the long way would do for the next such event exactly what
the lane does, that is when

- the format's `lane_target(route)` names the call that the shortcut's route feeds, and says
  that its `take` would only append the fragment (no response to begin, no other work);
- the call is announced, not finished, its content has begun, no fence is open, and its
  parser is a native one;
- the shortcut knows the chunk's frame (a native `ChunkMatcher`), and the running Python has
  slotted dataclasses (3.10+), so that a delta can be filled natively (`DeltaLayout`).

It stays right while only lane events happen: those change nothing the conditions read but
the call's own text, size and clock, which the lane keeps as the long way does. So the
accumulator *disarms* it before anything else can happen: any event that goes the long way,
the clock ending calls (`expire`), `finish()` and `abort()`. A chunk the lane does not match,
an empty fragment or one that would pass `max_arguments_size` returns None before anything
changed, and takes the long way. A fragment the parser refuses raises after the call took it,
as on the long way, and `CallTable.feed_failed` finishes what `append` would have done.

The python backend never arms a lane: the long way is the lane's twin, and
`tests/toolcalls/test_lane.py` checks that the two give the same events.
"""

from __future__ import annotations

from typing import Any

from .._backends import _native
from .calls import CallState, CallTable
from .events import DELTA_SLOTS, LAZY_CHANGES, ToolCallDelta

__all__ = ["LAYOUT", "arm", "dict_matcher"]


def _layout() -> Any:
    """How the native lane fills a `ToolCallDelta`, or None where it cannot."""
    if _native is None or not LAZY_CHANGES:
        return None
    try:
        return _native.DeltaLayout(ToolCallDelta, list(DELTA_SLOTS))
    except TypeError:  # no slots (Python 3.9), or not plain object slots
        return None


LAYOUT = _layout()


def arm(table: CallTable, state: CallState | None, matcher: Any) -> Any:
    """A lane for the call `state` through chunks framed as `matcher`'s, or None when the
    long way must go on reading them (see the module)."""
    if state is None or LAYOUT is None:
        return None
    parser = state.parser
    if (
        parser is None
        or parser.backend != "native"
        or state.call.finished
        or not state.content
        or state.fence is not None
        or not state.announced
    ):
        return None
    return _native.FragmentLane(matcher, parser, LAYOUT, state, state.size, table.limit)


def dict_matcher(event: dict[str, Any], path: tuple[str, ...], ignored: tuple[str, ...]) -> Any:
    """The check of events (dicts) shaped as `event`, whose fragment is the str at `path`;
    None where no lane can be armed. TypeError if `event` holds more than dicts and scalars."""
    if LAYOUT is None or not path:
        return None
    return _native.DictMatcher(event, list(path), list(ignored))
