"""What a benchmark run measures (the presets) and the run itself, as a list of steps.

Each step is one contender on one streaming case (timed, then checked) or one document for every
one-shot contender (checked, then timed in rotated order, so every contender sees the same
machine load). The caller runs the steps (the CLI draws a progress bar while it does) and then
asks for the results: plain dicts, the schema of the JSON file (see ``report.py``).
"""

from __future__ import annotations

import gc
import json
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

from .._engine import available_backends
from .._version import __version__
from . import contenders as peers
from .correctness import check_stream, final_status
from .timing import best_time, calls_for, clock, measure_stream
from .workloads import KB, TITLES, Case, cases, code_text, records_text, size_label

__all__ = ["PRESETS", "Config", "Run", "Step", "find_corpus"]

SCHEMA = "jsondrip-bench/1"
CORPUS_FILES: tuple[str, ...] = ("twitter.json", "citm_catalog.json", "canada.json")
CORPUS_FILES += ("github_events.json", "numbers.json")


@dataclass(frozen=True)
class Config:
    """How much to measure and how long each measurement may take."""

    name: str
    sizes: tuple[int, ...]  # streaming document sizes, in bytes
    chunk_sizes: tuple[int, ...]  # characters per chunk
    budget: float  # seconds for one contender on one case (timing; the check gets as much)
    repeats: int  # best of this many measurements
    min_time: float  # a measurement loops a short run until it lasts this long
    copy_cap: int  # characters of snapshots a correctness check may copy
    corpus: bool = True  # one-shot on the corpus documents (else on generated ones)
    generated_size: int = 1000 * KB  # size of the generated one-shot documents


PRESETS = {
    "full": Config(
        "full", (KB, 10 * KB, 100 * KB, 1000 * KB), (1, 4, 16, 64), 3.0, 5, 0.05, 20_000_000
    ),
    "quick": Config("quick", (KB, 10 * KB, 100 * KB), (4, 64), 0.25, 3, 0.005, 2_000_000),
    "tiny": Config("tiny", (KB, 3 * KB), (16, 64), 0.05, 1, 0.001, 100_000, False, 20 * KB),
}


@dataclass(frozen=True)
class Step:
    """One unit of work: ``label`` for the progress bar, ``run()`` records its results."""

    label: str
    run: Callable[[], None]


def find_corpus(explicit: str | None = None) -> Path | None:
    """The corpus ``bench/`` folder: ``explicit``, ``$JSONDRIP_CORPUS``, or ``../shared/corpus``
    beside the current directory or beside a source checkout of jsondrip; None if none has it."""
    candidates = [Path(explicit)] if explicit else []
    if os.environ.get("JSONDRIP_CORPUS"):
        candidates.append(Path(os.environ["JSONDRIP_CORPUS"]))
    candidates.append(Path.cwd().parent / "shared" / "corpus")
    here = Path(__file__).resolve().parents
    if len(here) > 4:  # src/jsondrip/bench/ in a checkout: the corpus is beside the checkout
        candidates.append(here[4] / "shared" / "corpus")
    for folder in candidates:
        if all((folder / "bench" / name).is_file() for name in CORPUS_FILES):
            return folder / "bench"
    return None


def _load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except (OSError, AttributeError):  # not available on this platform
        return "unknown"


