"""`measure_interleaved`, which the A/B scripts and bench_output.py time with, and `growth`,
the tool-call benches' linearity check: the runs alternate, the timer given is the one read,
the collector is on or off as asked (no timing is asserted: the timers here are counters)."""

from __future__ import annotations

import gc
from typing import Any

from jsondrip.bench.timing import growth, measure_interleaved


def test_runs_alternate_and_a_broken_one_gets_none() -> None:
    calls: list[str] = []

    def run(name: str) -> None:
        calls.append(name)

    def broken(_: Any) -> None:
        raise RuntimeError("boom")

    ticks = iter(range(10**6))
    best = measure_interleaved(
        [(run, "a"), (broken, None), (run, "b")], 3, 0.0, timer=lambda: float(next(ticks))
    )
    assert calls == ["a", "b"] + ["a", "b"] * 3  # the first calls size the measurements
    assert best == [1.0, None, 1.0]  # one tick of the given timer per call


def test_the_collector_is_on_only_when_kept() -> None:
    seen: list[bool] = []

    def run(_: Any) -> None:
        seen.append(gc.isenabled())

    assert gc.isenabled()
    measure_interleaved([(run, None)], 2, 0.0)
    measure_interleaved([(run, None)], 2, 0.0, keep_gc=True)
    assert seen == [False] * 3 + [True] * 3
    assert gc.isenabled()


def test_growth_is_the_median_of_paired_ratios_in_alternating_order() -> None:
    now = [0.0]
    calls: list[str] = []
    costs = iter([1, 4, 8, 2, 1, 5, 20, 4, 2, 2])  # one round's two runs share a cost level

    def run(name: str) -> None:
        calls.append(name)
        now[0] += next(costs)

    ratio = growth(lambda: run("small"), lambda: run("large"), 5, timer=lambda: now[0])
    assert calls == ["small", "large", "large", "small"] * 2 + ["small", "large"]
    assert ratio == 4.0  # rounds 4, 4, 5, 5, 1: their median, not the bests' 2 / 1
