"""Change events against reading the whole value: a long string streamed in small chunks.

    python benches/bench_changes.py [--size BYTES] [--chunk N] [--repeats N]

What a server streaming a model's JSON to a browser sends after every fragment: with change
events, each change as JSON (`json.dumps` of `Parser.feed_changes`'s changes, as the README's
SSE example does), work in proportion to the fragment; without them, the whole value as JSON
(`json.dumps(parser.feed(chunk))`), work in proportion to the document. The targets
(CHANGES_VS_VALUES and CHANGES_LINEAR below): for a 1 MB string in 4-byte chunks, sending the
changes costs at least 50x less than sending the whole value, and its time grows linearly
(checked by doubling the size).

Reading the whole value a quarter of a million times would take minutes, so that side is
sampled: every chunk is fed, and the value is serialized after every `--every`-th chunk (250 by
default, about a thousand reads spread evenly over the stream), that time scaled by `--every`
(marked `~`): the sampling `jsondrip bench` uses for re-parsers. Everything else is timed by
`jsondrip.bench.timing.best_time`, as `jsondrip bench` times. The parser's own cost is shown
too: `feed` alone no longer rebuilds the string (it grows in place), so it is as cheap as
`feed_changes`; the gain of change events is for whoever reads what changed instead of the whole
value. Best of N, one process."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, Callable

import jsondrip
from jsondrip.bench.targets import Target, verdict_line
from jsondrip.bench.timing import best_time

CHANGES_VS_VALUES = Target(
    "whole value / changes",
    "what a server sending each change saves over sending the whole value after every chunk",
    lo=50,
)
CHANGES_LINEAR = Target(
    "changes, 2x size / 1x size",
    "feed_changes costs work in proportion to each fragment: twice the string, twice the time",
    lo=1.6,
    hi=2.4,
)


def document(size: int) -> str:
    """An object holding one string of about `size` characters of code (escapes included)."""
    line = 'def f(x):\\n    return {\\"k\\": x}  # ok\\n'
    body = (line * (size // len(line) + 1))[:size]
    while body.endswith("\\"):  # never cut an escape in two
        body = body[:-1]
    return '{"path": "src/app.py", "content": "' + body + '"}'


def with_changes(chunks: list[str], backend: str) -> Callable[[], None]:
    """Feed with changes and serialize each change, as a server sending them would."""

    def run() -> None:
        feed = jsondrip.Parser(backend=backend).feed_changes
        dumps = json.dumps
        for chunk in chunks:
            for change in feed(chunk):
                dumps(change)

    return run


def feed_only(chunks: list[str], backend: str) -> Callable[[], None]:
    """Feed and take the live value, without reading it: the parser's own cost."""

    def run() -> None:
        feed = jsondrip.Parser(backend=backend).feed
        for chunk in chunks:
            feed(chunk)

    return run


def with_values(chunks: list[str], backend: str, every: int) -> Callable[[], float]:
    """Feed every chunk and serialize the whole value after every `every`-th one; returns
    the feeding time plus the serializing time scaled by `every`."""

    def run() -> float:
        feed = jsondrip.Parser(backend=backend).feed
        dumps = json.dumps
        clock = time.perf_counter
        fed = read = 0.0
        for i, chunk in enumerate(chunks):
            start = clock()
            value = feed(chunk)
            fed += clock() - start
            if i % every == every - 1:
                start = clock()
                dumps(value)
                read += clock() - start
        return fed + read * every

    return run


def best(run: Callable[[], Any], repeats: int) -> float:
    """The best of `repeats` timings, in seconds."""
    return best_time(lambda _: run(), None, repeats, budget=60.0, min_time=0.0)[0]


def best_sampled(run: Callable[[], float], repeats: int) -> float:
    """The best of `repeats` runs that each time themselves (the sampled ones)."""
    return min(run() for _ in range(repeats))


def main(argv: list[str] | None = None) -> int:
    """Print the ratio for each backend, and the native backend's targets."""
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--size", type=int, default=1_000_000)
    options.add_argument("--chunk", type=int, default=4)
    options.add_argument("--repeats", type=int, default=3)
    options.add_argument("--every", type=int, default=250, help="serialize every N-th value")
    args = options.parse_args(argv)
    failed = False
    print(f"one string of {args.size} characters in {args.chunk}-character chunks")
    print(
        "| backend | feed_changes + dumps(change) | feed + dumps(value) | ratio "
        "| feed alone | changes, 2x size |"
    )
    print("|---|---|---|---|---|---|")
    for backend in jsondrip.available_backends()[:2]:
        text = document(args.size)
        chunks = [text[i : i + args.chunk] for i in range(0, len(text), args.chunk)]
        text2 = document(2 * args.size)
        chunks2 = [text2[i : i + args.chunk] for i in range(0, len(text2), args.chunk)]
        changes = best(with_changes(chunks, backend), args.repeats)
        values = best_sampled(with_values(chunks, backend, args.every), max(1, args.repeats - 1))
        alone = best(feed_only(chunks, backend), args.repeats)
        doubled = best(with_changes(chunks2, backend), args.repeats)
        ratio = values / changes
        growth = doubled / changes
        print(
            f"| {backend} | {changes * 1e3:.0f} ms | ~{values:.2f} s | {ratio:.0f}x "
            f"| {alone * 1e3:.0f} ms | {growth:.2f}x time |",
            flush=True,
        )
        if backend == "native":
            failed |= not (CHANGES_VS_VALUES.met(ratio) and CHANGES_LINEAR.met(growth))
            print(f"\nnative targets:\n{verdict_line(CHANGES_VS_VALUES, ratio)}")
            print(verdict_line(CHANGES_LINEAR, growth) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
