"""Change events against reading the whole value: a long string streamed in small chunks.

    python benches/bench_changes.py [--size BYTES] [--chunk N] [--repeats N]

A UI that applies `Parser.feed_changes` does work in proportion to each fragment; one that
reads the whole value after every fragment copies the growing string each time (Python strings
are immutable). Both sides run in one process, alternately, best of N; the target of the
change-events issue is a ratio of at least 50x for a 1 MB string in 4-byte chunks, with the
time of the change side growing linearly (checked by doubling the size).
"""

from __future__ import annotations

import argparse
import time
from typing import Callable

import jsondrip


def document(size: int) -> str:
    """An object holding one string of about `size` characters of code (escapes included)."""
    line = 'def f(x):\\n    return {\\"k\\": x}  # ok\\n'
    body = (line * (size // len(line) + 1))[:size]
    while body.endswith("\\"):  # never cut an escape in two
        body = body[:-1]
    return '{"path": "src/app.py", "content": "' + body + '"}'


def with_changes(chunks: list[str], backend: str) -> Callable[[], None]:
    """Feed with changes, as a UI applying them would."""

    def run() -> None:
        feed = jsondrip.Parser(backend=backend).feed_changes
        for chunk in chunks:
            feed(chunk)

    return run


def with_values(chunks: list[str], backend: str) -> Callable[[], None]:
    """Feed and read the whole value after every chunk."""

    def run() -> None:
        feed = jsondrip.Parser(backend=backend).feed
        for chunk in chunks:
            feed(chunk)

    return run


def best(run: Callable[[], None], repeats: int) -> float:
    """The best of `repeats` timings, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    """Print the ratio for each backend, pass or FAIL against 50x and linear growth."""
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--size", type=int, default=1_000_000)
    options.add_argument("--chunk", type=int, default=4)
    options.add_argument("--repeats", type=int, default=3)
    args = options.parse_args(argv)
    failed = False
    print(f"one string of {args.size} characters in {args.chunk}-character chunks")
    print("| backend | feed_changes | value after every chunk | ratio | changes, 2x size |")
    print("|---|---|---|---|---|")
    for backend in jsondrip.available_backends()[:2]:
        text = document(args.size)
        chunks = [text[i : i + args.chunk] for i in range(0, len(text), args.chunk)]
        text2 = document(2 * args.size)
        chunks2 = [text2[i : i + args.chunk] for i in range(0, len(text2), args.chunk)]
        changes = best(with_changes(chunks, backend), args.repeats)
        values = best(with_values(chunks, backend), max(1, args.repeats - 1))
        doubled = best(with_changes(chunks2, backend), args.repeats)
        ratio = values / changes
        growth = doubled / changes
        print(
            f"| {backend} | {changes * 1e3:.0f} ms | {values * 1e3:.0f} ms | {ratio:.1f}x "
            f"| {growth:.2f}x time |"
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
