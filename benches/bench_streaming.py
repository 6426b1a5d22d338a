"""Streaming targets: jsondrip against jsonriver, jiter re-parsing and the str-copy floor.

    python benches/bench_streaming.py [--quick] [--json out.json] [--budget S] [--repeats N]

A preset of `jsondrip bench` (``src/jsondrip/bench``): its contenders, its seeded workloads and
its timing (best of N with the collector off; a pilot first, and a contender predicted past its
budget is sampled or projected, marked ``~``, or skipped, and says so). This script picks the
four cases below, times in alternation the runs that a target compares with each other, checks
every final value against ``json.loads`` type for type, and prints the TARGETS, each marked
pass or FAIL. The exit status is 0 even when a target fails: this is a report, not a gate.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from functools import partial
from typing import Any

from jsondrip.bench.contenders import StreamContender, streaming_contenders
from jsondrip.bench.correctness import final_status
from jsondrip.bench.targets import Target, verdict_line
from jsondrip.bench.timing import growth, measure_interleaved, measure_stream
from jsondrip.bench.workloads import KB, chunks, code_text, records_text, small_text

# key: (title, document, characters per chunk)
WORKLOADS: dict[str, tuple[str, Any, int]] = {
    "records": ("records 100 KB", lambda: records_text(100 * KB), 4),
    "code": ("one long string 100 KB", lambda: code_text(100 * KB), 4),
    "small": ("small call", small_text, 1),
    "records2x": ("records 200 KB", lambda: records_text(200 * KB), 4),
}
NATIVE, PYTHON, FLOOR = "jsondrip-native", "jsondrip-python", "copy-floor"
# contenders timed on each workload; the ones in INTERLEAVED are timed in alternation
PLAN: dict[str, tuple[str, ...]] = {
    "records": (NATIVE, PYTHON, "jsonriver", "jiter"),
    "code": (NATIVE, PYTHON, "jsonriver", "jiter", FLOOR, "copy-floor-decoded"),
    "small": (NATIVE, PYTHON, "jsonriver", "jiter"),
    "records2x": (NATIVE, PYTHON),
}
INTERLEAVED = {"code": (NATIVE, PYTHON, FLOOR, "copy-floor-decoded"), "records2x": (NATIVE, PYTHON)}

# (target, workload, numerator, denominator): speed-ups put the slower contender on top
TARGETS: tuple[tuple[Target, str, str, str], ...] = (
    (
        Target(
            "records: jsonriver / native",
            "how much faster than the other incremental parser jsondrip reads small records",
            lo=25,
        ),
        "records",
        "jsonriver",
        NATIVE,
    ),
    (
        Target(
            "records: jiter re-parse / native",
            "the SDKs' way (re-parse the buffer at every chunk) against reading each chunk once",
            lo=1000,
        ),
        "records",
        "jiter",
        NATIVE,
    ),
    (
        Target(
            "small call: jsonriver / native",
            "per-chunk overhead on a 75-byte call fed a character at a time",
            lo=20,
        ),
        "small",
        "jsonriver",
        NATIVE,
    ),
    (
        Target(
            "long string: native / copy floor",
            "a growing string shown after every chunk costs no more than copying it once",
            hi=1.3,
        ),
        "code",
        NATIVE,
        FLOOR,
    ),
    (
        Target(
            "long string: python / copy floor",
            "the same for the Python twin: growth in place, not a copy per chunk",
            hi=1.3,
        ),
        "code",
        PYTHON,
        FLOOR,
    ),
    (
        Target(
            "records: jsonriver / python twin",
            "the stdlib-only twin is no slower than a pure-Python peer",
            lo=1,
        ),
        "records",
        "jsonriver",
        PYTHON,
    ),
)
DOUBLING = Target(
    "records: 200 KB / 100 KB",
    "twice the document costs twice the time: linear, not quadratic (the median of rounds"
    " timing both sizes in turn)",
    lo=1.6,
    hi=2.4,
)


def copy_floor(chunks: list[str]) -> Any:
    """The least a reader of a growing Python str pays: one copy of the text per chunk."""
    d = {"content": ""}
    for chunk in chunks:
        d["content"] = d["content"] + chunk
    return d


def content_pieces(text: str, size: int, key: str = "content") -> list[str]:
    """What the decoded ``key`` string gains with each ``size``-character chunk of ``text``
    (an escape counts once its last character is in): a stricter floor, for information."""
    value = json.loads(text)[key]
    marker = json.dumps(key) + ": "
    start = text.index(marker) + len(marker) + 1
    decoded_at = [0] * (len(text) + 1)
    count, i = 0, start
    while text[i] != '"':
        step = (6 if text[i + 1] == "u" else 2) if text[i] == "\\" else 1
        for j in range(i + 1, i + step):
            decoded_at[j] = count
        count += 1
        i += step
        decoded_at[i] = count
    for j in range(i, len(text) + 1):
        decoded_at[j] = count
    if count != len(value):
        raise ValueError("content_pieces handles strings without surrogate pairs only")
    pieces, prev = [], 0
    for end in range(size, len(text) + size, size):
        now = decoded_at[min(end, len(text))]
        pieces.append(value[prev:now])
        prev = now
    return pieces


def contenders() -> dict[str, StreamContender]:
    """The package's streaming contenders, plus the two copy floors."""
    found = {c.name: c for c in streaming_contenders()}
    for name in (FLOOR, "copy-floor-decoded"):
        api = 'd["content"] = d["content"] + piece'
        found[name] = StreamContender(name, name, api, True, copy_floor)
    return found


