"""`jsondrip bench [--quick] [--out DIR]`: run the comparison, draw a progress bar while it runs,
then write the tables, the raw figures and the plots into DIR and print the summary table.

Only `argparse` is imported at module level: `jsondrip --help` imports this module to build the
subcommand's options, and must not pay for matplotlib or rich.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

__all__ = ["DESCRIPTION", "HELP", "configure", "run"]

HELP = "compare jsondrip with its peers, streaming and one-shot (needs the bench extra)"
DESCRIPTION = (
    "Time jsondrip and its peers (jsonriver, jiter, partial-json-parser, partialjson, json_repair; "
    "orjson, msgspec, json for one-shot loads) on streams read after every chunk and on whole "
    "documents, check every final value against json.loads, and write results.md, summary.md, "
    "results.json and PNG plots into --out. A peer that is not installed is reported as such."
)
INSTALL_HINT = (
    "the benchmark needs its extra (no release is published yet): from a clone, "
    'pip install ".[bench]"; from a built wheel, pip install "jsondrip-<version>-<tags>.whl[bench]"'
)


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of `jsondrip bench`."""
    parser.add_argument(
        "--quick",
        action="store_true",
        help="sizes up to 100 KB, chunks of 4 and 64 bytes, fewer repeats: under a minute "
        "(default: 1 KB to 1 MB, chunks of 1, 4, 16 and 64 bytes, several minutes)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        default="bench-results",
        help="where to write the tables, results.json and the plots (default: bench-results)",
    )
    parser.add_argument(
        "--budget",
        type=float,
        metavar="S",
        help="seconds of timing per contender and case, past which a run is sampled and "
        "extrapolated or skipped (default: 3, 0.25 with --quick)",
    )
    parser.add_argument(
        "--corpus",
        metavar="DIR",
        help="the shared corpus (its bench/ folder has the one-shot documents; default: "
        "$JSONDRIP_CORPUS or ../shared/corpus; without one, generated documents are used)",
    )
    parser.add_argument(
        "--schema",
        action="store_true",
        help="only the typed-streaming comparison: jsondrip with a schema against pydantic's "
        "allow_partial and instructor-style re-validation per chunk (needs pydantic and jiter)",
    )
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)  # for the tests


class _PlainProgress:
    """Progress as plain lines on stderr (not a terminal, or rich not installed)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0

    def __enter__(self) -> _PlainProgress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def step(self, label: str) -> None:
        self.done += 1
        print(f"[{self.done}/{self.total}] {label}", file=sys.stderr, flush=True)

    def advance(self) -> None:
        return None


class _RichProgress:
    """A rich progress bar on stderr: the step being measured, done/total, elapsed time."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}", style="bold"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
        )
        self.task = self.progress.add_task("measuring", total=total)

    def __enter__(self) -> _RichProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.progress.update(self.task, description="done")
        self.progress.__exit__(None, None, None)

    def step(self, label: str) -> None:
        self.progress.update(self.task, description=label.ljust(60)[:60])

    def advance(self) -> None:
        self.progress.advance(self.task)


def _progress(total: int) -> Any:
    """A progress bar on a terminal; plain lines in a log, or without rich."""
    if not sys.stderr.isatty():
        return _PlainProgress(total)
    try:
        return _RichProgress(total)
    except ImportError:
        return _PlainProgress(total)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark, write its files into `args.out`, print the summary table."""
    from ..cli.errors import UsageError, write_text

    if args.schema:
        from . import schema

        write_text(sys.stdout, schema.report(schema.measure(repeats=3)))
        return 0
    try:
        import matplotlib  # noqa: F401
    except ImportError as error:
        raise UsageError(INSTALL_HINT) from error
    from . import plots, report
    from .runner import PRESETS, Run, find_corpus

    config = PRESETS["tiny" if args.tiny else "quick" if args.quick else "full"]
    if args.budget is not None:
        if not args.budget > 0:
            raise UsageError(f"--budget must be a positive number of seconds, not {args.budget}")
        config = replace(config, budget=args.budget)
    corpus = find_corpus(args.corpus)
    if args.corpus and corpus is None:
        raise UsageError(f"no benchmark documents in {args.corpus}/bench")
    bench = Run(config, corpus)
    steps = bench.steps()
    with _progress(len(steps)) as progress:
        for step in steps:
            progress.step(step.label)
            step.run()
            progress.advance()
    results = bench.results()
    out = Path(args.out)
    written = report.write(results, out) + plots.plot_all(results, out)
    write_text(sys.stdout, report.summary(results))
    files = ", ".join(str(p) for p in written)
    write_text(sys.stderr, f"\n{config.name} run took {results['meta']['seconds']:.0f} s; ")
    write_text(sys.stderr, f"wrote {files}\n")
    return 0
