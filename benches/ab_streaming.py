"""Two builds of jsondrip on `bench_streaming.py`'s `Parser.feed` workloads, in alternation.

    python benches/ab_streaming.py before=/path/to/clone-a after=/path/to/clone-b

Each NAME=DIR is a clone with its own `.venv` holding a release build (`pip install
".[bench]"`), as for `ab_toolcalls.py`. Each round runs every build in turn, a process each;
each process times, in alternation (`jsondrip.bench.timing.measure_interleaved`), a
`Parser(backend=...)` fed every chunk of each workload on both backends, and a bare builtin
call per chunk (`len(chunk)`, the floor of any per-chunk call). The table keeps each run's
best over all rounds, and the time per `feed` call; the "feed / len" column is what #28 bounds
(one feed of 4 characters at most 3x a bare builtin call). `--schema` adds the records
workload read against its schema (`jsondrip.bench.schema.DOCUMENT_SCHEMA`) with `progress()`
after every chunk, as `bench_schema.py` reads it. `--round` is the process's own entry point.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

# key: (title, characters per chunk)
WORKLOADS = {
    "records": ("records 100 KB", 4),
    "small": ("small call", 1),
    "code": ("long string", 4),
}
TYPED = {"typed": ("records 100 KB, schema + progress()", 4)}
RUNS = ("native", "python", "len")


def one_round(repeats: int, schema: bool = False) -> dict[str, dict[str, float]]:
    """Best seconds of each run per workload, in this process's jsondrip."""
    import jsondrip
    from jsondrip.bench.timing import measure_interleaved
    from jsondrip.bench.workloads import KB, chunks, code_text, records_text, small_text

    texts = {"records": records_text(100 * KB), "small": small_text(), "code": code_text(100 * KB)}
    workloads = dict(WORKLOADS)
    if schema:
        texts["typed"] = texts["records"]
        workloads.update(TYPED)

    def feeder(backend: str, key: str) -> Any:
        if key == "typed":
            from jsondrip.bench.schema import DOCUMENT_SCHEMA

            typed = jsondrip.Schema(DOCUMENT_SCHEMA)

            def run_typed(pieces: list[str]) -> Any:
                parser = jsondrip.Parser(schema=typed, backend=backend)
                feed, progress = parser.feed, parser.progress
                for piece in pieces:
                    feed(piece)
                    progress("/records")

            return run_typed

        def run(pieces: list[str]) -> Any:
            feed = jsondrip.Parser(backend=backend).feed
            for piece in pieces:
                feed(piece)

        return run

    def bare(pieces: list[str]) -> Any:
        for piece in pieces:
            len(piece)

    out: dict[str, dict[str, float]] = {}
    for key, (_, size) in workloads.items():
        pieces = chunks(texts[key], size)
        items = [(feeder("native", key), pieces), (feeder("python", key), pieces), (bare, pieces)]
        times = measure_interleaved(items, repeats, 0.05)
        out[key] = {name: t for name, t in zip(RUNS, times)}
        out[key]["chunks"] = len(pieces)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="*", help="NAME=DIR, two or more")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--schema", action="store_true", help="add the typed records workload")
    parser.add_argument("--round", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.round:
        print(json.dumps(one_round(args.repeats, args.schema)))
        return 0
    builds = [b.split("=", 1) for b in args.builds]
    if len(builds) < 2 or any(len(b) != 2 for b in builds):
        parser.error("give two or more builds as NAME=DIR")
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for _ in range(args.rounds):
        for name, folder in builds:
            command = [f"{folder}/.venv/bin/python", str(Path(__file__).resolve()), "--round"]
            command += ["--repeats", str(args.repeats)] + ["--schema"] * args.schema
            done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=True)
            for key, times in json.loads(done.stdout).items():
                kept = best.setdefault((name, key), dict(times))
                for run in RUNS:
                    kept[run] = min(kept[run], times[run])
    names = [name for name, _ in builds]
    print("| workload | chunks | " + " | ".join(names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    workloads = {**WORKLOADS, **(TYPED if args.schema else {})}
    for key, (title, size) in workloads.items():
        cells = []
        for name in names:
            t = best[(name, key)]
            per = t["native"] / t["chunks"] * 1e9
            cells.append(
                f"native {t['native'] * 1e3:.2f} ms ({per:.0f} ns/feed, feed / len "
                f"{t['native'] / t['len']:.1f}x), python {t['python'] * 1e3:.1f} ms"
            )
        chunk_count = best[(names[0], key)]["chunks"]
        print(f"| {title}, {size}-char chunks | {chunk_count} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
