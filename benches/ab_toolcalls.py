"""Two builds of jsondrip on `bench_toolcalls.py`'s records measurement, in alternation.

    python benches/ab_toolcalls.py before=/path/to/clone-a after=/path/to/clone-b

Each NAME=DIR is a clone with its own `.venv` holding a release build (`pip install
".[bench]"`). Each round runs every build in turn, a process each, and each process times
jsondrip, jiter re-parsing and the orjson floor `--repeats` times per format (as
`bench_toolcalls.py` does); the table keeps each contender's best over all rounds. Alternating
whole processes makes a load spike on a shared machine hit both builds alike, where two runs
one after the other would not. `--round` is the process's own entry point.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

FORMATS = ("anthropic", "openai-chat", "gemini", "bedrock", "bedrock-lines")
CONTENDERS = ("ours", "jiter", "floor")


def one_round(repeats: int, formats: list[str]) -> dict[str, dict[str, float]]:
    """Best times of the three contenders per format, in this process's jsondrip."""
    sys.path.insert(0, str(Path.cwd() / "benches"))
    import bench_toolcalls as bench

    out: dict[str, dict[str, float]] = {}
    for fmt in formats:
        stream = bench.Stream(fmt, bench.records_argument())
        runs = {
            "ours": lambda s=stream: bench.run_jsondrip(s),
            "jiter": lambda s=stream: bench.run_jiter(s.fragments),
            "floor": lambda s=stream: bench.run_floor(s.payloads),
        }
        times = dict.fromkeys(runs, float("inf"))
        for _ in range(repeats):
            for key, run in runs.items():
                times[key] = min(times[key], bench.best(run, 1)[0])
        out[fmt] = {**times, "events": len(stream.payloads)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="*", help="NAME=DIR, two or more")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--format", nargs="*", default=list(FORMATS), choices=FORMATS)
    parser.add_argument("--round", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.round:
        print(json.dumps(one_round(args.repeats, args.format)))
        return 0
    builds = [b.split("=", 1) for b in args.builds]
    if len(builds) < 2 or any(len(b) != 2 for b in builds):
        parser.error("give two or more builds as NAME=DIR")
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for _ in range(args.rounds):
        for name, folder in builds:
            command = [f"{folder}/.venv/bin/python", str(Path(__file__).resolve()), "--round"]
            command += ["--repeats", str(args.repeats), "--format", *args.format]
            done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=True)
            for fmt, times in json.loads(done.stdout).items():
                kept = best.setdefault((name, fmt), dict(times))
                for key in CONTENDERS:
                    kept[key] = min(kept[key], times[key])
    names = [name for name, _ in builds]
    print("| format | events | " + " | ".join(names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    for fmt in args.format:
        cells = []
        for name in names:
            t = best[(name, fmt)]
            cells.append(
                f"{t['ours'] * 1e3:.1f} ms, jiter/jsondrip {t['jiter'] / t['ours']:.0f}x, "
                f"jsondrip/floor {t['ours'] / t['floor']:.2f}x"
            )
        print(f"| {fmt} | {best[(names[0], fmt)]['events']} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
