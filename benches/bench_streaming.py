"""Streaming benchmark: jsondrip against jsonriver, jiter re-parsing and the str-copy floor.

    python benches/bench_streaming.py [--quick] [--json out.json] [--budget S] [--repeats N]

Every contender reads the value after every chunk of every workload (see ``workloads.py``),
in one run; the script prints a Markdown table of times, the final-value check against
``json.loads``, and the ratios the issue sets as targets, each marked pass or fail.
The exit status is 0 even when a target fails: this is a report, not a gate.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from dataclasses import dataclass
from typing import Any

import contenders as c
import workloads as w
from timing import Timing, check, measure, measure_interleaved

# contenders measured on each workload; any other cell says why it was not run
PLAN: dict[str, tuple[str, ...]] = {
    "records": (
        "jsondrip-native",
        "jsondrip-python",
        "jsonriver",
        "jsonriver-asyncio",
        "jiter-reparse",
    ),
    "code": (
        "jsondrip-native",
        "jsondrip-python",
        "jsonriver",
        "jsonriver-asyncio",
        "jiter-reparse",
        "copy-floor",
        "copy-floor-decoded",
    ),
    "small": (
        "jsondrip-native",
        "jsondrip-python",
        "jsonriver",
        "jsonriver-asyncio",
        "jiter-reparse",
    ),
    "records2x": ("jsondrip-native", "jsondrip-python", "jsonriver"),
}
NOT_RUN = "not run (no target needs it)"
# timed in alternation (A B C A B C ...) because a target compares them with each other
INTERLEAVED = {
    "code": ("jsondrip-native", "jsondrip-python", "copy-floor", "copy-floor-decoded"),
    "records2x": ("jsondrip-native", "jsondrip-python"),  # each paired with its 100 KB run
}


@dataclass
class Ratio:
    """One target of the issue: ``value`` compared with ``target`` (``at_least`` or at most)."""

    label: str
    value: float | None
    target: str
    ok: bool | None
    note: str = ""


def _contenders() -> dict[str, c.Contender]:
    found = {x.name: x for x in c.all_contenders()}
    found["copy-floor-decoded"] = c.Contender("copy-floor-decoded", c.copy_floor)
    return found


def _status(name: str, timing: Timing, expected: Any) -> str:
    if name == "copy-floor":
        return "floor (raw chunks)"
    if name == "copy-floor-decoded":
        return "floor (decoded pieces)"
    return check(timing, expected)


def _interleaved(
    key: str,
    docs: dict[str, w.Workload],
    contenders: dict[str, c.Contender],
    rounds: int,
    min_time: float,
) -> dict[str, Timing]:
    """The workload's INTERLEAVED contenders, timed in alternation."""
    workload = docs[key]
    items: list[tuple[c.Contender, list[str]]] = []
    for name in INTERLEAVED[key]:
        if name == "copy-floor-decoded":
            items.append((contenders[name], w.content_pieces(workload.text, workload.chunk_size)))
        elif key == "records2x":
            items += [
                (contenders[name], docs["records"].chunks),
                (contenders[name], workload.chunks),
            ]
        else:
            items.append((contenders[name], workload.chunks))
    timings = measure_interleaved(items, rounds, min_time)
    if key != "records2x":
        return dict(zip(INTERLEAVED[key], timings))
    out = {}
    for i, name in enumerate(INTERLEAVED[key]):
        base, out[name] = timings[2 * i], timings[2 * i + 1]
        out[f"_base:{name}"] = base
        if base.seconds is not None:
            out[name].note = f"interleaved with 100 KB runs (best {_fmt_time(base)} there)"
    return out


