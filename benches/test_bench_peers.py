"""pytest-benchmark view of `jsondrip bench`: every peer, streaming and one-shot.

The contenders and workloads are the package's own (``jsondrip.bench``), so these figures and
the ones `jsondrip bench` reports measure the same calls. Not part of the test suite
(``testpaths = ["tests"]``); run it on purpose:

    python -m pytest benches/test_bench_peers.py --benchmark-only

The streaming documents are small (4 KB, 16-character chunks) so that the re-parsers, quadratic
in the stream's length, finish their rounds quickly; `jsondrip bench` draws how each grows.
A peer that is not installed is skipped with that reason.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from jsondrip.bench import contenders as peers
from jsondrip.bench.correctness import exact_equal
from jsondrip.bench.runner import CORPUS_FILES, find_corpus
from jsondrip.bench.workloads import KB, Case, code_text, records_text, small_text

CASES = {
    "records 4 KB": Case("records", 4 * KB, 16, records_text(4 * KB)),
    "one long string 4 KB": Case("code", 4 * KB, 16, code_text(4 * KB)),
    "small call": Case("small", 75, 1, small_text()),
}
STREAMING = {c.name: c for c in peers.streaming_contenders()}
ONE_SHOT = {c.name: c for c in peers.loads_contenders()}
CORPUS = find_corpus()


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("name", list(STREAMING))
def test_stream(benchmark: Any, name: str, case: str) -> None:
    """Read the value after every chunk; jsondrip's final value must be json.loads's exactly."""
    contender, workload = STREAMING[name], CASES[case]
    if contender.missing:
        pytest.skip(f"{name}: {contender.missing}")
    benchmark.group = f"stream: {case}, {workload.chunk_size}-character chunks"
    value = benchmark(contender.run, workload.chunks)
    if name.startswith("jsondrip"):
        assert exact_equal(value, json.loads(workload.text))


@pytest.mark.parametrize("document", list(CORPUS_FILES))
@pytest.mark.parametrize("name", list(ONE_SHOT))
def test_loads(benchmark: Any, name: str, document: str) -> None:
    """One-shot ``loads`` of a corpus document given as bytes."""
    contender = ONE_SHOT[name]
    if contender.missing:
        pytest.skip(f"{name}: {contender.missing}")
    if CORPUS is None:
        pytest.skip("corpus not found: set JSONDRIP_CORPUS to the shared corpus")
    data = (CORPUS / document).read_bytes()
    benchmark.group = f"loads: {document}"
    value = benchmark(contender.loads, data)
    if name == "jsondrip":
        assert exact_equal(value, json.loads(data))
