"""pytest-benchmark view of the streaming workloads (the full report is bench_streaming.py).

Not part of the test suite (``testpaths = ["tests"]``); run it on purpose:

    python -m pytest benches/test_bench_streaming.py --benchmark-only

jiter re-parsing is left out here: on the 100 KB documents one run takes seconds.
"""

from __future__ import annotations

import json
from typing import Any

import contenders as c
import pytest
import workloads as w

WORKLOADS = {key: wl for key, wl in w.standard().items() if key != "records2x"}
CONTENDERS = {x.name: x for x in c.all_contenders() if not x.reparse}


@pytest.mark.parametrize("workload", list(WORKLOADS))
@pytest.mark.parametrize("name", ["jsondrip-native", "jsondrip-python", "jsonriver"])
def test_stream(benchmark: Any, name: str, workload: str) -> None:
    """Read the value after every chunk; the final value must be what json.loads gives."""
    contender = CONTENDERS[name]
    if contender.missing:
        pytest.skip(contender.missing)
    wl = WORKLOADS[workload]
    benchmark.group = wl.name
    value = benchmark(contender.run, wl.chunks)
    if name.startswith("jsondrip"):
        assert value == json.loads(wl.text)


def test_copy_floor(benchmark: Any) -> None:
    """The floor for a long string read after every chunk: one str copy per chunk."""
    wl = WORKLOADS["code"]
    benchmark.group = wl.name
    benchmark(c.copy_floor, wl.chunks)
