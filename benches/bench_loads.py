"""One-shot parsing: `jsondrip.loads` against orjson, ssrjson, jiter, msgspec, yyjson, pysimdjson
and json.

    python benches/bench_loads.py                 # 5 fresh processes, best of 5 each (6-9 min)
    python benches/bench_loads.py --processes 1   # this process only, best of 5 (~1.5 min)
    python benches/bench_loads.py --quick         # this process, best of 3, 0.02 s (~1 min)

The twelve classic documents of ../shared/corpus/bench (or $JSONDRIP_CORPUS/bench), each given
as `bytes` and as `str`. Every repeat times every contender once, in a rotated order, so that
all of them see the same machine load; the best of the repeats is kept. A measurement loops the
call until it lasts `min_time`, with the garbage collector on, as programs run (`--no-gc` turns
it off as `timeit` does; that hides the cost of collections that every parser triggers).

One process is one memory layout: which modules it imported, what it holds and where its heap
put things move one parser's time against another's by up to a third on some documents
(instruments.json as str read 0.73x to 1.06x orjson's time in fresh processes that differed
only in what they had imported), which no number of repeats inside the process averages out.
So by default the whole measurement runs in `--processes` fresh processes, one after the other,
each importing every contender, holding the 24 documents and checking every value, as a single
run does; a time in the table is the median over the processes of each one's best, and a ratio
is the median over the processes of the ratio measured inside each (the per-document verdict
never hinges on one layout). The processes' own ratios for jsondrip are printed too.

Contenders: `jsondrip.loads` (the default engine), `orjson.loads`, `ssrjson.loads`,
`jiter.from_json` (default cache; it takes bytes only, so the str runs include `s.encode()`),
`msgspec.json.decode`, `yyjson.loads` (the yyjson binding), `simdjson.loads` (pysimdjson) and
`json.loads`; a peer that is not installed is reported as such. Every contender's value is
compared with json.loads's before anything is timed: exactly (type for type) for jsondrip, by
equality for the others, whose differences are printed as notes (yyjson reads non-ASCII `bytes`
as Latin-1).

The table gives milliseconds per call and the ratio to orjson's time (lower is faster), the
geometric mean of those ratios per input kind, then the targets (GEOMEAN_VS_ORJSON,
GEOMEAN_VS_SSRJSON, EVERY_FILE_VS_ORJSON, FASTER_THAN_JITER, FASTER_THAN_JSON below) marked pass
or FAIL, for bytes and for str input. Timing is `jsondrip.bench.timing.clock`, the one
`jsondrip bench` uses.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from jsondrip.bench.targets import Target, verdict_line
from jsondrip.bench.timing import calls_for, clock

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("JSONDRIP_CORPUS", ROOT.parent / "shared" / "corpus"))
FILES = [
    "apache_builds.json",
    "canada.json",
    "citm_catalog.json",
    "github_events.json",
    "gsoc-2018.json",
    "instruments.json",
    "marine_ik.json",
    "mesh.json",
    "numbers.json",
    "random.json",
    "twitter.json",
    "update-center.json",
]
KINDS = ["bytes", "str"]
NAMES = ["jsondrip", "orjson", "ssrjson", "jiter", "msgspec", "yyjson", "pysimdjson", "json"]
# The default run (the figures in docs/loads.md): fresh processes, each one's best of repeats.
PROCESSES = 5
REPEATS = 5
MIN_TIME = 0.05

GEOMEAN_VS_ORJSON = Target(
    "geometric mean of jsondrip's time / orjson's",
    "a drop-in json.loads faster than the fastest one-shot parsers, over the twelve documents",
    hi=0.85,
)
GEOMEAN_VS_SSRJSON = Target(
    "jsondrip's geometric mean / ssrjson's (both against orjson)",
    "ahead of ssrjson (C, SIMD, orjson's key cache), the fastest peer on PyPI, in the same run",
    hi=1.0,
)
EVERY_FILE_VS_ORJSON = Target(
    "jsondrip's time / orjson's, the slowest file",
    "not slower than orjson on any document",
    hi=1.0,
)
FASTER_THAN_JITER = Target(
    "jiter's time / jsondrip's, on every file",
    "faster than the Rust parser the SDKs already use, document by document",
    lo=1.0,
)
FASTER_THAN_JSON = Target(
    "json.loads's time / jsondrip's, on every file",
    "the reason to switch from the standard library: at least twice as fast everywhere",
    lo=2.0,
)

sys.path.insert(0, str(ROOT / "tests"))
try:
    from _support import same  # exact, type-for-type comparison
except ImportError:  # run outside the checkout: fall back to plain equality
    same = None  # type: ignore[assignment]


@dataclass
class Contender:
    """A parser, or why it cannot run here."""

    name: str
    version: str
    parse: dict[str, Callable[[Any], Any]]  # by input kind
    missing: str | None = None


def contenders() -> list[Contender]:
    """Every contender, installed or not (a missing one is reported, never silently dropped)."""
    found: list[Contender] = []

    def add(name: str, module: str, make: Callable[[Any], dict[str, Callable[[Any], Any]]]) -> None:
        try:
            mod = importlib.import_module(module)
        except ImportError:
            found.append(Contender(name, "", {}, missing="not installed"))
            return
        if module == "json":
            version = f"(Python {platform.python_version()})"
        else:
            version = getattr(mod, "__version__", "") or _dist_version(name)
        found.append(Contender(name, version, make(mod)))

    def jsondrip_calls(mod: Any) -> dict[str, Callable[[Any], Any]]:
        return {"bytes": mod.loads, "str": mod.loads}

    def orjson_calls(mod: Any) -> dict[str, Callable[[Any], Any]]:
        return {"bytes": mod.loads, "str": mod.loads}

    def jiter_calls(mod: Any) -> dict[str, Callable[[Any], Any]]:
        from_json = mod.from_json

        def from_str(s: str) -> Any:
            return from_json(s.encode())

        return {"bytes": from_json, "str": from_str}

    def json_calls(mod: Any) -> dict[str, Callable[[Any], Any]]:
        return {"bytes": mod.loads, "str": mod.loads}

    def msgspec_calls(mod: Any) -> dict[str, Callable[[Any], Any]]:
        importlib.import_module("msgspec.json")
        return {"bytes": mod.json.decode, "str": mod.json.decode}

    def loads_calls(mod: Any) -> dict[str, Callable[[Any], Any]]:
        return {"bytes": mod.loads, "str": mod.loads}

    add("jsondrip", "jsondrip", jsondrip_calls)
    add("orjson", "orjson", orjson_calls)
    add("ssrjson", "ssrjson", loads_calls)
    add("jiter", "jiter", jiter_calls)
    add("msgspec", "msgspec", msgspec_calls)
    add("yyjson", "yyjson", loads_calls)
    add("pysimdjson", "simdjson", loads_calls)
    add("json", "json", json_calls)
    return found


def _dist_version(module: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(module)
    except PackageNotFoundError:
        return ""


def inputs() -> dict[tuple[str, str], Any]:
    """(file, kind) -> the document as bytes or as str."""
    folder = CORPUS / "bench"
    if not folder.is_dir():
        sys.exit(f"corpus folder {folder} not found: set JSONDRIP_CORPUS to the shared corpus")
    docs: dict[tuple[str, str], Any] = {}
    for name in FILES:
        data = (folder / name).read_bytes()
        docs[(name, "bytes")] = data
        docs[(name, "str")] = data.decode("utf-8")
    return docs


def check(contender: Contender, docs: dict[tuple[str, str], Any]) -> list[str]:
    """Problems with the contender's values: jsondrip must be json.loads's exactly."""
    problems = []
    for (name, kind), doc in docs.items():
        want = json.loads(doc)
        try:
            got = contender.parse[kind](doc)
        except Exception as exc:  # a peer that refuses a document is noted, not fatal
            problems.append(f"{contender.name} {name} ({kind}): {type(exc).__name__}: {exc}")
            continue
        exact = same is not None and contender.name == "jsondrip"
        equal = same(got, want) if exact else got == want
        if not equal:
            problems.append(f"{contender.name} {name} ({kind}): value differs from json.loads")
    return problems


def run(
    runnable: list[Contender],
    docs: dict[tuple[str, str], Any],
    repeats: int,
    min_time: float,
    keep_gc: bool,
) -> dict[tuple[str, str, str], float]:
    """Best seconds per call for (contender, file, kind); contenders interleaved per repeat."""
    best: dict[tuple[str, str, str], float] = {}
    for (name, kind), doc in docs.items():
        numbers = {c.name: _calls(c.parse[kind], doc, min_time, keep_gc) for c in runnable}
        for repeat in range(repeats):
            shift = repeat % len(runnable)
            for c in runnable[shift:] + runnable[:shift]:
                number = numbers[c.name]
                gc.collect()  # each starts from the same heap: the collections it triggers count
                seconds = clock(c.parse[kind], doc, number, keep_gc=keep_gc) / number
                key = (c.name, name, kind)
                best[key] = min(best.get(key, math.inf), seconds)
        print(f"  {name} ({kind}) done", file=sys.stderr)
    return best


def _calls(call: Callable[[Any], Any], doc: Any, min_time: float, keep_gc: bool) -> int:
    """How many calls make one measurement last ``min_time`` (from a warm second call)."""
    clock(call, doc, keep_gc=keep_gc)
    return calls_for(clock(call, doc, keep_gc=keep_gc), min_time)


def geomean(values: list[float]) -> float:
    """Geometric mean of positive numbers."""
    return math.exp(sum(math.log(v) for v in values) / len(values))


@dataclass
class Measured:
    """One process's run: its contenders, notes and best seconds per (contender, file, kind)."""

    versions: dict[str, str]  # contender -> version, for those timed
    missing: dict[str, str]  # contender -> why it was not timed
    problems: list[str]  # jsondrip's (each fails the run)
    notes: list[str]  # the peers' differences from json.loads
    engine: str
    best: dict[tuple[str, str, str], float]

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready form (a worker process hands it to the parent)."""
        fields = dict(self.__dict__)
        fields["best"] = [[*key, seconds] for key, seconds in self.best.items()]
        return fields

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Measured:
        """The inverse of `as_json`."""
        best = {(c, name, kind): seconds for c, name, kind, seconds in data.pop("best")}
        return cls(**data, best=best)


def measure(repeats: int, min_time: float, keep_gc: bool) -> Measured:
    """The whole measurement in this process: import every contender, hold every document,
    check every value, time every (contender, document, kind)."""
    import jsondrip

    docs = inputs()
    every = contenders()
    runnable = [c for c in every if not c.missing]
    found = {c.name: check(c, docs) for c in runnable}
    for c in runnable:  # a peer that raised on a document cannot be timed on it
        raised = [p for p in found[c.name] if "value differs" not in p]
        if raised and c.name != "jsondrip":
            c.missing = f"raised ({raised[0].split(': ', 1)[-1][:40]})"
    runnable = [c for c in runnable if not c.missing]
    best = run(runnable, docs, repeats, min_time, keep_gc)
    return Measured(
        versions={c.name: c.version for c in runnable},
        missing={c.name: c.missing for c in every if c.missing is not None},
        problems=found.get("jsondrip", ["jsondrip not installed"]),
        notes=[p for name, ps in found.items() if name != "jsondrip" for p in ps],
        engine=str(jsondrip._engine.resolve(None, streaming=False)),
        best=best,
    )


def in_fresh_processes(processes: int, worker_args: list[str]) -> list[Measured]:
    """`measure` run in `processes` new interpreters, one after the other (never at once:
    they would time each other's load)."""
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        for index in range(processes):
            out = Path(folder) / f"process-{index}.json"
            print(f"process {index + 1} of {processes}", file=sys.stderr)
            command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(out)]
            subprocess.run(command + worker_args, check=True)
            runs.append(Measured.from_json(json.loads(out.read_text())))
    return runs


