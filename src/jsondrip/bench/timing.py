"""Timing with a budget per contender and case; what does not fit is extrapolated or skipped.

A run is timed with ``time.perf_counter``, the garbage collector off (as ``timeit`` does); short
runs are looped until a measurement lasts ``min_time``; the best of up to ``repeats``
measurements is kept, as many as fit in the budget (at least one).

A contender predicted to run past the budget is never dropped silently:

- a re-parser costs one independent parse per read, so its reads can be timed one by one: a
  pilot times 8 reads spread over the stream (in stream order, so the costly late reads come
  last). If the pilot itself does not fit in half the budget the case is **skipped** and the
  table says so, with the lower bound the pilot gives. If the whole stream would not fit, every
  m-th read is timed and the sum scaled by m (**extrapolated**, a stratified sample of the real
  total, the buffer copy included);
- an incremental contender is timed on the first 1/16 of the chunks; if the whole stream would
  not fit, it is timed on two prefixes (p/2 and p chunks) and projected to the whole stream with
  the growth exponent those two give, clamped to 1..2 (**extrapolated**).
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Callable

from .contenders import StreamContender

__all__ = ["Timing", "best_time", "calls_for", "clock", "measure_interleaved", "measure_stream"]
__all__ += ["growth", "no_gc"]

PILOT_READS = 8


@dataclass
class Timing:
    """Seconds for the whole stream, or why there are none."""

    status: str  # measured | extrapolated | skipped | not installed | error
    seconds: float | None = None
    note: str = ""
    runs: int = 0
    predicted: float | None = None  # skipped: the least the whole stream would have taken


@contextmanager
def no_gc() -> Iterator[None]:
    """The garbage collector off, as ``timeit`` does (``measure_stream`` collects first, once:
    a full collection per measurement would cost more than many of the measurements)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def clock(
    run: Callable[[Any], Any],
    arg: Any,
    number: int = 1,
    prefix: bool = False,
    keep_gc: bool = False,
    timer: Callable[[], float] = time.perf_counter,
) -> float:
    """Seconds for ``number`` calls; on a ``prefix`` an end-of-input error is expected.

    The collector is off unless ``keep_gc`` (``loads`` is also timed as programs run, with
    it on); ``timer`` is wall time unless a script needs CPU time (``time.process_time``).
    """
    with nullcontext() if keep_gc else no_gc():
        start = timer()
        for _ in range(number):
            try:
                run(arg)
            except Exception:
                if not prefix:
                    raise
        return timer() - start


def calls_for(seconds_per_call: float, min_time: float) -> int:
    """How many calls make one measurement last at least ``min_time``."""
    return max(1, math.ceil(min_time / seconds_per_call)) if seconds_per_call > 0 else 1000


def best_time(
    run: Callable[[Any], Any],
    arg: Any,
    repeats: int,
    budget: float,
    min_time: float,
    timer: Callable[[], float] = time.perf_counter,
) -> tuple[float, int]:
    """(best seconds per call, measurements) within ``budget``: at least one call. ``timer``
    as for ``clock``."""
    first = clock(run, arg, timer=timer)
    number = calls_for(first, min_time)
    best, spent, runs = first, first, 1
    if number > 1:  # the first call alone is too short to count
        best, spent = clock(run, arg, number, timer=timer) / number, spent + first * number
    while runs < repeats and spent + first * number <= budget:
        elapsed = clock(run, arg, number, timer=timer)
        spent += elapsed
        best = min(best, elapsed / number)
        runs += 1
    return best, runs


def growth(
    small: Callable[[], Any],
    large: Callable[[], Any],
    rounds: int,
    timer: Callable[[], float] = time.process_time,
) -> float:
    """The median over ``rounds`` of ``large``'s time over ``small``'s, each round timing both
    (the collector off) in alternating order: a linearity check (4x the input, about 4x the
    time). A round's two runs share the machine's state of the moment; a ratio of each one's
    best time over all rounds puts two independent draws of it together, and left a 4x band
    one run in three on a quiet machine."""
    ratios = []
    for round_ in range(rounds):
        first, second = (small, large) if round_ % 2 == 0 else (large, small)
        t_first = clock(_call, first, timer=timer)
        t_second = clock(_call, second, timer=timer)
        t_small, t_large = (t_first, t_second) if first is small else (t_second, t_first)
        ratios.append(t_large / t_small)
    return statistics.median(ratios)


def _call(run: Callable[[], Any]) -> Any:
    return run()


def _full(contender: StreamContender, chunks: list[str], repeats: int, budget: float, mt: float):
    seconds, runs = best_time(contender.run, chunks, repeats, budget, mt)
    note = "" if runs >= repeats else f"best of {runs} (budget)"
    return Timing("measured", seconds, note, runs)


