"""The report: Markdown tables (every figure with its correctness check beside it) and the JSON
file of raw figures.

``results.json`` (schema ``jsondrip-bench/1``) holds ``meta`` (versions, machine, settings),
``contenders`` (name, API called, version, or why missing), ``streaming`` (one row per contender
and case: ``seconds`` for the whole stream and its ``status``, measured, extrapolated, skipped,
not installed or error, with a ``note`` saying how; ``final`` and ``retractions`` from the
correctness check) and ``one_shot`` (one row per contender and document).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .workloads import SMALL_CHUNK, TITLES, size_label

__all__ = ["LEGEND", "fmt_seconds", "markdown", "summary", "write"]

LEGEND = (
    "Time: the whole stream, a value read after every chunk (best of the repeats). "
    "`~` marks an extrapolated time: a re-parser's reads sampled (every m-th timed, the sum "
    "scaled by m) or an incremental parser timed on a prefix and projected; `skipped` means "
    "even a sample would run past the time budget. Check: the final value against `json.loads` "
    "(`exact` type for type, `types differ`, `wrong`), then how many reads retracted the read "
    "before them (`~`: estimated from sampled pairs of consecutive reads). "
    "Details of every figure are in `results.json`."
)


def fmt_seconds(seconds: float) -> str:
    """``0.0000123`` -> ``"12.3 µs"``, three significant digits, in µs, ms, s or h."""
    for unit, scale in (("h", 3600.0), ("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale or unit == "µs":
            value = seconds / scale
            return f"{value:.3g} {unit}" if value < 1000 else f"{value:.0f} {unit}"
    raise AssertionError("unreachable")


def _count(n: int) -> str:
    return str(n) if n < 1000 else f"{n / 1000:.1f}k"


class _Notes:
    """Numbered footnotes, each text once."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def ref(self, text: str) -> str:
        if text not in self.texts:
            self.texts.append(text)
        return f" [{self.texts.index(text) + 1}]"

    def lines(self) -> list[str]:
        # A code span: a path such as ['records'][0] is not Markdown's reference link.
        return [""] + [f"[{i}] `{t}`" for i, t in enumerate(self.texts, 1)] if self.texts else []


def time_cell(row: dict[str, Any]) -> str:
    """The time of a row, marked ``~`` when extrapolated, or why there is none."""
    status = row["status"]
    if status in ("measured", "extrapolated"):
        return ("~" if status == "extrapolated" else "") + fmt_seconds(row["seconds"])
    if status == "skipped":
        bound = row.get("predicted")
        return "skipped" + (f": > {fmt_seconds(bound)}" if bound else "")
    if status == "error":
        return "error: " + row["note"][:60]
    return status  # not installed, not built


def check_cell(row: dict[str, Any], notes: _Notes) -> str:
    """``exact · 0``: the final value's check and the retraction count (``~`` if sampled)."""
    final = row["final"]
    if final == "not checked" and row["status"] in ("not installed", "not built", "skipped"):
        return "-"
    text = final
    if final not in ("exact", "not checked") or (final == "not checked" and row["final_detail"]):
        text += notes.ref(f"{row['contender']}: {row['final_detail']}")
    retractions = row.get("retractions")
    if retractions is not None:
        if row.get("retractions_sampled"):
            text += f" · ~{_count(retractions)} ({row['pairs_checked']} pairs)"
        else:
            text += f" · {_count(retractions)}"
    return text


def _stream_table(rows: list[dict[str, Any]], chunk_sizes: list[int], notes: _Notes) -> list[str]:
    head = "| contender | size |" + "".join(f" {c} B chunks | check |" for c in chunk_sizes)
    lines = [head, "|---|---|" + "---:|---|" * len(chunk_sizes)]
    cells = {(r["contender"], r["size"], r["chunk_size"]): r for r in rows}
    contenders = list(dict.fromkeys(r["contender"] for r in rows))
    sizes = sorted({r["size"] for r in rows})
    for name in contenders:
        for size in sizes:
            line = f"| {name} | {size_label(size)} |"
            for chunk in chunk_sizes:
                row = cells.get((name, size, chunk))
                line += " - | - |" if row is None else f" {time_cell(row)} | "
                line += "" if row is None else f"{check_cell(row, notes)} |"
            lines.append(line)
    return lines


