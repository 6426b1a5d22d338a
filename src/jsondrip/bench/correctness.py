"""The correctness column: is the final value ``json.loads``'s, type for type, and how many reads
retracted what the read before them showed.

A read *retracts* when it does not extend the one before it (``extends(old, new)``): a value
changed type or vanished, a string did not only grow, a number or literal changed (``1`` then
``12``), an array lost an element, an object lost a property. Snapshots are deep copies (live
values change in place). Copying and comparing every read of a large document costs more than
parsing it, so past a budget of copied characters the reads are *sampled*: pairs of consecutive
reads at evenly spaced places in the stream, and the count is scaled to the whole stream (the
table marks it ``~``). The checks run apart from the timed runs, so they cost the timings nothing.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from .._missing import MISSING
from .contenders import StreamContender
from .workloads import Case

__all__ = [
    "StreamCheck",
    "check_stream",
    "exact_equal",
    "extends",
    "final_status",
    "first_difference",
    "json_copy",
]


def exact_equal(a: Any, b: Any) -> bool:
    """Equal value for value and type for type (``1`` is not ``1.0``; ``-0.0`` is not ``0.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(exact_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(exact_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return bool(a == b)


def _loose_equal(a: Any, b: Any) -> bool:
    return bool(a == b)


def first_difference(got: Any, want: Any, same: Callable[[Any, Any], bool], path: str = "") -> str:
    """Where ``got`` first differs from ``want`` under ``same``, as ``path: got != want``."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in want:
            if key not in got:
                return f"{path}[{key!r}] missing"
            if not same(got[key], want[key]):
                return first_difference(got[key], want[key], same, f"{path}[{key!r}]")
        return f"{path}: extra keys {sorted(map(str, set(got) - set(want)))[:3]}"
    if isinstance(got, list) and isinstance(want, list):
        for i, (x, y) in enumerate(zip(got, want)):
            if not same(x, y):
                return first_difference(x, y, same, f"{path}[{i}]")
        return f"{path}: length {len(got)} != {len(want)}"
    shown = "no value" if got is MISSING else f"{got!r:.30}"
    return f"{path or 'value'}: {shown} != {want!r:.30}"


def final_status(got: Any, want: Any) -> tuple[str, str]:
    """``("exact" | "types differ" | "wrong", where it first differs)`` against ``want``."""
    if exact_equal(got, want):
        return "exact", ""
    if got == want:
        return "types differ", first_difference(got, want, exact_equal)
    return "wrong", first_difference(got, want, _loose_equal)


def extends(old: Any, new: Any) -> bool:
    """True when ``new`` shows everything ``old`` showed, only grown (no retraction)."""
    if old is MISSING:
        return True
    if new is MISSING or type(old) is not type(new):
        return False
    if isinstance(old, str):
        return new.startswith(old)
    if isinstance(old, list):
        return len(new) >= len(old) and all(extends(a, b) for a, b in zip(old, new))
    if isinstance(old, dict):
        return all(k in new and extends(v, new[k]) for k, v in old.items())
    return exact_equal(old, new)


def json_copy(value: Any) -> Any:
    """A deep copy of a JSON value (dicts and lists copied, immutable leaves shared)."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list:
        return [json_copy(v) for v in value]
    return value


@dataclass
class StreamCheck:
    """What the correctness check found for one contender on one case."""

    final: str  # exact | types differ | wrong | not checked
    detail: str = ""  # where the final value differs, or why it was not checked
    retractions: int | None = None  # reads that retracted the read before (scaled if sampled)
    pairs_checked: int = 0  # consecutive pairs of reads compared
    pairs: int = 0  # consecutive pairs of reads in the stream

    @property
    def sampled(self) -> bool:
        """True when only some pairs were compared and ``retractions`` is scaled."""
        return 0 < self.pairs_checked < self.pairs


class _OverBudget(Exception):
    """The check ran out of time."""


def _pair_starts(pairs: int, wanted: int) -> list[int]:
    """``wanted`` evenly spaced pair indices among ``pairs`` (all of them when few)."""
    if wanted >= pairs:
        return list(range(pairs))
    step = pairs / wanted
    return sorted({int(step * (j + 0.5)) for j in range(wanted)})


class _Counter:
    """Compares each chosen read with a snapshot of the read before it."""

    def __init__(self, starts: list[int], deadline: float) -> None:
        self.starts = set(starts)
        self.deadline = deadline
        self.previous: Any = MISSING
        self.checked = 0
        self.retractions = 0
        self.stopped_at: int | None = None  # the chunk at which the time ran out

    def compare(self, old: Any, new: Any) -> None:
        self.checked += 1
        self.retractions += not extends(old, new)

    def observe(self, i: int, value: Any) -> None:
        """After chunk ``i`` of a stream read in order (an incremental contender)."""
        if i - 1 in self.starts:
            self.compare(self.previous, value)
        if i in self.starts:
            if time.perf_counter() > self.deadline:
                self.stopped_at = i
                raise _OverBudget
            self.previous = json_copy(value)


def check_stream(
    contender: StreamContender,
    case: Case,
    budget: float,
    copy_cap: int,
    read_seconds: float | None = None,
    skip: str = "",
) -> StreamCheck:
    """Check ``contender`` on ``case`` within about ``budget`` seconds.

    ``copy_cap`` bounds the characters of snapshots copied (a snapshot of a read after ``k``
    characters costs about ``k``); ``read_seconds``, the mean time of one read when known,
    bounds how many reads a re-parser is asked for; ``skip`` is a reason not to check at all
    (the timing was skipped: a check would run past the budget too).
    """
    if contender.missing:
        return StreamCheck("not checked", contender.missing)
    if skip:
        return StreamCheck("not checked", skip)
    chunks = case.chunks
    pairs = len(chunks) - 1
    wanted = max(8, int(copy_cap / max(1.0, len(case.text) / 2)))
    if read_seconds and contender.watch is None:  # two reads per pair, half the budget
        wanted = min(wanted, max(8, int(budget / 4 / read_seconds)))
    starts = _pair_starts(pairs, wanted)
    counter = _Counter(starts, time.perf_counter() + budget)
    expected = json.loads(case.text)
    try:
        if contender.watch is not None:
            final = contender.watch(chunks, counter.observe)
        else:
            assert contender.read is not None
            final = _check_reads(contender.read, case.text, chunks, starts, counter)
    except _OverBudget:
        where = f"stopped at the time budget after {counter.stopped_at} of {len(chunks)} chunks"
        return _result(counter, pairs, where)
    except Exception as exc:  # a broken contender is reported, not fatal
        return _result(counter, pairs, f"error: {type(exc).__name__}: {exc}")
    status, detail = final_status(final, expected)
    return _result(counter, pairs, detail, status)


def _check_reads(
    read: Callable[[str], Any], text: str, chunks: list[str], starts: list[int], counter: _Counter
) -> Any:
    """A re-parser's reads at the chosen pairs only (each read is independent of the others).

    The pairs are visited in a shuffled order, so that if the time runs out the pairs already
    compared are still spread over the whole stream.
    """
    final = read(text)
    ends, total = [], 0
    for chunk in chunks:
        total += len(chunk)
        ends.append(total)
    order = list(starts)
    random.Random(len(order)).shuffle(order)
    for i in order:
        if time.perf_counter() > counter.deadline:
            break
        old = json_copy(read(text[: ends[i]]))
        counter.compare(old, read(text[: ends[i + 1]]))
    return final


def _result(counter: _Counter, pairs: int, detail: str, status: str = "") -> StreamCheck:
    checked = counter.checked
    if not checked:
        count = None if pairs else 0
    elif checked < pairs:
        count = round(counter.retractions * pairs / checked)
    else:
        count = counter.retractions
    return StreamCheck(status or "not checked", detail, count, checked, pairs)