def _read_times(read: Callable[[str], Any], text: str, ends: list[int], indices: Any) -> float:
    """Seconds for the reads after the chunks at ``indices``, each with its buffer copy."""
    total = 0.0
    with no_gc():
        for i in indices:
            start = time.perf_counter()
            read(text[: ends[i]])
            total += time.perf_counter() - start
    return total


def _reparse(contender: StreamContender, chunks: list[str], repeats: int, budget: float, mt: float):
    assert contender.read is not None
    text = "".join(chunks)
    ends, total = [], 0
    for chunk in chunks:
        total += len(chunk)
        ends.append(total)
    n = len(ends)
    pilot = sorted({int(n * (j + 0.5) / PILOT_READS) for j in range(PILOT_READS)})
    contender.read(text[: ends[0]])  # warm-up: imports, caches
    spent = 0.0
    for done, i in enumerate(pilot, 1):
        spent += _read_times(contender.read, text, ends, [i])
        if spent > budget / 2 and done < len(pilot):
            bound = spent / done * n
            note = f"over the time budget: more than {_fmt(bound)} predicted"
            return Timing("skipped", None, note, predicted=bound)
    estimate = spent / len(pilot) * n
    if estimate <= budget / 2:
        return _full(contender, chunks, repeats, budget, mt)
    step = math.ceil(estimate / (budget / 2))
    sample = range(step // 2, n, step)
    if len(sample) <= len(pilot):
        note = f"{len(pilot)} of {n} reads timed, scaled by {n / len(pilot):.0f}"
        return Timing("extrapolated", estimate, note)
    seconds = _read_times(contender.read, text, ends, sample) * n / len(sample)
    note = f"1 read in {step} timed ({len(sample)} of {n}), scaled by {n / len(sample):.0f}"
    return Timing("extrapolated", seconds, note)


def _prefix_projection(
    contender: StreamContender, chunks: list[str], budget: float, pilot: float, pilot_len: int
) -> Timing:
    n = len(chunks)
    p, t_p = pilot_len, pilot
    while p * 2 <= n // 2 and t_p * 4 < budget / 4:  # a prefix costing ~1/4 of the budget
        p *= 2
        t_p = clock(contender.run, chunks[:p], prefix=True)
    t_half = clock(contender.run, chunks[: max(1, p // 2)], prefix=True)
    exponent = min(2.0, max(1.0, math.log2(t_p / t_half))) if t_half > 0 else 1.0
    seconds = t_p * (n / p) ** exponent
    note = f"first {p} of {n} chunks timed, growth exponent {exponent:.2f}"
    return Timing("extrapolated", seconds, note)


def measure_stream(
    contender: StreamContender, chunks: list[str], repeats: int, budget: float, min_time: float
) -> Timing:
    """Time ``contender`` reading the value after every chunk, within ``budget`` seconds."""
    if contender.missing:
        return Timing(contender.missing)
    gc.collect()
    try:
        if not contender.incremental:
            return _reparse(contender, chunks, repeats, budget, min_time)
        pilot_len = max(1, len(chunks) // 16)
        clock(contender.run, chunks[:pilot_len], prefix=True)  # warm-up: imports, caches
        pilot = clock(contender.run, chunks[:pilot_len], prefix=True)
        if pilot * len(chunks) / pilot_len > budget / 2 and pilot_len < len(chunks):
            return _prefix_projection(contender, chunks, budget, pilot, pilot_len)
        return _full(contender, chunks, repeats, budget, min_time)
    except Exception as exc:  # a broken contender is reported, not fatal
        return Timing("error", None, f"{type(exc).__name__}: {exc}")


def measure_interleaved(
    items: list[tuple[Callable[[Any], Any], Any]],
    rounds: int,
    min_time: float,
    timer: Callable[[], float] = time.perf_counter,
    keep_gc: bool = False,
) -> list[float | None]:
    """Best seconds per call of each (run, arg), timed in alternation (A B C A B C ...).

    Every run then sees the same machine load, which makes ratios between them (a doubling
    check, a floor) steadier than separate measurements. A run that raises gets None.
    ``timer`` and ``keep_gc`` as for ``clock`` (CPU time; the collector on, as programs run,
    with a full collection before each measurement so that none inherits another's garbage).
    """
    best: list[float | None] = []
    numbers: list[int] = []
    for run, arg in items:
        try:
            first = clock(run, arg, keep_gc=keep_gc, timer=timer)
        except Exception:  # a broken contender is reported, not fatal
            best.append(None)
            numbers.append(0)
            continue
        best.append(first)
        numbers.append(calls_for(first, min_time))
    gc.collect()
    for _ in range(rounds):
        for k, (run, arg) in enumerate(items):
            if numbers[k]:
                if keep_gc:
                    gc.collect()
                seconds = clock(run, arg, numbers[k], keep_gc=keep_gc, timer=timer) / numbers[k]
                best[k] = min(best[k] or seconds, seconds)
    return best


def _fmt(seconds: float) -> str:
    return f"{seconds:.3g} s" if seconds >= 1 else f"{seconds * 1e3:.3g} ms"