def _loads_table(rows: list[dict[str, Any]], notes: _Notes) -> list[str]:
    docs = list(dict.fromkeys(r["document"] for r in rows))
    sizes = {r["document"]: r["bytes"] for r in rows}
    head = "| contender |" + "".join(f" {d} ({size_label(sizes[d])}) |" for d in docs)
    lines = [head + " check |", "|---|" + "---:|" * len(docs) + "---|"]
    for name in dict.fromkeys(r["contender"] for r in rows):
        mine = [r for r in rows if r["contender"] == name]
        line = f"| {name} |" + "".join(f" {time_cell(r)} |" for r in mine)
        checked = [r for r in mine if r["final"] != "not checked"]
        exact = [r for r in checked if r["final"] == "exact"]
        if not checked:
            line += " - |"
        else:
            line += f" exact on {len(exact)} of {len(mine)}"
            # commas between the marks: `[1] [2]` would read as Markdown's reference link
            line += ",".join(
                notes.ref(f"{name} on {r['document']}: {r['final_detail']}")
                for r in checked
                if r["final"] != "exact"
            )
            line += " |"
        lines.append(line)
    return lines


def _header(results: dict[str, Any]) -> list[str]:
    m = results["meta"]
    cfg = m["config"]
    return [
        f"jsondrip {m['jsondrip']} (`{m['preset']}` run, {m['started']}, {m['seconds']:.0f} s): "
        f"{m['implementation']} {m['python']}, {m['cpus']} CPUs, {m['platform']}; "
        f"best of {cfg['repeats']}, time budget {cfg['budget']:g} s per contender and case; "
        f"load average {m['load_average_before']} before, {m['load_average_after']} after.",
        "",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in _versions(results).items()) + ".",
    ]


def _versions(results: dict[str, Any]) -> dict[str, str]:
    found: dict[str, str] = {}
    for c in results["contenders"]["streaming"] + results["contenders"]["one_shot"]:
        name = c["name"].split("-")[0] if c["name"].startswith("jsondrip") else c["name"]
        found.setdefault(name, c["version"] or c["missing"])
    return found


def markdown(results: dict[str, Any]) -> str:
    """Every figure of a run: one streaming table per workload, then the one-shot table."""
    lines = ["# jsondrip bench", "", *_header(results), "", LEGEND]
    rows = results["streaming"]
    for key in dict.fromkeys(r["workload"] for r in rows):
        notes = _Notes()
        mine = [r for r in rows if r["workload"] == key]
        chunk_sizes = sorted({r["chunk_size"] for r in mine})
        lines += ["", f"## Streaming: {TITLES[key]}", ""]
        lines += _stream_table(mine, chunk_sizes, notes) + notes.lines()
    if results["one_shot"]:
        notes = _Notes()
        lines += ["", "## One-shot `loads` (bytes in, time per call)", ""]
        lines += _loads_table(results["one_shot"], notes) + notes.lines()
    return "\n".join(lines) + "\n"


def summary(results: dict[str, Any]) -> str:
    """The README's table: each workload at one size and chunk size, then one-shot ``loads``."""
    rows = results["streaming"]
    chunk_sizes = sorted({r["chunk_size"] for r in rows if r["workload"] != "small"})
    chunk = 4 if 4 in chunk_sizes else chunk_sizes[0]
    sized = [r["size"] for r in rows if r["workload"] != "small"]
    size = 100_000 if 100_000 in sized else max(sized, default=0)
    picks: list[tuple[str, list[dict[str, Any]]]] = []
    for key in dict.fromkeys(r["workload"] for r in rows):
        want_chunk = SMALL_CHUNK if key == "small" else chunk
        mine = [r for r in rows if r["workload"] == key and r["chunk_size"] == want_chunk]
        mine = [r for r in mine if key == "small" or r["size"] == size]
        if mine:
            what = f"{mine[0]['bytes']} B" if key == "small" else size_label(size)
            picks.append((f"{TITLES[key]}, {what} in {want_chunk} B chunks", mine))
    notes = _Notes()
    lines = ["| contender |" + "".join(f" {title} | check |" for title, _ in picks)]
    lines.append("|---|" + "---:|---|" * len(picks))
    for name in dict.fromkeys(r["contender"] for r in rows):
        line = f"| {name} |"
        for _, mine in picks:
            row = next((r for r in mine if r["contender"] == name), None)
            line += " - | - |" if row is None else f" {time_cell(row)} | {check_cell(row, notes)} |"
        lines.append(line)
    lines += notes.lines()
    if results["one_shot"]:
        notes = _Notes()
        lines += ["", *_loads_table(results["one_shot"], notes), *notes.lines()]
    return "\n".join(lines) + "\n"


def write(results: dict[str, Any], out: Path) -> list[Path]:
    """Write ``results.json``, ``results.md`` (every figure) and ``summary.md`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "results.json", out / "results.md", out / "summary.md"]
    paths[0].write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", "utf-8")
    paths[1].write_text(markdown(results), "utf-8")
    paths[2].write_text(summary(results), "utf-8")
    return paths
