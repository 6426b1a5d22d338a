"""Per fragment: one native `feed` of 4 characters into a growing records document, against a
bare builtin call, at 100 KB and at 3 MB.

    python benches/bench_fragment.py [--repeats N] [--window N] [--gc off] [--clock wall|cpu]

A parser is fed the first SIZE characters of a records document (`jsondrip.bench.workloads.
records_text`, the streaming benchmark's) in large pieces, so that its live value already holds
SIZE worth of records; then, `--repeats` times, it is timed over the next `--window`
4-character fragments (one `Parser.feed` each, the document growing on), and right after,
over the same fragments, a loop calling `dict.get(fragment)` on a small dict: the floor of any
per-fragment call in the same loop. Each repeat gives a ratio (feed loop / dict.get loop); the
verdict is the median (#28: at most 3x at both sizes). The collector stays on, as programs run
(`--gc off` to see its share). `--clock cpu` times both loops in this process's CPU time
(`time.process_time`): on a busy machine the waits for a core are left out of both alike.
Exit status 0 either way: a report, not a gate.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from typing import Callable

from jsondrip import Parser
from jsondrip.bench.targets import Target, verdict_line
from jsondrip.bench.workloads import KB, records_text

FRAGMENT = 4
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
SIZES = {"100 KB": 100 * KB, "3 MB": 3000 * KB}
TARGETS = {
    label: Target(
        f"records {label}: feed / dict.get",
        "one native Parser.feed of a 4-character fragment against a bare builtin call",
        hi=3,
    )
    for label in SIZES
}


def measure(
    size: int, repeats: int, window: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[list[float], list[float]]:
    """Per-fragment seconds of `feed` and of `dict.get`, one pair per repeat."""
    text = records_text(size + (repeats + 1) * window * FRAGMENT + KB)
    parser = Parser(backend="native")
    feed = parser.feed
    for start in range(0, size, 1 << 16):
        feed(text[start : min(start + (1 << 16), size)])
    floor = {"a": 1, "b": 2}.get
    feeds: list[float] = []
    gets: list[float] = []
    at = size
    for _ in range(repeats):
        pieces = [text[i : i + FRAGMENT] for i in range(at, at + window * FRAGMENT, FRAGMENT)]
        at += window * FRAGMENT
        t0 = clock()
        for piece in pieces:
            feed(piece)
        t1 = clock()
        for piece in pieces:
            floor(piece)
        t2 = clock()
        feeds.append((t1 - t0) / window)
        gets.append((t2 - t1) / window)
    return feeds, gets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=51)
    parser.add_argument("--window", type=int, default=2000)
    parser.add_argument("--gc", choices=("on", "off"), default="on")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    args = parser.parse_args()
    if args.gc == "off":
        gc.disable()
    print(
        f"native Parser.feed of {FRAGMENT}-character fragments into records, against dict.get"
        f" in the same loop; {args.repeats} repeats of {args.window} fragments, median;"
        f" collector {args.gc}, {args.clock} clock;"
        f" {sys.implementation.name} {sys.version.split()[0]}"
    )
    print(f"{'document':<10} {'feed':>9} {'dict.get':>9} {'ratio':>7}")
    verdicts = []
    for label, size in SIZES.items():
        feeds, gets = measure(size, args.repeats, args.window, CLOCKS[args.clock])
        ratio = statistics.median(f / g for f, g in zip(feeds, gets))
        print(
            f"{label:<10} {statistics.median(feeds) * 1e9:>6.0f} ns"
            f" {statistics.median(gets) * 1e9:>6.0f} ns {ratio:>6.2f}x"
        )
        verdicts.append(verdict_line(TARGETS[label], ratio))
    print()
    print("\n".join(verdicts))


if __name__ == "__main__":
    main()
