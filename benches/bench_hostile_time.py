"""Hostile shapes fed one byte at a time: does the cost stay linear?

    python benches/bench_hostile_time.py [--backend native|python] [--mode stable|jiter]
                                         [--shape NAME] [--size N]

Each adversarial document is built at size N and 2N and fed in 1-byte chunks, then closed; the
figure is the best of 3 CPU times at 2N over the best at N: about 2 when the cost is linear, 4
when it is quadratic. A ratio of 3 or more (the target LINEAR) is marked FAIL and makes the exit
status 1, so the script can gate a change; it is a benchmark, not a test, because it times (the
test suite never does). N defaults to 100,000 bytes on the native backend and 20,000 on the
python one, which is about ten times slower per byte.

The interpreter's cyclic garbage collector is paused while timing: its full collections over a
large live value (a 200,000-deep list) cost the interpreter, not the parser, and are not linear
in CPython 3.11 (ratio 3.3 for `deep` on the native backend with it, 2.1 without)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable

from jsondrip import Parser, available_backends
from jsondrip.bench.targets import Target
from jsondrip.bench.timing import clock

SHAPES: dict[str, Callable[[int], str]] = {
    "quote-heavy": lambda n: "[" + '"", "\\"", ' * (n // 10) + '""]',
    "escape-heavy": lambda n: "[" + '"\\"\\\\\\n\\u00e9\\ud83d\\ude00", ' * (n // 30) + '""]',
    "long-string": lambda n: '["' + "abc\\n" * (n // 5) + '"]',
    "deep": lambda n: "[" * (n // 2) + "]" * (n // 2),
    "deep-objects": lambda n: '{"a":' * (n // 6) + "1" + "}" * (n // 6),
    "wide-object": lambda n: "{" + ", ".join(f'"k{i}": {i}' for i in range(n // 12)) + "}",
    "wide-array": lambda n: "[" + "0, " * (n // 3) + "0]",
    "duplicate-keys": lambda n: "{" + '"a": [1], ' * (n // 10) + '"a": 2}',
    "whitespace": lambda n: "[" + " \n\t\r" * (n // 4) + "]",
    "long-float": lambda n: "[0." + "1" * n + "]",
    "long-exponent": lambda n: "[1e" + "0" * n + "1]",
}
LINEAR = Target(
    "t(2N) / t(N)",
    "twice the hostile document costs about twice the time, never four times (quadratic)",
    hi=2.99,
)


def feed_bytewise(backend: str, mode: str, doc: bytes) -> float:
    """CPU seconds to feed `doc` a byte at a time and close (CPU time, not wall time: the
    machine's other load then moves the ratio less)."""
    parser = Parser(backend=backend, mode=mode, max_depth=len(doc))
    chunks = [doc[i : i + 1] for i in range(len(doc))]

    def run(_: None) -> None:
        feed = parser.feed
        for chunk in chunks:
            feed(chunk)
        parser.close()

    return clock(run, None, timer=time.process_time)


def ratio(backend: str, mode: str, shape: str, n: int) -> tuple[float, float]:
    """(best seconds at N, best time at 2N over best time at N)."""
    small, large = (SHAPES[shape](size).encode() for size in (n, 2 * n))
    best_small = min(feed_bytewise(backend, mode, small) for _ in range(3))
    best_large = min(feed_bytewise(backend, mode, large) for _ in range(3))
    return best_small, best_large / best_small


def main(argv: list[str] | None = None) -> int:
    """Print one line per backend, mode and shape; exit 1 if any ratio reaches the limit."""
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--backend", choices=("native", "python"), action="append")
    options.add_argument("--mode", choices=("stable", "jiter"), action="append")
    options.add_argument("--shape", choices=list(SHAPES), action="append")
    options.add_argument("--size", type=int, help="N in bytes (default: per backend)")
    args = options.parse_args(argv)
    backends = [b for b in args.backend or ("native", "python") if b in available_backends()]
    failed = False
    print(f"{'backend':8} {'mode':7} {'shape':15} {'N':>8} {'t(N) s':>8} {'t(2N)/t(N)':>11}")
    for backend in backends:
        n = args.size or (100_000 if backend == "native" else 20_000)
        for mode in args.mode or ("stable", "jiter"):
            for shape in args.shape or SHAPES:
                seconds, growth = ratio(backend, mode, shape, n)
                verdict = "ok" if LINEAR.met(growth) else "FAIL"
                failed |= verdict == "FAIL"
                print(
                    f"{backend:8} {mode:7} {shape:15} {n:>8} {seconds:>8.3f} {growth:>11.2f}"
                    f"  {verdict}",
                    flush=True,
                )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
