"""Two native builds in one process: this checkout's `NativeEngine` against another build's.

    python benches/ab_native.py /path/to/other/jsondrip/_native.cpython-3xx-....so [--rounds N]

The other build's extension module (a clone's `.venv/.../site-packages/jsondrip/_native*.so`,
built with the same profile as this one) is loaded beside this one under another package
name and configured by this `jsondrip._engine`, so both engines run the same Python around
them. Each workload (`jsondrip.bench.workloads`: records 100 KB and a long string in
4-character fragments, the small call one character at a time) is fed whole to a fresh
engine of each build in alternation, `--rounds` times, each time the best of `--repeats`; the
table gives the median over the rounds of this build's time over the other's (below 1:
faster), with the lowest and highest. `feed`, `feed_pending`, `feed_changes`, jiter mode, and
a schema with `progress()` after every fragment are each a workload. Timing both builds in
one process, turn by turn, makes a load spike hit both alike, which two processes (as
`ab_streaming.py` runs them) do not; on a shared machine the ratios hold better than the
times. Exit status 0 either way: a report, not a gate.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from types import ModuleType
from typing import Any, Callable

from other_build import load_other

import jsondrip
from jsondrip import _engine
from jsondrip._engine import EngineOptions
from jsondrip.bench.schema import DOCUMENT_SCHEMA
from jsondrip.bench.workloads import KB, chunks, code_text, records_text, small_text

Run = Callable[[ModuleType, list[str], EngineOptions, str], float]


def fed(native: ModuleType, pieces: list[str], options: EngineOptions, method: str) -> float:
    """Seconds to feed every piece through `method` of a new engine."""
    feed = getattr(native.NativeEngine(options), method)
    start = time.perf_counter()
    for piece in pieces:
        feed(piece)
    return time.perf_counter() - start


def fed_typed(native: ModuleType, pieces: list[str], options: EngineOptions, _: str) -> float:
    """Seconds to feed every piece and read the typed view after each, as bench_schema does."""
    engine = native.NativeEngine(options)
    feed, progress = engine.feed, engine.progress
    start = time.perf_counter()
    for piece in pieces:
        feed(piece)
        progress("/records")
    return time.perf_counter() - start


def workloads() -> dict[str, tuple[list[str], EngineOptions, str, Run]]:
    records = chunks(records_text(100 * KB), 4)
    typed = EngineOptions(schema=jsondrip.Schema(DOCUMENT_SCHEMA))
    return {
        "records 100 KB, feed": (records, EngineOptions(), "feed", fed),
        "long string 100 KB, feed": (chunks(code_text(100 * KB), 4), EngineOptions(), "feed", fed),
        "small call, 1-char feed": (chunks(small_text(), 1), EngineOptions(), "feed", fed),
        "records, feed_pending": (records, EngineOptions(), "feed_pending", fed),
        "records, feed_changes": (records, EngineOptions(), "feed_changes", fed),
        "records, jiter mode feed": (records, EngineOptions(mode="jiter"), "feed", fed),
        "records, schema + progress()": (records, typed, "feed", fed_typed),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="the other build's jsondrip/_native*.so")
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", help="the workloads whose title holds this text")
    args = parser.parse_args(argv)
    ours: ModuleType = _engine._native  # type: ignore[assignment]
    if ours is None:
        raise SystemExit("this checkout has no native build")
    other = load_other(args.other)
    print(f"this build: {ours.__file__}\nother build: {other.__file__}")
    print("| workload | this / other, median | lowest | highest |")
    print("|---|---:|---:|---:|")
    for title, (pieces, options, method, run) in workloads().items():
        if args.only and args.only not in title:
            continue
        # a small workload is fed several times per timing, to outlast the clock's grain
        times = max(1, 20_000 // len(pieces))
        ratios: list[float] = []
        for turn in range(args.rounds):
            order = (ours, other) if turn % 2 == 0 else (other, ours)
            best: dict[Any, float] = {}
            for native in order:
                best[native] = min(
                    sum(run(native, pieces, options, method) for _ in range(times))
                    for _ in range(args.repeats)
                )
            ratios.append(best[ours] / best[other])
        print(
            f"| {title} | {statistics.median(ratios):.3f} | {min(ratios):.3f} | {max(ratios):.3f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