class Run:
    """One benchmark run: ``steps()`` to execute in order, then ``results()``."""

    def __init__(self, config: Config, corpus: Path | None = None) -> None:
        self.config = config
        self.corpus = corpus if config.corpus else None
        self.streaming = peers.streaming_contenders()
        self.one_shot = peers.loads_contenders()
        self.stream_rows: list[dict[str, Any]] = []
        self.loads_rows: list[dict[str, Any]] = []
        self.started = time.time()
        self.load_before = _load_average()

    def documents(self) -> list[tuple[str, bytes]]:
        """The one-shot documents: the corpus files, or generated ones when there is none."""
        if self.corpus is not None:
            return [(name, (self.corpus / name).read_bytes()) for name in CORPUS_FILES]
        size = self.config.generated_size
        return [
            (f"records {size_label(size)} (generated)", records_text(size).encode("utf-8")),
            (f"one long string {size_label(size)} (generated)", code_text(size).encode("utf-8")),
        ]

    def steps(self) -> list[Step]:
        """Every step of the run, streaming first."""
        out: list[Step] = []
        for case in cases(list(self.config.sizes), list(self.config.chunk_sizes)):
            size = size_label(case.size) if case.workload != "small" else f"{case.nbytes} B"
            for contender in self.streaming:
                label = f"{TITLES[case.workload]} {size}, {case.chunk_size} B chunks: "
                label += contender.name

                def run(case: Case = case, contender: peers.StreamContender = contender) -> None:
                    self._stream(case, contender)

                out.append(Step(label, run))
        for name, data in self.documents():

            def run_doc(name: str = name, data: bytes = data) -> None:
                self._loads(name, data)

            out.append(Step(f"one-shot loads: {name}", run_doc))
        return out

    def _stream(self, case: Case, contender: peers.StreamContender) -> None:
        cfg = self.config
        chunks = case.chunks
        timing = measure_stream(contender, chunks, cfg.repeats, cfg.budget, cfg.min_time)
        skip = "timing skipped: over budget" if timing.status == "skipped" else ""
        per_read = timing.seconds / len(chunks) if timing.seconds else None
        budget = cfg.budget
        if contender.incremental:  # its check reads the whole stream: give it the time
            budget = min(10 * budget, max(2.5 * budget, 3 * (timing.seconds or 0)))
        check = check_stream(contender, case, budget, cfg.copy_cap, per_read, skip)
        self.stream_rows.append(
            {
                "workload": case.workload,
                "title": TITLES[case.workload],
                "size": case.size,
                "bytes": case.nbytes,
                "chunk_size": case.chunk_size,
                "chunks": len(chunks),
                "contender": contender.name,
                **asdict(timing),
                "final": check.final,
                "final_detail": check.detail,
                "retractions": check.retractions,
                "retractions_sampled": check.sampled,
                "pairs_checked": check.pairs_checked,
                "pairs": check.pairs,
            }
        )

    def _loads(self, name: str, data: bytes) -> None:
        cfg = self.config
        gc.collect()  # once: the timings run with the collector off
        expected = json.loads(data)
        rows: dict[str, dict[str, Any]] = {}
        numbers: dict[str, int] = {}
        for c in self.one_shot:
            row: dict[str, Any] = {"document": name, "bytes": len(data), "contender": c.name}
            row["runs"] = 0
            row.update(status=c.missing or "measured", seconds=None, note="", final="not checked")
            row["final_detail"] = c.missing or ""
            rows[c.name] = row
            if c.missing:
                continue
            try:
                row["final"], row["final_detail"] = final_status(c.loads(data), expected)
                row["seconds"], _ = best_time(c.loads, data, 1, cfg.budget, cfg.min_time)
            except Exception as exc:  # a broken contender is reported, not fatal
                row.update(status="error", note=f"{type(exc).__name__}: {exc}")
                continue
            numbers[c.name] = calls_for(row["seconds"], cfg.min_time)
            row["runs"] = 1
        order = list(numbers)
        for r in range(cfg.repeats - 1):  # rotated: no contender always runs first
            for c_name in order[r % len(order) :] + order[: r % len(order)]:
                loads = next(c.loads for c in self.one_shot if c.name == c_name)
                seconds = clock(loads, data, numbers[c_name]) / numbers[c_name]
                row = rows[c_name]
                row["seconds"] = min(row["seconds"], seconds)
                row["runs"] += 1
        self.loads_rows += rows.values()

    def results(self) -> dict[str, Any]:
        """The run's figures and how they were taken (the JSON file's content)."""
        cfg = self.config
        return {
            "schema": SCHEMA,
            "meta": {
                "jsondrip": __version__,
                "backends": available_backends(),
                "python": platform.python_version(),
                "implementation": platform.python_implementation(),
                "platform": platform.platform(),
                "cpus": os.cpu_count(),
                "argv": sys.argv[1:],
                "preset": cfg.name,
                "config": asdict(cfg),
                "corpus": str(self.corpus) if self.corpus else None,
                "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.started)),
                "seconds": round(time.time() - self.started, 1),
                "load_average_before": self.load_before,
                "load_average_after": _load_average(),
            },
            "contenders": {
                "streaming": [_describe(c) for c in self.streaming],
                "one_shot": [_describe(c) for c in self.one_shot],
            },
            "streaming": self.stream_rows,
            "one_shot": self.loads_rows,
        }


def _describe(contender: Any) -> dict[str, Any]:
    out = {
        "name": contender.name,
        "label": contender.label,
        "api": contender.api,
        "version": contender.version,
        "missing": contender.missing,
    }
    if isinstance(contender, peers.StreamContender):
        out["incremental"] = contender.incremental
    return out