def _final(contender: StreamContender, pieces: list[str], text: str) -> Any:
    return contender.read(text) if contender.read is not None else contender.run(pieces)


def run_all(repeats: int, budget: float, min_time: float) -> dict[str, dict[str, Any]]:
    """results[workload][contender] = {"seconds", "note", "check"} (and "base" for 2x)."""
    found = contenders()
    texts = {key: make() for key, (_, make, _) in WORKLOADS.items()}
    results: dict[str, dict[str, Any]] = {}
    for key, (title, _, size) in WORKLOADS.items():
        text, expected = texts[key], json.loads(texts[key])
        pieces = chunks(text, size)
        row: dict[str, Any] = {}
        together: dict[str, dict[str, Any]] = {}
        if key in INTERLEAVED:
            together = _interleaved(key, found, texts, max(repeats, 5), min_time)
        for name in PLAN[key]:
            contender = found[name]
            if name in together:
                cell = together[name]
            else:
                timing = measure_stream(contender, pieces, repeats, budget, min_time)
                approx = timing.status == "extrapolated"
                note = timing.note
                if timing.status not in ("measured", "extrapolated"):  # skipped, missing, error
                    note = f"{timing.status}: {timing.note}" if timing.note else timing.status
                cell = {"seconds": timing.seconds, "approx": approx, "note": note}
            if name.startswith("copy-floor"):
                cell["check"] = "floor"
            elif contender.missing or cell["seconds"] is None:
                cell["check"] = "-"
            else:
                cell["check"] = final_status(_final(contender, pieces, text), expected)[0]
            row[name] = cell
            shown = _fmt(cell)
            line = f"  {title:23} {name:20} {shown:>12}  {cell['check']}  {cell['note']}"
            print(line, file=sys.stderr, flush=True)
        results[key] = row
    return results


def _interleaved(
    key: str, found: dict[str, StreamContender], texts: dict[str, str], rounds: int, mt: float
) -> dict[str, dict[str, Any]]:
    """The workload's INTERLEAVED contenders, timed in alternation (2x: each beside its 1x)."""
    size = WORKLOADS[key][2]
    items, labels = [], []
    doubling: dict[str, float] = {}
    for name in INTERLEAVED[key]:
        if found[name].missing:
            continue
        if name == "copy-floor-decoded":
            items.append((found[name].run, content_pieces(texts[key], size)))
            labels.append(name)
        elif key == "records2x":
            run, base, double = (
                found[name].run,
                chunks(texts["records"], size),
                chunks(texts[key], size),
            )
            items += [(run, base), (run, double)]
            labels += [f"base:{name}", name]
            doubling[name] = growth(partial(run, base), partial(run, double), rounds)
        else:
            items.append((found[name].run, chunks(texts[key], size)))
            labels.append(name)
    seconds = measure_interleaved(items, rounds, mt)
    out = {label: {"seconds": s, "approx": False, "note": ""} for label, s in zip(labels, seconds)}
    for name in INTERLEAVED[key]:
        base = out.pop(f"base:{name}", None)
        if base is not None and name in out:
            out[name]["base"] = base["seconds"]
            out[name]["doubling"] = doubling[name]
            out[name]["note"] = f"interleaved with 100 KB runs ({_fmt(base)} there)"
        elif name not in out:
            out[name] = {"seconds": None, "approx": False, "note": found[name].missing or ""}
    return out


