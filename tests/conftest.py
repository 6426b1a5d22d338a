"""Shared fixtures: every test that takes `backend` runs on both backends.

The native backend must have been built: a missing extension fails the native tests instead of
quietly testing the Python twin twice. The native runs are skipped, with the reason, only when
that is on purpose: JSONDRIP_BACKEND=python, or an install of the pure-Python wheel (built
without Rust, `jsondrip._engine.BUILD == "pure"`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("JSONDRIP_CORPUS", ROOT.parent / "shared" / "corpus"))


def _why_no_native() -> str | None:
    """Why the native backend is absent on purpose, or None when it must be there."""
    from jsondrip import _engine

    if os.environ.get("JSONDRIP_BACKEND") == "python":
        return "JSONDRIP_BACKEND=python: testing the Python twin only, on purpose"
    if _engine.BUILD == "pure":
        return (
            "no native backend: this is jsondrip's pure-Python build (JSONDRIP_BUILD=pure, no "
            "Rust toolchain, or an interpreter pyo3 does not build for: docs/packaging.md)"
        )
    return None


#: Why the native runs are skipped, or None when the native backend must have been built.
NO_NATIVE = _why_no_native()
ONLY_PYTHON = NO_NATIVE is not None


def skip_unless_native() -> None:
    """Skip (saying why) where the native backend is absent on purpose; fail where it should be.

    For tests about the native backend alone; `backend` does this for the parametrised ones.
    """
    import jsondrip

    if NO_NATIVE is not None:
        pytest.skip(NO_NATIVE)
    assert "native" in jsondrip.available_backends(), (
        "the native extension jsondrip._native did not build or import; "
        "set JSONDRIP_BACKEND=python to test the Python twin alone"
    )


def corpus_dir(name: str) -> Path:
    """A folder of the shared corpus, or a skip that says how to point at it."""
    path = CORPUS / name
    if not path.is_dir():
        pytest.skip(f"corpus folder {path} not found: set JSONDRIP_CORPUS to the shared corpus")
    return path


def installed_backends() -> tuple[str, ...]:
    """The streaming backends a loop over both should run: the twin alone only where the
    native backend is absent on purpose (it must import otherwise)."""
    if NO_NATIVE is not None:
        return ("python",)
    skip_unless_native()
    return ("native", "python")


@pytest.fixture(params=["native", "python"])
def backend(request: pytest.FixtureRequest) -> str:
    """The name of a parser backend; the native one must be importable."""
    name = request.param
    if name == "native":
        skip_unless_native()
    return name
