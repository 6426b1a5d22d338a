"""`jsondrip bench`: a tiny run (a few seconds) must produce the tables, the raw figures and the
plots, report a peer that is not installed as such, and find jsondrip's values exact.

The run itself needs no plotting library; the tests that draw the plots (the whole command)
skip without matplotlib, which comes with the `bench` extra (`pip install ".[bench]"` from a clone).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import ONLY_PYTHON, need_module

from jsondrip.bench import report
from jsondrip.bench.correctness import extends, final_status
from jsondrip.bench.runner import PRESETS, Run
from jsondrip.bench.workloads import KB
from jsondrip.cli import main

# partialjson made unimportable, as on a machine without it
HIDDEN = ("partialjson", "partialjson.json_parser")
STREAMING = [
    "jsondrip-native",
    "jsondrip-python",
    "jsonriver",
    "streaming-json-parser",
    "streaming-json-parser-native",
    "jiter",
    "partial-json-parser",
    "partialjson",
    "json_repair",
]
ONE_SHOT = ["jsondrip", "orjson", "ssrjson", "jiter", "msgspec", "yyjson", "pysimdjson", "json"]
ROW_KEYS = {
    "workload",
    "size",
    "bytes",
    "chunk_size",
    "chunks",
    "contender",
    "status",
    "seconds",
    "note",
    "runs",
    "final",
    "final_detail",
    "retractions",
    "retractions_sampled",
    "pairs_checked",
    "pairs",
}


def _hide_partialjson(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in HIDDEN:
        monkeypatch.setitem(sys.modules, name, None)


@pytest.fixture(scope="module")
def results() -> Iterator[dict[str, Any]]:
    """One tiny run, with partialjson hidden.

    Its budget is generous: these tests assert what was measured and checked, and a loaded
    machine (or PyPy before its JIT warms up) must not turn jsondrip's rows into "skipped".
    """
    with pytest.MonkeyPatch.context() as monkeypatch:
        _hide_partialjson(monkeypatch)
        run = Run(replace(PRESETS["tiny"], budget=2.0))
        for step in run.steps():
            step.run()
        yield run.results()


def test_json_schema(results: dict[str, Any]) -> None:
    assert results["schema"] == "jsondrip-bench/1"
    assert {"jsondrip", "python", "cpus", "preset", "config", "seconds"} <= set(results["meta"])
    assert [c["name"] for c in results["contenders"]["streaming"]] == STREAMING
    assert [c["name"] for c in results["contenders"]["one_shot"]] == ONE_SHOT
    config = results["meta"]["config"]
    small_chunks = len({1, *config["chunk_sizes"]})  # the small call in 1-char chunks too
    cases = len(config["sizes"]) * len(config["chunk_sizes"]) * 2 + small_chunks
    assert len(results["streaming"]) == cases * len(STREAMING)
    for row in results["streaming"]:
        assert set(row) >= ROW_KEYS
        statuses = ["measured", "extrapolated", "skipped", "not installed", "error"]
        # the native contender of a pure-Python install (absent on purpose: conftest)
        statuses += ["not built"] if ONLY_PYTHON and row["contender"] == "jsondrip-native" else []
        assert row["status"] in statuses
        assert (row["seconds"] is not None) == (row["status"] in ("measured", "extrapolated"))
    for row in results["one_shot"]:
        assert {"document", "bytes", "contender", "status", "seconds", "final"} <= set(row)
    json.dumps(results)  # plain data


def test_jsondrip_exact_and_never_retracts(results: dict[str, Any]) -> None:
    skipped = "jsondrip-native" if ONLY_PYTHON else None  # absent on purpose (conftest)
    rows = [
        r for r in results["streaming"] if r["contender"] in ("jsondrip-native", "jsondrip-python")
    ]
    rows = [r for r in rows if r["contender"] != skipped]
    assert rows
    for row in rows:
        assert row["status"] in ("measured", "extrapolated"), row
        assert (row["final"], row["retractions"]) == ("exact", 0), row
    loads = [r for r in results["one_shot"] if r["contender"] == "jsondrip"]
    assert loads and all(r["final"] == "exact" for r in loads)


def test_missing_peer_reported(results: dict[str, Any]) -> None:
    described = {c["name"]: c for c in results["contenders"]["streaming"]}
    assert described["partialjson"]["missing"] == "not installed"
    rows = [r for r in results["streaming"] if r["contender"] == "partialjson"]
    assert rows and all(r["status"] == "not installed" and r["seconds"] is None for r in rows)


def test_tables_have_a_row_per_contender(results: dict[str, Any]) -> None:
    full = report.markdown(results)
    sizes = len(results["meta"]["config"]["sizes"])
    for name in STREAMING:
        # one row per size in each sized workload's table, one in the small call's
        assert full.count(f"| {name} |") == 2 * sizes + 1 + (name == "jiter"), name
    assert "| partialjson | 1 KB | not installed | - |" in full
    assert "exact · 0" in full
    summary = report.summary(results)
    for name in STREAMING + ONE_SHOT:
        assert f"| {name} |" in summary
    # every streaming column names its chunk size; the small call's is the README's (1 B)
    head = summary.splitlines()[0]
    assert re.findall(r"in (\d+) B chunks", head) == ["16", "16", "1"], head
    for name in ["jsondrip-python"] + ([] if ONLY_PYTHON else ["jsondrip-native"]):
        line = next(line for line in summary.splitlines() if line.startswith(f"| {name} |"))
        assert len(re.findall(r"\| exact · ~?0 ", line)) == 3, line  # ~: sampled pairs


def test_extends_and_final_status() -> None:
    assert extends({"a": "he"}, {"a": "hello", "b": [1]})
    assert not extends({"a": 1}, {"a": 12})  # a number that changed
    assert not extends({"a": "he"}, {"a": "ha"})
    assert not extends([1, 2], [1])
    assert not extends({"k": []}, ["k"])  # changed type
    assert final_status({"a": 1}, {"a": 1}) == ("exact", "")
    assert final_status({"a": 1.0}, {"a": 1})[0] == "types differ"
    assert final_status({"a": 2}, {"a": 1})[0] == "wrong"


def _png(path: Path) -> bool:
    return path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_command_writes_tables_json_and_plots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    need_module("matplotlib")  # in the bench extra
    _hide_partialjson(monkeypatch)
    smaller = replace(PRESETS["tiny"], sizes=(KB, 2 * KB), chunk_sizes=(64,))
    monkeypatch.setitem(PRESETS, "tiny", smaller)  # the run itself is tested above
    assert main(["bench", "--tiny", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "[1/" in captured.err and "wrote" in captured.err  # progress, then the files
    assert "| jsondrip-native |" in out and "| partialjson | not installed | - |" in out
    names = ["results.json", "results.md", "summary.md"]
    assert all((tmp_path / name).is_file() for name in names)
    for name in ["streaming-records.png", "streaming-code.png", "one-shot.png"]:
        assert _png(tmp_path / name), name
    data = json.loads((tmp_path / "results.json").read_text("utf-8"))
    assert data["meta"]["preset"] == "tiny"
    assert (tmp_path / "summary.md").read_text("utf-8") == out


def test_command_without_matplotlib_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["bench", "--tiny", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert 'from a clone, pip install ".[bench]"' in err and ".whl[bench]" in err
    assert not any(tmp_path.iterdir())
