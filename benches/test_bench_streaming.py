"""pytest-benchmark view of bench_streaming.py's workloads (the full report is that script).

Not part of the test suite (``testpaths = ["tests"]``); run it on purpose:

    python -m pytest benches/test_bench_streaming.py --benchmark-only

jiter re-parsing is left out here: on the 100 KB documents one run takes seconds.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from bench_streaming import WORKLOADS, contenders, copy_floor

from jsondrip.bench.correctness import exact_equal
from jsondrip.bench.workloads import chunks

CASES = {key: spec for key, spec in WORKLOADS.items() if key != "records2x"}
CONTENDERS = contenders()


@pytest.mark.parametrize("workload", list(CASES))
@pytest.mark.parametrize("name", ["jsondrip-native", "jsondrip-python", "jsonriver"])
def test_stream(benchmark: Any, name: str, workload: str) -> None:
    """Read the value after every chunk; jsondrip's final value is json.loads's, type for type."""
    contender = CONTENDERS[name]
    if contender.missing:
        pytest.skip(contender.missing)
    title, make, size = CASES[workload]
    text = make()
    benchmark.group = title
    value = benchmark(contender.run, chunks(text, size))
    if name.startswith("jsondrip"):
        assert exact_equal(value, json.loads(text))


def test_copy_floor(benchmark: Any) -> None:
    """The floor for a long string read after every chunk: one str copy per chunk."""
    title, make, size = CASES["code"]
    benchmark.group = title
    benchmark(copy_floor, chunks(make(), size))
