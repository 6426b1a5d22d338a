"""Timing with a per-contender budget, and exact comparison of final values.

A full run is timed with ``time.perf_counter`` (GC off, as ``timeit`` does); short runs are
looped until one measurement lasts ``min_time``; the best of up to ``repeats`` measurements is
kept, as many as fit in the budget (at least one).

A contender whose single run would not fit in the budget is never dropped silently:

- a re-parser (jiter) costs one independent parse per read, so every m-th read is timed on its
  own (buffer copy included) and the sum is scaled by m: a stratified sample of the real total;
- any other contender is timed on two prefixes of the chunks (p/2 and p) and projected to the
  whole stream with the growth exponent those two give (clamped to 1..2).

Either way the result says ``extrapolated`` and how.
"""

from __future__ import annotations

import gc
import math
import operator
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable

from contenders import Contender, jiter_read_at

from jsondrip.bench.correctness import exact_equal, first_difference


@dataclass
class Timing:
    """One contender on one workload: seconds for the whole stream, or why there are none."""

    seconds: float | None
    note: str = ""
    value: Any = None
    has_value: bool = False
    runs: int = 0

    @property
    def extrapolated(self) -> bool:
        """True when ``seconds`` is an estimate, not a measured full run."""
        return self.note.startswith("extrapolated")


@contextmanager
def _no_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _clock(
    run: Callable[[list[str]], Any], chunks: list[str], number: int = 1, prefix: bool = False
) -> float:
    """Seconds for ``number`` runs; on a ``prefix`` the end-of-input error is expected."""
    with _no_gc():
        start = time.perf_counter()
        for _ in range(number):
            try:
                run(chunks)
            except ValueError:
                if not prefix:
                    raise
        return time.perf_counter() - start


def _full(
    contender: Contender, chunks: list[str], repeats: int, budget: float, min_time: float
) -> Timing:
    with _no_gc():
        start = time.perf_counter()
        value = contender.run(chunks)
        first = time.perf_counter() - start
    number = max(1, math.ceil(min_time / first)) if first > 0 else 1000
    best, spent, runs = first, first, 1
    while runs < repeats and spent + first * number <= budget:
        elapsed = _clock(contender.run, chunks, number)
        spent += elapsed
        best = min(best, elapsed / number)
        runs += 1
    note = "" if runs >= repeats else f"best of {runs} (budget)"
    return Timing(best, note, value, True, runs)


def _sampled_reparse(chunks: list[str], budget: float) -> Timing:
    data = "".join(chunks).encode("utf-8")
    ends, total = [], 0
    for chunk in chunks:
        total += len(chunk.encode("utf-8"))
        ends.append(total)

    def read_times(indices: range) -> float:
        total = 0.0
        with _no_gc():
            for i in indices:
                start = time.perf_counter()
                jiter_read_at(data[: ends[i]])
                total += time.perf_counter() - start
        return total

    n = len(ends)
    pilot = range(0, n, max(1, n // 32))
    estimate = read_times(pilot) / len(pilot) * n
    if estimate <= budget / 2:
        return Timing(None, "fits")  # caller runs it in full
    step = math.ceil(estimate / (budget / 2))
    sample = range(step // 2, n, step)
    seconds = read_times(sample) * n / len(sample)
    value = jiter_read_at(data)
    note = f"extrapolated: 1 read in {step} timed ({len(sample)} of {n}), scaled by {step}"
    return Timing(seconds, note, value, True, 0)


def _prefix_projection(
    contender: Contender, chunks: list[str], budget: float, pilot: float, pilot_len: int
) -> Timing:
    n = len(chunks)
    # grow the prefix until it costs about a quarter of the budget
    p = pilot_len
    t_p = pilot
    while p * 2 <= n // 2 and t_p * 4 < budget / 4:
        p *= 2
        t_p = _clock(contender.run, chunks[:p], prefix=True)
    t_half = _clock(contender.run, chunks[: p // 2], prefix=True)
    exponent = min(2.0, max(1.0, math.log2(t_p / t_half))) if t_half > 0 else 1.0
    seconds = t_p * (n / p) ** exponent
    note = f"extrapolated: first {p} of {n} chunks, growth exponent {exponent:.2f}"
    return Timing(seconds, note, None, False, 0)


def measure(
    contender: Contender, chunks: list[str], repeats: int, budget: float, min_time: float
) -> Timing:
    """Time ``contender`` reading every chunk, within ``budget`` seconds of wall time."""
    if contender.missing:
        return Timing(None, f"not installed: {contender.missing}")
    try:
        if contender.reparse:
            sampled = _sampled_reparse(chunks, budget)
            if sampled.seconds is not None:
                return sampled
        else:
            pilot_len = max(1, len(chunks) // 16)
            pilot = _clock(contender.run, chunks[:pilot_len], prefix=True)
            if pilot * len(chunks) / pilot_len > budget / 2 and pilot_len < len(chunks):
                return _prefix_projection(contender, chunks, budget, pilot, pilot_len)
        return _full(contender, chunks, repeats, budget, min_time)
    except Exception as exc:  # a broken contender is reported, not fatal
        return Timing(None, f"error: {type(exc).__name__}: {exc}")


def check(timing: Timing, expected: Any) -> str:
    """How the contender's final value compares with ``json.loads``."""
    if not timing.has_value:
        return "not checked" if timing.seconds is not None else "-"
    if exact_equal(timing.value, expected):
        return "exact"
    if timing.value == expected:
        where = first_difference(timing.value, expected, exact_equal)
        return f"equal, types differ: {where}"
    where = first_difference(timing.value, expected, operator.eq)
    return f"WRONG: {where}"


def measure_interleaved(
    items: list[tuple[Contender, list[str]]], rounds: int, min_time: float
) -> list[Timing]:
    """Time several (contender, stream) runs in alternation (A B C A B C ...).

    Every run then sees the same machine load, which makes the ratios between them (the
    doubling check, the copy floor) steadier than separate measurements would be.
    """
    timings: list[Timing] = []
    plan: list[tuple[Timing, Contender, list[str], int]] = []
    for contender, chunks in items:
        if contender.missing:
            timings.append(Timing(None, f"not installed: {contender.missing}"))
            continue
        try:
            with _no_gc():
                start = time.perf_counter()
                value = contender.run(chunks)
                elapsed = time.perf_counter() - start
        except Exception as exc:  # a broken contender is reported, not fatal
            timings.append(Timing(None, f"error: {type(exc).__name__}: {exc}"))
            continue
        timing = Timing(elapsed, "", value, True, 1)
        timings.append(timing)
        number = max(1, math.ceil(min_time / elapsed)) if elapsed > 0 else 1000
        plan.append((timing, contender, chunks, number))
    for _ in range(rounds):
        for timing, contender, chunks, number in plan:
            seconds = _clock(contender.run, chunks, number) / number
            timing.seconds = min(timing.seconds or seconds, seconds)
            timing.runs += 1
    return timings
