"""The pictures: log-log time against document size (one figure per streaming workload, one
subplot per chunk size, one line per contender, with linear and quadratic guide slopes), and a
bar chart of one-shot ``loads`` throughput. matplotlib with the Agg backend (no display needed).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter

from .report import fmt_seconds
from .workloads import TITLES, size_label

__all__ = ["plot_all", "plot_loads", "plot_streaming"]

STYLE = {  # name: (colour, marker)
    "jsondrip-native": ("#1f4e9c", "o"),
    "jsondrip-python": ("#5fa8e8", "s"),
    "jsondrip": ("#1f4e9c", "o"),
    "jsonriver": ("#2ca02c", "^"),
    "streaming-json-parser": ("#17becf", "*"),
    "streaming-json-parser-native": ("#e377c2", "h"),
    "jiter": ("#d62728", "D"),
    "partial-json-parser": ("#ff7f0e", "v"),
    "partialjson": ("#9467bd", "P"),
    "json_repair": ("#8c564b", "X"),
    "orjson": ("#ff7f0e", "v"),
    "msgspec": ("#bcbd22", "P"),
    "ssrjson": ("#17becf", "*"),
    "yyjson": ("#e377c2", "h"),
    "pysimdjson": ("#8c564b", "d"),
    "json": ("#7f7f7f", "X"),
}
DPI = 120


def _style(name: str) -> tuple[str, str]:
    return STYLE.get(name, ("#000000", "*"))


def _size_ticks(ax: Any) -> None:
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: size_label(round(x))))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: _tick_seconds(y)))


def _tick_seconds(seconds: float) -> str:
    """Log-axis ticks: µs, ms, then whole seconds (hours would give ticks like 2.78 h)."""
    return fmt_seconds(seconds) if seconds < 1000 else f"{seconds:.0f} s"


def _guides(ax: Any, xs: list[float], ys: list[float]) -> None:
    """Dotted slopes 1 and 2 from the middle of the smallest size's points."""
    x0, x1 = min(xs), max(xs)
    at_x0 = [y for x, y in zip(xs, ys) if x == x0]
    y0 = math.exp(sum(map(math.log, at_x0)) / len(at_x0))
    for power, style in ((1, ":"), (2, "--")):
        ax.plot([x0, x1], [y0, y0 * (x1 / x0) ** power], style, color="#999999", lw=1, zorder=1)


