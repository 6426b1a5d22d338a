"""The native rows on several interpreters: each one's time beside the first interpreter's.

    python benches/bench_versions.py PYTHON [PYTHON...] [--rounds N] [--quick]

Each PYTHON is an interpreter (or a command, quoted: `".ci/sid-chroot run /opt/venv/bin/python"`)
with jsondrip (its release build), orjson and the corpus at hand. This script runs itself in
each, round after round in alternation so that every interpreter sees the same machine load,
and keeps each row's best: the native streaming rows of `bench_streaming.py` (a preview read
after every chunk) and `loads` of the corpus documents, beside `json.loads` and `orjson.loads`
on the same interpreter. It prints each row's time as a multiple of the first interpreter's:
a row of jsondrip that moves with json's and orjson's row moves with the interpreter (its
object allocation), not with jsondrip. A report, not a gate: exit 0.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import subprocess
import sys
from pathlib import Path

DOCS = ("twitter", "citm_catalog", "canada", "github_events", "numbers")


def measure(quick: bool) -> dict[str, float]:
    """This interpreter's best seconds per call of each row (run in the child)."""
    import orjson

    import jsondrip
    from jsondrip.bench.timing import best_time
    from jsondrip.bench.workloads import KB, chunks, code_text, records_text, small_text

    repeats, min_time = (3, 0.02) if quick else (9, 0.05)

    def stream(pieces: list[str]) -> None:
        parser = jsondrip.Parser(backend="native")
        for piece in pieces:
            parser.feed(piece)
        parser.close()

    rows = {
        "stream records 100 KB": chunks(records_text(100 * KB), 4),
        "stream one long string 100 KB": chunks(code_text(100 * KB), 4),
        "stream small call": chunks(small_text(), 1),
    }
    out = {
        name: best_time(stream, pieces, repeats, 10.0, min_time)[0] for name, pieces in rows.items()
    }
    corpus = Path(
        os.environ.get("JSONDRIP_CORPUS", Path(__file__).parents[2] / "shared" / "corpus")
    )
    for doc in DOCS:
        data = (corpus / "bench" / f"{doc}.json").read_bytes()
        for who, loads in (
            ("jsondrip", jsondrip.loads),
            ("json", json.loads),
            ("orjson", orjson.loads),
        ):
            # GC on while timed, as bench_loads.py: programs run with it
            out[f"loads {doc}: {who}"] = best_time(loads, data, repeats, 10.0, min_time)[0]
    return out


def main() -> None:
    """Runs the rounds and prints the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pythons", nargs="*", help="interpreters (or quoted commands) to compare")
    ap.add_argument("--rounds", type=int, default=3, help="rounds in alternation (default 3)")
    ap.add_argument("--quick", action="store_true", help="best of 3, 0.02 s measurements")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps({"python": sys.version.split()[0], "rows": measure(args.quick)}))
        return
    if not args.pythons:
        ap.error("name at least one interpreter")
    best: dict[str, dict[str, float]] = {}
    names: list[str] = []
    for _ in range(args.rounds):
        for python in args.pythons:
            command = [*shlex.split(python), __file__, "--child"] + ["--quick"] * args.quick
            answer = json.loads(subprocess.run(command, capture_output=True, check=True).stdout)
            name = answer["python"]
            if name not in best:
                names.append(name)
            rows = best.setdefault(name, {})
            for row, seconds in answer["rows"].items():
                rows[row] = min(seconds, rows.get(row, math.inf))
    base = names[0]
    print(f"best of {args.rounds} rounds in alternation; time as a multiple of {base}'s\n")
    print("| row | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for row in best[base]:
        cells = [
            f"{best[name][row] * 1e3:.3g} ms ({best[name][row] / best[base][row]:.2f}x)"
            for name in names
        ]
        print(f"| {row} | " + " | ".join(cells) + " |")
    for who in ("jsondrip", "json", "orjson"):
        rows = [row for row in best[base] if row.endswith(f": {who}")]
        means = [
            math.exp(sum(math.log(best[n][r] / best[base][r]) for r in rows) / len(rows))
            for n in names
        ]
        print(f"| loads geometric mean: {who} | " + " | ".join(f"{m:.2f}x" for m in means) + " |")


if __name__ == "__main__":
    main()