def ratios(results: dict[str, dict[str, Any]]) -> list[tuple[Target, float | None, str]]:
    """Each target with its value from this run (None when a contender has no time)."""
    out = []
    for target, key, num, den in TARGETS:
        a, b = results[key].get(num, {}), results[key].get(den, {})
        value = a["seconds"] / b["seconds"] if a.get("seconds") and b.get("seconds") else None
        note = "extrapolated" if a.get("approx") or b.get("approx") else ""
        if value is not None and a.get("check") not in ("exact", "floor"):
            note = f"{num} final value: {a.get('check')}"
        out.append((target, value, note))
    for name in INTERLEAVED["records2x"]:
        cell = results["records2x"].get(name, {})
        value = cell.get("doubling")
        out.append((_renamed(DOUBLING, f"{DOUBLING.name}, {name}"), value, ""))
    return out


def _renamed(target: Target, name: str) -> Target:
    return Target(name, target.measures, target.lo, target.hi)


def _fmt(cell: dict[str, Any]) -> str:
    s = cell["seconds"]
    if s is None:
        return "-"
    text = f"{s:.3f} s" if s >= 1 else f"{s * 1e3:.3f} ms" if s >= 1e-3 else f"{s * 1e6:.1f} us"
    return ("~" + text) if cell.get("approx") else text


def markdown(results: dict[str, dict[str, Any]], rs: list[tuple[Target, float | None, str]]) -> str:
    """One table of times (with each final value's check), then the targets' verdicts."""
    names: list[str] = []
    for key in results:
        names += [n for n in PLAN[key] if n not in names]
    head = " | ".join(WORKLOADS[key][0] for key in results)
    lines = [f"| contender | {head} |", "|---" * (len(results) + 1) + "|"]
    notes: list[str] = []
    for name in names:
        cells = []
        for key, row in results.items():
            cell = row.get(name)
            if cell is None:
                cells.append("")
                continue
            text = f"{_fmt(cell)} ({cell['check']})" if cell["seconds"] is not None else "-"
            if cell["note"]:
                notes.append(f"{name}, {WORKLOADS[key][0]}: {cell['note']}")
                text += f" [{len(notes)}]"
            cells.append(text)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += [""] + [f"[{i}] {n}" for i, n in enumerate(notes, 1)] + ["", "Targets:", ""]
    lines += [verdict_line(target, value, note) for target, value, note in rs]
    return "\n".join(lines)


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # not available on this platform
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run everything once, print the report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 repeats, 5 s budget per contender")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    ap.add_argument("--repeats", type=int, help="best of N full runs (default 7, quick 3)")
    ap.add_argument("--budget", type=float, help="seconds per contender per workload (default 20)")
    args = ap.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 7)
    budget = args.budget or (5.0 if args.quick else 20.0)
    min_time = 0.02 if args.quick else 0.1
    before = _load()
    print(f"measuring (load average {before}) ...", file=sys.stderr)
    results = run_all(repeats, budget, min_time)
    rs = ratios(results)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, best of {repeats}, "
        f"budget {budget:g} s per contender and workload, load average before {before}, "
        f"after {_load()}\n"
    )
    print(markdown(results, rs))
    if args.json:
        report = {"python": sys.version, "args": vars(args), "results": results}
        report["targets"] = [
            {"name": t.name, "measures": t.measures, "band": t.band, "value": v, "note": n}
            for t, v, n in rs
        ]
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
