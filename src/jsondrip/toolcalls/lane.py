"""The lane: the common argument-fragment event in one Python frame.

Most events of a tool-call stream are the same envelope around the next fragment of the call
that had the last one. The long way takes such an event through `EnvelopeShortcut.match_chunk`,
the format's `take` and `CallTable.append`: a few Python frames around the native calls. The
lane (`CallState.take`, the call's own state armed with a matcher: no object of its own, #28)
does what they do for that event in one frame: its matcher reads the fragment out of the
event (a `ChunkMatcher` for SSE chunks and JSON lines, native or twin; a native `DictMatcher`
for boto3's dicts), then exactly what `CallTable.append` does on its hot path: the call's
clock, size and raw text, the engine's `feed_pending` (the contract's lazy change events), the
preview, and the `ToolCallDelta`.

A lane is *armed* by the accumulator after an event went the long way and left the call on the
hot path: `arm` arms one only when the long way would do for the next such event exactly what
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
took it, as on the long way, and `CallTable.feed_failed` finishes what `append` would have
done (the lane's matcher gives the fragment again).

`tests/toolcalls/test_lane.py` checks, on both backends, that every call returns the same
events with lanes and without (`ENABLED = False`).
"""

from __future__ import annotations

from typing import Any

from .. import _engine
from .calls import CallState

__all__ = ["ENABLED", "arm", "dict_matcher"]

ENABLED = True
"""False: no lane is ever armed (every event goes the long way), for the tests' comparison."""


def arm(state: CallState | None, matcher: Any) -> CallState | None:
    """The call `state` armed as a lane through events framed as `matcher`'s: its
    `take(event, now, head, limit)` is the lane (`CallState.take`, given the stream's `head`
    value, `EnvelopeShortcut.head`, and the size limit of the accumulator's settings); or None
    when the long way must go on reading them (see the module)."""
    if (
        not ENABLED
        or state is None
        or matcher is None
        or state.parser is None
        or state.finished
        or not state.content
        or state.fence is not None
        or not state.announced
    ):
        return None
    state.matcher = matcher
    return state


def dict_matcher(event: dict[str, Any], path: tuple[str, ...], ignored: tuple[str, ...]) -> Any:
    """The check of events (dicts) shaped as `event`, whose fragment is the str at `path`;
    None where no lane can be armed (no native helpers). TypeError if `event` holds more than
    dicts and scalars."""
    native = _engine.envelope()
    if native is None or not path:
        return None
    return native.DictMatcher(event, list(path), list(ignored))