def run_all(repeats: int, budget: float, min_time: float) -> dict[str, dict[str, Any]]:
    """Measure every planned contender on every workload; returns results[workload][contender]."""
    contenders = _contenders()
    results: dict[str, dict[str, Any]] = {}
    docs = w.standard()
    for key, workload in docs.items():
        expected = json.loads(workload.text)
        chunks = workload.chunks
        row: dict[str, Any] = {"_workload": workload, "_chunks": len(chunks)}
        together: dict[str, Timing] = {}
        if key in INTERLEAVED:
            together = _interleaved(key, docs, contenders, max(repeats, 5), min_time)
            row["_base"] = {k[6:]: v for k, v in together.items() if k.startswith("_base:")}
        for name in PLAN[key]:
            if name in together:
                timing = together[name]
            else:
                timing = measure(contenders[name], chunks, repeats, budget, min_time)
            status = _status(name, timing, expected)
            if name == "jsonriver" and not timing.note.startswith("not installed"):
                timing.note = (timing.note + "; " if timing.note else "") + (
                    f"{c.jsonriver_yields(chunks)} yields for {len(chunks)} chunks"
                )
            row[name] = (timing, status)
            print(
                f"  {workload.name:15} {name:20} {_fmt_time(timing):>12}  {status}",
                timing.note,
                file=sys.stderr,
                flush=True,
            )
        results[key] = row
    return results


def _timing(results: dict[str, dict[str, Any]], key: str, name: str) -> Timing | None:
    cell = results.get(key, {}).get(name)
    return cell[0] if cell and cell[0].seconds is not None else None


def _ratio(label: str, num: Timing | None, den: Timing | None, lo: float, hi: float) -> Ratio:
    """``num / den`` against the band ``lo .. hi`` (``lo`` 0: at most; ``hi`` inf: at least)."""
    target = f">= {lo:g}x" if hi == INF else f"<= {hi:g}x" if lo <= 0 else f"{lo:g}x .. {hi:g}x"
    if num is None or den is None or not num.seconds or not den.seconds:
        return Ratio(label, None, target, None, "a contender has no time")
    value = num.seconds / den.seconds
    note = "extrapolated" if num.extrapolated or den.extrapolated else ""
    return Ratio(label, value, target, lo <= value <= hi, note)


INF = float("inf")
# (label, workload, numerator, denominator, lo, hi): speed-ups put the slower peer on top
TARGETS = (
    ("records: jsonriver / native", "records", "jsonriver", "jsondrip-native", 25, INF),
    ("records: jiter re-parse / native", "records", "jiter-reparse", "jsondrip-native", 1000, INF),
    ("small: jsonriver / native", "small", "jsonriver", "jsondrip-native", 20, INF),
    ("code: native / copy floor", "code", "jsondrip-native", "copy-floor", 0, 1.3),
    ("code: python / copy floor", "code", "jsondrip-python", "copy-floor", 0, 1.3),
    ("records: jsonriver / python", "records", "jsonriver", "jsondrip-python", 1, INF),
)
INFO = (
    (
        "(info) code: native / decoded-piece floor",
        "code",
        "jsondrip-native",
        "copy-floor-decoded",
        0,
        1.3,
    ),
    (
        "(info) code: python / decoded-piece floor",
        "code",
        "jsondrip-python",
        "copy-floor-decoded",
        0,
        1.3,
    ),
    (
        "(info) records: jsonriver-asyncio / native",
        "records",
        "jsonriver-asyncio",
        "jsondrip-native",
        25,
        INF,
    ),
    (
        "(info) small: jsonriver-asyncio / native",
        "small",
        "jsonriver-asyncio",
        "jsondrip-native",
        20,
        INF,
    ),
)


def ratios(results: dict[str, dict[str, Any]]) -> list[Ratio]:
    """The issue's targets (then informational ones), computed from one run's results."""
    out = [
        _ratio(label, _timing(results, key, num), _timing(results, key, den), lo, hi)
        for label, key, num, den, lo, hi in TARGETS
    ]
    twin = out[-1]
    if results.get("records", {}).get("jsondrip-python", (None, "-"))[1] != "exact":
        twin.ok = False if twin.ok is not None else None
        twin.note = (twin.note + "; " if twin.note else "") + "python value not exact"
    bases = results.get("records2x", {}).get("_base", {})
    for name in INTERLEAVED["records2x"]:
        t100, t200 = bases.get(name), _timing(results, "records2x", name)
        label = f"records: 200 KB / 100 KB, {name.split('-')[1]} (interleaved)"
        out.append(_ratio(label, t200, t100, 1.6, 2.4))
    out += [
        _ratio(label, _timing(results, key, num), _timing(results, key, den), lo, hi)
        for label, key, num, den, lo, hi in INFO
    ]
    return out


