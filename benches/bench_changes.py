"""Change events against reading the whole value: a long string streamed in small chunks.

    python benches/bench_changes.py [--size BYTES] [--chunk N] [--repeats N]

What a server streaming a model's JSON to a browser sends after every fragment: with change
events, each change as JSON (`json.dumps` of `Parser.feed_changes`'s changes, as the README's
SSE example does), work in proportion to the fragment; without them, the whole value as JSON
(`json.dumps(parser.feed(chunk))`), work in proportion to the document. The target of the
change-events issue is a ratio of at least 50x for a 1 MB string in 4-byte chunks, with the
time of the change side growing linearly (checked by doubling the size).

Reading the whole value a quarter of a million times would take minutes, so that side is
sampled: every chunk is fed, and the value is serialized after every `--every`-th chunk (250
by default, about a thousand reads spread evenly over the stream), that time scaled by
`--every` (marked `~`). The parser's own cost is shown too: `feed` alone no longer rebuilds
the string (it grows in place), so it is as cheap as `feed_changes`; the gain of change events
is for whoever reads what changed instead of the whole value. Best of N, one process.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, Callable

import jsondrip


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
    """The best of `repeats` timings, in seconds (a run that returns a time is its own)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        measured = run()
        elapsed = time.perf_counter() - start
        times.append(measured if isinstance(measured, float) else elapsed)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    """Print the ratio for each backend, pass or FAIL against 50x and linear growth."""
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
        values = best(with_values(chunks, backend, args.every), max(1, args.repeats - 1))
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
            failed |= ratio < 50 or not 1.6 <= growth <= 2.4
            print(
                f"\nnative: ratio {'pass' if ratio >= 50 else 'FAIL'} (target >= 50x), "
                f"growth {'pass' if 1.6 <= growth <= 2.4 else 'FAIL'} (linear: 2x +- 20%)\n"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
