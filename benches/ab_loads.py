"""Two native builds' `loads` against orjson, interleaved in one process, in fresh processes.

    python benches/ab_loads.py /path/to/other/jsondrip/_native.cpython-3xx-....so [--processes N]

The other build's extension module (a clone's `src/jsondrip/_native*.so` or its installed one,
built with the same profile as this one) is loaded beside this checkout's. In each of
`--processes` fresh processes, every document of the corpus (as bytes, then as str) is parsed
`--calls` times by each build's `loads_fast` and by `orjson.loads` in turn, `--rounds` times
(the order rotated every round); a process reports, per build, the median over the rounds of
its time over orjson's in the same round. The table gives the median of those over the
processes, with the lowest and highest: a change's before and after against the same
yardstick, with the memory layout of no single process deciding (see bench_loads.py). Exit
status 0 either way: a report, not a gate.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from bench_loads import CORPUS
from bench_loads import FILES as BENCH_FILES
from other_build import load_other

FILES = [name.removesuffix(".json") for name in BENCH_FILES]


def measure(other: str, names: list[str], rounds: int, calls: int) -> dict[str, list[float]]:
    """In this process: (file kind) -> [this build / orjson, other build / orjson]."""
    import orjson

    from jsondrip import _engine

    runs = {
        "this": _engine.native_loads,
        "other": load_other(other).loads_fast,
        "orjson": orjson.loads,
    }
    found: dict[str, list[float]] = {}
    for kind in ("bytes", "str"):
        for name in names:
            data = (CORPUS / "bench" / f"{name}.json").read_bytes()
            doc = data if kind == "bytes" else data.decode()
            ratios: dict[str, list[float]] = {"this": [], "other": []}
            order = list(runs.items())
            for turn in range(rounds):
                seconds = {}
                for label, run in order[turn % 3 :] + order[: turn % 3]:
                    start = time.perf_counter()
                    for _ in range(calls):
                        run(doc)
                    seconds[label] = time.perf_counter() - start
                for label in ratios:
                    ratios[label].append(seconds[label] / seconds["orjson"])
            found[f"{name} {kind}"] = [statistics.median(ratios[k]) for k in ("this", "other")]
    return found


def main() -> int:
    """Run the processes and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", help="the other build's _native*.so")
    parser.add_argument("--processes", type=int, default=3, help="fresh processes (3)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds per document (20)")
    parser.add_argument("--calls", type=int, default=3, help="calls per turn (3)")
    parser.add_argument("--files", default=",".join(FILES), help="comma-separated names")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = args.files.split(",")
    if args.worker:
        print(json.dumps(measure(args.other, names, args.rounds, args.calls)))
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    per_process = []
    for _ in range(args.processes):
        command = [sys.executable, __file__, args.other, "--worker", "--files", args.files]
        command += ["--rounds", str(args.rounds), "--calls", str(args.calls)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        per_process.append(json.loads(done.stdout))
    print(
        f"time / orjson's, median over {args.processes} fresh processes of each one's median"
        f" over {args.rounds} rounds (lowest-highest); load average {load:.2f} at the start\n"
    )
    print("| document | input | this build | other build |")
    print("|---|---|---:|---:|")
    for key in per_process[0]:
        name, kind = key.split()
        cells = []
        for index in (0, 1):
            values = [found[key][index] for found in per_process]
            cells.append(f"{statistics.median(values):.3f} ({min(values):.2f}-{max(values):.2f})")
        print(f"| {name}.json | {kind} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