def _fmt_time(t: Timing) -> str:
    if t.seconds is None:
        return "-"
    s = t.seconds
    text = f"{s:.3f} s" if s >= 1 else f"{s * 1e3:.3f} ms" if s >= 1e-3 else f"{s * 1e6:.1f} us"
    return ("~" + text) if t.extrapolated else text


def markdown(results: dict[str, dict[str, Any]], rs: list[Ratio]) -> str:
    """The report: one table of times, one of ratios."""
    keys = list(results)
    names: list[str] = []
    for key in keys:
        names += [n for n in PLAN[key] if n not in names]
    head = [
        f"{results[k]['_workload'].name} ({results[k]['_workload'].nbytes} B, "
        f"{results[k]['_chunks']} chunks)"
        for k in keys
    ]
    lines = ["| contender | " + " | ".join(head) + " |", "|---" * (len(keys) + 1) + "|"]
    notes: list[str] = []
    for name in names:
        cells = []
        for key in keys:
            cell = results[key].get(name)
            if cell is None:
                cells.append(NOT_RUN)
                continue
            timing, status = cell
            text = _fmt_time(timing) if timing.seconds is not None else timing.note
            text += f" ({status})" if timing.seconds is not None else ""
            if timing.note and timing.seconds is not None:
                notes.append(f"{name} on {results[key]['_workload'].name}: {timing.note}")
                text += f" [{len(notes)}]"
            cells.append(text)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += [""] + [f"[{i}] {n}" for i, n in enumerate(notes, 1)]
    lines += ["", "| ratio | value | target | result |", "|---|---|---|---|"]
    for r in rs:
        value = "-" if r.value is None else f"{r.value:.2f}x"
        if r.note == "extrapolated":
            value = "~" + value
        verdict = "n/a" if r.ok is None else ("pass" if r.ok else "FAIL")
        if r.label.startswith("(info)"):
            verdict = f"({verdict})"
        note = f" ({r.note})" if r.note and r.note != "extrapolated" else ""
        lines.append(f"| {r.label} | {value} | {r.target} | {verdict}{note} |")
    return "\n".join(lines)


def to_json(results: dict[str, dict[str, Any]], rs: list[Ratio], args: argparse.Namespace) -> dict:
    """Machine-readable form of the report."""
    out: dict[str, Any] = {
        "python": sys.version,
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average_before": args.load_before,
        "load_average_after": _load(),
        "args": vars(args),
        "workloads": {},
        "ratios": [],
    }
    for key, row in results.items():
        wl = row["_workload"]
        out["workloads"][key] = {
            "name": wl.name,
            "bytes": wl.nbytes,
            "chunk_size": wl.chunk_size,
            "chunks": row["_chunks"],
            "contenders": {
                n: {"seconds": t.seconds, "note": t.note, "check": s, "runs": t.runs}
                for n, (t, s) in ((n, v) for n, v in row.items() if not n.startswith("_"))
            },
        }
        if "_base" in row:  # the 100 KB runs interleaved with these, for the doubling ratio
            out["workloads"][key]["interleaved_base_seconds"] = {
                n: t.seconds for n, t in row["_base"].items()
            }
    out["ratios"] = [vars(r) for r in rs]
    return out


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
    args.load_before = _load()
    print(f"measuring (load average {args.load_before}) ...", file=sys.stderr)
    results = run_all(repeats, budget, min_time)
    rs = ratios(results)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, best of {repeats}, "
        f"budget {budget:g} s per contender and workload, load average before "
        f"{args.load_before}, after {_load()}\n"
    )
    print(markdown(results, rs))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(to_json(results, rs, args), fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
