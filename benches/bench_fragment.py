"""Per fragment: one native `feed` of 4 characters into a growing records document, against a
bare builtin call, at 100 KB and at 3 MB.

    python benches/bench_fragment.py [--repeats N] [--window N] [--gc off] [--clock wall|cpu]
                                     [--against OTHER/_native*.so]

For each size a parser is first fed the first SIZE characters of a records document
(`jsondrip.bench.workloads.records_text`, the streaming benchmark's) in large pieces, so that
its live value already holds SIZE worth of records. Then, in rounds, each parser is timed over
its next `--window` 4-character fragments (one `Parser.feed` each, the document growing on),
and right after over the same text in fresh fragments, a loop calling `dict.get(fragment)` on a
small dict: the floor of any per-fragment call in the same loop. Each loop gets its own
fragments (a str caches its hash and, once asked, its UTF-8 form: no loop inherits that work
from another). The two sizes take turns in every round, in alternating order, and a first
round is thrown away, so that neither size runs first on a cold process (the lead's run on a
quiet machine found the first size dearer in both loops alike, `dict.get` included: 68 ns
against 40). Each round gives a ratio per size (feed loop / dict.get loop); the verdict is the
median (#28: at most 3x at both sizes). The collector stays on, as programs run (`--gc off` to
see its share). `--clock cpu` times both loops in this process's CPU time
(`time.process_time`): on a busy machine the waits for a core are left out of both alike.

`--against` loads another build's extension module beside this one (as `benches/ab_native.py`
does) and times its `Parser.feed` too (its `EngineFront` over its `NativeEngine`, fed the same
text), in the same rounds, alternating which build goes first: the table adds its figures and
the median of this build's time over the other's. Compare builds of the same profile (release:
fat LTO). Exit status 0 either way: a report, not a gate.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from types import ModuleType
from typing import Any, Callable

from other_build import load_other

from jsondrip import Parser
from jsondrip._engine import EngineOptions
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
FLOOR = "dict.get"

Feed = Callable[[str], Any]


def other_feed(native: ModuleType) -> Feed:
    """A parser of the other build, as `Parser` is made: its `EngineFront` holding its engine."""
    front = type("OtherParser", (native.EngineFront,), {"__slots__": ()})()
    front._engine = native.NativeEngine(EngineOptions())
    return front.feed  # type: ignore[no-any-return]


def timed(call: Feed, pieces: list[str], clock: Callable[[], float]) -> float:
    """Seconds to call `call` once per piece (the one loop every contender runs in)."""
    start = clock()
    for piece in pieces:
        call(piece)
    return clock() - start


def records_chars(count: int) -> str:
    """A records document of at least `count` characters. `records_text` counts UTF-8 bytes,
    and its non-ASCII text makes it about 6% shorter in characters: a document of `count`
    bytes ran out before the last windows (3 MB ran out before the first: every fragment
    timed there was an empty str after the document's end, fed at the floor's cost)."""
    size = count
    while True:
        text = records_text(size)
        if len(text) >= count:
            return text
        size += size // 8


class Size:
    """One document size: its text, a parser per build fed its first `size` characters, and
    where the next window of fragments starts."""

    def __init__(self, size: int, total: int, feeds: dict[str, Feed]) -> None:
        self.text = records_chars(total)
        self.at = size
        self.feeds = feeds
        for feed in feeds.values():
            for start in range(0, size, 1 << 16):
                feed(self.text[start : min(start + (1 << 16), size)])

    def window(self, window: int) -> Callable[[], list[str]]:
        """Fresh 4-character fragments of the next window, as many times as asked."""
        start = self.at
        self.at += window * FRAGMENT
        stop = self.at

        def pieces() -> list[str]:
            made = [self.text[i : i + FRAGMENT] for i in range(start, stop, FRAGMENT)]
            assert len(made[-1]) == FRAGMENT, "the document ran out: fragments would be short"
            return made

        return pieces


def measure(
    repeats: int,
    window: int,
    clock: Callable[[], float] = time.perf_counter,
    other: ModuleType | None = None,
) -> dict[str, dict[str, list[float]]]:
    """Per-fragment seconds by size and by loop (`feed`, `other` with `other`, `dict.get`), one
    per round after the first."""
    total = (repeats + 1) * window * FRAGMENT + KB
    sizes: dict[str, Size] = {}
    for label, length in SIZES.items():
        feeds: dict[str, Feed] = {"feed": Parser(backend="native").feed}
        if other is not None:
            feeds["other"] = other_feed(other)
        sizes[label] = Size(length, length + total, feeds)
    floor = {"a": 1, "b": 2}.get
    times: dict[str, dict[str, list[float]]] = {
        label: {name: [] for name in [*sizes[label].feeds, FLOOR]} for label in sizes
    }
    labels = list(sizes)
    for round_ in range(repeats + 1):
        for label in labels if round_ % 2 == 0 else labels[::-1]:
            document = sizes[label]
            names = list(document.feeds)
            if round_ % 2:
                names.reverse()
            pieces = document.window(window)
            for name in [*names, FLOOR]:
                call = floor if name == FLOOR else document.feeds[name]
                seconds = timed(call, pieces(), clock) / window
                if round_:  # the first round warms up
                    times[label][name].append(seconds)
    return times


def ratio(times: list[float], floor: list[float]) -> float:
    """The median of the rounds' ratios."""
    return statistics.median(t / f for t, f in zip(times, floor))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=51)
    parser.add_argument("--window", type=int, default=2000)
    parser.add_argument("--gc", choices=("on", "off"), default="on")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    parser.add_argument("--against", metavar="SO", help="another build's jsondrip/_native*.so")
    args = parser.parse_args()
    other = load_other(args.against) if args.against else None
    if args.gc == "off":
        gc.disable()
    print(
        f"native Parser.feed of {FRAGMENT}-character fragments into records, against dict.get"
        f" in the same loop; {args.repeats} rounds of {args.window} fragments (sizes"
        f" alternating), median; collector {args.gc}, {args.clock} clock;"
        f" {sys.implementation.name} {sys.version.split()[0]}"
    )
    if other is not None:
        print(f"other build: {other.__file__}")
    times = measure(args.repeats, args.window, CLOCKS[args.clock], other)
    header = f"{'document':<10} {'feed':>9} {'dict.get':>9} {'ratio':>7}"
    if other is not None:
        header += f" {'other':>9} {'ratio':>7} {'feed/other':>10}"
    print(header)
    verdicts = []
    for label, loops in times.items():
        feed_ratio = ratio(loops["feed"], loops[FLOOR])
        line = (
            f"{label:<10} {statistics.median(loops['feed']) * 1e9:>6.0f} ns"
            f" {statistics.median(loops[FLOOR]) * 1e9:>6.0f} ns {feed_ratio:>6.2f}x"
        )
        if other is not None:
            line += (
                f" {statistics.median(loops['other']) * 1e9:>6.0f} ns"
                f" {ratio(loops['other'], loops[FLOOR]):>6.2f}x"
                f" {ratio(loops['feed'], loops['other']):>10.3f}"
            )
        print(line)
        verdicts.append(verdict_line(TARGETS[label], feed_ratio))
    print()
    print("\n".join(verdicts))


if __name__ == "__main__":
    main()
