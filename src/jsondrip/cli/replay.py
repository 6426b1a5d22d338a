"""Replaying a recorded stream at a realistic pace.

A recording is replayed one event at a time (an SSE event, or a line of JSON lines), each
after the wait a model server leaves between events: a first-token wait, then 20-50 ms, and
now and then none at all (two events in one network read). The waits come from a fixed seed:
every replay is the same. `paced()` sleeps to keep to that schedule, divided by the speed;
speed 0 never sleeps.

Events, not arbitrary byte ranges, are the unit fed to the accumulator: its `ToolCallDelta`
previews are live objects, so two deltas of one call returned by one feed would both show the
value after the second, and NDJSON output would depend on how the bytes were cut.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterable, Iterator
from typing import Callable, TypeVar

__all__ = [
    "FIRST_EVENT_DELAY",
    "Fragment",
    "iter_sse_events",
    "line_fragments",
    "paced",
    "split_sse_events",
    "sse_fragments",
]

T = TypeVar("T")
Fragment = tuple[T, float]
"""A piece of input and the seconds to wait before it arrives (at speed 1)."""

FIRST_EVENT_DELAY = 0.4
"""Seconds before the first event, as a model takes to start answering."""
EVENT_DELAY = (0.020, 0.050)
"""Seconds between events, drawn uniformly."""
SEED = 2026

_EVENT_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")


def split_sse_events(data: bytes) -> list[bytes]:
    """The SSE events of `data`, each with the blank line that ends it (the last may lack it)."""
    events, start = [], 0
    for match in _EVENT_END.finditer(data):
        events.append(data[start : match.end()])
        start = match.end()
    if start < len(data):
        events.append(data[start:])
    return events


def iter_sse_events(reads: Iterable[bytes]) -> Iterator[bytes]:
    """Complete SSE events out of a sequence of reads, each as soon as its blank line arrives
    (and what is left at the end, if anything)."""
    pending = b""
    for data in reads:
        pending += data
        start = 0
        for match in _EVENT_END.finditer(pending):
            yield pending[start : match.end()]
            start = match.end()
        pending = pending[start:]
    if pending:
        yield pending


def event_delays(count: int, rng: random.Random) -> list[float]:
    """The wait before each of `count` events; one in seven arrives with the one before."""
    delays = []
    for i in range(count):
        together = rng.random() < 1 / 7
        delays.append(
            FIRST_EVENT_DELAY if i == 0 else 0.0 if together else rng.uniform(*EVENT_DELAY)
        )
    return delays


def sse_fragments(data: bytes, *, seed: int = SEED) -> list[Fragment[bytes]]:
    """An SSE recording as its events, each with its delay."""
    rng = random.Random(seed)
    events = split_sse_events(data)
    return list(zip(events, event_delays(len(events), rng)))


def text_fragments(text: str, *, size: int = 6, seed: int = SEED) -> list[Fragment[str]]:
    """Model text in pieces of `size` characters (about a token or two each), with delays."""
    rng = random.Random(seed)
    pieces = [text[i : i + size] for i in range(0, len(text), size)]
    return list(zip(pieces, event_delays(len(pieces), rng)))


def line_fragments(lines: list[str], *, seed: int = SEED) -> list[Fragment[str]]:
    """JSON-lines events, one per read, each with its delay."""
    rng = random.Random(seed)
    return list(zip(lines, event_delays(len(lines), rng)))


def paced(
    fragments: Iterable[Fragment[T]],
    speed: float,
    *,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[T]:
    """Yield each fragment when its time has come: its delays add up to a schedule, run `speed`
    times as fast; time spent by the consumer counts. With speed 0, never sleep."""
    start = clock()
    due = 0.0
    for piece, delay in fragments:
        if speed > 0:
            due += delay / speed
            wait = start + due - clock()
            if wait > 0:
                sleep(wait)
        yield piece