class Medians:
    """Figures over several processes' runs: a time is the median of each run's best, a ratio
    the median of the ratios measured inside each run."""

    def __init__(self, runs: list[Measured]) -> None:
        self.runs = runs

    def seconds(self, contender: str, name: str, kind: str) -> float:
        """Median of the runs' best seconds per call."""
        return statistics.median(r.best[(contender, name, kind)] for r in self.runs)

    def ratios(self, a: str, b: str, name: str, kind: str) -> list[float]:
        """Each run's ratio of `a`'s time to `b`'s on a document."""
        return [r.best[(a, name, kind)] / r.best[(b, name, kind)] for r in self.runs]

    def ratio(self, a: str, b: str, name: str, kind: str) -> float:
        """Median of the runs' ratios of `a`'s time to `b`'s on a document."""
        return statistics.median(self.ratios(a, b, name, kind))


def report(runs: list[Measured]) -> tuple[str, bool]:
    """The Markdown table and the targets; True when every target passes."""
    first = runs[0]
    figures = Medians(runs)
    missing = dict(first.missing)
    for r in runs[1:]:  # a peer missing from any run is missing from the table
        missing.update({c: why for c, why in r.missing.items() if c not in missing})
    problems = sorted({p for r in runs for p in r.problems})
    lines = [
        "| file | input | " + " | ".join(NAMES) + " |",
        "|---|---|" + "---|" * len(NAMES),
    ]
    ratios: dict[tuple[str, str], list[float]] = {}
    for kind in KINDS:
        for name in FILES:
            cells = []
            for c in NAMES:
                if c in missing:
                    cells.append(missing[c])
                    continue
                cell = f"{figures.seconds(c, name, kind) * 1e3:.3f} ms"
                if "orjson" not in missing:
                    ratio = figures.ratio(c, "orjson", name, kind)
                    ratios.setdefault((c, kind), []).append(ratio)
                    cell += f" ({ratio:.2f}x)"
                cells.append(cell)
            lines.append(f"| {name} | {kind} | " + " | ".join(cells) + " |")
        gm = []
        for c in NAMES:
            values = ratios.get((c, kind))
            gm.append(f"**{geomean(values):.2f}x**" if values else missing.get(c, ""))
        lines.append(f"| geometric mean vs orjson | {kind} | " + " | ".join(gm) + " |")

    if len(runs) > 1 and "orjson" not in missing and "jsondrip" not in missing:
        lines += ["", f"jsondrip's time / orjson's in each of the {len(runs)} processes:", ""]
        lines.append("| file | input | " + " | ".join(f"{i + 1}" for i in range(len(runs))))
        lines[-1] += " | median | spread |"
        lines.append("|---|---|" + "---:|" * (len(runs) + 2))
        for kind in KINDS:
            for name in FILES:
                each = figures.ratios("jsondrip", "orjson", name, kind)
                cells = [f"{r:.2f}" for r in each]
                cells += [f"**{statistics.median(each):.2f}**", f"{max(each) - min(each):.2f}"]
                lines.append(f"| {name} | {kind} | " + " | ".join(cells) + " |")

    ok = not problems
    lines += ["", "Targets (jsondrip.loads):", ""]
    for kind in KINDS:
        checks: list[tuple[Target, float | None, str]] = []
        mean = None if "orjson" in missing else geomean(ratios[("jsondrip", kind)])
        checks.append((GEOMEAN_VS_ORJSON, mean, kind if mean is not None else f"{kind}: no orjson"))
        if mean is None or "ssrjson" in missing:
            checks.append((GEOMEAN_VS_SSRJSON, None, f"{kind}: ssrjson or orjson not installed"))
        else:
            ssr_mean = geomean(ratios[("ssrjson", kind)])
            note = f"{kind}; jsondrip {mean:.2f}x, ssrjson {ssr_mean:.2f}x orjson's time"
            checks.append((GEOMEAN_VS_SSRJSON, mean / ssr_mean, note))
        if mean is None:
            checks.append((EVERY_FILE_VS_ORJSON, None, f"{kind}: no orjson"))
        else:
            per_file = dict(zip(FILES, ratios[("jsondrip", kind)]))
            slowest = max(per_file, key=lambda n: per_file[n])
            note = f"{kind}, {slowest.removesuffix('.json')}"
            checks.append((EVERY_FILE_VS_ORJSON, per_file[slowest], note))
        for rival, target in (("jiter", FASTER_THAN_JITER), ("json", FASTER_THAN_JSON)):
            if rival in missing:
                checks.append((target, None, f"{kind}: {rival} not installed"))
                continue
            speedups = [figures.ratio(rival, "jsondrip", name, kind) for name in FILES]
            detail = ", ".join(
                f"{n.removesuffix('.json')} {s:.2f}x" for n, s in zip(FILES, speedups)
            )
            checks.append((target, min(speedups), f"{kind}, the slowest file; {detail}"))
        for target, value, note in checks:
            ok = ok and bool(target.met(value))
            lines.append(verdict_line(target, value, note))
    for problem in problems:
        lines.append(f"- FAIL: {problem}")
    return "\n".join(lines), ok


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "unknown"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table; exit status 1 when a target fails."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--processes",
        type=int,
        help=f"fresh processes to measure in, medians over them (default {PROCESSES}; quick 1)",
    )
    parser.add_argument("--quick", action="store_true", help="one process, best of 3, 0.02 s")
    parser.add_argument("--repeats", type=int, help=f"best of this many ({REPEATS}; quick 3)")
    parser.add_argument(
        "--min-time", type=float, help=f"seconds per measurement ({MIN_TIME}; quick 0.02)"
    )
    parser.add_argument(
        "--no-gc", dest="gc", action="store_false", help="turn the garbage collector off"
    )
    parser.add_argument("--worker", metavar="OUT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    processes = args.processes or (1 if args.quick else PROCESSES)
    repeats = args.repeats or (3 if args.quick else REPEATS)
    min_time = args.min_time or (0.02 if args.quick else MIN_TIME)

    if args.worker:  # one of the fresh processes: measure, hand the figures over, no table
        measured = measure(repeats, min_time, args.gc)
        Path(args.worker).write_text(json.dumps(measured.as_json()))
        return 0

    started, load_at_start = time.monotonic(), _load()
    if processes == 1:
        runs = [measure(repeats, min_time, args.gc)]
    else:
        worker_args = ["--repeats", str(repeats), "--min-time", str(min_time)]
        runs = in_fresh_processes(processes, worker_args + ([] if args.gc else ["--no-gc"]))
    minutes = (time.monotonic() - started) / 60

    first = runs[0]
    command = "python benches/bench_loads.py" + "".join(f" {a}" for a in (argv or sys.argv[1:]))
    where = "this process" if processes == 1 else f"the median of {processes} fresh processes"
    print(
        f"`{command}`: {where}, each the best of {repeats}, >= {min_time} s per measurement,"
        f" GC {'on' if args.gc else 'off'} while timed, Python {platform.python_version()}"
        f" on {platform.machine()}, {os.cpu_count()} CPUs, load average {load_at_start} at the"
        f" start and {_load()} at the end, {minutes:.1f} min"
    )
    versions = ", ".join(f"{c} {v}".strip() for c, v in first.versions.items())
    print(f"jsondrip engine: {first.engine}; versions: {versions}")
    for note in first.notes:
        print(f"note: {note}")
    print()
    table, ok = report(runs)
    print(table)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
