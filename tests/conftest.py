"""Shared fixtures: every test that takes `backend` runs on both backends.

The native backend must have been built: a missing extension fails the native tests instead of
quietly testing the Python twin twice. Set JSONDRIP_BACKEND=python to test only the twin on
purpose (the native runs are then skipped, with that reason).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("JSONDRIP_CORPUS", ROOT.parent / "shared" / "corpus"))
ONLY_PYTHON = os.environ.get("JSONDRIP_BACKEND") == "python"


def corpus_dir(name: str) -> Path:
    """A folder of the shared corpus, or a skip that says how to point at it."""
    path = CORPUS / name
    if not path.is_dir():
        pytest.skip(f"corpus folder {path} not found: set JSONDRIP_CORPUS to the shared corpus")
    return path


@pytest.fixture(params=["native", "python"])
def backend(request: pytest.FixtureRequest) -> str:
    """The name of a parser backend; the native one must be importable."""
    name = request.param
    if name == "native":
        if ONLY_PYTHON:
            pytest.skip("JSONDRIP_BACKEND=python: testing the Python twin only, on purpose")
        import jsondrip

        assert "native" in jsondrip.available_backends(), (
            "the native extension jsondrip._native did not build or import; "
            "set JSONDRIP_BACKEND=python to test the Python twin alone"
        )
    return name