def plot_streaming(results: dict[str, Any], workload: str, path: Path) -> Path:
    """One figure: time for the whole stream against document size, a subplot per chunk size."""
    rows = [r for r in results["streaming"] if r["workload"] == workload]
    chunk_sizes = sorted({r["chunk_size"] for r in rows})
    cols = 2 if len(chunk_sizes) > 1 else 1
    nrows = math.ceil(len(chunk_sizes) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(6 * cols, 4.3 * nrows + 1.2), squeeze=False)
    contenders = results["contenders"]["streaming"]
    for ax, chunk in zip(axes.flat, chunk_sizes):
        xs_all: list[float] = []
        ys_all: list[float] = []
        skipped: list[str] = []
        for c in contenders:
            mine = sorted(
                (r for r in rows if r["contender"] == c["name"] and r["chunk_size"] == chunk),
                key=lambda r: r["bytes"],
            )
            points = [r for r in mine if r["seconds"]]
            skipped += [f"{c['name']} at {size_label(r['size'])}" for r in mine if not r["seconds"]]
            if not points:
                continue
            colour, marker = _style(c["name"])
            xs, ys = [r["bytes"] for r in points], [r["seconds"] for r in points]
            ax.plot(xs, ys, "-", color=colour, lw=1.8, zorder=3)
            for r in points:
                hollow = r["status"] == "extrapolated"
                ax.plot(
                    r["bytes"],
                    r["seconds"],
                    marker,
                    color=colour,
                    markerfacecolor="white" if hollow else colour,
                    markersize=7,
                    zorder=4,
                )
            xs_all += xs
            ys_all += ys
        if xs_all:
            _guides(ax, xs_all, ys_all)
        ax.set_xscale("log")
        ax.set_yscale("log")
        _size_ticks(ax)
        ax.set_title(f"{chunk}-byte chunks", fontsize=11)
        ax.set_xlabel("document size (log scale)")
        ax.set_ylabel("time for the whole stream (log scale)")
        ax.grid(True, which="major", alpha=0.3)
        if skipped:
            ax.text(
                0.02,
                0.98,
                "not plotted (over the time budget):\n" + "\n".join(skipped),
                transform=ax.transAxes,
                va="top",
                fontsize=7.5,
                color="#555555",
            )
    for ax in list(axes.flat)[len(chunk_sizes) :]:
        ax.set_visible(False)
    fig.suptitle(
        f"Streaming {TITLES[workload]}: a value read after every chunk", fontsize=13, y=0.995
    )
    legend_rows = _legend(fig, contenders, guides=True)
    legend_height = (0.1 if nrows > 1 else 0.17) * legend_rows / 3
    fig.tight_layout(rect=(0, legend_height, 1, 0.97))
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def _legend(fig: Any, contenders: list[dict[str, Any]], guides: bool) -> int:
    """One legend under the plots: every contender (a missing one says so), then the guides;
    how many rows it takes. Three columns, so that long names and versions fit the width."""
    handles: list[Any] = []
    labels: list[str] = []
    for c in contenders:
        colour, marker = _style(c["name"])
        if c["missing"]:
            colour = "#cccccc"
        if not guides:  # bars
            handles.append(Patch(color=colour))
        else:
            handles.append(Line2D([], [], color=colour, marker=marker, lw=1.8))
        if c["missing"]:
            labels.append(f"{c['name']} ({c['missing']})")
            continue
        kind = (
            ""
            if "incremental" not in c
            else (", incremental" if c["incremental"] else ", re-parses")
        )
        labels.append(f"{c['name']} {c['version']}{kind}")
    if guides:
        handles += [
            Line2D([], [], ls=":", color="#999999"),
            Line2D([], [], ls="--", color="#999999"),
            Line2D([], [], ls="", marker="o", color="#444444", markerfacecolor="white"),
        ]
        labels += ["∝ size (linear)", "∝ size² (quadratic)", "hollow marker: extrapolated"]
    ncol = 3 if guides else min(4, len(handles))
    fig.legend(handles, labels, loc="lower center", ncol=ncol, fontsize=9, frameon=False)
    return math.ceil(len(handles) / ncol)


def plot_loads(results: dict[str, Any], path: Path) -> Path:
    """Grouped bars: one-shot ``loads`` throughput per document, a bar per contender."""
    rows = results["one_shot"]
    docs = list(dict.fromkeys(r["document"] for r in rows))
    contenders = results["contenders"]["one_shot"]
    fig, ax = plt.subplots(figsize=(max(8, 1.9 * len(docs) + 2), 5.6))
    width = 0.8 / max(1, len(contenders))
    for k, c in enumerate(contenders):
        colour, _ = _style(c["name"])
        xs, heights = [], []
        for i, doc in enumerate(docs):
            row = next(r for r in rows if r["document"] == doc and r["contender"] == c["name"])
            if row["seconds"]:
                xs.append(i + (k - (len(contenders) - 1) / 2) * width)
                heights.append(row["bytes"] / row["seconds"] / 1e6)
        ax.bar(xs, heights, width, color=colour, edgecolor="white", lw=0.5)
    ax.set_xticks(range(len(docs)))
    ax.set_xticklabels(
        [f"{d}\n{size_label(next(r['bytes'] for r in rows if r['document'] == d))}" for d in docs],
        fontsize=9,
    )
    ax.set_ylabel("throughput, MB/s (higher is faster)")
    ax.set_xlabel("document")
    ax.set_title("One-shot parsing: loads(bytes) of a whole document", fontsize=13)
    ax.grid(True, axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    legend_rows = _legend(fig, contenders, guides=False)
    fig.tight_layout(rect=(0, 0.045 * legend_rows + 0.02, 1, 1))
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def plot_all(results: dict[str, Any], out: Path) -> list[Path]:
    """Every picture of a run, written into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for workload in dict.fromkeys(r["workload"] for r in results["streaming"]):
        if workload != "small":
            paths.append(plot_streaming(results, workload, out / f"streaming-{workload}.png"))
    if results["one_shot"]:
        paths.append(plot_loads(results, out / "one-shot.png"))
    return paths
