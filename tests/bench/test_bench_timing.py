"""`measure_interleaved`, which the A/B scripts and bench_output.py time with: the runs
alternate, the timer given is the one read, the collector is on or off as asked (no timing is
asserted)."""

from __future__ import annotations

import gc
from typing import Any

from jsondrip.bench.timing import measure_interleaved


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
